//! The two colours and the variants that name them.

use std::fmt;

/// The rule set: `modern` (Othello) or `classic` (Mollett 1889 / Waterman 1890).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    Modern,
    Classic,
}

impl Variant {
    pub fn name(self) -> &'static str {
        match self {
            Variant::Modern => "modern",
            Variant::Classic => "classic",
        }
    }
    pub fn parse(s: &str) -> Option<Variant> {
        match s.to_ascii_lowercase().as_str() {
            "modern" | "othello" => Some(Variant::Modern),
            "classic" => Some(Variant::Classic),
            _ => None,
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Black, or the second colour: white in modern, red in classic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Color {
    Black = 0,
    White = 1,
}

impl Color {
    pub const fn other(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The colour's name in a variant: the second colour is `red` in classic.
    pub fn name(self, variant: Variant) -> &'static str {
        match (self, variant) {
            (Color::Black, _) => "black",
            (Color::White, Variant::Modern) => "white",
            (Color::White, Variant::Classic) => "red",
        }
    }
    /// `black`/`b`, `white`/`w`, `red`/`r` in any case, in either variant.
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "black" | "b" => Some(Color::Black),
            "white" | "w" | "red" | "r" => Some(Color::White),
            _ => None,
        }
    }
}
