//! What an entry says of a score: how it bounds the true value, the depths
//! of exact results, and the move field's "no move".

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the score (a fail high).
    Lower = 1,
    /// The true value is at most the score (a fail low).
    Upper = 2,
    Exact = 3,
}

impl Bound {
    /// How a fail-soft result `score` of a search of (`alpha`, `beta`)
    /// bounds the true value (`alpha` as the search began).
    #[inline]
    pub fn of(score: i32, alpha: i32, beta: i32) -> Bound {
        if score >= beta {
            Bound::Lower
        } else if score > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// Depth stored for results of the exact endgame solver: deeper than any
/// midgame search. A solved entry stores `SOLVED_DEPTH + empties`, so that
/// replacement keeps the results of bigger subtrees.
pub const SOLVED_DEPTH: u8 = 64;

/// True for the depth of an exact solver's result.
#[inline]
pub fn is_solved(depth: u8) -> bool {
    depth >= SOLVED_DEPTH
}

/// "No move" in the 7-bit move field.
pub(super) const NO_MOVE: u8 = 64;
