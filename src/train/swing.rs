//! `mollett swing`: how much a search's score moves from one depth to the next.
//!
//! Othello evaluations read differently after an odd and an even number of
//! plies (the side to move at the leaves alternates), so a GUI's evaluation
//! column zigzags as the search deepens. This searches sampled positions
//! once to `max_depth` with each evaluation (the engine's default settings,
//! ProbCut included, as a GUI would see them), takes the score of every
//! completed iteration, and reports per depth `d` the mean of
//! |v(d) - v(d-1)| and of the signed zigzag (v(d) - v(d-1)) * (-1)^d, which
//! is positive when even depths read higher than odd ones. Where the
//! positions have exact results (corpus games from their `exact` empties,
//! FFO problems), it also gives each depth's mean error against them: which
//! parity reads too high, and by how much.

use super::evaltest::EvalChoice;
use super::inputs::draw_samples;
use crate::engine::search::{Engine, Limits, Progress, Settings, Stage};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;

pub struct SwingConfig {
    pub files: Vec<PathBuf>,
    pub positions: usize,
    pub min_empties: u32,
    pub max_empties: u32,
    /// Swings are measured for d = min_depth ..= max_depth (v(min_depth - 1) is searched too).
    pub min_depth: u32,
    pub max_depth: u32,
    pub seed: u64,
    /// The search's leaf tempo (`tempo` option), in evaluation units.
    pub leaf_tempo: i32,
}

/// One evaluation's swings.
#[derive(Clone, Debug)]
pub struct SwingRow {
    pub name: String,
    /// Per depth `d`: (d, mean |v(d) - v(d-1)|, mean signed zigzag), in discs.
    pub per_depth: Vec<(u32, f64, f64)>,
    /// Mean |v(d) - v(d-1)| over every position and depth.
    pub mean_abs: f64,
    /// Per depth `d` (from `min_depth - 1`): mean v(d) minus the exact
    /// result, over the exactly labelled positions (`None`: there are none).
    pub bias: Option<Vec<(u32, f64)>>,
}

/// The swings of each evaluation on the same positions.
#[derive(Clone, Debug)]
pub struct SwingReport {
    pub positions: usize,
    /// Of which exactly labelled (their results give each depth's bias).
    pub exact: usize,
    pub empties: (u32, u32),
    pub rows: Vec<SwingRow>,
}

/// Searches the sampled positions with each evaluation.
pub fn run(cfg: &SwingConfig, evals: &[EvalChoice]) -> Result<SwingReport, String> {
    if cfg.min_depth < 2 || cfg.min_depth > cfg.max_depth {
        return Err("need 2 <= --min-depth <= --max-depth".into());
    }
    let samples = draw_samples(&cfg.files, cfg.positions, cfg.seed, |p| {
        let e = p.empty_count();
        // A search this deep must not reach the end of the game (it would be exact).
        e >= cfg.min_empties && e <= cfg.max_empties && e >= cfg.max_depth + 4
    })?;
    let stop = AtomicBool::new(false);
    let mut rows = Vec::new();
    for choice in evals {
        let mut settings = Settings {
            hash_mb: 64,
            ..Settings::default()
        };
        settings.params.leaf_tempo = cfg.leaf_tempo;
        let mut engine = Engine::new(settings);
        engine.set_evaluator(choice.evaluator()?);
        let depths = (cfg.min_depth..=cfg.max_depth).collect::<Vec<_>>();
        let mut abs = vec![0.0; depths.len()];
        let mut zig = vec![0.0; depths.len()];
        let mut bias = vec![0.0; cfg.max_depth as usize + 1];
        for (k, sample) in samples.iter().enumerate() {
            let pos = &sample.pos;
            engine.clear();
            let scores = Mutex::new(vec![None; cfg.max_depth as usize + 1]);
            let record = |p: &Progress| {
                if p.stage == Stage::Midgame && p.depth <= cfg.max_depth {
                    let mut s = scores.lock().unwrap_or_else(|e| e.into_inner());
                    s[p.depth as usize] = Some(p.score);
                }
            };
            let limits = Limits {
                depth: Some(cfg.max_depth),
                ..Limits::default()
            };
            engine.search_with_progress(pos, &limits, &stop, Some(&record));
            let s = scores.into_inner().unwrap_or_else(|e| e.into_inner());
            if sample.exact {
                for d in cfg.min_depth - 1..=cfg.max_depth {
                    bias[d as usize] += s[d as usize].unwrap_or(0.0) - sample.score as f64;
                }
            }
            for (i, &d) in depths.iter().enumerate() {
                let (Some(a), Some(b)) = (s[d as usize], s[d as usize - 1]) else {
                    return Err(format!(
                        "position {} ({}): no score at depth {} or {}",
                        k + 1,
                        pos.to_obf(),
                        d - 1,
                        d
                    ));
                };
                abs[i] += (a - b).abs();
                zig[i] += if d % 2 == 0 { a - b } else { b - a };
            }
            if (k + 1) % 50 == 0 {
                log::info!("swing: {choice}: {}/{} positions", k + 1, samples.len());
            }
        }
        let n = samples.len() as f64;
        let exact = samples.iter().filter(|s| s.exact).count();
        rows.push(SwingRow {
            name: choice.to_string(),
            per_depth: depths
                .iter()
                .enumerate()
                .map(|(i, &d)| (d, abs[i] / n, zig[i] / n))
                .collect(),
            mean_abs: abs.iter().sum::<f64>() / (n * depths.len() as f64),
            bias: (exact > 0).then(|| {
                (cfg.min_depth - 1..=cfg.max_depth)
                    .map(|d| (d, bias[d as usize] / exact as f64))
                    .collect()
            }),
        });
    }
    Ok(SwingReport {
        positions: samples.len(),
        exact: samples.iter().filter(|s| s.exact).count(),
        empties: (cfg.min_empties, cfg.max_empties),
        rows,
    })
}

