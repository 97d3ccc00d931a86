//! One room's game as a pure state machine: no I/O, no clock reading.
//!
//! A request is checked by [`Room::handle`] (or [`Room::join`],
//! [`Room::flag`]), which returns the [`Event`] it would cause or a
//! [`RoomError`] and changes nothing. The caller stores the event and then
//! [`Room::apply`]s it; replaying a room's stored events through `apply`
//! rebuilds it exactly, which is how a restarted server gets its rooms back.
//! The moves are checked by the `mollett` rules core, never here.

use crate::event::{ClockSpec, Event, RoomSpec};
pub use mollett::rooms::wire::{Reason, Status, NAME_MAX};
use mollett::{Color, Game, Move, Position, Square};

/// Unix time in milliseconds: every request carries the time it arrived.
pub type Millis = u64;

/// Why a request was refused; nothing changed. Each is one wire error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomError {
    /// A spectator, or a connection without the seat's token, tried to act.
    NoSeat,
    NotYourTurn,
    /// The game has not started: a seat is still free.
    Waiting,
    IllegalMove,
    /// The client's `ply` is not the number of plies played.
    Stale,
    GameOver,
    NotOver,
    NoUndo,
    /// A seat has asked [`UNDO_ASKS`] takebacks this game (or offered
    /// [`DRAW_OFFERS`] draws, renamed itself [`NAME_CHANGES`] times, asked
    /// [`TRANSFER_ASKS`] transfer links), or offered a rematch already:
    /// nothing more is stored for it.
    TooMany,
    /// A name too long, with control characters, or the one it has.
    BadName,
    /// No draw offer to answer, or one already made.
    NoDraw,
    /// Both sides have placed a disc: the game can only be resigned.
    NoAbort,
    /// The other seat is online, or not offline long enough.
    NoClaim,
}

/// Takebacks a seat may ask for in one game: each ask and answer is stored,
/// so an ask/decline loop must end (lichess limits takeback offers too).
pub const UNDO_ASKS: u32 = 20;
/// Draw offers a seat may make in one game (stored like undo asks).
pub const DRAW_OFFERS: u32 = 3;
/// Name changes a seat may make in one game.
pub const NAME_CHANGES: u32 = 10;
/// Transfer links a seat may ask for in one game.
pub const TRANSFER_ASKS: u32 = 10;
/// A transfer link works this long after it was asked for (ms): long enough
/// to open it on a phone, short enough that an old screenshot is useless.
pub const TRANSFER_VALID: Millis = 10 * 60 * 1000;
/// A seat offline this long (ms) may be claimed by the one who stayed
/// (lichess offers it after a similar wait); `limits::CLAIM_AFTER`'s value.
pub const CLAIM_AFTER: Millis = 60 * 1000;

impl RoomError {
    /// The wire code (rooms protocol, `error.code`).
    pub fn code(self) -> &'static str {
        match self {
            RoomError::NoSeat => "no-seat",
            RoomError::NotYourTurn | RoomError::Waiting => "not-your-turn",
            RoomError::IllegalMove => "illegal-move",
            RoomError::Stale => "stale",
            RoomError::GameOver => "game-over",
            RoomError::NotOver => "not-over",
            RoomError::NoUndo => "no-undo",
            RoomError::TooMany => "too-many",
            RoomError::BadName => "bad-name",
            RoomError::NoDraw => "no-draw",
            RoomError::NoAbort => "no-abort",
            RoomError::NoClaim => "no-claim",
        }
    }

    /// Words for the person who sent it.
    pub fn message(self) -> &'static str {
        match self {
            RoomError::NoSeat => "you do not hold a seat in this room",
            RoomError::NotYourTurn => "it is not your turn",
            RoomError::Waiting => "the game starts when both seats are taken",
            RoomError::IllegalMove => "that move is not legal here",
            RoomError::Stale => "your board is out of date; the state has been sent again",
            RoomError::GameOver => "the game is over",
            RoomError::NotOver => "a rematch can be offered when the game is over",
            RoomError::NoUndo => {
                "no move of yours to take back, no request to answer, or one is already asked"
            }
            RoomError::TooMany => {
                "already asked as often as a game allows (a seat's 20 takebacks, 3 draw offers, \
                 10 names, 10 transfer links, one rematch offer)"
            }
            RoomError::BadName => {
                "a name has at most 24 characters, no control characters, and is not the one you have"
            }
            RoomError::NoDraw => "no draw offer to answer, or yours is already made",
            RoomError::NoAbort => "both sides have moved: the game can be resigned, not aborted",
            RoomError::NoClaim => {
                "the other seat is online, or has not been offline long enough to claim the game"
            }
        }
    }
}

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

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    /// Discs on the board at the end, by colour index.
    pub discs: [u32; 2],
    pub reason: Reason,
}

