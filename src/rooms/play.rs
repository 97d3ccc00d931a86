//! `mollett room-play`'s game loop: any engine the match runner drives (GTP
//! or NBoard, the same `--engine` spec) takes a seat in a room and plays
//! its colour until the game is over (docs/rooms.md, "Engines in rooms").
//! The server referees; this side checks the engine's move against the
//! legal moves the server sent before sending it.

use super::connection::{RoomAddress, RoomConnection};
use super::tls;
use super::wire::{ClientIn, ClientOut, Reason, Side, State, Status, NAME_MAX};
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::tournament::client::{EngineError, EngineProcess, EngineSpec, Reply};
use crate::tournament::types::TimeControl;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

/// Seconds to wait for an engine's answer other than a move.
const HANG: Duration = Duration::from_secs(30);
/// Beyond the clock's time left, for the answer to travel: the server's own
/// timer decides a flag fall anyway.
const CLOCK_GRACE: Duration = Duration::from_secs(2);

/// What `room-play` was asked to do.
pub struct RoomPlay {
    /// The room's link, as the board shows it.
    pub link: String,
    pub engine: EngineSpec,
    /// A seat's token: rejoin that seat instead of taking the free one.
    pub token: Option<String>,
    /// Longest wait for a move in a room without a clock.
    pub move_limit: Duration,
    /// A PEM file of certificates to trust besides the web PKI's roots.
    pub ca: Option<PathBuf>,
}

impl RoomPlay {
    /// Plays the room's game to its end. In order: the link and `--ca` are
    /// read, the room's socket opened (server, TLS and room checked), the
    /// engine started and heard from, and only then a seat taken, so an
    /// engine that cannot start leaves the seat free for someone else.
    pub fn run(&self, stop: Arc<AtomicBool>) -> Result<(), String> {
        let address = RoomAddress::parse(&self.link)?;
        let tls = match (&self.ca, address.tls) {
            (Some(_), false) => {
                return Err("--ca is for https:// (wss://) rooms; this link is plain http".into())
            }
            (ca, true) => Some(tls::client_config(ca.as_deref())?),
            (None, false) => None,
        };
        let mut conn = RoomConnection::open(&address, tls)?;
        let name = &self.engine.name;
        // EngineProcess::start waits for the engine's first answer
        // (`list_commands`; NBoard's ping): a running engine, not just a process.
        let mut engine = EngineProcess::start(&self.engine, HANG, stop).map_err(|e| {
            format!("engine {name} did not start and answer (no seat was taken): {e}")
        })?;
        let played = self.seat_and_play(&mut conn, &mut engine, &address);
        engine.quit();
        played
    }

