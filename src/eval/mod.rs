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

    /// Standard deviation, in discs, of the difference between a `depth`-ply
    /// and a `shallow`-ply search of a position with `empties` empty squares:
    /// ProbCut's error model (fitted by `mollett probcut`, see docs/training.md).
    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        handcrafted::PROBCUT_SIGMA.sigma(depth, shallow, empties)
    }
}

/// ProbCut's error model: a plane in the depths and the empties, in discs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SigmaModel {
    pub base: f64,
    pub per_depth: f64,
    pub per_shallow: f64,
    pub per_empty: f64,
}

impl SigmaModel {
    pub fn sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        (self.base
            + self.per_depth * depth as f64
            + self.per_shallow * shallow as f64
            + self.per_empty * empties as f64)
            .max(0.5)
    }
}

/// Which evaluation a search uses (the `eval` option).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    /// Mobility, corners, stability, parity.
    Handcrafted,
    /// The pattern evaluation with the weights embedded in the binary: the
    /// default since it beat the handcrafted one 23-0 (SPRT, BENCHMARKS.md).
    #[default]
    Learned,
    /// The pattern evaluation with weights from a file written by `mollett train`.
    File(std::path::PathBuf),
}

impl EvalKind {
    /// `handcrafted`, `learned`, or the path of a weight file, which must load.
    pub fn from_name(name: &str) -> Result<EvalKind, String> {
        match name {
            "handcrafted" => Ok(EvalKind::Handcrafted),
            "learned" | "pattern" | "embedded" => Ok(EvalKind::Learned),
            path => {
                PatternEval::from_file(path).map_err(|e| format!("{path}: {e}"))?;
                Ok(EvalKind::File(path.into()))
            }
        }
    }

    pub fn evaluator(&self) -> Box<dyn Evaluator> {
        match self {
            EvalKind::Handcrafted => Box::new(Handcrafted::default()),
            EvalKind::Learned => learned_evaluator(),
            // Checked by `from_name`; a file that has gone bad since falls back to the default.
            EvalKind::File(path) => match PatternEval::from_file(path) {
                Ok(e) => Box::new(e),
                Err(e) => {
                    log::warn!("{}: {e}; using the handcrafted evaluation", path.display());
                    Box::new(Handcrafted::default())
                }
            },
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
