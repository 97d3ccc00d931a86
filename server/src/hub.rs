//! The live rooms: each room's state, its connections, and its flag timer.
//!
//! Every change goes the same way, under the room's lock: check it (pure,
//! [`Room`]), store it (the [`Store`] call returns once it is durable),
//! apply it, then send the new state to every connection of the room. So
//! nobody is told of a change that a `kill -9` could lose, and every
//! connection sees the changes of a room in one order.

use crate::event::{ClockSpec, Event, RoomSpec};
use crate::ids;
use crate::room::{Command, Joined, Millis, Room};
use crate::store::Store;
use crate::wire::{self, Presence, WireError};
use mollett::{Color, Variant};
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio::sync::mpsc;

/// Frames queued for one connection; a client this far behind is cut off
/// (it reconnects and gets the whole state again) rather than let the
/// queue grow without bound.
pub const QUEUE: usize = 64;

/// The wall clock in Unix milliseconds.
pub fn now_ms() -> Millis {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_millis() as Millis)
}

struct Conn {
    /// The token given in hello (or the one just made): the seat follows it
    /// through a rematch's colour swap.
    token: Option<String>,
    tx: mpsc::Sender<String>,
}

struct Live {
    room: Room,
    /// Events stored so far: the next event's number.
    seq: u64,
    conns: HashMap<u64, Conn>,
    timer: Option<tokio::task::AbortHandle>,
}

impl Live {
    fn seat(&self, conn: &Conn) -> Option<Color> {
        self.room.seat_of(conn.token.as_deref())
    }

    fn presence(&self) -> Presence {
        let mut p = Presence::default();
        for c in self.conns.values() {
            match self.seat(c) {
                Some(color) => p.online[color.index()] = true,
                None => p.spectators += 1,
            }
        }
        p
    }

    fn state_text(&self, now: Millis) -> String {
        wire::state(&self.room, self.presence(), now).to_string()
    }
}

/// A connection's handle in its room.
pub struct Joining {
    pub conn: u64,
    pub welcome: String,
}

pub struct Hub {
    rooms: Mutex<HashMap<String, Arc<Mutex<Live>>>>,
    store: Mutex<Box<dyn Store>>,
    next_conn: AtomicU64,
    me: Weak<Hub>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not take every room down with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn server_error(e: String) -> WireError {
    log::error!("{e}");
    WireError::new(
        "server-error",
        "the change could not be stored; nothing changed",
    )
}

impl Hub {
    /// The hub with every stored room rebuilt. Call inside the runtime
    /// (running clocks get their timers).
    pub fn load(mut store: Box<dyn Store>) -> Result<Arc<Hub>, String> {
        let stored = store.load_all()?;
        let now = now_ms();
        let hub = Arc::new_cyclic(|me| Hub {
            rooms: Mutex::new(HashMap::new()),
            store: Mutex::new(store),
            next_conn: AtomicU64::new(1),
            me: me.clone(),
        });
        let count = stored.len();
        for (spec, events) in stored {
            let mut room = Room::replay(spec, &events);
            room.resume_clock(now);
            let id = room.spec.id.clone();
            let live = Arc::new(Mutex::new(Live {
                room,
                seq: events.len() as u64,
                conns: HashMap::new(),
                timer: None,
            }));
            hub.arm_timer(&id, &mut lock(&live));
            lock(&hub.rooms).insert(id, live);
        }
        log::info!("{count} rooms loaded");
        Ok(hub)
    }

    fn live(&self, id: &str) -> Option<Arc<Mutex<Live>>> {
        lock(&self.rooms).get(id).cloned()
    }

    pub fn exists(&self, id: &str) -> bool {
        self.live(id).is_some()
    }

    /// Reads a room (for the HTTP answers); `None` when there is no such room.
    pub fn with_room<T>(&self, id: &str, f: impl FnOnce(&Room) -> T) -> Option<T> {
        let live = self.live(id)?;
        let live = lock(&live);
        Some(f(&live.room))
    }

    /// The `State` object of a room, as sent on the WebSocket.
    pub fn state(&self, id: &str) -> Option<String> {
        let live = self.live(id)?;
        let live = lock(&live);
        Some(live.state_text(now_ms()))
    }

    /// A new room whose creator takes `color` (`None`: a coin decides).
    /// Returns the room id, the creator's colour and its token.
    pub fn create(
        &self,
        variant: Variant,
        color: Option<Color>,
        clock: Option<ClockSpec>,
    ) -> Result<(String, Color, String), WireError> {
        let color = color.unwrap_or(if ids::coin() {
            Color::Black
        } else {
            Color::White
        });
        let now = now_ms();
        let spec = RoomSpec {
            id: ids::random_id(),
            variant,
            clock,
            created: now,
        };
        let token = ids::random_id();
        let seat = Event::Seat {
            color,
            token: token.clone(),
            at: now,
        };
        lock(&self.store)
            .create(&spec, std::slice::from_ref(&seat))
            .map_err(server_error)?;
        let id = spec.id.clone();
        let mut room = Room::new(spec);
        room.apply(&seat);
        let live = Live {
            room,
            seq: 1,
            conns: HashMap::new(),
            timer: None,
        };
        lock(&self.rooms).insert(id.clone(), Arc::new(Mutex::new(live)));
        Ok((id, color, token))
    }