    fn seat_and_play(
        &self,
        conn: &mut RoomConnection,
        engine: &mut EngineProcess,
        address: &RoomAddress,
    ) -> Result<(), String> {
        let (seat, mut state) = conn.join(self.token.clone())?;
        let Some(mut side) = seat.side() else {
            return Err(match self.token {
                Some(_) => "--token holds no seat in this room".to_string(),
                None => format!("room {} has no free seat: both are taken", address.room),
            });
        };
        let variant = Variant::parse(&state.variant)
            .ok_or_else(|| format!("the room's variant '{}' is unknown", state.variant))?;
        let token = conn.token.clone().unwrap_or_default();
        eprintln!(
            "room-play: {} plays {} in room {} (to rejoin: --token {token})",
            self.engine.name,
            colour(side).name(variant),
            address.room
        );
        // The seat is named after its engine (once; the name follows the
        // seat through a rematch).
        let name = seat_name(&self.engine.name);
        if state.seats.get(side).name.as_deref() != Some(name.as_str()) {
            conn.send(&ClientIn::Name { name });
        }
        let mut told = Told::default();
        // (game, ply) of the move sent and not yet seen in a state, of the
        // last undo request declined, of the last draw offer answered and
        // of the claim sent: each is sent once.
        let mut sent: Option<(u32, usize)> = None;
        let mut declined: Option<(u32, usize)> = None;
        let mut answered: Option<(u32, usize)> = None;
        let mut claimed: Option<(u32, usize)> = None;
        loop {
            if state.status == Status::Over {
                eprintln!("room-play: {}", result_line(&state, variant, colour(side)));
                return Ok(());
            }
            let turn = (state.game, state.moves.len());
            let asked = state.undo.is_some_and(|u| u.by != side);
            if asked && declined != Some(turn) {
                eprintln!("room-play: the other side asks to take back a move: declined (an engine's seat does not)");
                conn.send(&ClientIn::UndoAnswer { accept: false });
                declined = Some(turn);
            }
            if state.draw.is_some_and(|d| d.by != side) && answered != Some(turn) {
                let accept = accepts_draw(told.value);
                let value = told
                    .value
                    .map_or("no value".to_string(), |v| format!("its value {v:+.2}"));
                eprintln!(
                    "room-play: the other side offers a draw: {} ({value})",
                    if accept { "accepted" } else { "declined" }
                );
                conn.send(&ClientIn::DrawAnswer { accept });
                answered = Some(turn);
            }
            // The other seat has been offline for the server's claim time:
            // the game is claimed rather than waited for without end.
            if state.claim.is_some_and(|c| c.by == side && c.in_ms == 0) && claimed != Some(turn) {
                eprintln!("room-play: the other side has left; the game is claimed");
                conn.send(&ClientIn::Claim);
                claimed = Some(turn);
            }
            let ours = state.status == Status::Playing && state.to_move == Some(side);
            if ours && sent != Some(turn) {
                // The engine thinks on a thread of its own while this one
                // keeps the connection alive (it answers the server's pings).
                let reply = std::thread::scope(|scope| {
                    let thinking = scope
                        .spawn(|| self.choose(engine, &mut told, &state, variant, colour(side)));
                    conn.keep_alive_while(|| thinking.is_finished());
                    thinking
                        .join()
                        .unwrap_or_else(|_| Err("the engine's thread failed".to_string()))
                })?;
                let msg = match reply {
                    Reply::Move(mv) => ClientIn::Move {
                        square: mv.to_string(),
                        ply: turn.1,
                    },
                    Reply::Resign => {
                        eprintln!("room-play: {} resigns", self.engine.name);
                        ClientIn::Resign
                    }
                };
                conn.send(&msg);
                sent = Some(turn);
            }
            let (seat, next) = match conn.receive()? {
                ClientOut::State { seat, state } => (seat, state),
                // A reconnect: a move sent before the drop may be lost, and
                // is asked for again if it is still ours.
                ClientOut::Welcome { seat, state, .. } => {
                    sent = None;
                    declined = None;
                    (seat, state)
                }
                ClientOut::Error { code, message } => {
                    // Only a refused move matters; the state that follows
                    // (or a reconnect's welcome) says where the game is.
                    if code == "illegal-move" {
                        return Err(format!(
                            "the room refused {}'s move: {message}",
                            self.engine.name
                        ));
                    }
                    eprintln!("room-play: the room says: {message} ({code})");
                    if sent != Some(turn) {
                        continue;
                    }
                    sent = None;
                    conn.rejoin()?
                }
                ClientOut::Pong | ClientOut::TransferLink { .. } => continue,
                ClientOut::SeatMoved { .. } => {
                    return Err(
                        "the seat was moved to another device (a transfer link was opened)".into(),
                    )
                }
            };
            side = seat
                .side()
                .ok_or("the room no longer gives this token a seat")?;
            state = next;
            if state.undo.is_none() {
                declined = None; // a new request, even at this ply, is answered
            }
        }
    }

