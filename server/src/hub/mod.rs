//! The live rooms: each room's state, its connections, and its flag timer.
//!
//! Every change goes the same way, under the room's lock: check it (pure,
//! [`Room`]), store it (the [`Store`] call returns once it is durable),
//! apply it, then send the new state to every connection of the room. So
//! nobody is told of a change that a `kill -9` could lose, and every
//! connection sees the changes of a room in one order.
//!
//! The database is the truth and memory a cache (lila-ws): a room with
//! nobody in it and no clock running is let go after a while and read
//! back on the next request for it.
//!
//! Several nodes may share one store ([`nodes`]): each event is stored under
//! its `(room, seq)` key, so of two nodes deciding the same event number the
//! second is refused, reads the room again and decides anew; the events the
//! others commit, and who they hold in each room, arrive as
//! [`crate::store::Notice`]s.

mod nodes;
mod requests;
mod sweep;
mod timers;
pub use nodes::{HEARTBEAT, NODE_TIMEOUT};

use crate::event::{ClockSpec, Event, RoomSpec};
use crate::ids;
use crate::limits::{Buckets, Limits};
use crate::room::{Millis, Room};
use crate::store::{AppendError, Store};
use crate::wire::{self, Presence, WireError};
use mollett::rooms::wire::State;
use mollett::{Color, Variant};
use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};
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
    /// Sends a state when a seat's claim becomes available.
    claim_timer: Option<tokio::task::AbortHandle>,
    /// Someone came or went since the last state sent, and a send of the
    /// presence is scheduled.
    presence_due: bool,
    /// When a request last touched the room (for letting it go).
    touched: Instant,
    /// Let go from memory: whoever still holds this copy must look again.
    gone: bool,
    /// The other nodes' connections in the room, by node (a shared store).
    remote: HashMap<String, Presence>,
    /// This node's connections as last told to the others.
    announced: Presence,
}

impl Live {
    /// A room just read or made, nobody connected yet: its taken seats are
    /// away from now.
    fn new(mut room: Room, seq: u64, limits: &Limits) -> Live {
        room.claim_after = limits.claim_after.as_millis() as Millis;
        let mut live = Live {
            room,
            seq,
            conns: HashMap::new(),
            timer: None,
            claim_timer: None,
            presence_due: false,
            touched: Instant::now(),
            gone: false,
            remote: HashMap::new(),
            announced: Presence::default(),
        };
        live.mark_away(now_ms());
        live
    }

    /// Brings the room's `away_since` up to date with the connections: a
    /// taken seat with none is away (since `now` if it was not already).
    fn mark_away(&mut self, now: Millis) {
        let online = self.presence().online;
        for c in [Color::Black, Color::White] {
            let i = c.index();
            let away = &mut self.room.away_since[i];
            if online[i] || self.room.seats[i].is_none() {
                *away = None;
            } else if away.is_none() {
                *away = Some(now);
            }
        }
    }

    fn seat(&self, conn: &Conn) -> Option<Color> {
        self.room.seat_of(conn.token.as_deref())
    }

    /// Who is connected to this node.
    fn local_presence(&self) -> Presence {
        let mut p = Presence::default();
        for c in self.conns.values() {
            match self.seat(c) {
                Some(color) => p.online[color.index()] = true,
                None => p.spectators += 1,
            }
        }
        p
    }

    /// Who is connected to any node.
    fn presence(&self) -> Presence {
        let mut p = self.local_presence();
        for r in self.remote.values() {
            for i in 0..2 {
                p.online[i] |= r.online[i];
            }
            p.spectators += r.spectators;
        }
        p
    }

