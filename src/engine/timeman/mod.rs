//! Time management: from a clock to per-move limits.
//!
//! The rule of the house: the hard limit always leaves `margin` on the clock
//! (for process and pipe latency), so the engine never loses on time.

mod clock;
mod limits;

pub use clock::{check_secs, Clock, Clocks, KgsTime, MAX_CLOCK_SECS};
pub use limits::{
    allocate, MoveTime, TimeParams, BYO_BORROW_SHARE, BYO_SOFT_SHARE, ENDGAME_MOVES, FOCUS_EMPTIES,
    HARD_FACTOR, MAX_SHARE, MIDGAME_WEIGHT, MIN_LIMIT, MIN_WEIGHT, RESERVE_MOVES,
};
