//! The exact endgame solver: alpha-beta on the final disc difference, in whole discs.
//!
//! Windows of (-1, 1) make it a win/loss/draw solver. It obeys the classic
//! rules through `Position::moves()` (empty supplies, opening placements) and
//! ends games with empty squares when neither side can move.

use super::ordering::MoveList;
use super::params::{ENDGAME_SORT_EMPTIES, ENDGAME_TT_EMPTIES, INFINITY};
use super::worker::Worker;
use crate::bitboard::Bits;
use crate::board::Position;
use crate::eval::features::odd_quadrants;
use crate::eval::UNITS_PER_DISC;
use crate::square::Square;
use crate::tt::{Bound, Entry, SOLVED_DEPTH};

impl Worker<'_> {
    /// Exact final disc difference of `pos` for the side to move under the
    /// scoring rule, with `empties` empty squares. Fail-soft in (`alpha`,
    /// `beta`). Returns 0 (to be ignored) once stopped.
    pub fn solve(&mut self, pos: &Position, mut alpha: i32, beta: i32, empties: u32) -> i32 {
        if self.tick() {
            return 0;
        }
        let moves = pos.moves();
        if moves == 0 {
            let passed = pos.pass();
            if passed.moves() == 0 {
                return self.final_discs(pos);
            }
            return -self.solve(&passed, -beta, -alpha, empties);
        }
        if empties == 1 {
            // The last square: play it; the board is then full.
            let child = pos.play_unchecked(Square::from_index(moves.trailing_zeros()));
            self.nodes += 1;
            return -self.final_discs(&child);
        }

        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = None;

        if empties <= ENDGAME_SORT_EMPTIES {
            // Shallow: no table, no sorting; odd quadrants first (parity).
            let odd = odd_quadrants(pos.empties());
            'outer: for part in [moves & odd, moves & !odd] {
                for i in Bits(part) {
                    let child = pos.play_unchecked(Square::from_index(i));
                    let v = -self.solve(&child, -beta, -alpha, empties - 1);
                    if self.stopped {
                        return 0;
                    }
                    if v > best {
                        best = v;
                        if v > alpha {
                            alpha = v;
                            if v >= beta {
                                break 'outer;
                            }
                        }
                    }
                }
            }
            return best;
        }

        let use_tt = empties >= ENDGAME_TT_EMPTIES;
        let key = pos.key();
        let mut tt_move = None;
        if use_tt {
            if let Some(e) = self.tt.probe(key) {
                if let Some(m) = e.mv.filter(|&m| moves >> m & 1 != 0) {
                    tt_move = Some(m);
                }
                if e.depth == SOLVED_DEPTH {
                    let s = e.score as i32 / UNITS_PER_DISC;
                    match e.bound {
                        Bound::Exact => return s,
                        Bound::Lower if s >= beta => return s,
                        Bound::Upper if s <= alpha => return s,
                        _ => {}
                    }
                }
            }
        }

        let list = MoveList::endgame(pos, moves, tt_move);
        for (i, c) in list.as_slice().iter().enumerate() {
            let mut v;
            if i == 0 {
                v = -self.solve(&c.child, -beta, -alpha, empties - 1);
            } else {
                v = -self.solve(&c.child, -alpha - 1, -alpha, empties - 1);
                if v > alpha && v < beta && !self.stopped {
                    v = -self.solve(&c.child, -beta, -alpha, empties - 1);
                }
            }
            if self.stopped {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(c.sq);
                if v > alpha {
                    alpha = v;
                    if v >= beta {
                        break;
                    }
                }
            }
        }

        if use_tt {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > alpha0 {
                Bound::Exact
            } else {
                Bound::Upper
            };
            let score = (best * UNITS_PER_DISC) as i16;
            self.tt.store(
                key,
                Entry {
                    score,
                    depth: SOLVED_DEPTH,
                    bound,
                    mv: best_move,
                },
            );
        }
        best
    }
}