impl std::fmt::Display for SwingReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "{} positions at {}-{} empties; per depth d: mean |v(d)-v(d-1)| (mean zigzag, + when even depths read higher), discs",
            self.positions, self.empties.0, self.empties.1
        )?;
        for row in &self.rows {
            write!(f, "{:<24}", row.name)?;
            for (d, a, z) in &row.per_depth {
                write!(f, " d{d} {a:.2} ({z:+.2})")?;
            }
            writeln!(f)?;
            writeln!(f, "{:<24} mean |v(d)-v(d-1)| {:.2}", "", row.mean_abs)?;
            if let Some(bias) = &row.bias {
                write!(f, "{:<24} v(d) - exact ({} positions):", "", self.exact)?;
                for (d, b) in bias {
                    write!(f, " d{d} {b:+.2}")?;
                }
                writeln!(f)?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(min_depth: u32) -> SwingConfig {
        SwingConfig {
            files: vec![std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("tests/data/ffo/fforum-40-59.obf")],
            positions: 3,
            min_empties: 20,
            max_empties: 40,
            min_depth,
            max_depth: 4,
            seed: 1,
            leaf_tempo: 0,
        }
    }

    #[test]
    fn an_even_evaluation_never_swings_and_a_real_one_does() {
        let evals = ["zero".parse().unwrap(), "learned".parse().unwrap()];
        let report = run(&config(2), &evals).unwrap();
        assert_eq!(report.positions, 3);
        let [zero, learned] = &report.rows[..] else {
            panic!("{report:?}")
        };
        assert_eq!(zero.mean_abs, 0.0);
        assert!(learned.mean_abs > 0.0);
        for row in &report.rows {
            let depths: Vec<u32> = row.per_depth.iter().map(|x| x.0).collect();
            assert_eq!(depths, vec![2, 3, 4]);
            // The zigzag is part of the absolute change.
            assert!(row.per_depth.iter().all(|&(_, a, z)| z.abs() <= a + 1e-9));
        }
        assert!(report.to_string().contains("d4"));
        // FFO problems carry exact results: each depth's error against them.
        assert_eq!(report.exact, 3);
        let bias = learned.bias.as_ref().unwrap();
        assert_eq!(
            bias.iter().map(|b| b.0).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
    }

    #[test]
    fn depths_that_cannot_be_measured_are_refused() {
        assert!(run(&config(1), &["learned".parse().unwrap()]).is_err());
        assert!(run(&config(5), &["learned".parse().unwrap()]).is_err());
    }
}
