//! The PostgreSQL [`Store`], shared by several nodes (`--db postgres://…`,
//! docs/rooms.md "Several nodes"). The tables are SQLite's, JSON text in
//! both; the schema is `server/migrations/postgres/`, applied at start.
//!
//! tokio-postgres runs on a thread of its own (a one-thread runtime that
//! drives the connections), and the store's calls block on its answers, as
//! the SQLite store blocks on its file: the hub calls the store under a
//! room's lock, and a second runtime means a call can never wait on a task
//! that waits for the very thread it blocks.
//!
//! Every event is written with its `NOTIFY` in one statement, so a node
//! hears of an event exactly when it is committed; a second connection
//! `LISTEN`s and hands the notices to the hub ([`Store::notices`]).

use crate::event::{Event, RoomSpec};
use crate::store::{AppendError, Notice, Store, StoredRoom};
use futures_executor::block_on;
use std::collections::HashMap;
use std::future::Future;
use tokio::runtime::Handle;
use tokio::sync::mpsc::{self, UnboundedReceiver, UnboundedSender};
use tokio::sync::oneshot;
use tokio_postgres::error::SqlState;
use tokio_postgres::{AsyncMessage, Client, NoTls, Statement};

/// The channel every node listens on.
const CHANNEL: &str = "mollett";

/// The schema, in order; each applied once, recorded in `mollett_migrations`.
const MIGRATIONS: &[(i32, &str)] = &[(1, include_str!("../migrations/postgres/0001_rooms.sql"))];

/// An advisory lock's key: nodes starting together migrate one at a time.
const MIGRATION_LOCK: i64 = 0x6d6f_6c6c_6574;

/// Rooms deleted by one [`Store::delete_unjoined`] call at most (as SQLite).
const DELETE_AT_ONCE: i64 = 500;

const APPEND: &str = "WITH ins AS (
        INSERT INTO events (room, seq, event) SELECT key, $2, $3 FROM rooms WHERE id = $1
        RETURNING room),
    joined AS (UPDATE rooms SET joined = true FROM ins WHERE $4 AND rooms.key = ins.room)
    SELECT pg_notify('mollett', $5) FROM ins";
const LOAD_SINCE: &str = "SELECT e.seq, e.event FROM events e JOIN rooms r ON r.key = e.room
    WHERE r.id = $1 AND e.seq >= $2 ORDER BY e.seq";
const NOTIFY: &str = "SELECT pg_notify('mollett', $1)";

pub struct PgStore {
    url: String,
    node: String,
    /// `None` after the connection was lost: made again on the next call.
    client: Option<Client>,
    statements: HashMap<&'static str, Statement>,
    runtime: Handle,
    notices: Option<UnboundedReceiver<Notice>>,
    /// Dropped with the store, which ends the runtime's thread.
    _stop: oneshot::Sender<()>,
}

fn err(e: tokio_postgres::Error) -> String {
    format!("database: {e}")
}

/// The runtime's thread: it drives the connections until the store is dropped.
fn runtime() -> Result<(Handle, oneshot::Sender<()>), String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("postgres".into())
        .spawn(move || {
            let rt = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(rt) => rt,
                Err(e) => return drop(tx.send(Err(e.to_string()))),
            };
            let (stop, stopped) = oneshot::channel::<()>();
            if tx.send(Ok((rt.handle().clone(), stop))).is_ok() {
                rt.block_on(async move {
                    let _ = stopped.await;
                });
            }
        })
        .map_err(|e| e.to_string())?;
    rx.recv().map_err(|e| e.to_string())?
}

impl PgStore {
    /// Connects to `url` (`postgres://USER@HOST:PORT/DB`), brings the
    /// schema up to date and starts listening to the other nodes.
    pub fn open(url: &str) -> Result<PgStore, String> {
        url.parse::<tokio_postgres::Config>()
            .map_err(|e| format!("{url}: {e}"))?;
        let (runtime, stop) = runtime()?;
        let node = crate::ids::random_id()[..12].to_string();
        let (tx, notices) = mpsc::unbounded_channel();
        let mut store = PgStore {
            url: url.to_string(),
            node,
            client: None,
            statements: HashMap::new(),
            runtime,
            notices: Some(notices),
            _stop: stop,
        };
        store.migrate().map_err(|e| format!("{url}: {e}"))?;
        // Not up before it hears the others: a notice sent before its
        // LISTEN (another node's answer to who is in a room) would be lost.
        let (ready, listening) = oneshot::channel();
        store.runtime.spawn(listen(store.url.clone(), tx, ready));
        let heard = store.run(async move {
            tokio::time::timeout(std::time::Duration::from_secs(10), listening).await
        });
        match heard {
            Ok(Ok(())) => Ok(store),
            _ => Err(format!(
                "{url}: could not LISTEN for the other nodes within 10 s"
            )),
        }
    }

