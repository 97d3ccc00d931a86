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
    /// The sender's seat's name (at most `NAME_MAX` characters, no control
    /// characters; empty: no name). Shown by the page as text.
    Name {
        name: String,
    },
    /// Offer a draw (or accept the other seat's pending offer).
    Draw,
    DrawAnswer {
        accept: bool,
    },
    /// End the game with no result while a side has not placed a disc yet.
    Abort,
    /// Win the game because the other seat has been offline for the
    /// server's claim time (the state's `claim` says when).
    Claim,
    /// Ask for a one-time token that moves this seat to another device.
    Transfer,
}

/// A seat's name may be this many characters long (Unicode scalar values).
pub const NAME_MAX: usize = 24;

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
    /// The answer to `transfer`, to the asker only: hello with `token` on
    /// another device (the page's link `?room=ID&seat=TOKEN`) moves the seat
    /// there, once, within `expires_ms`.
    TransferLink {
        token: String,
        expires_ms: u64,
    },
    /// To a connection whose seat was moved to another device: it watches now.
    SeatMoved {
        seat: Side,
    },
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
    pub undo: Option<Offer>,
    /// The last accepted takeback of this game, until the next move.
    #[serde(default)]
    pub takeback: Option<Takeback>,
    /// A pending draw offer.
    #[serde(default)]
    pub draw: Option<Offer>,
    /// The other seat is offline: `by` may claim the game in `in_ms`.
    #[serde(default)]
    pub claim: Option<ClaimTime>,
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

impl<T> ByColour<T> {
    pub fn get(&self, side: Side) -> &T {
        match side {
            Side::Black => &self.black,
            Side::White => &self.white,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatPresence {
    pub taken: bool,
    pub online: bool,
    /// The name the seat gave itself, if any (text, never markup).
    #[serde(default)]
    pub name: Option<String>,
}

/// A pending request (undo, draw) and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Offer {
    pub by: Side,
}

/// Who asked the takeback and the plies it removed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Takeback {
    pub by: Side,
    pub moves: Vec<String>,
}

/// When the seat that stayed may claim the game: `in_ms` from when the
/// state was sent (0: now; the server sends a state at that moment).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClaimTime {
    pub by: Side,
    pub in_ms: u64,
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
    /// A draw offered and accepted.
    Agreement,
    /// Ended before both sides had placed a disc: no result.
    Aborted,
    /// The other seat was offline and the one who stayed claimed the game.
    Left,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameResult {
    /// None: a draw (or an aborted game).
    pub winner: Option<Side>,
    pub black: u32,
    pub white: u32,
    pub reason: Reason,
}

impl ClientIn {
    /// The message's `type` (every variant named, so a new one is added to
    /// the contract's examples too: see the tests).
    pub fn kind(&self) -> &'static str {
        match self {
            ClientIn::Hello { .. } => "hello",
            ClientIn::Move { .. } => "move",
            ClientIn::Undo => "undo",
            ClientIn::UndoAnswer { .. } => "undo-answer",
            ClientIn::Resign => "resign",
            ClientIn::Rematch => "rematch",
            ClientIn::Ping => "ping",
            ClientIn::Name { .. } => "name",
            ClientIn::Draw => "draw",
            ClientIn::DrawAnswer { .. } => "draw-answer",
            ClientIn::Abort => "abort",
            ClientIn::Claim => "claim",
            ClientIn::Transfer => "transfer",
        }
    }
}

impl ClientOut {
    /// The message's `type`.
    pub fn kind(&self) -> &'static str {
        match self {
            ClientOut::Welcome { .. } => "welcome",
            ClientOut::State { .. } => "state",
            ClientOut::Error { .. } => "error",
            ClientOut::Pong => "pong",
            ClientOut::TransferLink { .. } => "transfer-link",
            ClientOut::SeatMoved { .. } => "seat-moved",
        }
    }
}

impl Reason {
    /// Every reason, as the contract lists them.
    pub const ALL: [Reason; 6] = [
        Reason::End,
        Reason::Resign,
        Reason::Time,
        Reason::Agreement,
        Reason::Aborted,
        Reason::Left,
    ];
}

/// The contract's examples (tests/data/rooms/wire.json), for the tests of
/// every side of the wire.
pub const EXAMPLES: &str = include_str!("../../tests/data/rooms/wire.json");

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
        assert_eq!(state.undo, Some(Offer { by: Side::White }));
        // Fields added to the contract later read as absent from an older server.
        assert_eq!(
            (state.takeback, state.draw, state.claim),
            (None, None, None)
        );
        assert_eq!(state.seats.black.name, None);
        assert_eq!(state.status, Status::Over);
        let r = state.result.unwrap();
        assert_eq!((r.winner, r.reason, r.black), (None, Reason::Time, 33));
        assert!(serde_json::from_str::<ClientOut>(r#"{"type":"state","seat":"red"}"#).is_err());
    }

    /// Every example of the contract's file is read into its type and
    /// written back as the same JSON, and every message type (and every
    /// reason) has an example.
    #[test]
    fn the_contracts_examples_round_trip() {
        use serde_json::Value;
        let file: Value = serde_json::from_str(EXAMPLES).unwrap();
        fn check<T: serde::de::DeserializeOwned + Serialize>(v: &Value) -> T {
            let msg: T = serde_json::from_value(v.clone()).unwrap_or_else(|e| panic!("{v}: {e}"));
            assert_eq!(&serde_json::to_value(&msg).unwrap(), v, "written back");
            msg
        }
        let ins: Vec<ClientIn> = file["client_in"]
            .as_array()
            .unwrap()
            .iter()
            .map(check)
            .collect();
        let outs: Vec<ClientOut> = file["client_out"]
            .as_array()
            .unwrap()
            .iter()
            .map(check)
            .collect();
        for kind in [
            "hello",
            "move",
            "undo",
            "undo-answer",
            "resign",
            "rematch",
            "ping",
            "name",
            "draw",
            "draw-answer",
            "abort",
            "claim",
            "transfer",
        ] {
            assert!(ins.iter().any(|m| m.kind() == kind), "no example of {kind}");
        }
        for kind in [
            "welcome",
            "state",
            "error",
            "pong",
            "transfer-link",
            "seat-moved",
        ] {
            assert!(
                outs.iter().any(|m| m.kind() == kind),
                "no example of {kind}"
            );
        }
        let reasons: Vec<Reason> = serde_json::from_value(file["reasons"].clone()).unwrap();
        assert_eq!(reasons, Reason::ALL);
        // A message the contract does not have is refused, not guessed at.
        for bad in [
            r#"{"type":"offer-draw"}"#,
            r#"{"type":"name"}"#,
            r#"{"type":"draw-answer"}"#,
        ] {
            assert!(serde_json::from_str::<ClientIn>(bad).is_err(), "{bad}");
        }
    }
}