    /// Stores and applies one event (under the room's lock).
    fn commit(&self, id: &str, live: &mut Live, event: &Event) -> Result<(), WireError> {
        lock(&self.store)
            .append(id, live.seq, event)
            .map_err(server_error)?;
        live.seq += 1;
        live.room.apply(event);
        Ok(())
    }

    /// Sends the state to every connection of the room but `except`, and
    /// re-arms the flag timer. Returns the state sent.
    fn publish(&self, id: &str, live: &mut Live, now: Millis, except: Option<u64>) -> String {
        let state = live.state_text(now);
        let mut gone = Vec::new();
        for (&n, c) in &live.conns {
            if Some(n) == except {
                continue;
            }
            let frame = wire::state_frame(&state, live.seat(c));
            if c.tx.try_send(frame).is_err() {
                gone.push(n);
            }
        }
        for n in gone {
            log::info!("room {id}: connection {n} too far behind, cut off");
            live.conns.remove(&n);
        }
        self.arm_timer(id, live);
        state
    }

    /// Applies a flag fall due at `now`, if any (before any request is checked).
    fn settle_clock(&self, id: &str, live: &mut Live, now: Millis) -> Result<bool, WireError> {
        match live.room.flag(now) {
            Some(flag) => self.commit(id, live, &flag).map(|_| true),
            None => Ok(false),
        }
    }

    /// A connection's hello: its seat (by token, or a free one) or a
    /// spectator's place. Its frames go to `tx`.
    pub fn connect(
        &self,
        id: &str,
        token: Option<String>,
        tx: mpsc::Sender<String>,
    ) -> Result<Joining, WireError> {
        let live = self
            .live(id)
            .ok_or_else(|| WireError::new("bad-message", "no such room"))?;
        let mut live = lock(&live);
        let now = now_ms();
        self.settle_clock(id, &mut live, now)?;
        let (token, fresh) = match live.room.join(token.as_deref(), ids::random_id(), now) {
            Joined::Seat(_) => (token, false),
            Joined::Take(event) => {
                self.commit(id, &mut live, &event)?;
                match event {
                    Event::Seat { token, .. } => (Some(token), true),
                    _ => unreachable!("join takes a seat"),
                }
            }
            Joined::Watch => (None, false),
        };
        let conn = self.next_conn.fetch_add(1, Ordering::Relaxed);
        let seat = live.room.seat_of(token.as_deref());
        live.conns.insert(
            conn,
            Conn {
                token: token.clone(),
                tx,
            },
        );
        // The others see the newcomer (a seat taken, someone online); the
        // newcomer gets the same state in its welcome.
        let state = self.publish(id, &mut live, now, Some(conn));
        let welcome = wire::welcome_frame(&state, seat, token.as_deref().filter(|_| fresh));
        Ok(Joining { conn, welcome })
    }

    /// A request from connection `conn`. On success every connection of the
    /// room (the sender too) gets the new state.
    pub fn command(&self, id: &str, conn: u64, cmd: Command) -> Result<(), WireError> {
        let live = self
            .live(id)
            .ok_or_else(|| WireError::new("bad-message", "no such room"))?;
        let mut live = lock(&live);
        let now = now_ms();
        if self.settle_clock(id, &mut live, now)? {
            self.publish(id, &mut live, now, None);
        }
        let actor = live.conns.get(&conn).and_then(|c| live.seat(c));
        let event = live.room.handle(actor, cmd, now)?;
        self.commit(id, &mut live, &event)?;
        self.publish(id, &mut live, now, None);
        Ok(())
    }

    /// The state frame for one connection (sent again after a `stale` error).
    pub fn state_for(&self, id: &str, conn: u64) -> Option<String> {
        let live = self.live(id)?;
        let live = lock(&live);
        let c = live.conns.get(&conn)?;
        Some(wire::state_frame(&live.state_text(now_ms()), live.seat(c)))
    }

    /// A connection closed: the others see the seat away (or one spectator fewer).
    pub fn disconnect(&self, id: &str, conn: u64) {
        if let Some(live) = self.live(id) {
            let mut live = lock(&live);
            if live.conns.remove(&conn).is_some() {
                self.publish(id, &mut live, now_ms(), None);
            }
        }
    }

    /// The flag timer fired: end the game if the time is really up.
    fn tick(&self, id: &str) {
        if let Some(live) = self.live(id) {
            let mut live = lock(&live);
            let now = now_ms();
            match self.settle_clock(id, &mut live, now) {
                Ok(true) => {
                    self.publish(id, &mut live, now, None);
                }
                Ok(false) => self.arm_timer(id, &mut live),
                // The store failed: try again shortly rather than lose the flag.
                Err(_) => self.arm_at(id, &mut live, now + 1000),
            }
        }
    }

    /// Schedules a [`Hub::tick`] for when the running clock falls.
    fn arm_timer(&self, id: &str, live: &mut Live) {
        match live.room.flag_due() {
            Some(due) => self.arm_at(id, live, due),
            None => {
                if let Some(t) = live.timer.take() {
                    t.abort();
                }
            }
        }
    }

    fn arm_at(&self, id: &str, live: &mut Live, due: Millis) {
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        let hub = self.me.clone();
        let id = id.to_string();
        let wait = Duration::from_millis(due.saturating_sub(now_ms()));
        let task = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Some(hub) = hub.upgrade() {
                hub.tick(&id);
            }
        });
        live.timer = Some(task.abort_handle());
    }
}
