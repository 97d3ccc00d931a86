//! `mollett analyze`: games reviewed move by move (the engine's
//! [`review_move`](crate::engine::review::review_move)), from every game
//! file Mollett reads, out as text, JSON lines and a ranked summary.
//!
//! Layered, each file using only those listed before it: `sources` reads the
//! game files, `openings` names their openings (the board page's table),
//! `record` is a reviewed move as a JSON line, `progress` the progress
//! line, `run` reviews the games (shards, `--out`, `--resume`, each game
//! handed on as it is done), `facts` says what a game came to (result,
//! turning point), `summary` ranks the players, `report` prints each game.
//! Children import each other, never this file, which only declares.

pub mod facts;
pub mod openings;
pub mod progress;
pub mod record;
pub mod report;
pub mod run;
pub mod sources;
pub mod summary;
