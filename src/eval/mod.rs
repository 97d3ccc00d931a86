//! Static evaluation: the interface the search calls, its units, and the handcrafted evaluator.
//!
//! The search only sees [`Evaluator`], so a learned pattern evaluation can
//! replace [`Handcrafted`] later without touching the search.

pub mod features;
pub mod handcrafted;
pub mod pattern;

pub use handcrafted::{Handcrafted, Weights};
pub use pattern::PatternEval;

use crate::board::Position;

/// Evaluation units per disc: every internal score is in hundredths of a disc.
pub const UNITS_PER_DISC: i32 = 100;

/// Largest magnitude a static evaluation may return: strictly inside the range
/// of exact final scores (±64 discs), so a heuristic never looks like a
/// proven win by the whole board.
pub const EVAL_LIMIT: i32 = 63 * UNITS_PER_DISC;

/// A static evaluation of a position from the side to move's view.
pub trait Evaluator: Send + Sync {
    /// Expected final disc difference (side to move minus opponent), in
    /// [`UNITS_PER_DISC`] units, within `±EVAL_LIMIT`. Called on positions
    /// where the game is not over (the search scores finished games itself).
    fn evaluate(&self, pos: &Position) -> i32;
}

/// Which built-in evaluation a search uses (the `eval` option).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Mobility, corners, stability, parity: the default until a match
    /// shows the learned one is at least as strong.
    #[default]
    Handcrafted,
    /// The pattern evaluation with the weights embedded in the binary.
    Learned,
}

impl EvalKind {
    pub fn evaluator(self) -> Box<dyn Evaluator> {
        match self {
            EvalKind::Handcrafted => Box::new(Handcrafted::default()),
            EvalKind::Learned => learned_evaluator(),
        }
    }
}

/// The learned pattern evaluation with the weights shipped in the binary.
pub fn learned_evaluator() -> Box<dyn Evaluator> {
    Box::new(PatternEval::embedded().expect("the embedded weight file is valid"))
}

/// An evaluator by name, for an `evalfile`-style option: `handcrafted`,
/// `learned` (the embedded weights), or the path of a weight file written by
/// `mollett train`.
pub fn evaluator_by_name(name: &str) -> Result<Box<dyn Evaluator>, String> {
    match name {
        "handcrafted" => Ok(Box::new(Handcrafted::default())),
        "learned" | "pattern" | "embedded" => PatternEval::embedded()
            .map(|e| Box::new(e) as Box<dyn Evaluator>)
            .map_err(|e| e.to_string()),
        path => PatternEval::from_file(path)
            .map(|e| Box::new(e) as Box<dyn Evaluator>)
            .map_err(|e| e.to_string()),
    }
}
