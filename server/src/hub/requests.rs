//! What a connection asks of its room: its hello (a seat, or a
//! spectator's place), its requests, and its leaving. Each is decided under
//! the room's lock and decided anew when another node's event overtook it.

use super::{lock, now_ms, retrying, Conn, Hub, Joining, Live, Refused};
use crate::event::Event;
use crate::ids;
use crate::room::{Command, Joined, TRANSFER_VALID};
use crate::wire::{self, WireError};
use mollett::rooms::wire::ClientOut;
use std::sync::atomic::Ordering;
use std::time::Instant;
use tokio::sync::mpsc;

impl Hub {
    /// A connection's hello: its seat (by token, or a free one) or a
    /// spectator's place. Its frames go to `tx`.
    pub fn connect(
        &self,
        id: &str,
        token: Option<String>,
        tx: mpsc::Sender<String>,
    ) -> Result<Joining, WireError> {
        retrying(|| self.with_live(id, |live| self.join(id, live, token.clone(), tx.clone())))
    }

    fn join(
        &self,
        id: &str,
        live: &mut Live,
        token: Option<String>,
        tx: mpsc::Sender<String>,
    ) -> Result<Joining, Refused> {
        let now = now_ms();
        self.settle_clock(id, live, now)?;
        let (token, fresh) = match live.room.join(token.as_deref(), ids::random_id(), now) {
            Joined::Seat(_) => (token, false),
            Joined::Take(event) => {
                let before = live.room.seats.clone();
                self.commit(id, live, &event)?;
                match event {
                    Event::Seat { token, .. } => (Some(token), true),
                    Event::Transfer { color, token, .. } => {
                        // The seat's old connections watch from now on: told
                        // so, then sent the state as spectators (below).
                        let moved = wire::frame(&ClientOut::SeatMoved {
                            seat: wire::side(color),
                        });
                        let old = before[color.index()].as_deref();
                        for c in live.conns.values() {
                            if c.token.is_some() && c.token.as_deref() == old {
                                let _ = c.tx.try_send(moved.clone());
                            }
                        }
                        (Some(token), true)
                    }
                    _ => unreachable!("join takes a seat"),
                }
            }
            Joined::Watch => {
                let cap = self.limits.spectators;
                if live.presence().spectators >= cap {
                    return Err(WireError::new(
                        "room-full",
                        format!("this room has {cap} spectators, the most it takes"),
                    )
                    .into());
                }
                (None, false)
            }
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
        // A seat taken is a change the others see at once; someone coming
        // online or watching is told with the next presence send. The
        // newcomer gets the state in its welcome either way.
        let state = if fresh {
            self.publish(id, live, now, Some(conn))
        } else {
            live.mark_away(now);
            self.presence_changed(id, live);
            live.state(now)
        };
        let welcome = wire::welcome_frame(&state, seat, token.as_deref().filter(|_| fresh));
        Ok(Joining { conn, welcome })
    }

    /// A request from connection `conn`. On success every connection of the
    /// room (the sender too) gets the new state, and the sender alone the
    /// frame returned, if any (a transfer link).
    pub fn command(&self, id: &str, conn: u64, cmd: Command) -> Result<Option<String>, WireError> {
        retrying(|| self.with_live(id, |live| self.decide(id, live, conn, cmd.clone())))
    }

    fn decide(
        &self,
        id: &str,
        live: &mut Live,
        conn: u64,
        cmd: Command,
    ) -> Result<Option<String>, Refused> {
        {
            let now = now_ms();
            if self.settle_clock(id, live, now)? {
                self.publish(id, live, now, None);
            }
            let actor = live.conns.get(&conn).and_then(|c| live.seat(c));
            let event = live.room.handle(actor, cmd, now)?;
            let cap = self.limits.room_events;
            if live.seq >= cap {
                return Err(WireError::new(
                    "too-many",
                    format!("this room has stored {cap} changes, the most a room keeps: make a new room"),
                )
                .into());
            }
            self.commit(id, live, &event)?;
            self.publish(id, live, now, None);
            Ok(match event {
                Event::TransferAsk { token, .. } => Some(wire::frame(&ClientOut::TransferLink {
                    token,
                    expires_ms: TRANSFER_VALID,
                })),
                _ => None,
            })
        }
    }

    /// The state frame for one connection (sent again after a `stale` error).
    pub fn state_for(&self, id: &str, conn: u64) -> Option<String> {
        self.with_live(id, |live| {
            let c = live.conns.get(&conn)?;
            Some(wire::state_frame(&live.state(now_ms()), live.seat(c)))
        })
        .flatten()
    }

    /// A connection closed: the others see the seat away (or one spectator
    /// fewer) with the next presence send.
    pub fn disconnect(&self, id: &str, conn: u64) {
        if let Some(live) = self.cached(id) {
            let mut live = lock(&live);
            if live.conns.remove(&conn).is_some() {
                live.touched = Instant::now();
                live.mark_away(now_ms());
                self.presence_changed(id, &mut live);
            }
        }
    }
}
