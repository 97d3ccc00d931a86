//! What a room is made of on disk: its spec (fixed at creation) and the
//! events that changed it, in order. Stored as JSON; colours as
//! `black`/`white`, squares as `d3`, times as Unix milliseconds.

use mollett::{Color, Square, Variant};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A room's fixed settings.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoomSpec {
    pub id: String,
    #[serde(with = "variant_text")]
    pub variant: Variant,
    pub clock: Option<ClockSpec>,
    /// When the room was made (Unix ms).
    pub created: u64,
}

/// The time control: main time and increment per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSpec {
    pub initial_ms: u64,
    pub increment_ms: u64,
}

/// One accepted change. `left_ms` is both clocks after the change (by
/// colour index) when the room has a clock, so replay needs no arithmetic.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "e", rename_all = "kebab-case")]
pub enum Event {
    Seat {
        #[serde(with = "color_text")]
        color: Color,
        token: String,
        at: u64,
    },
    Move {
        #[serde(with = "square_text")]
        square: Square,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    UndoAsk {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
    },
    UndoAnswer {
        accept: bool,
        /// Plies an accepted takeback removed (absent in events stored
        /// before the takeback rule: those took back the last placement).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        plies: Option<u32>,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    Resign {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    Flag {
        #[serde(with = "color_text")]
        loser: Color,
        at: u64,
    },
    Rematch {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
    },
    /// A seat's name (`None`: none).
    Name {
        #[serde(with = "color_text")]
        color: Color,
        name: Option<String>,
        at: u64,
    },
    DrawOffer {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
    },
    DrawAnswer {
        accept: bool,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    Abort {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    /// `by` won: the other seat had been offline for the claim time.
    Claim {
        #[serde(with = "color_text")]
        by: Color,
        at: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<[u64; 2]>,
    },
    /// A one-time `token` that moves `color`'s seat to the device saying
    /// hello with it.
    TransferAsk {
        #[serde(with = "color_text")]
        color: Color,
        token: String,
        at: u64,
    },
    /// The seat moved: `token` is its new token, the old one retired.
    Transfer {
        #[serde(with = "color_text")]
        color: Color,
        token: String,
        at: u64,
    },
}

/// `black` / `white`, the wire's names for both variants.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

fn bad<E: serde::de::Error>(what: &str, s: &str) -> E {
    E::custom(format!("bad {what} '{s}'"))
}

mod color_text {
    use super::*;
    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(color_name(*c))
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let s = String::deserialize(d)?;
        Color::parse(&s).ok_or_else(|| bad("colour", &s))
    }
}

mod square_text {
    use super::*;
    pub fn serialize<S: Serializer>(sq: &Square, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&sq.to_string())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let s = String::deserialize(d)?;
        s.parse().map_err(|_| bad("square", &s))
    }
}

mod variant_text {
    use super::*;
    pub fn serialize<S: Serializer>(v: &Variant, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(v.name())
    }
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Variant, D::Error> {
        let s = String::deserialize(d)?;
        Variant::parse(&s).ok_or_else(|| bad("variant", &s))
    }
}
