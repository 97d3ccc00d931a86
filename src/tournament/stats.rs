//! Match statistics: Elo with its error bar, likelihood of superiority,
//! pentanomial pair counts, the SPRT, and maximum-likelihood ratings.

/// Win/draw/loss counts from one engine's view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// Expected score of a player `elo` points stronger (logistic model).
pub fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// Elo difference that yields an expected `score` (inverse of [`expected_score`]):
/// infinite at a score of 0 or 1 (beyond them, clamped to them), never a
/// large finite stand-in that a report would print as a measurement.
pub fn elo_from_score(score: f64) -> f64 {
    let s = score.clamp(0.0, 1.0);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The error function (Abramowitz and Stegun 7.1.26, |error| < 1.5e-7).
pub fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let y = 1.0
        - (((((1.061_405_429 * t - 1.453_152_027) * t) + 1.421_413_741) * t - 0.284_496_736) * t
            + 0.254_829_592)
            * t
            * (-x * x).exp();
    if x >= 0.0 {
        y
    } else {
        -y
    }
}

impl Wdl {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, draws counting one half.
    pub fn score(&self) -> f64 {
        (self.wins as f64 + 0.5 * self.draws as f64) / self.games().max(1) as f64
    }

    /// Elo difference with a 95% interval `(elo, low, high)` from the trinomial variance.
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let var = (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s * s)
            / n.max(1.0);
        let se = (var / n.max(1.0)).sqrt();
        (
            elo_from_score(s),
            elo_from_score(s - 1.959_964 * se),
            elo_from_score(s + 1.959_964 * se),
        )
    }

    /// Likelihood of superiority: the chance the first engine is the stronger, from wins and losses.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 * (1.0 + erf((w - l) / (2.0 * (w + l)).sqrt()))
    }
}

/// Counts of game pairs (one opening, colours swapped) by the pair's points:
/// index 0 = 0 points, 1 = ½, 2 = 1, 3 = 1½, 4 = 2.
pub type Pentanomial = [u32; 5];

/// The SPRT's decision so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// H1 accepted: the engine is at least `elo1` stronger.
    AcceptH1,
    /// H0 accepted: the engine is at most `elo0` stronger.
    AcceptH0,
    Continue,
}

/// A sequential probability ratio test between `elo0` and `elo1` (logistic Elo).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

impl Sprt {
    pub fn new(elo0: f64, elo1: f64) -> Sprt {
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    }

    /// (lower, upper) log-likelihood bounds.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Generalised SPRT log-likelihood ratio from outcomes with points `values`
    /// (each in 0..=1) seen `counts` times, by the normal approximation:
    /// LLR = N (s1 - s0)(2 m - s0 - s1) / (2 v), m and v the sample mean and variance.
    fn llr_from(&self, values: &[f64], counts: &[u32]) -> f64 {
        let n: f64 = counts.iter().map(|&c| c as f64).sum();
        if n == 0.0 {
            return 0.0;
        }
        let mean: f64 = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| v * c as f64)
            .sum::<f64>()
            / n;
        let var: f64 = values
            .iter()
            .zip(counts)
            .map(|(v, &c)| (v - mean).powi(2) * c as f64)
            .sum::<f64>()
            / n;
        if var <= 0.0 {
            // All outcomes identical: no information about the spread yet.
            return 0.0;
        }
        let (s0, s1) = (expected_score(self.elo0), expected_score(self.elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }

    /// LLR of single games.
    pub fn llr_wdl(&self, wdl: &Wdl) -> f64 {
        self.llr_from(&[1.0, 0.5, 0.0], &[wdl.wins, wdl.draws, wdl.losses])
    }

    /// LLR of game pairs (the pentanomial model, robust to opening bias).
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        self.llr_from(&[0.0, 0.25, 0.5, 0.75, 1.0], pairs)
    }

    pub fn verdict(&self, llr: f64) -> Verdict {
        let (lo, hi) = self.bounds();
        if llr >= hi {
            Verdict::AcceptH1
        } else if llr <= lo {
            Verdict::AcceptH0
        } else {
            Verdict::Continue
        }
    }
}

