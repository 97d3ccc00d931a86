//! Time in a room: the chess-style clock, and how long a transfer link and
//! an absence last.

use crate::event::ClockSpec;
use mollett::Color;

/// Unix time in milliseconds: every request carries the time it arrived.
pub type Millis = u64;

/// A transfer link works this long after it was asked for (ms): long enough
/// to open it on a phone, short enough that an old screenshot is useless.
pub const TRANSFER_VALID: Millis = 10 * 60 * 1000;

/// A seat offline this long (ms) may be claimed by the one who stayed
/// (lichess offers it after a similar wait); `limits::CLAIM_AFTER`'s value.
pub const CLAIM_AFTER: Millis = 60 * 1000;

/// The chess-style clock: time left per colour, and since when the side to
/// move's time has been running (`None`: stopped).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub spec: ClockSpec,
    pub left_ms: [u64; 2],
    pub since: Option<Millis>,
}

impl Clock {
    pub(super) fn new(spec: ClockSpec) -> Clock {
        Clock {
            spec,
            left_ms: [spec.initial_ms; 2],
            since: None,
        }
    }

    /// Time left for `c` at `now`, counting the running side's time down.
    pub fn left_at(&self, c: Color, to_move: Color, now: Millis) -> u64 {
        let left = self.left_ms[c.index()];
        match self.since {
            Some(since) if c == to_move => left.saturating_sub(now.saturating_sub(since)),
            _ => left,
        }
    }
}
