//! Mollett: a Reversi engine for modern (Othello) and classic (1880s) rules.
//!
//! Layers, each using only those before it:
//!
//! - [`rules`]: squares, positions, games, perft and notation (OBF, GGF);
//! - [`engine`]: evaluation, search, table, time management;
//! - [`protocol`]: one game session driven by the GTP and NBoard dialects;
//! - [`tournament`], [`review`] and [`train`]: the tools (match runner,
//!   reports, tuning, game review, self-play, training).
//!
//! [`rng`], [`files`] and [`clock`] are leaf utilities any layer may use.

pub mod clock;
pub mod engine;
pub mod files;
pub mod protocol;
pub mod rng;
pub mod rules;
// The tools run engine processes and write files: not in the browser build.
#[cfg(not(target_arch = "wasm32"))]
pub mod review;
#[cfg(not(target_arch = "wasm32"))]
pub mod tournament;
#[cfg(not(target_arch = "wasm32"))]
pub mod train;

pub use rules::{
    perft, Color, Game, GgfError, GgfGame, GgfMove, Move, ParseMoveError, PlayError, Position,
    PositionError, Square, Variant, CENTRE, CLASSIC_SUPPLY,
};
