//! `mollett room-play`: any engine the match runner drives (GTP or NBoard,
//! the same `--engine` spec) takes a seat in a room of `mollett-server`
//! and plays its colour until the game is over (docs/rooms.md, "Engines in
//! rooms"). The server referees; this side checks the engine's move against
//! the legal moves the server sent before sending it.

use super::games::StopFlag;
use super::room_wire::{RoomAddress, RoomConnection, ServerMessage, State};
use clap::Args;
use mollett::tournament::client::{EngineError, EngineProcess, EngineSpec, Reply};
use mollett::tournament::types::TimeControl;
use mollett::{Color, Move, Position, Variant};
use std::time::Duration;

#[derive(Args)]
pub struct RoomPlayArgs {
    /// The room's link, as the board shows it: http://HOST:PORT/?room=ID.
    #[arg(long)]
    room: String,
    /// The engine, as `mollett match` takes it: "cmd=PROGRAM [ARGS] [proto=nboard] [init=...] [st=SECS]".
    #[arg(long, value_parser = |s: &str| s.parse::<EngineSpec>())]
    engine: EngineSpec,
    /// The seat's token (printed when the seat was taken): rejoin that seat.
    #[arg(long)]
    token: Option<String>,
    /// Seconds an engine may take for a move in a room without a clock
    /// (with a clock: the time it has left).
    #[arg(long, default_value_t = 300.0)]
    move_limit: f64,
}

/// Seconds to wait for an engine's answer other than a move.
const HANG: Duration = Duration::from_secs(30);
/// Beyond the clock's time left, for the answer to travel: the server's own
/// timer decides a flag fall anyway.
const CLOCK_GRACE: Duration = Duration::from_secs(2);

impl RoomPlayArgs {
    pub fn run(self, stop: StopFlag) -> Result<(), String> {
        let address = RoomAddress::parse(&self.room)?;
        let (mut conn, seat, mut state) = RoomConnection::join(&address, self.token.clone())?;
        let colour = match seat.as_str() {
            "black" => Color::Black,
            "white" => Color::White,
            _ if self.token.is_some() => {
                return Err("--token holds no seat in this room".to_string())
            }
            _ => {
                return Err(format!(
                    "room {} has no free seat: both are taken",
                    address.room
                ))
            }
        };
        let variant = Variant::parse(&state.variant)
            .ok_or_else(|| format!("the room's variant '{}' is unknown", state.variant))?;
        let token = conn.token.clone().unwrap_or_default();
        eprintln!(
            "room-play: {} plays {} in room {} (to rejoin: --token {token})",
            self.engine.name,
            colour.name(variant),
            address.room
        );
        let mut engine = EngineProcess::start(&self.engine, HANG, stop())
            .map_err(|e| format!("engine {}: {e}", self.engine.name))?;
        let mut told = Told::default();
        // (game, ply) of the move sent and not yet seen in a state, and of
        // the last undo request declined: each is sent once.
        let mut sent: Option<(u32, usize)> = None;
        let mut declined: Option<(u32, usize)> = None;
        let mut colour = colour;
        loop {
            if state.status == "over" {
                eprintln!("room-play: {}", result_line(&state, variant, colour));
                engine.quit();
                return Ok(());
            }
            let turn = (state.game, state.moves.len());
            let asked = state
                .undo
                .as_ref()
                .is_some_and(|u| u.by != seat_name(colour));
            if asked && declined != Some(turn) {
                eprintln!("room-play: the other side asks to take back a move: declined (an engine's seat does not)");
                conn.send(r#"{"type":"undo-answer","accept":false}"#)?;
                declined = Some(turn);
            }
            let ours =
                state.status == "playing" && state.to_move.as_deref() == Some(seat_name(colour));
            if ours && sent != Some(turn) {
                let reply = self.choose(&mut engine, &mut told, &state, variant, colour)?;
                let msg = match reply {
                    Reply::Move(mv) => {
                        format!(r#"{{"type":"move","square":"{mv}","ply":{}}}"#, turn.1)
                    }
                    Reply::Resign => {
                        eprintln!("room-play: {} resigns", self.engine.name);
                        r#"{"type":"resign"}"#.to_string()
                    }
                };
                conn.send(&msg)?;
                sent = Some(turn);
            }
            let (seat, next) = match conn.next()? {
                ServerMessage::State { seat, state } => (seat, state),
                // A reconnect: a move sent before the drop may be lost, and
                // is asked for again if it is still ours.
                ServerMessage::Welcome { seat, state, .. } => {
                    sent = None;
                    declined = None;
                    (seat, state)
                }
                ServerMessage::Error { code, message } => {
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
                ServerMessage::Pong => continue,
            };
            colour = match seat.as_str() {
                "black" => Color::Black,
                "white" => Color::White,
                _ => return Err("the room no longer gives this token a seat".to_string()),
            };
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
                (tc, None, Duration::from_secs_f64(self.move_limit.max(1.0)))
            }
        };
        if told.game != Some(state.game) || !moves.starts_with(&told.moves) {
            engine.new_game(&start, true, tc).map_err(fail)?;
            *told = Told {
                game: Some(state.game),
                moves: Vec::new(),
            };
        }
        for (i, &mv) in moves.iter().enumerate().skip(told.moves.len()) {
            engine.tell(variant, ply_colour(i), mv).map_err(fail)?;
            told.moves.push(mv);
        }
        let (reply, _) = engine
            .genmove(&start, &moves, colour, time_left, limit)
            .map_err(fail)?;
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

/// What the engine has been told of the room's game.
#[derive(Default)]
struct Told {
    game: Option<u32>,
    moves: Vec<Move>,
}

/// Plies alternate from black, passes included.
fn ply_colour(i: usize) -> Color {
    if i.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    }
}

fn seat_name(colour: Color) -> &'static str {
    match colour {
        Color::Black => "black",
        Color::White => "white",
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

/// "black 40, white 24: black wins (neither side can move); Mollett played black".
fn result_line(state: &State, variant: Variant, colour: Color) -> String {
    let Some(r) = &state.result else {
        return "the game is over".to_string();
    };
    let second = Color::White.name(variant);
    let winner = match r.winner.as_deref() {
        Some("black") => "black wins".to_string(),
        Some(_) => format!("{second} wins"),
        None => "a draw".to_string(),
    };
    let reason = match r.reason.as_str() {
        "resign" => "by resignation",
        "time" => "on time",
        _ => "neither side can move",
    };
    format!(
        "game over: black {}, {second} {}: {winner} ({reason}); the engine played {}",
        r.black,
        r.white,
        colour.name(variant)
    )
}