    /// The engine's reply for `colour` to move in `state`: the game told
    /// (only what it does not know yet), then genmove; a move that is not
    /// one of the legal squares is an error, never sent.
    fn choose(
        &self,
        engine: &mut EngineProcess,
        told: &mut Told,
        state: &State,
        variant: Variant,
        colour: Color,
    ) -> Result<Reply, String> {
        let name = self.engine.name.clone();
        let fail = |e: EngineError| format!("engine {name}: {e}");
        let moves = parse_moves(&state.moves)?;
        let start = Position::start(variant, Color::Black);
        let (tc, time_left, limit) = match &state.clock {
            Some(c) => {
                let left = if colour == Color::Black {
                    c.black_ms
                } else {
                    c.white_ms
                } as f64
                    / 1000.0;
                let tc = TimeControl::Fischer {
                    base: left,
                    inc: c.increment_ms as f64 / 1000.0,
                };
                (
                    tc,
                    Some((left, tc)),
                    Duration::from_secs_f64(left) + CLOCK_GRACE,
                )
            }
            None => {
                let tc = self.engine.tc.unwrap_or(TimeControl::None);
                (tc, None, self.move_limit.max(Duration::from_secs(1)))
            }
        };
        if told.game != Some(state.game) || !moves.starts_with(&told.moves) {
            engine.new_game(&start, true, tc).map_err(fail)?;
            *told = Told {
                game: Some(state.game),
                moves: Vec::new(),
                value: None,
            };
        }
        for (i, &mv) in moves.iter().enumerate().skip(told.moves.len()) {
            engine.tell(variant, ply_colour(i), mv).map_err(fail)?;
            told.moves.push(mv);
        }
        let (reply, value) = engine
            .genmove(&start, &moves, colour, time_left, limit)
            .map_err(fail)?;
        told.value = match value {
            Some(v) => Some(v),
            None => engine.last_value(HANG).map_err(fail)?,
        };
        if let Reply::Move(mv) = reply {
            // GTP's genmove plays the move in the engine's game too.
            told.moves.push(mv);
            let legal =
                matches!(mv, Move::Place(_)) && state.legal.iter().any(|s| *s == mv.to_string());
            if !legal {
                return Err(format!(
                    "engine {name} answered {mv}, which is not a legal move for {} after {} plies (legal: {})",
                    colour.name(variant),
                    moves.len(),
                    state.legal.join(" ")
                ));
            }
        }
        Ok(reply)
    }
}

/// What the engine has been told of the room's game, and the value (discs,
/// for the engine) of the last move it chose there.
#[derive(Default)]
struct Told {
    game: Option<u32>,
    moves: Vec<Move>,
    value: Option<f64>,
}

/// room-play's answer to a draw offer: accepted when the engine's last
/// move's value says it does not expect to win (0 discs or fewer); declined
/// when it expects to win or has given no value yet.
fn accepts_draw(value: Option<f64>) -> bool {
    value.is_some_and(|v| v <= 0.0)
}

/// The engine's name as a seat's name: control characters dropped, cut to
/// the wire's `NAME_MAX` characters.
fn seat_name(engine: &str) -> String {
    let name: String = engine
        .chars()
        .filter(|c| !c.is_control())
        .take(NAME_MAX)
        .collect();
    match name.trim() {
        "" => "engine".to_string(),
        n => n.to_string(),
    }
}

fn colour(side: Side) -> Color {
    match side {
        Side::Black => Color::Black,
        Side::White => Color::White,
    }
}

/// Plies alternate from black, passes included.
fn ply_colour(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

fn parse_moves(moves: &[String]) -> Result<Vec<Move>, String> {
    moves
        .iter()
        .map(|m| {
            m.parse::<Move>()
                .map_err(|_| format!("the room sent '{m}', which is not a move"))
        })
        .collect()
}

/// "game over: black 40, white 24: black wins (neither side can move); the
/// engine played black". A game ended otherwise says how, and its discs
/// apart, as they decided nothing: "game over: white wins (black
/// resigned); discs black 4, white 4; the engine played black".
fn result_line(state: &State, variant: Variant, played: Color) -> String {
    let Some(r) = &state.result else {
        return "the game is over".to_string();
    };
    let second = Color::White.name(variant);
    if r.reason == Reason::Aborted {
        return format!(
            "game aborted before both sides moved: no result; the engine played {}",
            played.name(variant)
        );
    }
    let (winner, loser) = match r.winner {
        Some(Side::Black) => ("black wins".to_string(), second),
        Some(Side::White) => (format!("{second} wins"), "black"),
        None => ("a draw".to_string(), ""),
    };
    let discs = format!("black {}, {second} {}", r.black, r.white);
    let reason = match r.reason {
        Reason::End => {
            return format!(
                "game over: {discs}: {winner} (neither side can move); the engine played {}",
                played.name(variant)
            )
        }
        Reason::Resign => format!("{loser} resigned"),
        Reason::Time => format!("{loser}'s time ran out"),
        Reason::Agreement => "by agreement".to_string(),
        Reason::Aborted => "aborted: no result".to_string(),
        Reason::Left => "the other side left".to_string(),
    };
    format!(
        "game over: {winner} ({reason}); discs {discs}; the engine played {}",
        played.name(variant)
    )
}
