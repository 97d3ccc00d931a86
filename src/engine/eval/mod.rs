//! Static evaluation: the interface the search calls, its units, and the
//! evaluators: the learned pattern evaluation ([`PatternEval`], the default)
//! and the handcrafted one ([`Handcrafted`]).
//!
//! The search only sees [`Evaluator`]; which evaluator it gets is an
//! [`EvalKind`] (the `eval` option), so choosing one never touches the search.

pub mod handcrafted;
pub mod pattern;

pub use handcrafted::{Handcrafted, HandcraftedWeights};
pub use pattern::PatternEval;

use crate::rules::position::Position;

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

    /// The value the exact solver orders its moves by, in the same units:
    /// by default [`Evaluator::evaluate`]. Ordering never changes a solve's
    /// result, only how many nodes it takes.
    fn order_evaluate(&self, pos: &Position) -> i32 {
        self.evaluate(pos)
    }

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
    /// default since it beat the handcrafted one 23-0 (SPRT, docs/history.md).
    #[default]
    Learned,
    /// The pattern evaluation with weights from a file written by `mollett train`.
    File(std::path::PathBuf),
}

impl EvalKind {
    /// The kind a name denotes (`handcrafted`, `learned`, else a weight
    /// file's path), without reading any file.
    pub fn named(name: &str) -> EvalKind {
        match name {
            "handcrafted" => EvalKind::Handcrafted,
            "learned" | "pattern" | "embedded" => EvalKind::Learned,
            path => EvalKind::File(path.into()),
        }
    }

    /// [`EvalKind::named`], checking that a weight file loads.
    pub fn from_name(name: &str) -> Result<EvalKind, String> {
        let kind = EvalKind::named(name);
        kind.try_evaluator()?;
        Ok(kind)
    }

    /// The evaluator, or why its weight file does not load.
    pub fn try_evaluator(&self) -> Result<Box<dyn Evaluator>, String> {
        match self {
            EvalKind::Handcrafted => Ok(Box::new(Handcrafted::default())),
            EvalKind::Learned => Ok(learned_evaluator()),
            // A FIFO or device would block the protocol loop on open.
            EvalKind::File(path) if path.exists() && !path.is_file() => {
                Err(format!("{}: not a regular file", path.display()))
            }
            EvalKind::File(path) => PatternEval::from_file(path)
                .map(|e| Box::new(e) as Box<dyn Evaluator>)
                .map_err(|e| e.to_string()),
        }
    }

    /// The evaluator; a weight file that has gone bad since it was checked
    /// falls back to the handcrafted evaluation, with a warning.
    pub fn evaluator(&self) -> Box<dyn Evaluator> {
        self.try_evaluator().unwrap_or_else(|e| {
            log::warn!("{e}; using the handcrafted evaluation");
            Box::new(Handcrafted::default())
        })
    }
}

impl std::fmt::Display for EvalKind {
    /// The name [`EvalKind::named`] reads back.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalKind::Handcrafted => f.write_str("handcrafted"),
            EvalKind::Learned => f.write_str("learned"),
            EvalKind::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// The learned pattern evaluation with the weights shipped in the binary
/// (one set per variant).
pub fn learned_evaluator() -> Box<dyn Evaluator> {
    Box::new(pattern::EmbeddedEval::new().expect("the embedded weight files are valid"))
}
