//! The handcrafted evaluation: mobility, potential mobility, corners, X/C squares, stability, parity, supplies.

use super::evaluator::{Evaluator, SigmaModel, EVAL_LIMIT};
use crate::rules::color::Variant;
use crate::rules::geometry::{neighbours, stable_discs, CORNERS, CORNER_REGIONS};
use crate::rules::position::Position;

/// Feature weights in evaluation units (hundredths of a disc) per unit of
/// feature. Pairs are (opening, endgame) values, blended by the empties left.
#[derive(Clone, Debug)]
pub struct HandcraftedWeights {
    /// Per legal move more than the opponent (corner moves count twice).
    pub mobility: (i32, i32),
    /// Per empty square next to the opponent's discs, more than next to ours.
    pub potential_mobility: (i32, i32),
    /// Per corner owned more than the opponent.
    pub corner: (i32, i32),
    /// Per X-square held next to an empty corner (a penalty, so negative).
    pub x_square: (i32, i32),
    /// Per C-square held next to an empty corner.
    pub c_square: (i32, i32),
    /// Per stable disc more than the opponent.
    pub stable: (i32, i32),
    /// Per disc more than the opponent.
    pub discs: (i32, i32),
    /// Bonus for the side to move when an odd number of squares is empty
    /// (it expects the last move), applied from `parity_empties` empties down.
    pub parity: i32,
    pub parity_empties: u32,
    /// Classic: per move a side will have to pass because its supply cannot
    /// cover its share of the empty squares, counted against that side.
    pub supply_shortfall: i32,
}

impl Default for HandcraftedWeights {
    fn default() -> HandcraftedWeights {
        HandcraftedWeights {
            mobility: (45, 25),
            potential_mobility: (20, 8),
            corner: (350, 250),
            x_square: (-250, -80),
            c_square: (-60, -20),
            stable: (40, 100),
            discs: (-3, 30),
            parity: 150,
            parity_empties: 24,
            supply_shortfall: 200,
        }
    }
}

/// The handcrafted evaluator.
#[derive(Clone, Debug, Default)]
pub struct Handcrafted {
    pub weights: HandcraftedWeights,
}

/// Empty squares at which the opening weight applies in full.
const OPENING_EMPTIES: i32 = 60;

#[inline]
fn blend(w: (i32, i32), empties: i32) -> i32 {
    (w.0 * empties + w.1 * (OPENING_EMPTIES - empties)) / OPENING_EMPTIES
}

#[inline]
fn count(b: u64) -> i32 {
    b.count_ones() as i32
}

impl Evaluator for Handcrafted {
    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        PROBCUT_SIGMA.sigma(depth, shallow, empties)
    }

    fn evaluate(&self, pos: &Position) -> i32 {
        // Classic placements flip nothing and are symmetric; there is nothing to tell.
        if pos.in_classic_opening() {
            return 0;
        }
        let w = &self.weights;
        let (p, o) = (pos.player, pos.opponent);
        let empty = pos.empties();
        let e = (pos.empty_count() as i32).min(OPENING_EMPTIES);

        // Mobility through `moves()`, so a side with an empty classic supply has none.
        let pm = pos.moves();
        let om = pos.pass().moves();
        let mobility = count(pm) + count(pm & CORNERS) - count(om) - count(om & CORNERS);
        let potential = count(neighbours(o) & empty) - count(neighbours(p) & empty);
        let corners = count(p & CORNERS) - count(o & CORNERS);
        let (mut x, mut c) = (0, 0);
        for &(corner, xsq, csq) in &CORNER_REGIONS {
            if empty & corner != 0 {
                x += count(p & xsq) - count(o & xsq);
                c += count(p & csq) - count(o & csq);
            }
        }
        let stable = count(stable_discs(p, o)) - count(stable_discs(o, p));
        let discs = count(p) - count(o);

        let mut score = blend(w.mobility, e) * mobility
            + blend(w.potential_mobility, e) * potential
            + blend(w.corner, e) * corners
            + blend(w.x_square, e) * x
            + blend(w.c_square, e) * c
            + blend(w.stable, e) * stable
            + blend(w.discs, e) * discs;

        if (e as u32) <= w.parity_empties {
            score += if e & 1 == 1 { w.parity } else { -w.parity };
        }
        if pos.variant == Variant::Classic {
            // Each side places about half of the remaining squares; a side
            // whose supply cannot cover its half must pass that often.
            let share = (e + 1) / 2;
            let mine = (share - pos.supply[pos.side.index()] as i32).max(0);
            let theirs = (share - pos.supply[pos.side.other().index()] as i32).max(0);
            score += w.supply_shortfall * (theirs - mine);
        }
        score.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }
}

/// ProbCut's error model for this evaluation, fitted by
/// `mollett probcut modern-s1.txt classic-s2.txt --eval handcrafted --positions 300 --max-depth 10`
/// (docs/training.md).
pub const PROBCUT_SIGMA: SigmaModel = SigmaModel {
    base: 3.4617,
    per_depth: 0.4415,
    per_shallow: -0.5250,
    per_empty: -0.0751,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::bitboard::symmetry;
    use crate::rules::color::Color;

    #[test]
    fn evaluation_is_invariant_under_board_symmetries() {
        let eval = Handcrafted::default();
        let (b, w) = (
            0x0000_1038_1C08_0000u64 | 1,
            0x0000_0804_2010_0000u64 | 1 << 9,
        );
        let base = eval.evaluate(&Position::from_colors(
            b,
            w,
            Color::Black,
            Variant::Modern,
            [0, 0],
        ));
        for i in 1..8 {
            let pos = Position::from_colors(
                symmetry(b, i),
                symmetry(w, i),
                Color::Black,
                Variant::Modern,
                [0, 0],
            );
            assert_eq!(eval.evaluate(&pos), base, "symmetry {i}");
        }
    }

    #[test]
    fn owning_a_corner_is_good_and_views_are_opposite() {
        let eval = Handcrafted::default();
        let start = Position::start(Variant::Modern, Color::Black);
        let with_corner = Position {
            player: start.player | 1,
            ..start
        };
        assert!(eval.evaluate(&with_corner) > eval.evaluate(&start));
        let theirs = Position {
            opponent: start.opponent | 1,
            ..start
        };
        assert!(eval.evaluate(&theirs) < eval.evaluate(&start));
    }

    #[test]
    fn classic_side_without_supply_is_worse_off() {
        let eval = Handcrafted::default();
        let pos = Position::start(Variant::Modern, Color::Black);
        let full = Position {
            variant: Variant::Classic,
            supply: [30, 30],
            ..pos
        };
        let starved = Position {
            supply: [2, 30],
            ..full
        };
        assert!(eval.evaluate(&starved) < eval.evaluate(&full));
    }
}
