//! Games won without a move: flag falls and claims over an absent seat, and
//! the clock after a restart.

use super::clock::Millis;
use super::state::Room;
use crate::event::Event;
use mollett::rooms::wire::Status;
use mollett::{Color, Move};

impl Room {
    /// The seat that may claim the game, and from when: while it is played,
    /// both sides have placed a disc (before that the game is aborted, not
    /// won: lichess's rule), and the other seat has been offline with this
    /// one online.
    pub fn claim_from(&self) -> Option<(Color, Millis)> {
        if self.status() != Status::Playing
            || self.placements(Color::Black) == 0
            || self.placements(Color::White) == 0
        {
            return None;
        }
        [Color::Black, Color::White].into_iter().find_map(|c| {
            match (
                self.away_since[c.index()],
                self.away_since[c.other().index()],
            ) {
                (None, Some(since)) => Some((c, since + self.claim_after)),
                _ => None,
            }
        })
    }

    /// Plies the `c` side has placed a disc on this game (passes not counted).
    pub(super) fn placements(&self, c: Color) -> usize {
        let first = self.game.start().side;
        self.game
            .moves()
            .iter()
            .enumerate()
            .filter(|&(i, m)| {
                *m != Move::Pass && (if i % 2 == 0 { first } else { first.other() }) == c
            })
            .count()
    }

    /// The flag fall due at `now`, if the side to move's time has run out.
    pub fn flag(&self, now: Millis) -> Option<Event> {
        let clock = self.clock?;
        clock.since?;
        let side = self.to_move();
        (self.status() == Status::Playing && clock.left_at(side, side, now) == 0).then_some(
            Event::Flag {
                loser: side,
                at: now,
            },
        )
    }

    /// When the running clock will fall if nobody moves (for the timer).
    pub fn flag_due(&self) -> Option<Millis> {
        let clock = self.clock?;
        let since = clock.since?;
        (self.status() == Status::Playing).then(|| since + clock.left_ms[self.to_move().index()])
    }

    /// After a restart the time the server was down is not charged: the
    /// running clock restarts at `now` with the time it had left.
    pub fn resume_clock(&mut self, now: Millis) {
        if let Some(clock) = &mut self.clock {
            if let Some(since) = clock.since {
                if now > since {
                    clock.since = Some(now);
                }
            }
        }
    }
}
