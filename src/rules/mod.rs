//! The rules of both variants and their notation. Knows nothing of search,
//! evaluation or protocols; everything above builds on it.
//!
//! Squares, colours and variants; bitboards and their move kernels (with
//! run-time CPU dispatch); positions, games with history, perft, and the board
//! geometry (corners, regions, stable discs) that search and evaluation share.
//! Notation beside them: OBF boards and problem files, move lists, GGF.

pub mod bitboard;
pub mod color;
pub mod cpu;
pub mod game;
pub mod geometry;
pub mod ggf;
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub mod lanes;
pub mod moveline;
pub mod obf;
pub mod perft;
pub mod position;
pub mod square;
pub mod text;
pub mod wthor;

pub use color::{Color, Variant};
pub use game::{Game, PlayError};
pub use ggf::{GgfError, GgfGame, GgfMove};
pub use perft::perft;
pub use position::{Position, PositionError, CENTRE, CLASSIC_SUPPLY};
pub use square::{Move, ParseMoveError, Square};
