//! The SQLite [`Store`]: one file, write-ahead log. A room is one row and
//! each event one row (JSON), so a move costs one small insert.
//!
//! `synchronous=NORMAL` with WAL: a committed insert is in the log file
//! before the call returns, so `kill -9` of the server loses nothing; only a
//! power cut or OS crash may lose the last commits (`--durable` is
//! `synchronous=FULL`, which survives those at the cost of an fsync a move).

use crate::event::{Event, RoomSpec};
use crate::store::{AppendError, Store, StoredRoom};
use rusqlite::{params, Connection, OptionalExtension};
use std::collections::HashMap;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

pub struct SqliteStore {
    db: Connection,
    /// Dropped with the store, which ends the checkpoint thread.
    #[allow(dead_code)]
    checkpoints: mpsc::Sender<()>,
}

fn err(e: rusqlite::Error) -> String {
    format!("database: {e}")
}

/// Rooms deleted by one [`Store::delete_unjoined`] call at most: the store
/// is held meanwhile, so a backlog (a flood of rooms a week ago) goes a
/// few hundred a sweep rather than stall every room's moves at once.
const DELETE_AT_ONCE: i64 = 500;

impl SqliteStore {
    /// Opens (or creates) the database file.
    pub fn open(path: &Path, durable: bool) -> Result<SqliteStore, String> {
        let db = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let sync = if durable { "FULL" } else { "NORMAL" };
        db.execute_batch(&format!(
            "PRAGMA journal_mode=WAL;
             PRAGMA synchronous={sync};
             PRAGMA busy_timeout=5000;
             PRAGMA wal_autocheckpoint=0;
             CREATE TABLE IF NOT EXISTS rooms (
                 key INTEGER PRIMARY KEY,
                 id TEXT NOT NULL UNIQUE,
                 spec TEXT NOT NULL);
             CREATE TABLE IF NOT EXISTS events (
                 room INTEGER NOT NULL REFERENCES rooms(key),
                 seq INTEGER NOT NULL,
                 event TEXT NOT NULL,
                 PRIMARY KEY (room, seq)) WITHOUT ROWID;"
        ))
        .map_err(|e| format!("{}: {e}", path.display()))?;
        add_joined(&db).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(SqliteStore {
            checkpoints: checkpoints(path)?,
            db,
        })
    }

    fn insert_event(&self, key: i64, seq: u64, event: &Event) -> Result<(), String> {
        let text = serde_json::to_string(event).map_err(|e| e.to_string())?;
        self.db
            .prepare_cached("INSERT INTO events (room, seq, event) VALUES (?1, ?2, ?3)")
            .and_then(|mut st| st.execute(params![key, seq as i64, text]))
            .map(|_| ())
            .map_err(err)
    }
}

/// Copies the write-ahead log into the database file once a second, on a
/// thread and connection of its own. SQLite's automatic checkpoint (off
/// above) would run inside a move's commit, fsyncs included, and stall every
/// room for tens of milliseconds on a busy disk. A passive checkpoint never
/// blocks the writer.
/// Pages in the write-ahead log past which it is emptied (about 16 MB).
const LOG_FRAMES: i64 = 4096;

fn checkpoints(path: &Path) -> Result<mpsc::Sender<()>, String> {
    let db = Connection::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (stop, stopped) = mpsc::channel::<()>();
    std::thread::Builder::new()
        .name("wal-checkpoint".into())
        .spawn(move || {
            while let Err(mpsc::RecvTimeoutError::Timeout) =
                stopped.recv_timeout(Duration::from_secs(1))
            {
                // (busy, frames in the log, frames copied)
                let pass = |mode: &str| {
                    db.query_row(&format!("PRAGMA wal_checkpoint({mode})"), [], |r| {
                        Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
                    })
                };
                match pass("PASSIVE") {
                    // Under steady writes a passive pass never catches up, so
                    // the log would only grow: once it is long, one blocking
                    // pass copies the little left since and empties it.
                    Ok((frames, _)) if frames > LOG_FRAMES => {
                        if let Err(e) = pass("TRUNCATE") {
                            log::warn!("checkpoint: {e}");
                        }
                    }
                    Ok(_) => {}
                    Err(e) => log::warn!("checkpoint: {e}"),
                }
            }
        })
        .map_err(|e| e.to_string())?;
    Ok(stop)
}

/// The rooms' `created` and `joined` columns (for deleting rooms nobody
/// joined without reading every room's events), added to a database made
/// before them and filled in from the specs and events once.
fn add_joined(db: &Connection) -> rusqlite::Result<()> {
    let has: bool = db
        .prepare("SELECT 1 FROM pragma_table_info('rooms') WHERE name = 'joined'")?
        .exists([])?;
    if !has {
        db.execute_batch(
            "BEGIN;
             ALTER TABLE rooms ADD COLUMN created INTEGER NOT NULL DEFAULT 0;
             ALTER TABLE rooms ADD COLUMN joined INTEGER NOT NULL DEFAULT 0;
             UPDATE rooms SET created = json_extract(spec, '$.created');
             UPDATE rooms SET joined = 1 WHERE (SELECT count(*) FROM events
                 WHERE events.room = rooms.key AND json_extract(event, '$.e') = 'seat') > 1;
             COMMIT;",
        )?;
    }
    db.execute_batch(
        "CREATE INDEX IF NOT EXISTS rooms_unjoined ON rooms (created) WHERE joined = 0;",
    )
}

