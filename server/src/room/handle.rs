//! Checking a request: the event it would cause, or why not; nothing changes.

use super::clock::{Millis, TRANSFER_VALID};
use super::error::{RoomError, DRAW_OFFERS, NAME_CHANGES, TRANSFER_ASKS, UNDO_ASKS};
use super::state::{checked_name, Room};
use crate::event::Event;
use mollett::rooms::wire::Status;
use mollett::{Color, Move, Square};

/// A request from a seat (joining is [`Room::join`], the timer [`Room::flag`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Place on `square`; `ply` is the number of plies the sender saw.
    Move {
        square: Square,
        ply: usize,
    },
    Undo,
    UndoAnswer {
        accept: bool,
    },
    Resign,
    Rematch,
    /// The seat's name, as sent (checked here).
    Name {
        name: String,
    },
    Draw,
    DrawAnswer {
        accept: bool,
    },
    Abort,
    Claim,
    /// A transfer link; `token` is the fresh one-time token it would carry
    /// (the caller draws it from OS randomness).
    Transfer {
        token: String,
    },
}

/// What a `hello` gets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Joined {
    /// The token holds this seat already (a reconnect).
    Seat(Color),
    /// A free seat is taken: store and apply the event (its token is new).
    Take(Event),
    Watch,
}

impl Room {
    /// A connection says hello with `token`; `fresh` is the token a newly
    /// taken (or moved) seat would get (the caller draws it from OS
    /// randomness). A seat's unexpired transfer token moves that seat here.
    pub fn join(&self, token: Option<&str>, fresh: String, now: Millis) -> Joined {
        if let Some(c) = self.seat_of(token) {
            return Joined::Seat(c);
        }
        if let Some(t) = token {
            let moved = [Color::Black, Color::White].into_iter().find(|c| {
                matches!(&self.transfers[c.index()],
                    Some((link, at)) if link == t && now < at + TRANSFER_VALID)
            });
            if let Some(color) = moved {
                return Joined::Take(Event::Transfer {
                    color,
                    token: fresh,
                    at: now,
                });
            }
        }
        match [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.seats[c.index()].is_none())
        {
            Some(color) => Joined::Take(Event::Seat {
                color,
                token: fresh,
                at: now,
            }),
            None => Joined::Watch,
        }
    }