    fn state(&self, now: Millis) -> State {
        wire::state(&self.room, self.presence(), now)
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
    /// The store is shared with other nodes; this node's name among them.
    shared: bool,
    node: String,
    /// The other nodes, and when each was last heard from.
    nodes: Mutex<HashMap<String, Instant>>,
    /// Rooms not in memory that other nodes wrote lately: the event count
    /// each notice named, and when (a room read just then catches up).
    recent: Mutex<HashMap<String, (u64, Instant)>>,
    next_conn: AtomicU64,
    limits: Limits,
    /// Rooms made, by address (`limits.rooms_burst`, `limits.room_every`).
    makers: Buckets,
    me: Weak<Hub>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not take every room down with it.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// Why a change was not made.
enum Refused {
    /// Told to the one who asked.
    Wire(WireError),
    /// Another node stored that event number first; this node's copy of
    /// the room has been brought up to date, so the request is decided anew.
    Behind,
}

impl From<WireError> for Refused {
    fn from(e: WireError) -> Refused {
        Refused::Wire(e)
    }
}

impl From<crate::room::RoomError> for Refused {
    fn from(e: crate::room::RoomError) -> Refused {
        Refused::Wire(e.into())
    }
}

/// Times a request is decided anew after other nodes' events overtook it.
const RETRIES: usize = 4;

/// Runs `attempt` until no other node's event overtakes it.
fn retrying<T>(mut attempt: impl FnMut() -> Option<Result<T, Refused>>) -> Result<T, WireError> {
    for _ in 0..RETRIES {
        match attempt() {
            None => return Err(WireError::new("bad-message", "no such room")),
            Some(Ok(t)) => return Ok(t),
            Some(Err(Refused::Wire(e))) => return Err(e),
            Some(Err(Refused::Behind)) => continue,
        }
    }
    Err(WireError::new(
        "server-error",
        "the room changed on other servers as this was decided; nothing changed",
    ))
}

fn server_error(e: String) -> WireError {
    log::error!("{e}");
    WireError::new(
        "server-error",
        "the change could not be stored; nothing changed",
    )
}

impl Hub {
    /// The hub with the default limits ([`Hub::load_with`]).
    pub fn load(store: Box<dyn Store>) -> Result<Arc<Hub>, String> {
        Hub::load_with(store, Limits::default())
    }

    /// The hub, with the stored rooms whose clock was running rebuilt (they
    /// need their flag timers; the others are read when asked for). Call
    /// inside the runtime: it starts the timers and the sweep.
    pub fn load_with(mut store: Box<dyn Store>, limits: Limits) -> Result<Arc<Hub>, String> {
        let stored = store.load_all()?;
        let now = now_ms();
        let shared = store.shared();
        let node = store.node().to_string();
        let notices = store.notices();
        let hub = Arc::new_cyclic(|me| Hub {
            rooms: Mutex::new(HashMap::new()),
            store: Mutex::new(store),
            shared,
            node,
            nodes: Mutex::new(HashMap::new()),
            recent: Mutex::new(HashMap::new()),
            next_conn: AtomicU64::new(1),
            makers: Buckets::new(limits.rooms_burst, limits.room_every),
            limits,
            me: me.clone(),
        });
        let count = stored.len();
        let mut running = 0;
        for (spec, events) in stored {
            let mut room = Room::replay(spec, &events);
            if room.flag_due().is_none() {
                continue;
            }
            running += 1;
            // Alone, the server was down and nobody could move: that time
            // is not charged. Shared, the game went on on the other nodes.
            if !hub.shared {
                room.resume_clock(now);
            }
            let id = room.spec.id.clone();
            let live = Arc::new(Mutex::new(Live::new(
                room,
                events.len() as u64,
                &hub.limits,
            )));
            hub.arm_timer(&id, &mut lock(&live));
            lock(&hub.rooms).insert(id, live);
        }
        log::info!("{count} rooms stored, {running} with a running clock");
        if let Some(notices) = notices {
            log::info!("node {} of a shared store", hub.node);
            hub.listen(notices);
        }
        let sweeper = Arc::downgrade(&hub);
        let every = hub.limits.sweep_every;
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(every).await;
                match sweeper.upgrade() {
                    Some(hub) => hub.sweep(),
                    None => return,
                }
            }
        });
        Ok(hub)
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The room if it is in memory (timers and leaving connections: a room
    /// let go has neither).
    fn cached(&self, id: &str) -> Option<Arc<Mutex<Live>>> {
        lock(&self.rooms).get(id).cloned()
    }

    /// The room, read from the database when it is not in memory.
    fn live(&self, id: &str) -> Option<Arc<Mutex<Live>>> {
        if let Some(live) = self.cached(id) {
            return Some(live);
        }
        let stored = lock(&self.store).load(id);
        let (spec, events) = match stored {
            Ok(Some(r)) => r,
            Ok(None) => return None,
            Err(e) => {
                log::error!("room {id}: {e}");
                return None;
            }
        };
        // Not resumed: its clock, if any, was stopped when it was let go.
        let room = Room::replay(spec, &events);
        let fresh = Arc::new(Mutex::new(Live::new(
            room,
            events.len() as u64,
            &self.limits,
        )));
        // Another request may have read it meanwhile: one copy wins. A
        // notice of another node's event that came while it was read is
        // in `recent` (looked at under the same lock as the rooms).
        let (live, behind) = {
            let mut rooms = lock(&self.rooms);
            match rooms.entry(id.to_string()) {
                std::collections::hash_map::Entry::Occupied(e) => (e.get().clone(), None),
                std::collections::hash_map::Entry::Vacant(e) => {
                    let behind = lock(&self.recent).remove(id).map(|(n, _)| n);
                    (e.insert(fresh).clone(), Some(behind))
                }
            }
        };
        if let Some(behind) = behind {
            self.read_back(id, &live, behind);
        }
        Some(live)
    }

    /// Runs `f` on the room under its lock, read back first if it was let go.
    fn with_live<T>(&self, id: &str, f: impl FnOnce(&mut Live) -> T) -> Option<T> {
        loop {
            let live = self.live(id)?;
            let mut live = lock(&live);
            if live.gone {
                continue;
            }
            live.touched = Instant::now();
            return Some(f(&mut live));
        }
    }

    /// Takes one room-making token for `ip`; `Err` is how long until the next.
    pub fn may_make_room(&self, ip: IpAddr) -> Result<(), Duration> {
        self.makers.take(ip)
    }

    pub fn exists(&self, id: &str) -> bool {
        self.live(id).is_some()
    }

    /// Reads a room (for the HTTP answers); `None` when there is no such room.
    pub fn with_room<T>(&self, id: &str, f: impl FnOnce(&Room) -> T) -> Option<T> {
        self.with_live(id, |live| f(&live.room))
    }

    /// The `State` object of a room, as sent on the WebSocket.
    pub fn state(&self, id: &str) -> Option<String> {
        self.with_live(id, |live| {
            serde_json::to_string(&live.state(now_ms())).expect("the wire's types serialise")
        })
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
        let live = Live::new(room, 1, &self.limits);
        lock(&self.rooms).insert(id.clone(), Arc::new(Mutex::new(live)));
        Ok((id, color, token))
    }

    /// Stores and applies one event (under the room's lock). When another
    /// node stored that event number first, the room is brought up to date
    /// (and its connections told) and the caller decides anew.
    fn commit(&self, id: &str, live: &mut Live, event: &Event) -> Result<(), Refused> {
        let stored = lock(&self.store).append(id, live.seq, event);
        match stored {
            Ok(()) => {
                live.seq += 1;
                live.room.apply(event);
                Ok(())
            }
            Err(AppendError::Taken) => {
                log::info!(
                    "room {id}: event {} was stored by another node first",
                    live.seq
                );
                self.catch_up(id, live);
                Err(Refused::Behind)
            }
            Err(AppendError::Failed(e)) => Err(Refused::Wire(server_error(e))),
        }
    }

    /// Sends the state to every connection of the room but `except`, and
    /// re-arms the flag and claim timers. Returns the state sent.
    fn publish(&self, id: &str, live: &mut Live, now: Millis, except: Option<u64>) -> State {
        live.mark_away(now);
        self.announce_presence(id, live);
        let state = live.state(now);
        // One frame per seat kind, made once; the seats' are queued before
        // the spectators', so a room full of watchers does not delay the
        // players (p99 move relay with 300 watchers: docs/rooms.md).
        let frames = [Some(Color::Black), Some(Color::White), None]
            .map(|seat| wire::state_frame(&state, seat));
        let frame = |seat: Option<Color>| match seat {
            Some(c) => frames[c.index()].clone(),
            None => frames[2].clone(),
        };
        let mut gone = Vec::new();
        for seats_first in [true, false] {
            for (&n, c) in &live.conns {
                let seat = live.seat(c);
                if Some(n) == except || seat.is_some() != seats_first {
                    continue;
                }
                if c.tx.try_send(frame(seat)).is_err() {
                    gone.push(n);
                }
            }
        }
        for n in gone {
            log::info!("room {id}: connection {n} too far behind, cut off");
            live.conns.remove(&n);
        }
        live.presence_due = false;
        self.arm_timer(id, live);
        self.arm_claim(id, live, now);
        state
    }
}