    /// Runs `fut` on the store's runtime and waits for it.
    fn run<T: Send + 'static>(&self, fut: impl Future<Output = T> + Send + 'static) -> T {
        block_on(self.runtime.spawn(fut))
            .expect("the postgres runtime runs until the store is dropped")
    }

    /// The connection, made again if it was lost.
    fn client(&mut self) -> Result<&mut Client, String> {
        if self.client.as_ref().is_some_and(Client::is_closed) {
            log::warn!("database: the connection was lost; connecting again");
            self.client = None;
            self.statements.clear();
        }
        if self.client.is_none() {
            let url = self.url.clone();
            let (client, conn) = self
                .run(async move { tokio_postgres::connect(&url, NoTls).await })
                .map_err(err)?;
            self.runtime.spawn(async move {
                if let Err(e) = conn.await {
                    log::warn!("database: {e}");
                }
            });
            self.client = Some(client);
        }
        Ok(self.client.as_mut().expect("connected above"))
    }

    /// `sql` prepared once per connection.
    fn statement(&mut self, sql: &'static str) -> Result<Statement, String> {
        if let Some(st) = self.statements.get(sql) {
            if self.client.as_ref().is_some_and(|c| !c.is_closed()) {
                return Ok(st.clone());
            }
        }
        let st = block_on(self.client()?.prepare(sql)).map_err(err)?;
        self.statements.insert(sql, st.clone());
        Ok(st)
    }

    fn migrate(&mut self) -> Result<(), String> {
        let client = self.client()?;
        block_on(async {
            client
                .execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK])
                .await?;
            client
                .batch_execute(
                    "CREATE TABLE IF NOT EXISTS mollett_migrations (
                         version integer PRIMARY KEY,
                         applied timestamptz NOT NULL DEFAULT now())",
                )
                .await?;
            for &(version, sql) in MIGRATIONS {
                let tx = client.transaction().await?;
                let done = tx
                    .query_opt(
                        "SELECT 1 FROM mollett_migrations WHERE version = $1",
                        &[&version],
                    )
                    .await?
                    .is_some();
                if !done {
                    tx.batch_execute(sql).await?;
                    tx.execute(
                        "INSERT INTO mollett_migrations (version) VALUES ($1)",
                        &[&version],
                    )
                    .await?;
                    log::info!("database: schema migration {version} applied");
                }
                tx.commit().await?;
            }
            client
                .execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK])
                .await?;
            Ok::<_, tokio_postgres::Error>(())
        })
        .map_err(err)
    }

    fn events(rows: Vec<tokio_postgres::Row>, id: &str) -> Result<Vec<Event>, String> {
        rows.iter()
            .map(|r| {
                let (seq, text): (i64, &str) = (r.get(0), r.get(1));
                serde_json::from_str(text).map_err(|e| format!("room {id} event {seq}: {e}"))
            })
            .collect()
    }
}

/// The listening connection: every notice on [`CHANNEL`] to `tx`, connecting
/// again a second after it is lost (then [`Notice::Resync`]), until the hub
/// drops its end. `ready` is told once the first LISTEN holds.
async fn listen(url: String, tx: UnboundedSender<Notice>, ready: oneshot::Sender<()>) {
    let mut ready = Some(ready);
    let mut first = true;
    while !tx.is_closed() {
        match tokio_postgres::connect(&url, NoTls).await {
            Ok((client, mut conn)) => {
                let to_hub = tx.clone();
                let pump = tokio::spawn(async move {
                    while let Some(message) = std::future::poll_fn(|cx| conn.poll_message(cx)).await
                    {
                        match message {
                            Ok(AsyncMessage::Notification(n)) => {
                                match serde_json::from_str(n.payload()) {
                                    Ok(notice) => {
                                        if to_hub.send(notice).is_err() {
                                            return;
                                        }
                                    }
                                    Err(e) => log::warn!(
                                        "database: a notice not understood ({e}): {}",
                                        n.payload()
                                    ),
                                }
                            }
                            Ok(_) => {}
                            Err(e) => {
                                log::warn!("database: listening: {e}");
                                return;
                            }
                        }
                    }
                });
                match client.batch_execute(&format!("LISTEN {CHANNEL}")).await {
                    Ok(()) => {
                        if let Some(ready) = ready.take() {
                            let _ = ready.send(());
                        }
                        if !first && tx.send(Notice::Resync).is_err() {
                            return;
                        }
                        first = false;
                        let _ = pump.await;
                    }
                    Err(e) => {
                        log::warn!("database: LISTEN: {e}");
                        pump.abort();
                    }
                }
            }
            Err(e) => log::warn!("database: listening: {e}"),
        }
        tokio::time::sleep(std::time::Duration::from_secs(1)).await;
    }
}