/// The chess-style clock: time left per colour, and since when the side to
/// move's time has been running (`None`: stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub spec: ClockSpec,
    pub left_ms: [u64; 2],
    pub since: Option<Millis>,
}

impl Clock {
    fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            left_ms: [spec.initial_ms; 2],
            since: None,
        }
    }

    /// Time left for `c` at `now`, counting the running side's time down.
    pub fn left_at(&self, c: Color, to_move: Color, now: Millis) -> u64 {
        let left = self.left_ms[c.index()];
        match self.since {
            Some(since) if c == to_move => left.saturating_sub(now.saturating_sub(since)),
            _ => left,
        }
    }
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

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub spec: RoomSpec,
    /// 1, then 2 after a rematch, ...
    pub game_no: u32,
    /// Seat tokens by colour index for the current game (a rematch swaps them).
    pub seats: [Option<String>; 2],
    pub game: Game,
    /// A pending undo request, by the colour that asked.
    pub undo: Option<Color>,
    /// Takebacks asked this game, by colour index (limited to [`UNDO_ASKS`]).
    pub undo_asks: [u32; 2],
    /// The last accepted takeback of this game: who asked and the plies
    /// that went, until the next move.
    pub takeback: Option<(Color, Vec<Move>)>,
    /// Rematch offers by colour index.
    pub rematch: [bool; 2],
    pub clock: Option<Clock>,
    pub result: Option<Outcome>,
    /// The seats' names by colour index (they follow the seats through a
    /// rematch's swap), and the changes made this game.
    pub names: [Option<String>; 2],
    pub name_changes: [u32; 2],
    /// A pending draw offer, by the colour that made it; offers this game.
    pub draw: Option<Color>,
    pub draw_offers: [u32; 2],
    /// A pending transfer link by colour index: its token and when asked;
    /// links asked this game.
    pub transfers: [Option<(String, Millis)>; 2],
    pub transfer_asks: [u32; 2],
    /// The room's earlier games (before each rematch), oldest first.
    pub past: Vec<PastGame>,
    /// Since when each taken seat has had no connection (`None`: online,
    /// or free). Presence, not stored: the hub keeps it up to date.
    pub away_since: [Option<Millis>; 2],
    /// How long a seat is away before the other may claim the game (ms).
    pub claim_after: Millis,
}

/// A game the room played before a rematch, kept for its downloads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastGame {
    pub game: Game,
    pub result: Option<Outcome>,
    pub names: [Option<String>; 2],
}

/// One game of a room, current or past, for the downloads.
pub struct GameView<'a> {
    pub variant: mollett::Variant,
    pub clock: Option<ClockSpec>,
    pub game: &'a Game,
    /// `None` while the game goes on.
    pub result: Option<Outcome>,
    pub names: &'a [Option<String>; 2],
}

impl Room {
    /// A room with both seats free and no move played.
    pub fn new(spec: RoomSpec) -> Room {
        Room {
            game_no: 1,
            seats: [None, None],
            game: Game::new(spec.variant, Color::Black),
            undo: None,
            undo_asks: [0; 2],
            takeback: None,
            rematch: [false; 2],
            clock: spec.clock.map(Clock::new),
            result: None,
            names: [None, None],
            name_changes: [0; 2],
            draw: None,
            draw_offers: [0; 2],
            transfers: [None, None],
            transfer_asks: [0; 2],
            past: Vec::new(),
            away_since: [None, None],
            claim_after: CLAIM_AFTER,
            spec,
        }
    }

