//! `mollett train`: least-squares fit of the pattern weights, one stage at a time.
//!
//! Each sample's prediction is the sum of its pattern weights, one per
//! instance of the chosen layout (46 for `v1`; shared by symmetry: the slot
//! of each instance's configuration) and its global
//! features times their weights. Each stage is fitted by mini-batch Adam
//! with L2 regularisation on its own samples plus, at a lower weight, those
//! of the two neighbouring stages (so thin stages borrow from their
//! neighbours), starting from the weights of the stage after it (fitted
//! first: the later stages have the most exact labels).

use super::corpus::Positions;
use super::inputs::{corpus_samples, read_samples, GameLimits};
use super::sample::{game_outcomes, Sample};
use super::wthor;
use crate::engine::eval::pattern::{
    count_slots, features, instance_indices, pattern_set, stage_of, PatternSet, PatternWeights,
    GLOBALS, MAX_INSTANCES, WEIGHT_SCALE,
};
use crate::rng::Rng;
use std::time::Instant;

/// Fitting parameters.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The patterns to fit (a layout: `pattern::layout`).
    pub set: &'static PatternSet,
    pub stages: usize,
    pub epochs: usize,
    pub seed: u64,
    /// Adam step size, in discs.
    pub lr: f32,
    /// L2 penalty per touched weight and step, relative to the summed residuals.
    pub l2: f32,
    pub batch: usize,
    /// Fraction of positions held out (chosen by position, so duplicates stay on one side).
    pub holdout: f64,
    /// Weight of the neighbouring stages' samples.
    pub neighbour_weight: f32,
    /// Searched (not exact) labels become `(1 - w) * score + w * outcome`,
    /// where the outcome is the exact result of the game's end (see
    /// [`game_outcomes`]): a search with a weak evaluation is badly
    /// calibrated, the game's result is not.
    pub outcome_weight: f32,
    /// Only positions with this many empty squares (inclusive range).
    pub empties: (u32, u32),
    /// Only exactly labelled positions.
    pub exact_only: bool,
    /// How tournament games label their positions before 24 empties.
    pub wthor_early: wthor::EarlyLabel,
    /// Which of a corpus game's positions are trained on.
    pub corpus_positions: Positions,
    pub progress: bool,
}

impl Default for FitConfig {
    fn default() -> FitConfig {
        FitConfig {
            set: pattern_set(),
            stages: crate::engine::eval::pattern::DEFAULT_STAGES,
            epochs: 20,
            seed: 1,
            lr: 0.02,
            l2: 0.01,
            batch: 128,
            holdout: 0.1,
            neighbour_weight: 0.5,
            outcome_weight: 0.5,
            empties: (0, 60),
            exact_only: false,
            wthor_early: wthor::EarlyLabel::Played,
            corpus_positions: Positions::All,
            progress: true,
        }
    }
}

/// How well one stage fits.
#[derive(Clone, Debug)]
pub struct StageReport {
    pub stage: usize,
    /// Disc counts of the stage.
    pub discs: (u32, u32),
    pub train: usize,
    pub held_out: usize,
    /// Mean absolute errors in discs (NaN without samples).
    pub train_mae: f64,
    pub held_out_mae: f64,
}

/// A sample as features; its weight slots, one per instance, are in
/// [`Rows::slots`] (a flat array: a layout's instance count is known only at
/// run time, and 26 M rows must not each own an allocation).
struct Row {
    globals: [f32; GLOBALS],
    label: f32,
    stage: u16,
    held_out: bool,
}

/// The rows, with every row's slots laid end to end.
struct Rows {
    rows: Vec<Row>,
    slots: Vec<u32>,
    /// Slots per row: the layout's instances.
    width: usize,
}

impl Rows {
    #[inline]
    fn slots(&self, i: usize) -> &[u32] {
        &self.slots[i * self.width..(i + 1) * self.width]
    }
}