/// Maximum-likelihood ratings (Bradley-Terry, a draw counting as half a win
/// each way) from `points[i][j]`, the points player `i` took from games
/// against `j`, and `games[i][j]`. Solved by minorisation-maximisation
/// (Hunter 2004); returns Elo with the mean at 0.
pub fn ml_ratings(points: &[Vec<f64>], games: &[Vec<f64>]) -> Vec<f64> {
    let n = points.len();
    let mut gamma = vec![1.0f64; n];
    for _ in 0..10_000 {
        let mut next = gamma.clone();
        let mut delta: f64 = 0.0;
        for i in 0..n {
            let w: f64 = points[i].iter().sum();
            let denom: f64 = (0..n)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (gamma[i] + gamma[j]))
                .sum();
            // Smoothing keeps a player with no wins (or no losses) finite.
            let g = (w + 0.5) / (denom + 1.0 / (gamma[i] + 1.0));
            delta = delta.max((g / gamma[i]).ln().abs());
            next[i] = g;
        }
        // Keep the geometric mean at 1.
        let mean = next.iter().map(|g| g.ln()).sum::<f64>() / n as f64;
        gamma = next.iter().map(|g| (g.ln() - mean).exp()).collect();
        if delta < 1e-10 {
            break;
        }
    }
    gamma.iter().map(|g| 400.0 * g.log10()).collect()
}

