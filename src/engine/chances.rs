//! Winning chances: what a value says about the result once its error is
//! counted. An exact value decides the result; an estimate only makes it
//! likely, as far as the search's measured error allows. lichess derives
//! winning chances from centipawns with a logistic curve; here the curve
//! is the measured error's: the true value is taken as normal around the
//! estimate, with the spread the estimates' measured mean error gives
//! (docs/analyze.md, "Classes").

/// The search depth [`ESTIMATE_ERROR`] was measured at (the review's default).
pub const MEASURED_DEPTH: u32 = 14;

/// Measured mean absolute error (discs) of the review's estimates at
/// [`MEASURED_DEPTH`] against exact values, by empties before the move:
/// `(empties, error)`, measured as docs/analyze.md says. Between rows the
/// nearer row's figure holds; past the last, the last.
pub const ESTIMATE_ERROR: [(u32, f64); 3] = [(23, 3.34), (24, 4.19), (26, 3.68)];

/// The expected error of an estimate made with `empties` empties at
/// `depth`; none at a depth not measured.
pub fn expected_error(empties: u32, depth: u32) -> Option<f64> {
    (depth == MEASURED_DEPTH).then(|| table_error(empties))
}

fn table_error(empties: u32) -> f64 {
    ESTIMATE_ERROR
        .iter()
        .min_by_key(|(e, _)| e.abs_diff(empties))
        .map_or(0.0, |&(_, err)| err)
}

/// The error the classes count for a value (none: exact): the measured
/// figure at `empties` ([`expected_error`]). At a depth not measured the
/// default depth's figure stands in: nothing better is known, and a
/// shallower search errs at least as much, so its classes are not harsher
/// than the default's.
pub fn class_error(exact: bool, empties: u32) -> Option<f64> {
    (!exact).then(|| table_error(empties))
}

/// A drop in expected score (points of 1) from which a move is at least an
/// inaccuracy, and from which it is at least a mistake. An exact value's
/// drop is 0, 1/2 (a win into a draw, a draw into a loss) or 1, so for
/// exact values only the second counts: a result made worse is a mistake,
/// as before. For an estimate it grows smoothly with the discs lost, more
/// slowly the larger the error: with the ±3.68 of 26 empties a move near
/// an even position reaches an inaccuracy's drop at about 1.7 discs lost
/// and a mistake's at about 3.5.
pub const DROP_INACCURACY: f64 = 0.15;
pub const DROP_MISTAKE: f64 = 0.3;

/// An expected score from which a side counts as winning (exact: a win;
/// an estimate: about 2 discs up at the measured error), and to which
/// (from the other side: 1 - WINNING) as losing; a draw between.
pub const WINNING: f64 = 2.0 / 3.0;

/// Win, draw and loss chances for the mover, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Chances {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl Chances {
    /// The chances of a value (discs, for the mover) whose mean absolute
    /// error is `error` (none: exact). Final disc differences are even, so
    /// a draw is a true value within 1 disc of 0.
    pub fn of(value: f64, error: Option<f64>) -> Chances {
        let spread = error.filter(|&e| e > 0.0).map(sigma);
        let (win, loss) = match spread {
            None => (f64::from(value > 0.0), f64::from(value < 0.0)),
            Some(s) => (
                normal_cdf((value - 1.0) / s),
                normal_cdf((-1.0 - value) / s),
            ),
        };
        Chances {
            win,
            draw: (1.0 - win - loss).max(0.0),
            loss,
        }
    }

    /// Win plus half a draw: the points the mover expects.
    pub fn score(&self) -> f64 {
        self.win + self.draw / 2.0
    }

    /// The same chances for the other side.
    pub fn flipped(&self) -> Chances {
        Chances {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }
}

/// The drop in the mover's expected score from the best move's value to
/// the played one's, as shown (rounded to thousandths), never negative.
pub fn score_drop(best: f64, value: f64, error: Option<f64>) -> f64 {
    let d = Chances::of(best, error).score() - Chances::of(value, error).score();
    (d.max(0.0) * 1000.0).round() / 1000.0
}

/// The normal spread whose mean absolute deviation is `mae`.
fn sigma(mae: f64) -> f64 {
    mae * (std::f64::consts::PI / 2.0).sqrt()
}

/// The standard normal distribution function, through `erfc`.
fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// The complementary error function (Numerical Recipes' `erfcc`, a
/// Chebyshev fit, relative error under 1.2e-7 everywhere): plain
/// arithmetic, so the same on every machine and thread.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chances_follow_the_value_and_its_error() {
        // The normal distribution at known points.
        assert!((normal_cdf(0.0) - 0.5).abs() < 1e-7);
        assert!((normal_cdf(1.0) - 0.841_344_7).abs() < 1e-6);
        assert!((normal_cdf(-1.96) - 0.024_997_9).abs() < 1e-6);
        // Exact: the result itself.
        assert_eq!(Chances::of(2.0, None).score(), 1.0);
        assert_eq!(Chances::of(0.0, None).score(), 0.5);
        assert_eq!(Chances::of(-2.0, None).score(), 0.0);
        // An estimate of 0 is even; the larger the value, the likelier the win.
        let even = Chances::of(0.0, Some(3.68));
        assert!((even.score() - 0.5).abs() < 1e-9 && (even.win - even.loss).abs() < 1e-9);
        assert!(Chances::of(4.0, Some(3.68)).score() > Chances::of(2.0, Some(3.68)).score());
        // The same loss counts for less under a larger error.
        assert!(score_drop(0.5, -0.67, Some(3.68)) < DROP_INACCURACY);
        assert!(score_drop(1.0, -1.0, None) == 1.0);
        assert!(score_drop(2.0, -2.0, Some(1.0)) > score_drop(2.0, -2.0, Some(4.0)));
        assert_eq!(expected_error(24, MEASURED_DEPTH), Some(4.19));
        assert_eq!(expected_error(24, 10), None);
        assert_eq!(class_error(false, 40), Some(3.68));
        assert_eq!(class_error(true, 40), None);
    }
}