/// Adds `s` to `rows`.
fn push_row(rows: &mut Rows, s: &Sample, label: f32, cfg: &FitConfig) {
    let set = cfg.set;
    let mut idx = [0u32; MAX_INSTANCES];
    let n = set.instances.len();
    instance_indices(set, &s.pos, &mut idx[..n]);
    for (k, inst) in set.instances.iter().enumerate() {
        let p = inst.pattern;
        rows.slots
            .push((set.slot_offset[p] + set.patterns[p].slot_of[idx[k] as usize] as usize) as u32);
    }
    let (stages, seed, holdout) = (cfg.stages, cfg.seed, cfg.holdout);
    let f = features(&s.pos);
    rows.slots
        .extend(count_slots(set, &s.pos, &f).map(|slot| slot as u32));
    let mut globals = [0f32; GLOBALS];
    for (g, &v) in globals.iter_mut().zip(&f.globals) {
        *g = v as f32;
    }
    let discs = (s.pos.player | s.pos.opponent).count_ones();
    let h = Rng::new(s.pos.key() ^ seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)).next_u64();
    rows.rows.push(Row {
        globals,
        label,
        stage: stage_of(discs, stages) as u16,
        held_out: (h % 1_000_000) as f64 / 1e6 < holdout,
    });
}

#[inline]
fn predict(w: &[f32], rows: &Rows, i: usize, gbase: usize) -> f32 {
    let r = &rows.rows[i];
    let mut p = 0.0;
    for &s in rows.slots(i) {
        p += w[s as usize];
    }
    for k in 0..GLOBALS {
        p += w[gbase + k] * r.globals[k];
    }
    p
}

fn mae(w: &[f32], rows: &Rows, sel: &[usize], gbase: usize) -> f64 {
    if sel.is_empty() {
        return f64::NAN;
    }
    sel.iter()
        .map(|&i| (predict(w, rows, i, gbase) - rows.rows[i].label).abs() as f64)
        .sum::<f64>()
        / sel.len() as f64
}

/// Disc counts covered by a stage.
pub fn stage_discs(stage: usize, stages: usize) -> (u32, u32) {
    let d: Vec<u32> = (4..64).filter(|&d| stage_of(d, stages) == stage).collect();
    (*d.first().unwrap_or(&0), *d.last().unwrap_or(&0))
}