impl Store for PgStore {
    fn create(&mut self, spec: &RoomSpec, events: &[Event]) -> Result<(), String> {
        let text = serde_json::to_string(spec).map_err(|e| e.to_string())?;
        let events = events
            .iter()
            .map(serde_json::to_string)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| e.to_string())?;
        let client = self.client()?;
        block_on(async {
            // One transaction: a room is never stored without its creator's seat.
            let tx = client.transaction().await?;
            let key: i64 = tx
                .query_one(
                    "INSERT INTO rooms (id, spec, created) VALUES ($1, $2, $3) RETURNING key",
                    &[&spec.id, &text, &(spec.created as i64)],
                )
                .await?
                .get(0);
            for (seq, e) in events.iter().enumerate() {
                tx.execute(
                    "INSERT INTO events (room, seq, event) VALUES ($1, $2, $3)",
                    &[&key, &(seq as i64), e],
                )
                .await?;
            }
            tx.commit().await
        })
        .map_err(err)
    }

    fn append(&mut self, id: &str, seq: u64, event: &Event) -> Result<(), AppendError> {
        let failed = |e: String| AppendError::Failed(e);
        let text = serde_json::to_string(event).map_err(|e| failed(e.to_string()))?;
        let notice = serde_json::to_string(&Notice::Event {
            node: self.node.clone(),
            room: id.to_string(),
            seq,
            event: event.clone(),
        })
        .map_err(|e| failed(e.to_string()))?;
        let seat = matches!(event, Event::Seat { .. });
        let st = self.statement(APPEND).map_err(failed)?;
        let client = self.client().map_err(failed)?;
        match block_on(client.execute(&st, &[&id, &(seq as i64), &text, &seat, &notice])) {
            Ok(1) => Ok(()),
            Ok(_) => Err(failed(format!("no room {id} in the database"))),
            Err(e) if e.code() == Some(&SqlState::UNIQUE_VIOLATION) => Err(AppendError::Taken),
            Err(e) => Err(failed(err(e))),
        }
    }

    fn load_all(&mut self) -> Result<Vec<StoredRoom>, String> {
        let client = self.client()?;
        let (rooms, events) = block_on(async {
            let rooms = client
                .query("SELECT key, spec FROM rooms ORDER BY key", &[])
                .await?;
            let events = client
                .query(
                    "SELECT room, seq, event FROM events ORDER BY room, seq",
                    &[],
                )
                .await?;
            Ok::<_, tokio_postgres::Error>((rooms, events))
        })
        .map_err(err)?;
        let mut index = HashMap::new();
        let mut out: Vec<StoredRoom> = Vec::with_capacity(rooms.len());
        for r in &rooms {
            let (key, text): (i64, &str) = (r.get(0), r.get(1));
            let spec: RoomSpec =
                serde_json::from_str(text).map_err(|e| format!("room {key}: {e}"))?;
            index.insert(key, out.len());
            out.push((spec, Vec::new()));
        }
        for r in &events {
            let (key, seq, text): (i64, i64, &str) = (r.get(0), r.get(1), r.get(2));
            let event: Event =
                serde_json::from_str(text).map_err(|e| format!("room {key} event {seq}: {e}"))?;
            // A room made between the two reads has events but no spec yet here.
            if let Some(&i) = index.get(&key) {
                out[i].1.push(event);
            }
        }
        Ok(out)
    }

    fn load(&mut self, id: &str) -> Result<Option<StoredRoom>, String> {
        let st = self.statement(LOAD_SINCE)?;
        let client = self.client()?;
        let (spec, rows) = block_on(async {
            let spec = client
                .query_opt("SELECT spec FROM rooms WHERE id = $1", &[&id])
                .await?;
            let rows = client.query(&st, &[&id, &0i64]).await?;
            Ok::<_, tokio_postgres::Error>((spec, rows))
        })
        .map_err(err)?;
        let Some(spec) = spec else {
            return Ok(None);
        };
        let spec: RoomSpec =
            serde_json::from_str(spec.get(0)).map_err(|e| format!("room {id}: {e}"))?;
        Ok(Some((spec, PgStore::events(rows, id)?)))
    }

    fn load_since(&mut self, id: &str, seq: u64) -> Result<Vec<Event>, String> {
        let st = self.statement(LOAD_SINCE)?;
        let client = self.client()?;
        let rows = block_on(client.query(&st, &[&id, &(seq as i64)])).map_err(err)?;
        PgStore::events(rows, id)
    }

    fn delete_unjoined(&mut self, created_before: u64) -> Result<Vec<String>, String> {
        let client = self.client()?;
        let rows = block_on(client.query(
            "DELETE FROM rooms WHERE key IN (SELECT key FROM rooms
                 WHERE NOT joined AND created < $1 LIMIT $2) RETURNING id",
            &[&(created_before as i64), &DELETE_AT_ONCE],
        ))
        .map_err(err)?;
        Ok(rows.iter().map(|r| r.get(0)).collect())
    }

    fn shared(&self) -> bool {
        true
    }

    fn node(&self) -> &str {
        &self.node
    }

    fn notices(&mut self) -> Option<UnboundedReceiver<Notice>> {
        self.notices.take()
    }

    fn announce(&mut self, notice: &Notice) -> Result<(), String> {
        let text = serde_json::to_string(notice).map_err(|e| e.to_string())?;
        let st = self.statement(NOTIFY)?;
        let client = self.client()?;
        block_on(client.execute(&st, &[&text]))
            .map(|_| ())
            .map_err(err)
    }
}
