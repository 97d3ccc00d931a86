//! Squares `a1`..`h8` (a1 top-left, rows numbered downwards) and moves.

use std::fmt;
use std::str::FromStr;

/// One of the 64 squares; index = row * 8 + column, so `a1` = 0, `h1` = 7, `h8` = 63.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }
    /// Caller guarantees `index < 64`.
    pub const fn from_index(index: u32) -> Square {
        Square((index & 63) as u8)
    }
    pub const fn from_coords(col: u8, row: u8) -> Square {
        Square((row & 7) * 8 + (col & 7))
    }
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    pub const fn col(self) -> u8 {
        self.0 & 7
    }
    pub const fn row(self) -> u8 {
        self.0 >> 3
    }
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
    pub fn all() -> impl Iterator<Item = Square> {
        (0..64).map(Square)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            (b'a' + self.col()) as char,
            (b'1' + self.row()) as char
        )
    }
}

/// Why a square or move failed to parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError;

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid move")
    }
}

impl std::error::Error for ParseMoveError {}

impl FromStr for Square {
    type Err = ParseMoveError;
    fn from_str(s: &str) -> Result<Square, ParseMoveError> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return Err(ParseMoveError);
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        if col < 8 && row < 8 {
            Ok(Square::from_coords(col, row))
        } else {
            Err(ParseMoveError)
        }
    }
}

/// A move: a disc placed on a square, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    Place(Square),
    Pass,
}

impl Move {
    pub fn square(self) -> Option<Square> {
        match self {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => sq.fmt(f),
            Move::Pass => f.write_str("pass"),
        }
    }
}

impl FromStr for Move {
    type Err = ParseMoveError;
    /// Reads `a1`..`h8` in any case, `pass` in any case, and NBoard's `PA`.
    fn from_str(s: &str) -> Result<Move, ParseMoveError> {
        if s.eq_ignore_ascii_case("pass") || s.eq_ignore_ascii_case("pa") {
            Ok(Move::Pass)
        } else {
            s.parse().map(Move::Place)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn round_trip() {
        for sq in Square::all() {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
            assert_eq!(sq.to_string().to_uppercase().parse::<Square>(), Ok(sq));
        }
        assert_eq!("a1".parse::<Square>().unwrap().index(), 0);
        assert_eq!("h8".parse::<Square>().unwrap().index(), 63);
        assert_eq!("e4".parse::<Square>().unwrap().index(), 28);
        assert!("i1".parse::<Square>().is_err());
        assert!("a9".parse::<Square>().is_err());
        assert!("a".parse::<Square>().is_err());
        assert_eq!("PASS".parse::<Move>(), Ok(Move::Pass));
    }
}
