//! The rooms wire format (docs/rooms.md): client messages parsed into
//! types, and the JSON the server sends. Nothing here touches a socket.

use crate::event::color_name;
use crate::room::{discs, Command, Millis, Room, RoomError, Status};
use mollett::{Color, Move, Variant};
use serde::Deserialize;
use serde_json::{json, Value};

/// A frame's text may not be longer than this (bytes).
pub const MAX_FRAME: usize = 4096;

/// What a client may send.
#[derive(Debug, PartialEq, Eq, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClientMsg {
    Hello { token: Option<String> },
    Move { square: String, ply: usize },
    Undo,
    UndoAnswer { accept: bool },
    Resign,
    Rematch,
    Ping,
}

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
        json!({"type": "error", "code": self.code, "message": self.message}).to_string()
    }
}

impl From<RoomError> for WireError {
    fn from(e: RoomError) -> WireError {
        WireError::new(e.code(), e.message())
    }
}

/// Reads one text frame.
pub fn parse(text: &str) -> Result<ClientMsg, WireError> {
    serde_json::from_str(text).map_err(|e| WireError::new("bad-message", e.to_string()))
}

/// The room command a game message asks for (`None` for hello and ping).
pub fn command(msg: &ClientMsg) -> Result<Option<Command>, WireError> {
    Ok(Some(match msg {
        ClientMsg::Move { square, ply } => Command::Move {
            square: square.parse().map_err(|_| {
                WireError::new(
                    "illegal-move",
                    format!("'{square}' is not a square (a1..h8)"),
                )
            })?,
            ply: *ply,
        },
        ClientMsg::Undo => Command::Undo,
        ClientMsg::UndoAnswer { accept } => Command::UndoAnswer { accept: *accept },
        ClientMsg::Resign => Command::Resign,
        ClientMsg::Rematch => Command::Rematch,
        ClientMsg::Hello { .. } | ClientMsg::Ping => return Ok(None),
    }))
}

/// Who is connected: per colour whether a seat holder is online, and the
/// number of spectators (not stored: it is the live connections).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Presence {
    pub online: [bool; 2],
    pub spectators: usize,
}

/// A seat's wire name: `black`, `white` or `spectator`.
pub fn seat_name(seat: Option<Color>) -> &'static str {
    seat.map_or("spectator", color_name)
}

fn by_color<T: serde::Serialize>(v: [T; 2]) -> Value {
    let [black, white] = v;
    json!({"black": black, "white": white})
}

/// The `State` object as of `now` (no tokens in it).
pub fn state(room: &Room, presence: Presence, now: Millis) -> Value {
    let pos = room.game.position();
    let status = room.status();
    let to_move = (status != Status::Over).then(|| color_name(pos.side));
    let legal: Vec<String> = if status == Status::Over {
        Vec::new()
    } else {
        pos.legal_moves()
            .into_iter()
            .filter_map(Move::square)
            .map(|s| s.to_string())
            .collect()
    };
    let seats = by_color(
        [0, 1].map(|i| json!({"taken": room.seats[i].is_some(), "online": presence.online[i]})),
    );
    let clock = room.clock.map(|c| {
        let left = [Color::Black, Color::White].map(|col| c.left_at(col, pos.side, now));
        json!({
            "black_ms": left[0], "white_ms": left[1], "increment_ms": c.spec.increment_ms,
            "running": c.since.filter(|_| status == Status::Playing).map(|_| color_name(pos.side)),
        })
    });
    let result = room.result.map(|r| {
        json!({"winner": r.winner.map(color_name), "black": r.discs[0], "white": r.discs[1],
               "reason": r.reason.name()})
    });
    let rematch: Vec<&str> = [Color::Black, Color::White]
        .into_iter()
        .filter(|c| room.rematch[c.index()])
        .map(color_name)
        .collect();
    let status_name = match status {
        Status::Waiting => "waiting",
        Status::Playing => "playing",
        Status::Over => "over",
    };
    json!({
        "room": room.spec.id,
        "variant": room.spec.variant.name(),
        "game": room.game_no,
        "moves": room.game.moves().iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        "board": &pos.to_obf()[..64],
        "to_move": to_move,
        "legal": legal,
        "discs": by_color(discs(pos)),
        "supply": (room.spec.variant == Variant::Classic).then(|| by_color(pos.supply)),
        "seats": seats,
        "spectators": presence.spectators,
        "undo": room.undo.map(|c| json!({"by": color_name(c)})),
        "takeback": room.takeback.as_ref().map(|(by, gone)| json!({
            "by": color_name(*by),
            "moves": gone.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        })),
        "rematch": rematch,
        "clock": clock,
        "status": status_name,
        "result": result,
    })
}

/// `{"type":"state",...}` for one connection, from the state serialised once.
pub fn state_frame(state: &str, seat: Option<Color>) -> String {
    format!(
        r#"{{"type":"state","seat":"{}","state":{state}}}"#,
        seat_name(seat)
    )
}

/// The answer to hello; `token` only when a seat was newly taken.
pub fn welcome_frame(state: &str, seat: Option<Color>, token: Option<&str>) -> String {
    let token = serde_json::to_string(&token).expect("a string serialises");
    format!(
        r#"{{"type":"welcome","seat":"{}","token":{token},"state":{state}}}"#,
        seat_name(seat)
    )
}
