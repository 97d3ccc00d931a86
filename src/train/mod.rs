//! The learning pipeline: `mollett selfplay` writes labelled positions,
//! `mollett train` fits the pattern weights, `mollett evaltest` measures an
//! evaluation against labelled positions. See `docs/training.md`. Each file
//! is one step; this one only names them and the library's entry points.

pub mod book;
pub mod book_learn;
pub mod book_run;
pub mod chunk;
pub mod corpus;
pub mod evaltest;
pub mod fit;
pub mod grow;
pub mod inputs;
pub mod manifest;
pub mod probcut;
pub mod sample;
pub mod selfplay;
pub mod swing;
pub mod wthor;

pub use evaltest::{eval_errors, evaltest, ErrorRow, EvalChoice, EvalTestReport};
pub use fit::{train_files, TrainReport};
pub use inputs::GameLimits;
pub use inputs::{draw_samples, read_samples};
pub use sample::{game_outcomes, Sample};
