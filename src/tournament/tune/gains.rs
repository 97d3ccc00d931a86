//! SPSA's gain schedule: each parameter's perturbation `c_k` and step `a_k`,
//! the two perturbed sides of an iteration and the step after it.

use super::param::Param;

/// Decay exponent of the step size `a_k`.
pub const ALPHA: f64 = 0.602;
/// Decay exponent of the perturbation `c_k`.
pub const GAMMA: f64 = 0.101;

/// One parameter's SPSA gains for a run of `iterations`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    c: f64,
    a: f64,
    big_a: f64,
}

impl Gains {
    pub fn new(p: &Param, iterations: usize) -> Gains {
        let n = iterations.max(1) as f64;
        let big_a = 0.1 * n;
        Gains {
            c: p.c_end * n.powf(GAMMA),
            a: p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA),
            big_a,
        }
    }

    /// Perturbation at iteration `k` (from 1).
    pub fn c(&self, k: usize) -> f64 {
        self.c / (k as f64).powf(GAMMA)
    }

    /// Step size at iteration `k` (from 1).
    pub fn a(&self, k: usize) -> f64 {
        self.a / (self.big_a + k as f64).powf(ALPHA)
    }
}

/// The two engines' values at iteration `k`: θ ± c_k Δ, clamped.
pub fn perturb(
    params: &[Param],
    gains: &[Gains],
    theta: &[f64],
    k: usize,
    flips: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let side = |sign: f64| {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| p.clamp(theta[i] + sign * gains[i].c(k) * flips[i]))
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// θ after iteration `k`, where θ+ scored `result` (wins − losses) against θ−.
pub fn update(
    params: &[Param],
    gains: &[Gains],
    theta: &[f64],
    k: usize,
    flips: &[f64],
    result: i32,
) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let g = gains[i];
            p.clamp(theta[i] + g.a(k) / g.c(k) * result as f64 * flips[i])
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let p: Param = "x=0,-10,10,2,0.01".parse().unwrap();
        let g = Gains::new(&p, 100);
        assert!((g.c(100) - 2.0).abs() < 1e-12);
        assert!((g.a(100) / (g.c(100) * g.c(100)) - 0.01).abs() < 1e-12);
        // Both shrink as the run goes on.
        assert!(g.c(1) > g.c(50) && g.a(1) > g.a(50));
    }

    #[test]
    fn steps_follow_the_winner_and_stay_in_range() {
        let params: Vec<Param> = vec![
            "x=0,-10,10,1,0.1".parse().unwrap(),
            "y=9,0,10,2,0.1".parse().unwrap(),
        ];
        let gains: Vec<Gains> = params.iter().map(|p| Gains::new(p, 10)).collect();
        let theta = [0.0, 9.0];
        let flips = [1.0, 1.0];
        let (plus, minus) = perturb(&params, &gains, &theta, 1, &flips);
        assert!(plus[0] > 0.0 && minus[0] < 0.0);
        assert_eq!(plus[1], 10.0, "clamped to MAX");
        // θ+ won: x moves up; a draw leaves θ alone.
        let won = update(&params, &gains, &theta, 1, &flips, 2);
        assert!(won[0] > 0.0);
        assert_eq!(update(&params, &gains, &theta, 1, &flips, 0), theta);
        let lost = update(&params, &gains, &theta, 1, &[-1.0, 1.0], 200);
        assert_eq!(lost[0], -10.0);
        assert_eq!(lost[1], 10.0);
    }
}
