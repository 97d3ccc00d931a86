//! Time management: from a clock to per-move limits. STUB: API fixed, body placeholder.

use std::time::Duration;

/// A clock as GTP describes it (`time_settings` and `time_left`).
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub struct Clock {
    /// Main time left, seconds.
    pub main_left: f64,
    /// Byo-yomi period length, seconds (0: absolute time).
    pub byo_time: f64,
    /// Stones per byo-yomi period (0 with byo_time > 0: no limit).
    pub byo_stones: u32,
    /// Stones left in the current period (0 while in main time).
    pub stones_left: u32,
    /// Time left in the current period, seconds (when `stones_left` > 0).
    pub period_left: f64,
}

/// Per-move limits computed from a clock: a target and a hard stop.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveTime {
    pub soft: Duration,
    pub hard: Duration,
}

/// Turns a clock into limits for one move with `empties` squares left.
/// `margin` is kept back for process and pipe latency.
pub fn allocate(clock: &Clock, empties: u32, margin: Duration) -> Option<MoveTime> {
    let _ = (clock, empties, margin);
    None
}