/// The 95% margin (half the interval) of each rating of [`ml_ratings`], in
/// Elo: from the curvature of the log-likelihood at the estimate, each
/// rating's own with the others held there, the prior's virtual drawn game
/// against an average player counted as `ml_ratings` counts it:
/// `1.96 / sqrt(sum_j n_ij p_ij (1 - p_ij) + p_i0 (1 - p_i0))` in natural
/// log-odds, times `400 / ln 10`.
pub fn ml_rating_margins(ratings: &[f64], games: &[Vec<f64>]) -> Vec<f64> {
    let info = |i: usize| -> f64 {
        let p0 = expected_score(ratings[i]);
        let mut sum = p0 * (1.0 - p0);
        for (j, &n) in games[i].iter().enumerate() {
            if j != i && n > 0.0 {
                let p = expected_score(ratings[i] - ratings[j]);
                sum += n * p * (1.0 - p);
            }
        }
        sum
    };
    (0..ratings.len())
        .map(|i| 1.959_964 * 400.0 / std::f64::consts::LN_10 / info(i).sqrt())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_of_a_75_percent_score_is_191() {
        // 10^(191/400) = 3.0 to three figures: 75% is 3:1 odds.
        let e = elo_from_score(0.75);
        assert!((e - 190.85).abs() < 0.01, "{e}");
        assert!((expected_score(e) - 0.75).abs() < 1e-12);
    }

    #[test]
    fn elo_of_a_whole_score_is_infinite() {
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(1.2), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(-0.3), f64::NEG_INFINITY);
        let all_wins = Wdl {
            wins: 3,
            draws: 0,
            losses: 0,
        };
        assert_eq!(
            all_wins.elo(),
            (f64::INFINITY, f64::INFINITY, f64::INFINITY)
        );
        // An even score is zero; its interval reaches past 0 and 1 here.
        let even = Wdl {
            wins: 1,
            draws: 0,
            losses: 1,
        };
        let (e, lo, hi) = even.elo();
        assert_eq!((e.abs(), lo, hi), (0.0, f64::NEG_INFINITY, f64::INFINITY));
    }

    #[test]
    fn elo_interval_by_hand() {
        // 60 wins, 20 draws, 20 losses: s = 0.7.
        // var = (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16; se = 0.04;
        // interval 0.7 ± 0.0784 -> 0.6216 .. 0.7784.
        let w = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let (e, lo, hi) = w.elo();
        assert!((e - elo_from_score(0.7)).abs() < 1e-9);
        assert!((lo - elo_from_score(0.6216)).abs() < 0.05, "{lo}");
        assert!((hi - elo_from_score(0.7784)).abs() < 0.05, "{hi}");
    }

    #[test]
    fn los_by_hand() {
        // 60 wins, 40 losses: 0.5 (1 + erf(20 / sqrt(200))) = 0.5 (1 + erf(1.41421)) = 0.97725.
        let w = Wdl {
            wins: 60,
            draws: 7,
            losses: 40,
        };
        assert!((w.los() - 0.977_25).abs() < 1e-4, "{}", w.los());
        assert!((erf(1.0) - 0.842_700_79).abs() < 2e-7);
    }

    #[test]
    fn sprt_by_hand() {
        // elo0 = 0, elo1 = 20: s0 = 0.5, s1 = 0.528758.
        // 60/20/20 from above: mean 0.7, var 0.16,
        // LLR = 100 * 0.028758 * (1.4 - 1.028758) / 0.32 = 3.3363.
        let t = Sprt::new(0.0, 20.0);
        let llr = t.llr_wdl(&Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        });
        assert!((llr - 3.3363).abs() < 0.002, "{llr}");
        assert_eq!(t.verdict(llr), Verdict::AcceptH1);
        let (lo, hi) = t.bounds();
        assert!((hi - 2.944_44).abs() < 1e-4 && (lo + 2.944_44).abs() < 1e-4);
        // An even result with spread lands below zero and continues.
        let even = t.llr_wdl(&Wdl {
            wins: 10,
            draws: 0,
            losses: 10,
        });
        assert!(even < 0.0 && t.verdict(even) == Verdict::Continue);
    }

    #[test]
    fn sprt_on_pairs_by_hand() {
        // Pairs: 10 at 2 points, 10 at 1 point -> values 1.0 and 0.5: mean 0.75, var 0.0625;
        // LLR = 20 * 0.028758 * (1.5 - 1.028758) / 0.125 = 2.1683.
        let t = Sprt::new(0.0, 20.0);
        let llr = t.llr_pairs(&[0, 0, 10, 0, 10]);
        assert!((llr - 2.1683).abs() < 0.002, "{llr}");
    }

    #[test]
    fn ml_ratings_recover_a_known_gap() {
        // A beats B 3 games in 4 in 400 games: the gap is 191 Elo.
        let points = vec![vec![0.0, 300.0], vec![100.0, 0.0]];
        let games = vec![vec![0.0, 400.0], vec![400.0, 0.0]];
        let r = ml_ratings(&points, &games);
        assert!((r[0] - r[1] - 190.85).abs() < 1.5, "{r:?}");
        assert!((r[0] + r[1]).abs() < 1e-6);
        // Transitive: A 75% over B, B 75% over C, A never met C.
        let points = vec![
            vec![0.0, 300.0, 0.0],
            vec![100.0, 0.0, 300.0],
            vec![0.0, 100.0, 0.0],
        ];
        let games = vec![
            vec![0.0, 400.0, 0.0],
            vec![400.0, 0.0, 400.0],
            vec![0.0, 400.0, 0.0],
        ];
        let r = ml_ratings(&points, &games);
        assert!((r[0] - r[2] - 381.7).abs() < 4.0, "{r:?}");
    }

    #[test]
    fn rating_margins_by_hand() {
        // A and B at +-95.4 (75% in 400 games): information 400 * 0.75 * 0.25 = 75
        // plus the prior's game at p = 0.634 (0.232): 75.23; the margin is
        // 1.96 * 173.72 / sqrt(75.23) = 39.25 Elo each.
        let games = vec![vec![0.0, 400.0], vec![400.0, 0.0]];
        let m = ml_rating_margins(&[95.43, -95.43], &games);
        assert!(
            (m[0] - 39.25).abs() < 0.05 && (m[1] - 39.25).abs() < 0.05,
            "{m:?}"
        );
        // A player who met no one has only the prior: 1.96 * 173.72 / 0.5.
        let lone = ml_rating_margins(&[0.0], &[vec![0.0]]);
        assert!((lone[0] - 680.96).abs() < 0.05, "{lone:?}");
    }
}