/// Fits weights to the samples (classic-opening positions are skipped: the
/// evaluation returns 0 there).
pub fn fit(samples: &[Sample], cfg: &FitConfig) -> (PatternWeights, Vec<StageReport>) {
    let t0 = Instant::now();
    let outcomes = game_outcomes(samples);
    let set = cfg.set;
    let mut rows = Rows {
        rows: Vec::new(),
        slots: Vec::new(),
        width: set.instances.len() + set.counts.len(),
    };
    for (s, o) in samples.iter().zip(&outcomes) {
        let e = s.pos.empty_count();
        if s.pos.in_classic_opening()
            || e < cfg.empties.0
            || e > cfg.empties.1
            || (cfg.exact_only && !s.exact)
        {
            continue;
        }
        let label = match o {
            Some(o) if !s.exact => (1.0 - cfg.outcome_weight) * s.score + cfg.outcome_weight * o,
            _ => s.score,
        };
        push_row(&mut rows, s, label, cfg);
    }
    if cfg.progress {
        eprintln!(
            "train: {} samples as features ({} layout) in {:.1} s",
            rows.rows.len(),
            set.name,
            t0.elapsed().as_secs_f64()
        );
    }
    let per = set.weights_per_stage();
    let gbase = set.slots_per_stage;
    let mut all = vec![0f32; cfg.stages * per];
    let mut reports = Vec::new();
    let mut rng = Rng::new(cfg.seed);
    let mut w = vec![0f32; per];
    let mut m = vec![0f32; per];
    let mut v = vec![0f32; per];
    let mut grad = vec![0f32; per];
    let mut touched_flag = vec![false; per];
    let mut touched: Vec<usize> = Vec::new();
    let (b1, b2, eps) = (0.9f32, 0.999f32, 1e-8f32);
    for s in (0..cfg.stages).rev() {
        let ts = Instant::now();
        let mut train: Vec<(usize, f32)> = Vec::new();
        let (mut own_train, mut own_test) = (Vec::new(), Vec::new());
        for (i, r) in rows.rows.iter().enumerate() {
            let d = (r.stage as i64 - s as i64).abs();
            if r.held_out {
                if d == 0 {
                    own_test.push(i);
                }
            } else if d == 0 {
                train.push((i, 1.0));
                own_train.push(i);
            } else if d == 1 && cfg.neighbour_weight > 0.0 {
                train.push((i, cfg.neighbour_weight));
            }
        }
        m.iter_mut().for_each(|x| *x = 0.0);
        v.iter_mut().for_each(|x| *x = 0.0);
        let mut t = 0i32;
        for epoch in 0..cfg.epochs {
            // Fisher-Yates with the run's generator.
            for i in (1..train.len()).rev() {
                train.swap(i, rng.below(i as u64 + 1) as usize);
            }
            let lr = cfg.lr * (1.0 - 0.9 * epoch as f32 / cfg.epochs.max(1) as f32);
            for chunk in train.chunks(cfg.batch.max(1)) {
                for &(i, sw) in chunk {
                    let r = &rows.rows[i];
                    let g = 2.0 * sw * (predict(&w, &rows, i, gbase) - r.label);
                    for &sl in rows.slots(i) {
                        let sl = sl as usize;
                        if !touched_flag[sl] {
                            touched_flag[sl] = true;
                            touched.push(sl);
                        }
                        grad[sl] += g;
                    }
                    for k in 0..GLOBALS {
                        grad[gbase + k] += g * r.globals[k];
                    }
                }
                for k in 0..GLOBALS {
                    touched.push(gbase + k);
                }
                t += 1;
                let c1 = 1.0 - b1.powi(t);
                let c2 = 1.0 - b2.powi(t);
                for &j in &touched {
                    let l2 = if j < gbase { cfg.l2 } else { 0.0 };
                    let g = grad[j] + l2 * w[j];
                    m[j] = b1 * m[j] + (1.0 - b1) * g;
                    v[j] = b2 * v[j] + (1.0 - b2) * g * g;
                    w[j] -= lr * (m[j] / c1) / ((v[j] / c2).sqrt() + eps);
                    grad[j] = 0.0;
                    touched_flag[j] = false;
                }
                touched.clear();
            }
        }
        let rep = StageReport {
            stage: s,
            discs: stage_discs(s, cfg.stages),
            train: own_train.len(),
            held_out: own_test.len(),
            train_mae: mae(&w, &rows, &own_train, gbase),
            held_out_mae: mae(&w, &rows, &own_test, gbase),
        };
        if cfg.progress {
            eprintln!(
                "train: stage {:2} (discs {:2}-{:2}): {:6} train {:5} held out, MAE {:5.2} / {:5.2} discs, {:.1} s",
                s,
                rep.discs.0,
                rep.discs.1,
                rep.train,
                rep.held_out,
                rep.train_mae,
                rep.held_out_mae,
                ts.elapsed().as_secs_f64()
            );
        }
        reports.push(rep);
        all[s * per..(s + 1) * per].copy_from_slice(&w);
    }
    reports.reverse();
    let data = all
        .iter()
        .map(|&x| (x * WEIGHT_SCALE as f32).round().clamp(-32767.0, 32767.0) as i16)
        .collect();
    (
        PatternWeights {
            set,
            stages: cfg.stages,
            data,
        },
        reports,
    )
}

/// What `mollett train` prints: the fit per stage.
pub struct TrainReport {
    pub stages: Vec<StageReport>,
}

