//! The rooms wire (docs/rooms.md) between its types, written once in
//! `mollett::rooms::wire`, and the room's: a client's message into a room
//! command, a room into the `State` every client reads, and the frames.
//! Nothing here touches a socket.

use crate::ids;
use crate::room::{discs, Command, Millis, Room, RoomError, Status};
use mollett::rooms::wire::{
    ByColour, ClaimTime, ClientIn, ClientOut, Clock, GameResult, Offer, Seat, SeatPresence, Side,
    State, Takeback,
};
use mollett::{Color, Move, Variant};

/// A frame's text may not be longer than this (bytes).
pub const MAX_FRAME: usize = 4096;

/// A wire error: `code` and words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WireError {
    pub code: &'static str,
    pub message: String,
}

impl WireError {
    pub fn new(code: &'static str, message: impl Into<String>) -> WireError {
        WireError {
            code,
            message: message.into(),
        }
    }

    /// The error frame.
    pub fn frame(&self) -> String {
        frame(&ClientOut::Error {
            code: self.code.to_string(),
            message: self.message.clone(),
        })
    }
}

impl From<RoomError> for WireError {
    fn from(e: RoomError) -> WireError {
        WireError::new(e.code(), e.message())
    }
}

/// One frame's text.
pub fn frame(msg: &ClientOut) -> String {
    serde_json::to_string(msg).expect("the wire's types serialise")
}

/// Reads one text frame.
pub fn parse(text: &str) -> Result<ClientIn, WireError> {
    serde_json::from_str(text).map_err(|e| WireError::new("bad-message", e.to_string()))
}

/// The room command a game message asks for (`None` for hello and ping).
pub fn command(msg: &ClientIn) -> Result<Option<Command>, WireError> {
    Ok(Some(match msg {
        ClientIn::Move { square, ply } => Command::Move {
            square: square.parse().map_err(|_| {
                WireError::new(
                    "illegal-move",
                    format!("'{square}' is not a square (a1..h8)"),
                )
            })?,
            ply: *ply,
        },
        ClientIn::Undo => Command::Undo,
        ClientIn::UndoAnswer { accept } => Command::UndoAnswer { accept: *accept },
        ClientIn::Resign => Command::Resign,
        ClientIn::Rematch => Command::Rematch,
        ClientIn::Name { name } => Command::Name { name: name.clone() },
        ClientIn::Draw => Command::Draw,
        ClientIn::DrawAnswer { accept } => Command::DrawAnswer { accept: *accept },
        ClientIn::Abort => Command::Abort,
        ClientIn::Claim => Command::Claim,
        ClientIn::Transfer => Command::Transfer {
            token: ids::random_id(),
        },
        ClientIn::Hello { .. } | ClientIn::Ping => return Ok(None),
    }))
}

/// Who is connected: per colour whether a seat holder is online, and the
/// number of spectators (not stored: it is the live connections).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    pub online: [bool; 2],
    pub spectators: usize,
}

pub fn side(c: Color) -> Side {
    match c {
        Color::Black => Side::Black,
        Color::White => Side::White,
    }
}

/// A connection's seat on the wire.
pub fn seat(seat: Option<Color>) -> Seat {
    match seat {
        Some(Color::Black) => Seat::Black,
        Some(Color::White) => Seat::White,
        None => Seat::Spectator,
    }
}

fn by_color<T>(v: [T; 2]) -> ByColour<T> {
    let [black, white] = v;
    ByColour { black, white }
}

fn squares(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.to_string()).collect()
}

/// The `State` as of `now` (no tokens in it).
pub fn state(room: &Room, presence: Presence, now: Millis) -> State {
    let pos = room.game.position();
    let status = room.status();
    let over = status == Status::Over;
    let legal = if over {
        Vec::new()
    } else {
        pos.legal_moves()
            .into_iter()
            .filter_map(Move::square)
            .map(|s| s.to_string())
            .collect()
    };
    let seats = by_color([0, 1].map(|i| SeatPresence {
        taken: room.seats[i].is_some(),
        online: presence.online[i],
        name: room.names[i].clone(),
    }));
    let clock = room.clock.map(|c| {
        let left = [Color::Black, Color::White].map(|col| c.left_at(col, pos.side, now));
        Clock {
            black_ms: left[0],
            white_ms: left[1],
            increment_ms: c.spec.increment_ms,
            running: c
                .since
                .filter(|_| status == Status::Playing)
                .map(|_| side(pos.side)),
        }
    });
    State {
        room: room.spec.id.clone(),
        variant: room.spec.variant.name().to_string(),
        game: room.game_no,
        moves: squares(room.game.moves()),
        board: pos.to_obf()[..64].to_string(),
        to_move: (!over).then(|| side(pos.side)),
        legal,
        discs: by_color(discs(pos)),
        supply: (room.spec.variant == Variant::Classic)
            .then(|| by_color(pos.supply.map(u32::from))),
        seats,
        spectators: presence.spectators as u32,
        undo: room.undo.map(|c| Offer { by: side(c) }),
        takeback: room.takeback.as_ref().map(|(by, gone)| Takeback {
            by: side(*by),
            moves: squares(gone),
        }),
        draw: room.draw.map(|c| Offer { by: side(c) }),
        claim: room.claim_from().map(|(by, from)| ClaimTime {
            by: side(by),
            in_ms: from.saturating_sub(now),
        }),
        rematch: [Color::Black, Color::White]
            .into_iter()
            .filter(|c| room.rematch[c.index()])
            .map(side)
            .collect(),
        clock,
        status,
        result: room.result.map(|r| GameResult {
            winner: r.winner.map(side),
            black: r.discs[0],
            white: r.discs[1],
            reason: r.reason,
        }),
    }
}

/// `{"type":"state",...}` for a connection in `seat`.
pub fn state_frame(state: &State, seat_of: Option<Color>) -> String {
    frame(&ClientOut::State {
        seat: seat(seat_of),
        state: state.clone(),
    })
}

/// The answer to hello; `token` only when a seat was newly taken.
pub fn welcome_frame(state: &State, seat_of: Option<Color>, token: Option<&str>) -> String {
    frame(&ClientOut::Welcome {
        seat: seat(seat_of),
        token: token.map(str::to_string),
        state: state.clone(),
    })
}