impl Store for SqliteStore {
    fn create(&mut self, spec: &RoomSpec, events: &[Event]) -> Result<(), String> {
        let text = serde_json::to_string(spec).map_err(|e| e.to_string())?;
        // One transaction: a room is never stored without its creator's seat.
        let tx = self.db.unchecked_transaction().map_err(err)?;
        tx.execute(
            "INSERT INTO rooms (id, spec, created) VALUES (?1, ?2, ?3)",
            params![spec.id, text, spec.created as i64],
        )
        .map_err(err)?;
        let key = tx.last_insert_rowid();
        for (seq, e) in events.iter().enumerate() {
            self.insert_event(key, seq as u64, e)?;
        }
        tx.commit().map_err(err)?;
        Ok(())
    }

    fn append(&mut self, id: &str, seq: u64, event: &Event) -> Result<(), AppendError> {
        let failed = |e: rusqlite::Error| AppendError::Failed(err(e));
        // Events carry the room's small row key, not its 32-character id;
        // the id is looked up in its index here rather than kept in a map
        // that would grow with every room ever made.
        let text = serde_json::to_string(event).map_err(|e| AppendError::Failed(e.to_string()))?;
        // A seat taken after the creator's is the room's second player: it
        // is marked joined in the same transaction, so it is never deleted.
        let tx = self.db.unchecked_transaction().map_err(failed)?;
        let n = match tx
            .prepare_cached(
                "INSERT INTO events (room, seq, event) SELECT key, ?2, ?3 FROM rooms WHERE id = ?1",
            )
            .and_then(|mut st| st.execute(params![id, seq as i64, text]))
        {
            Ok(n) => n,
            // The (room, seq) key: that event number is taken.
            Err(rusqlite::Error::SqliteFailure(e, _))
                if e.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_PRIMARYKEY =>
            {
                return Err(AppendError::Taken)
            }
            Err(e) => return Err(failed(e)),
        };
        if n != 1 {
            return Err(AppendError::Failed(format!("no room {id} in the database")));
        }
        if matches!(event, Event::Seat { .. }) {
            tx.prepare_cached("UPDATE rooms SET joined = 1 WHERE id = ?1")
                .and_then(|mut st| st.execute([id]))
                .map_err(failed)?;
        }
        tx.commit().map_err(failed)
    }

    fn load_since(&mut self, id: &str, seq: u64) -> Result<Vec<Event>, String> {
        let mut st = self
            .db
            .prepare_cached(
                "SELECT seq, event FROM events WHERE room = (SELECT key FROM rooms WHERE id = ?1)
                 AND seq >= ?2 ORDER BY seq",
            )
            .map_err(err)?;
        let rows = st
            .query_map(params![id, seq as i64], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(err)?;
        let mut events = Vec::new();
        for row in rows {
            let (seq, text) = row.map_err(err)?;
            events.push(
                serde_json::from_str(&text).map_err(|e| format!("room {id} event {seq}: {e}"))?,
            );
        }
        Ok(events)
    }

    fn delete_unjoined(&mut self, created_before: u64) -> Result<Vec<String>, String> {
        let tx = self.db.unchecked_transaction().map_err(err)?;
        let rooms = {
            let mut st = tx
                .prepare_cached(
                    "SELECT key, id FROM rooms WHERE joined = 0 AND created < ?1 LIMIT ?2",
                )
                .map_err(err)?;
            let rows = st
                .query_map(params![created_before as i64, DELETE_AT_ONCE], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                })
                .map_err(err)?;
            rows.collect::<Result<Vec<_>, _>>().map_err(err)?
        };
        for (key, _) in &rooms {
            tx.execute("DELETE FROM events WHERE room = ?1", [key])
                .map_err(err)?;
            tx.execute("DELETE FROM rooms WHERE key = ?1", [key])
                .map_err(err)?;
        }
        tx.commit().map_err(err)?;
        Ok(rooms.into_iter().map(|(_, id)| id).collect())
    }

    fn load(&mut self, id: &str) -> Result<Option<StoredRoom>, String> {
        let row = self
            .db
            .prepare_cached("SELECT key, spec FROM rooms WHERE id = ?1")
            .and_then(|mut st| {
                st.query_row([id], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                    .optional()
            })
            .map_err(err)?;
        let Some((key, text)) = row else {
            return Ok(None);
        };
        let spec: RoomSpec = serde_json::from_str(&text).map_err(|e| format!("room {key}: {e}"))?;
        let events = self.load_since(id, 0)?;
        Ok(Some((spec, events)))
    }

    fn load_all(&mut self) -> Result<Vec<StoredRoom>, String> {
        let mut rooms: Vec<(i64, StoredRoom)> = Vec::new();
        let mut index = HashMap::new();
        {
            let mut st = self
                .db
                .prepare("SELECT key, spec FROM rooms ORDER BY key")
                .map_err(err)?;
            let rows = st
                .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?)))
                .map_err(err)?;
            for row in rows {
                let (key, text) = row.map_err(err)?;
                let spec: RoomSpec =
                    serde_json::from_str(&text).map_err(|e| format!("room {key}: {e}"))?;
                index.insert(key, rooms.len());
                rooms.push((key, (spec, Vec::new())));
            }
        }
        let mut st = self
            .db
            .prepare("SELECT room, seq, event FROM events ORDER BY room, seq")
            .map_err(err)?;
        let rows = st
            .query_map([], |r| {
                Ok((
                    r.get::<_, i64>(0)?,
                    r.get::<_, i64>(1)?,
                    r.get::<_, String>(2)?,
                ))
            })
            .map_err(err)?;
        for row in rows {
            let (key, seq, text) = row.map_err(err)?;
            let event: Event =
                serde_json::from_str(&text).map_err(|e| format!("room {key} event {seq}: {e}"))?;
            let &i = index
                .get(&key)
                .ok_or_else(|| format!("event of unknown room {key}"))?;
            rooms[i].1 .1.push(event);
        }
        Ok(rooms.into_iter().map(|(_, r)| r).collect())
    }
}
