//! Mollett: a Reversi engine for modern (Othello) and classic (1880s) rules.
//!
//! The modules are layers, [`rules`] < [`engine`] < [`protocol`] <
//! [`tournament`] < [`rooms`] < [`analyze`] < [`train`], each importing only
//! those before it (`tests/layers.rs` checks it; `docs/architecture.md` says
//! what each holds). [`rng`], [`files`] and [`clock`] are leaves any layer
//! may use.

pub mod clock;
pub mod engine;
pub mod files;
pub mod protocol;
pub mod rng;
pub mod rules;
// The tools run engine processes and write files: not in the browser build.
#[cfg(not(target_arch = "wasm32"))]
pub mod analyze;
#[cfg(not(target_arch = "wasm32"))]
pub mod rooms;
#[cfg(not(target_arch = "wasm32"))]
pub mod tournament;
#[cfg(not(target_arch = "wasm32"))]
pub mod train;

pub use rules::{
    perft, Color, Game, GgfError, GgfGame, GgfMove, Move, ParseMoveError, PlayError, Position,
    PositionError, Square, Variant, CENTRE, CLASSIC_SUPPLY,
};