    /// Game `n` of the room (1 the first), if it has begun.
    pub fn game_view(&self, n: u32) -> Option<GameView<'_>> {
        let view = |game, result, names| GameView {
            variant: self.spec.variant,
            clock: self.spec.clock,
            game,
            result,
            names,
        };
        if n == self.game_no {
            return Some(view(&self.game, self.result, &self.names));
        }
        let past = self.past.get((n as usize).checked_sub(1)?)?;
        Some(view(&past.game, past.result, &past.names))
    }

    /// The seat that may claim the game, and from when: while it is played,
    /// both sides have placed a disc (before that the game is aborted, not
    /// won: lichess's rule), and the other seat has been offline with this
    /// one online.
    pub fn claim_from(&self) -> Option<(Color, Millis)> {
        if self.status() != Status::Playing
            || self.placements(Color::Black) == 0
            || self.placements(Color::White) == 0
        {
            return None;
        }
        [Color::Black, Color::White].into_iter().find_map(|c| {
            match (
                self.away_since[c.index()],
                self.away_since[c.other().index()],
            ) {
                (None, Some(since)) => Some((c, since + self.claim_after)),
                _ => None,
            }
        })
    }

    /// Plies the `c` side has placed a disc on this game (passes not counted).
    fn placements(&self, c: Color) -> usize {
        let first = self.game.start().side;
        self.game
            .moves()
            .iter()
            .enumerate()
            .filter(|&(i, m)| {
                *m != Move::Pass && (if i % 2 == 0 { first } else { first.other() }) == c
            })
            .count()
    }

    /// Rebuilds a room from its stored events.
    pub fn replay<'a>(spec: RoomSpec, events: impl IntoIterator<Item = &'a Event>) -> Room {
        let mut room = Room::new(spec);
        for e in events {
            room.apply(e);
        }
        room
    }

    pub fn status(&self) -> Status {
        if self.result.is_some() {
            Status::Over
        } else if self.seats.iter().any(Option::is_none) {
            Status::Waiting
        } else {
            Status::Playing
        }
    }

    pub fn to_move(&self) -> Color {
        self.game.position().side
    }

    /// The colour whose seat `token` holds, if any.
    pub fn seat_of(&self, token: Option<&str>) -> Option<Color> {
        let token = token?;
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.seats[c.index()].as_deref() == Some(token))
    }

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

    /// The flag fall due at `now`, if the side to move's time has run out.
    pub fn flag(&self, now: Millis) -> Option<Event> {
        let clock = self.clock?;
        clock.since?;
        let side = self.to_move();
        (self.status() == Status::Playing && clock.left_at(side, side, now) == 0).then_some(
            Event::Flag {
                loser: side,
                at: now,
            },
        )
    }

    /// When the running clock will fall if nobody moves (for the timer).
    pub fn flag_due(&self) -> Option<Millis> {
        let clock = self.clock?;
        let since = clock.since?;
        (self.status() == Status::Playing).then(|| since + clock.left_ms[self.to_move().index()])
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
    fn last_placement_plies(&self) -> usize {
        let moves = self.game.moves();
        match moves.iter().rposition(|m| *m != Move::Pass) {
            Some(i) => moves.len() - i,
            None => 0,
        }
    }

    /// Applies an event that [`Room::handle`], [`Room::join`] or
    /// [`Room::flag`] produced (now, or before a restart).
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Seat {
                color,
                ref token,
                at,
            } => {
                self.seats[color.index()] = Some(token.clone());
                self.start_clock_if_full(at);
            }
            Event::Move {
                square,
                at,
                left_ms,
            } => {
                // Checked when handled; a stored move that no longer plays
                // would be a corrupt database: it is skipped, not a panic.
                if self.game.play(Move::Place(square)).is_err() {
                    log::error!(
                        "room {}: stored move {square} is illegal; skipped",
                        self.spec.id
                    );
                    return;
                }
                let mover = self.game.position().side.other();
                self.undo = None;
                self.takeback = None;
                // A move by the side a draw was offered to declines it.
                if self.draw.is_some_and(|offerer| offerer != mover) {
                    self.draw = None;
                }
                self.set_clock(left_ms, at);
                self.after_ply();
            }
            Event::UndoAsk { by, .. } => {
                self.undo = Some(by);
                self.undo_asks[by.index()] += 1;
            }
            Event::UndoAnswer {
                accept,
                plies,
                at,
                left_ms,
            } => {
                let asker = self.undo.take();
                if accept {
                    let n = plies.map_or_else(|| self.last_placement_plies(), |n| n as usize);
                    let moves = self.game.moves();
                    let gone = moves[moves.len().saturating_sub(n)..].to_vec();
                    self.game.undo(n);
                    self.takeback = asker.map(|c| (c, gone));
                    self.draw = None;
                    self.set_clock(left_ms, at);
                }
            }
            Event::Resign { by, at, left_ms } => {
                self.set_clock(left_ms, at);
                self.finish(Some(by.other()), Reason::Resign);
            }
            Event::Flag { loser, .. } => {
                if let Some(clock) = &mut self.clock {
                    clock.left_ms[loser.index()] = 0;
                }
                self.finish(Some(loser.other()), Reason::Time);
            }
            Event::Rematch { by, at } => {
                self.rematch[by.index()] = true;
                if self.rematch == [true; 2] {
                    self.new_game(at);
                }
            }
            Event::Name {
                color, ref name, ..
            } => {
                self.names[color.index()] = name.clone();
                self.name_changes[color.index()] += 1;
            }
            Event::DrawOffer { by, .. } => {
                self.draw = Some(by);
                self.draw_offers[by.index()] += 1;
            }
            Event::DrawAnswer {
                accept,
                at,
                left_ms,
            } => {
                self.draw = None;
                if accept {
                    self.set_clock(left_ms, at);
                    self.finish(None, Reason::Agreement);
                }
            }
            Event::Abort { at, left_ms, .. } => {
                self.set_clock(left_ms, at);
                self.finish(None, Reason::Aborted);
            }
            Event::Claim { by, at, left_ms } => {
                self.set_clock(left_ms, at);
                self.finish(Some(by), Reason::Left);
            }
            Event::TransferAsk {
                color,
                ref token,
                at,
            } => {
                self.transfers[color.index()] = Some((token.clone(), at));
                self.transfer_asks[color.index()] += 1;
            }
            Event::Transfer {
                color, ref token, ..
            } => {
                self.seats[color.index()] = Some(token.clone());
                self.transfers[color.index()] = None;
            }
        }
    }

    fn set_clock(&mut self, left_ms: Option<[u64; 2]>, at: Millis) {
        if let (Some(clock), Some(left)) = (&mut self.clock, left_ms) {
            clock.left_ms = left;
            clock.since = Some(at);
        }
    }

    fn start_clock_if_full(&mut self, at: Millis) {
        if self.status() == Status::Playing {
            if let Some(clock) = &mut self.clock {
                clock.since = Some(at);
            }
        }
    }

    /// Plays the forced passes, and ends the game when neither side can move.
    fn after_ply(&mut self) {
        while self.game.position().must_pass() {
            // A forced pass is always legal; `must_pass` said so.
            let _ = self.game.play(Move::Pass);
        }
        if self.game.position().is_game_over() {
            let discs = discs(self.game.position());
            let winner = match discs[0].cmp(&discs[1]) {
                std::cmp::Ordering::Greater => Some(Color::Black),
                std::cmp::Ordering::Less => Some(Color::White),
                std::cmp::Ordering::Equal => None,
            };
            self.finish(winner, Reason::End);
        }
    }

    /// Ends the game; the clocks were brought up to date by the event.
    fn finish(&mut self, winner: Option<Color>, reason: Reason) {
        let discs = discs(self.game.position());
        if let Some(clock) = &mut self.clock {
            clock.since = None;
        }
        self.undo = None;
        self.draw = None;
        self.result = Some(Outcome {
            winner,
            discs,
            reason,
        });
    }

    /// A rematch: a new game, the seats' colours swapped, clocks reset.
    fn new_game(&mut self, at: Millis) {
        let game = std::mem::replace(&mut self.game, Game::new(self.spec.variant, Color::Black));
        self.past.push(PastGame {
            game,
            result: self.result,
            names: self.names.clone(),
        });
        self.game_no += 1;
        // Names, pending transfer links and presence follow the seat holders.
        self.seats.swap(0, 1);
        self.names.swap(0, 1);
        self.transfers.swap(0, 1);
        self.away_since.swap(0, 1);
        self.name_changes = [0; 2];
        self.draw = None;
        self.draw_offers = [0; 2];
        self.transfer_asks = [0; 2];
        self.undo = None;
        self.undo_asks = [0; 2];
        self.takeback = None;
        self.rematch = [false; 2];
        self.result = None;
        self.clock = self.spec.clock.map(Clock::new);
        self.start_clock_if_full(at);
    }

    /// After a restart the time the server was down is not charged: the
    /// running clock restarts at `now` with the time it had left.
    pub fn resume_clock(&mut self, now: Millis) {
        if let Some(clock) = &mut self.clock {
            if let Some(since) = clock.since {
                if now > since {
                    clock.since = Some(now);
                }
            }
        }
    }
}

/// A name as it is kept: trimmed, `None` when empty; `None` returned
/// (refused) when longer than [`NAME_MAX`] characters or holding a control
/// character (a line break or an escape would let one name draw over the
/// page) or a bidirectional control: the embeddings, overrides and
/// isolates (U+202A-U+202E, U+2066-U+2069), whose U+202E turned the page's
/// own seat labels around, and the invisible marks U+200E, U+200F and
/// U+061C, which no name needs (right-to-left letters need none of them).
pub fn checked_name(name: &str) -> Option<Option<String>> {
    let name = name.trim();
    let bidi = |c: char| {
        matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
    };
    if name.chars().count() > NAME_MAX || name.chars().any(|c| c.is_control() || bidi(c)) {
        return None;
    }
    Some((!name.is_empty()).then(|| name.to_string()))
}

/// Discs of each colour on the board, by colour index (empties belong to nobody).
pub fn discs(pos: &Position) -> [u32; 2] {
    [Color::Black, Color::White].map(|c| pos.discs_of(c).count_ones())
}
