//! The interface the search calls ([`Evaluator`]), its units, and
//! ProbCut's error model ([`SigmaModel`]) that each evaluation fits.

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
    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64;
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
