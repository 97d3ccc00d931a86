//! The rooms wire (docs/rooms.md, "Wire contract") as types: what a client
//! sends (`ClientIn`, as lila-ws names the server's input) and what the
//! server sends it (`ClientOut`), each read and written by serde.

use serde::{Deserialize, Serialize};

/// A colour on the wire: the classic game's second colour is `white` here
/// too (only a room's creation takes `red`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    Black,
    White,
}

/// Who a connection is in its room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Seat {
    Black,
    White,
    Spectator,
}

impl Seat {
    pub fn side(self) -> Option<Side> {
        match self {
            Seat::Black => Some(Side::Black),
            Seat::White => Some(Side::White),
            Seat::Spectator => None,
        }
    }
}

/// Client -> server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClientIn {
    /// The first message: a seat's token, or null to take a free seat.
    Hello {
        token: Option<String>,
    },
    /// `ply`: the length of `moves` in the state the client saw.
    Move {
        square: String,
        ply: usize,
    },
    Undo,
    UndoAnswer {
        accept: bool,
    },
    Resign,
    Rematch,
    Ping,
}

/// Server -> client.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClientOut {
    /// The answer to hello; `token` only when a seat was newly taken.
    Welcome {
        seat: Seat,
        token: Option<String>,
        state: State,
    },
    /// After every change, to every connection with its own seat.
    State {
        seat: Seat,
        state: State,
    },
    /// Nothing changed; `code` is one of the contract's.
    Error {
        code: String,
        message: String,
    },
    Pong,
}

/// `waiting` (a seat is free), `playing` or `over`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    Waiting,
    Playing,
    Over,
}

/// A room's state. Fields the contract may add later are ignored when read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct State {
    pub room: String,
    /// `modern` or `classic`.
    pub variant: String,
    /// 1, then 2 after a rematch.
    pub game: u32,
    /// Every ply, passes included as `pass`.
    pub moves: Vec<String>,
    /// a1 b1 .. h8: `X` black, `O` white, `-` empty.
    pub board: String,
    /// None when the game is over.
    pub to_move: Option<Side>,
    /// The side to move's legal squares.
    pub legal: Vec<String>,
    pub discs: ByColour<u32>,
    /// Discs left to place (classic only).
    pub supply: Option<ByColour<u32>>,
    pub seats: ByColour<SeatPresence>,
    pub spectators: u32,
    /// A pending undo request.
    pub undo: Option<UndoRequest>,
    /// Colours that have offered a rematch.
    pub rematch: Vec<Side>,
    pub clock: Option<Clock>,
    pub status: Status,
    pub result: Option<GameResult>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByColour<T> {
    pub black: T,
    pub white: T,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPresence {
    pub taken: bool,
    pub online: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UndoRequest {
    pub by: Side,
}

/// Times as of when the state was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clock {
    pub black_ms: u64,
    pub white_ms: u64,
    pub increment_ms: u64,
    /// The side whose time runs, if any.
    pub running: Option<Side>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Reason {
    /// Neither side can move.
    End,
    Resign,
    /// A flag fell.
    Time,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// None: a draw.
    pub winner: Option<Side>,
    pub black: u32,
    pub white: u32,
    pub reason: Reason,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_are_the_contracts() {
        // The frames as docs/rooms.md writes them.
        for (msg, text) in [
            (
                ClientIn::Hello { token: None },
                r#"{"type":"hello","token":null}"#,
            ),
            (
                ClientIn::Move {
                    square: "d3".into(),
                    ply: 12,
                },
                r#"{"type":"move","square":"d3","ply":12}"#,
            ),
            (
                ClientIn::UndoAnswer { accept: false },
                r#"{"type":"undo-answer","accept":false}"#,
            ),
            (ClientIn::Resign, r#"{"type":"resign"}"#),
        ] {
            assert_eq!(serde_json::to_string(&msg).unwrap(), text);
            assert_eq!(serde_json::from_str::<ClientIn>(text).unwrap(), msg);
        }
    }

    #[test]
    fn a_server_state_is_read() {
        // docs/rooms.md's State example with its placeholders filled in.
        let text = r#"{"type":"welcome","seat":"white","token":"00ff","state":
            {"room":"0123456789abcdef0123456789abcdef","variant":"classic","game":2,
             "moves":["f5","d6","pass","c3"],"board":"----------------------------------------------------------------",
             "to_move":"black","legal":["d3","c4"],"discs":{"black":2,"white":2},
             "supply":{"black":30,"white":30},
             "seats":{"black":{"taken":true,"online":true},"white":{"taken":false,"online":false}},
             "spectators":0,"undo":{"by":"white"},"rematch":[],"future":"ignored",
             "clock":{"black_ms":300000,"white_ms":1,"increment_ms":2000,"running":null},
             "status":"over","result":{"winner":null,"black":33,"white":31,"reason":"time"}}}"#;
        let ClientOut::Welcome { seat, token, state } = serde_json::from_str(text).unwrap() else {
            panic!("a welcome");
        };
        assert_eq!((seat, token.as_deref()), (Seat::White, Some("00ff")));
        assert_eq!(state.moves[2], "pass");
        assert_eq!(state.undo, Some(UndoRequest { by: Side::White }));
        assert_eq!(state.status, Status::Over);
        let r = state.result.unwrap();
        assert_eq!((r.winner, r.reason, r.black), (None, Reason::Time, 33));
        assert!(serde_json::from_str::<ClientOut>(r#"{"type":"state","seat":"red"}"#).is_err());
    }
}
