//! `mollett probcut`: fits ProbCut's error model for an evaluation.
//!
//! ProbCut predicts a `d`-ply search from a shallow one at
//! `probcut_shallow_depth(d)` plies. This measures, on positions from a
//! position file, the difference between the two searches' values, and fits
//! its standard deviation as a plane in the depth, the shallow depth and the
//! empties (`SigmaModel`), by least squares over cells weighted by their counts.

use super::inputs::draw_samples;
use crate::engine::eval::{Evaluator, SigmaModel, UNITS_PER_DISC};
use crate::engine::search::{probcut_shallow_depth, Engine, Limits, Settings};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

pub struct ProbcutConfig {
    pub files: Vec<PathBuf>,
    pub positions: usize,
    pub max_depth: u32,
    pub min_depth: u32,
    /// Positions with fewer empties than `max_depth + 4` are skipped (the search would be exact).
    pub max_empties: u32,
    pub seed: u64,
}

/// The difference statistics of one (depth, empties bucket) cell.
#[derive(Clone, Debug, Default)]
pub struct Cell {
    pub depth: u32,
    pub shallow: u32,
    /// Mean empties of the cell's positions.
    pub empties: f64,
    pub n: usize,
    pub mean: f64,
    pub sd: f64,
}

/// Empties per bucket of the cells.
const BUCKET: u32 = 10;

/// Searches the sampled positions at every depth and returns the cells and the fitted model.
pub fn run(
    cfg: &ProbcutConfig,
    eval: Box<dyn Evaluator>,
) -> Result<(Vec<Cell>, SigmaModel), String> {
    let positions = draw_samples(&cfg.files, cfg.positions, cfg.seed, |p| {
        let e = p.empty_count();
        e >= cfg.max_depth + 4 && e <= cfg.max_empties
    })?;
    let n = positions.len();
    let mut engine = Engine::new(Settings {
        hash_mb: 64,
        ..Settings::default()
    });
    engine.set_evaluator(eval);
    let stop = AtomicBool::new(false);
    // values[k][d]: the d-ply value of position k, in discs.
    let mut values = Vec::with_capacity(n);
    for (k, pos) in positions.iter().map(|s| &s.pos).enumerate() {
        engine.clear();
        let mut v = vec![engine.evaluate(pos) as f64 / UNITS_PER_DISC as f64];
        for d in 1..=cfg.max_depth {
            let limits = Limits {
                depth: Some(d),
                ..Limits::default()
            };
            v.push(engine.search(pos, &limits, &stop).score);
        }
        values.push((pos.empty_count(), v));
        if (k + 1) % 50 == 0 {
            log::info!("probcut: {}/{n} positions searched", k + 1);
        }
    }

    let mut cells = Vec::new();
    for d in cfg.min_depth..=cfg.max_depth {
        let shallow = probcut_shallow_depth(d as i32) as u32;
        for b in 0..=60 / BUCKET {
            let diffs: Vec<(f64, f64)> = values
                .iter()
                .filter(|(e, _)| e / BUCKET == b)
                .map(|(e, v)| (*e as f64, v[d as usize] - v[shallow as usize]))
                .collect();
            if diffs.len() < 10 {
                continue;
            }
            let m = diffs.len() as f64;
            let mean = diffs.iter().map(|x| x.1).sum::<f64>() / m;
            let var = diffs.iter().map(|x| (x.1 - mean).powi(2)).sum::<f64>() / (m - 1.0);
            cells.push(Cell {
                depth: d,
                shallow,
                empties: diffs.iter().map(|x| x.0).sum::<f64>() / m,
                n: diffs.len(),
                mean,
                sd: var.sqrt(),
            });
        }
    }
    // The plane has four coefficients: fewer cells would make up the model.
    if cells.len() < 4 {
        return Err(format!(
            "only {} cells of 10 or more positions: too few to fit the model (more --positions, or a wider --min-depth..--max-depth)",
            cells.len()
        ));
    }
    let model = fit(&cells)?;
    Ok((cells, model))
}

/// Weighted least squares of `sd` on (1, depth, shallow, empties).
fn fit(cells: &[Cell]) -> Result<SigmaModel, String> {
    let mut a = [[0.0f64; 4]; 4];
    let mut b = [0.0f64; 4];
    for c in cells {
        let x = [1.0, c.depth as f64, c.shallow as f64, c.empties];
        let w = c.n as f64;
        for i in 0..4 {
            for j in 0..4 {
                a[i][j] += w * x[i] * x[j];
            }
            b[i] += w * x[i] * c.sd;
        }
    }
    // A little ridge keeps the system solvable when the cells span few depths.
    for (i, row) in a.iter_mut().enumerate() {
        row[i] += 1e-6;
    }
    let x = solve4(a, b).ok_or("too few cells to fit (more positions or depths)")?;
    Ok(SigmaModel {
        base: x[0],
        per_depth: x[1],
        per_shallow: x[2],
        per_empty: x[3],
    })
}

/// Gaussian elimination with partial pivoting.
fn solve4(mut a: [[f64; 4]; 4], mut b: [f64; 4]) -> Option<[f64; 4]> {
    for col in 0..4 {
        let p = (col..4).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[p][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, p);
        b.swap(col, p);
        let pivot = a[col];
        for r in col + 1..4 {
            let f = a[r][col] / pivot[col];
            for (x, y) in a[r][col..].iter_mut().zip(&pivot[col..]) {
                *x -= f * y;
            }
            b[r] -= f * b[col];
        }
    }
    let mut x = [0.0; 4];
    for r in (0..4).rev() {
        let s: f64 = (r + 1..4).map(|k| a[r][k] * x[k]).sum();
        x[r] = (b[r] - s) / a[r][r];
    }
    Some(x)
}

/// What `mollett probcut` prints: the measured cells and the fitted model.
pub struct ProbcutReport {
    pub cells: Vec<Cell>,
    pub model: SigmaModel,
}

impl std::fmt::Display for ProbcutReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "depth shallow empties positions mean sd fitted")?;
        for c in &self.cells {
            writeln!(
                f,
                "{:5} {:7} {:7.1} {:9} {:+5.2} {:5.2} {:6.2}",
                c.depth,
                c.shallow,
                c.empties,
                c.n,
                c.mean,
                c.sd,
                self.model
                    .sigma(c.depth, c.shallow, c.empties.round() as u32)
            )?;
        }
        let m = &self.model;
        writeln!(
            f,
            "SigmaModel {{ base: {:.4}, per_depth: {:.4}, per_shallow: {:.4}, per_empty: {:.4} }}",
            m.base, m.per_depth, m.per_shallow, m.per_empty
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fit_recovers_a_plane() {
        let model = SigmaModel {
            base: 1.5,
            per_depth: 0.2,
            per_shallow: -0.1,
            per_empty: 0.05,
        };
        let mut cells = Vec::new();
        for d in 3..12u32 {
            for e in [15.0, 25.0, 35.0, 45.0] {
                let s = probcut_shallow_depth(d as i32) as u32;
                cells.push(Cell {
                    depth: d,
                    shallow: s,
                    empties: e,
                    n: 20,
                    mean: 0.0,
                    sd: model.sigma(d, s, e as u32),
                });
            }
        }
        let got = fit(&cells).unwrap();
        for (g, w) in [
            (got.base, model.base),
            (got.per_depth, model.per_depth),
            (got.per_shallow, model.per_shallow),
            (got.per_empty, model.per_empty),
        ] {
            assert!((g - w).abs() < 1e-3, "{got:?}");
        }
    }
}