    /// Checks `cmd` from `actor` (the sender's seat, `None` for a spectator)
    /// at `now`: the event it causes, or why not. The caller has applied any
    /// due flag fall first ([`Room::flag`]).
    pub fn handle(
        &self,
        actor: Option<Color>,
        cmd: Command,
        now: Millis,
    ) -> Result<Event, RoomError> {
        let by = actor.ok_or(RoomError::NoSeat)?;
        let status = self.status();
        // What a seat may do whatever the game's phase.
        match cmd {
            Command::Rematch => {
                return match status {
                    // A second offer would change nothing but the stored log.
                    Status::Over if self.rematch[by.index()] => Err(RoomError::TooMany),
                    Status::Over => Ok(Event::Rematch { by, at: now }),
                    _ => Err(RoomError::NotOver),
                };
            }
            Command::Name { ref name } => {
                let name = checked_name(name).ok_or(RoomError::BadName)?;
                if name == self.names[by.index()] {
                    return Err(RoomError::BadName);
                }
                if self.name_changes[by.index()] >= NAME_CHANGES {
                    return Err(RoomError::TooMany);
                }
                return Ok(Event::Name {
                    color: by,
                    name,
                    at: now,
                });
            }
            Command::Transfer { ref token } => {
                if self.transfer_asks[by.index()] >= TRANSFER_ASKS {
                    return Err(RoomError::TooMany);
                }
                return Ok(Event::TransferAsk {
                    color: by,
                    token: token.clone(),
                    at: now,
                });
            }
            _ => {}
        }
        match status {
            Status::Over => return Err(RoomError::GameOver),
            Status::Waiting => return Err(RoomError::Waiting),
            Status::Playing => {}
        }
        match cmd {
            Command::Move { square, ply } => {
                if by != self.to_move() {
                    return Err(RoomError::NotYourTurn);
                }
                if ply != self.game.moves().len() {
                    return Err(RoomError::Stale);
                }
                if self.game.position().play(Move::Place(square)).is_none() {
                    return Err(RoomError::IllegalMove);
                }
                Ok(Event::Move {
                    square,
                    at: now,
                    left_ms: self.clock_after(by, now, true),
                })
            }
            Command::Undo => {
                if self.undo.is_some() || self.takeback_plies(by) == 0 {
                    return Err(RoomError::NoUndo);
                }
                if self.undo_asks[by.index()] >= UNDO_ASKS {
                    return Err(RoomError::TooMany);
                }
                Ok(Event::UndoAsk { by, at: now })
            }
            Command::UndoAnswer { accept } => match self.undo {
                Some(asker) if asker != by => Ok(Event::UndoAnswer {
                    accept,
                    plies: accept.then(|| self.takeback_plies(asker) as u32),
                    at: now,
                    // Time the side to move spent until now is charged to it.
                    left_ms: if accept {
                        self.clock_after(self.to_move(), now, false)
                    } else {
                        None
                    },
                }),
                _ => Err(RoomError::NoUndo),
            },
            Command::Resign => Ok(Event::Resign {
                by,
                at: now,
                left_ms: self.clock_after(self.to_move(), now, false),
            }),
            Command::Draw => match self.draw {
                Some(offerer) if offerer == by => Err(RoomError::NoDraw),
                // Offering while the other's offer stands accepts it (lichess).
                Some(_) => self.handle(actor, Command::DrawAnswer { accept: true }, now),
                None if self.draw_offers[by.index()] >= DRAW_OFFERS => Err(RoomError::TooMany),
                None => Ok(Event::DrawOffer { by, at: now }),
            },
            Command::DrawAnswer { accept } => match self.draw {
                Some(offerer) if offerer != by => Ok(Event::DrawAnswer {
                    accept,
                    at: now,
                    left_ms: if accept {
                        self.clock_after(self.to_move(), now, false)
                    } else {
                        None
                    },
                }),
                _ => Err(RoomError::NoDraw),
            },
            Command::Abort => {
                if self.placements(Color::Black) > 0 && self.placements(Color::White) > 0 {
                    return Err(RoomError::NoAbort);
                }
                Ok(Event::Abort {
                    by,
                    at: now,
                    left_ms: self.clock_after(self.to_move(), now, false),
                })
            }
            Command::Claim => match self.claim_from() {
                Some((claimer, from)) if claimer == by && now >= from => Ok(Event::Claim {
                    by,
                    at: now,
                    left_ms: self.clock_after(self.to_move(), now, false),
                }),
                _ => Err(RoomError::NoClaim),
            },
            Command::Rematch | Command::Name { .. } | Command::Transfer { .. } => {
                unreachable!("handled above")
            }
        }
    }

    /// Both clocks after `side` (to move) stops its time at `now`, plus the
    /// increment when it moved.
    fn clock_after(&self, side: Color, now: Millis, increment: bool) -> Option<[u64; 2]> {
        let clock = self.clock?;
        let mut left = clock.left_ms;
        left[side.index()] = clock.left_at(side, side, now)
            + if increment {
                clock.spec.increment_ms
            } else {
                0
            };
        Some(left)
    }

    /// Plies a takeback asked by `asker` removes (lichess's rule): the
    /// asker's own last placement and everything after it, so the asker is
    /// to move again; 0 when the asker has placed nothing this game.
    pub fn takeback_plies(&self, asker: Color) -> usize {
        let first = self.game.start().side;
        let moves = self.game.moves();
        // Plies alternate from the start's side to move, passes included.
        let by = |i: usize| {
            if i.is_multiple_of(2) {
                first
            } else {
                first.other()
            }
        };
        match (0..moves.len())
            .rev()
            .find(|&i| by(i) == asker && moves[i] != Move::Pass)
        {
            Some(i) => moves.len() - i,
            None => 0,
        }
    }

    /// Plies the old rule took back (events stored before `plies` was):
    /// the last placement, whoever made it, and the passes after it.
    pub(super) fn last_placement_plies(&self) -> usize {
        let moves = self.game.moves();
        match moves.iter().rposition(|m| *m != Move::Pass) {
            Some(i) => moves.len() - i,
            None => 0,
        }
    }
}
