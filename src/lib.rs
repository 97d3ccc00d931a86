//! Mollett: a Reversi engine for modern (Othello) and classic (1880s) rules.
//!
//! The rules core (`square`, `color`, `bitboard`, `board`, `game`) knows
//! nothing of search or protocol; `search` and `eval` choose moves; `protocol`
//! turns text lines into commands and answers.

pub mod bench;
pub mod bitboard;
pub mod board;
pub mod color;
pub mod cpu;
pub mod eval;
pub mod game;
pub mod ggf;
pub mod perft;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod square;
pub mod stats;
pub mod suite;
pub mod timeman;
pub mod tournament;
pub mod train;
pub mod tt;

pub use board::{Position, PositionError, CENTRE, CLASSIC_SUPPLY};
pub use color::{Color, Variant};
pub use game::{Game, PlayError};
pub use ggf::{GgfError, GgfGame, GgfMove};
pub use perft::perft;
pub use square::{Move, ParseMoveError, Square};