impl std::fmt::Display for TrainReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "stage  discs  train  held-out  MAE-train  MAE-held-out")?;
        let (mut n, mut sum) = (0usize, 0f64);
        for r in &self.stages {
            writeln!(
                f,
                "{:5}  {:2}-{:2}  {:6}  {:8}  {:9.2}  {:12.2}",
                r.stage, r.discs.0, r.discs.1, r.train, r.held_out, r.train_mae, r.held_out_mae
            )?;
            if r.held_out > 0 {
                n += r.held_out;
                sum += r.held_out_mae * r.held_out as f64;
            }
        }
        if n > 0 {
            writeln!(
                f,
                "held-out MAE over all stages: {:.2} discs ({n} positions)",
                sum / n as f64
            )?;
        }
        Ok(())
    }
}

/// Reads the sample files and fits weights to them.
pub fn train_files(
    files: &[std::path::PathBuf],
    limits: &GameLimits,
    cfg: &FitConfig,
) -> Result<(crate::engine::eval::pattern::PatternWeights, TrainReport), String> {
    let t = std::time::Instant::now();
    let mut samples = Vec::new();
    for f in files {
        if super::corpus::is_corpus(f) {
            samples.extend(corpus_samples(
                f,
                limits,
                cfg.corpus_positions,
                cfg.progress,
            )?);
        } else if f.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")) {
            let file = crate::rules::wthor::read(f)?;
            if file.year == wthor::HELD_OUT_YEAR {
                return Err(wthor::held_out(f));
            }
            if cfg.progress {
                eprintln!("train: {}: {} games", f.display(), file.games.len());
            }
            samples.extend(wthor::samples(&file, cfg.wthor_early));
        } else {
            samples.extend(read_samples(f)?);
        }
    }
    if cfg.progress {
        eprintln!(
            "train: read {} positions in {:.1} s",
            samples.len(),
            t.elapsed().as_secs_f64()
        );
    }
    if samples.is_empty() {
        return Err("no positions to train on".into());
    }
    let (weights, stages) = fit(&samples, cfg);
    if stages.iter().all(|s| s.train == 0) {
        return Err("no positions to train on among the chosen empties and labels".into());
    }
    Ok((weights, TrainReport { stages }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::pattern::PatternEval;
    use crate::rules::color::Variant;
    use crate::rules::position::playout;

    #[test]
    fn fit_recovers_a_planted_linear_target() {
        // Target: mobility, parity and the edge pattern's configuration, linear in the features.
        let set = pattern_set();
        let mut planted = PatternWeights::zeros(1);
        let mut x = 12345u64;
        for j in 0..set.patterns[0].slots {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            planted.data[j] = (x % 513) as i16 - 256;
        }
        planted.data[set.slots_per_stage] = 180; // mobility
        planted.data[set.slots_per_stage + 2] = -300; // parity
        let target = PatternEval::new(&planted);
        let mut samples = Vec::new();
        for seed in 0..3000u64 {
            let variant = if seed % 4 == 0 {
                Variant::Classic
            } else {
                Variant::Modern
            };
            let pos = playout(variant, 14 + (seed % 40) as u32, seed);
            samples.push(Sample {
                pos,
                score: target.raw(&pos) as f32 / WEIGHT_SCALE as f32,
                exact: false,
                depth: 1,
            });
        }
        let baseline: f64 = samples.iter().map(|s| s.score.abs() as f64).sum::<f64>() / 3000.0;
        let cfg = FitConfig {
            stages: 1,
            epochs: 30,
            progress: false,
            l2: 0.001,
            outcome_weight: 0.0,
            ..FitConfig::default()
        };
        let (w, rep) = fit(&samples, &cfg);
        assert_eq!(w.stages, 1);
        let r = &rep[0];
        assert!(
            r.train_mae < 0.25 * baseline,
            "train MAE {} vs baseline {baseline}",
            r.train_mae
        );
        assert!(
            r.held_out_mae < 0.6 * baseline,
            "held-out MAE {} vs baseline {baseline}",
            r.held_out_mae
        );
        // The mobility weight is found (roughly: other features share some of its signal).
        let mob = w.data[set.slots_per_stage] as f64 / WEIGHT_SCALE as f64;
        assert!(mob > 0.3 && mob < 1.0, "mobility weight {mob}");
    }
}
