//! `mollett evaltest`: the mean absolute error of evaluations against
//! labelled positions, by variant and by empties.

use super::inputs::read_samples_labelled;
use super::sample::Sample;
use super::wthor::EarlyLabel;
use crate::engine::eval::Evaluator;
use crate::rules::color::Variant;
use crate::rules::position::Position;

/// Mean absolute error of evaluators against labelled samples, by variant.
pub struct ErrorRow {
    pub variant: Variant,
    pub empties: (u32, u32),
    pub count: usize,
    /// MAE in discs, one per evaluator.
    pub mae: Vec<f64>,
}

/// MAE (discs) of each evaluator on the samples with `lo..=hi` empties, per
/// variant, over the whole range and per empties bucket of `bucket` squares.
pub fn eval_errors(
    samples: &[Sample],
    evaluators: &[&dyn Evaluator],
    lo: u32,
    hi: u32,
    bucket: u32,
) -> Vec<ErrorRow> {
    let mut rows = Vec::new();
    for variant in [Variant::Modern, Variant::Classic] {
        let mut ranges = vec![(lo, hi)];
        let mut a = lo;
        while a <= hi && bucket > 0 && bucket <= hi - lo {
            ranges.push((a, (a + bucket - 1).min(hi)));
            a += bucket;
        }
        for (a, b) in ranges {
            let sel: Vec<&Sample> = samples
                .iter()
                .filter(|s| s.pos.variant == variant && (a..=b).contains(&s.pos.empty_count()))
                .collect();
            if sel.is_empty() {
                continue;
            }
            let mae = evaluators
                .iter()
                .map(|e| {
                    sel.iter()
                        .map(|s| (e.evaluate(&s.pos) as f64 / 100.0 - s.score as f64).abs())
                        .sum::<f64>()
                        / sel.len() as f64
                })
                .collect();
            rows.push(ErrorRow {
                variant,
                empties: (a, b),
                count: sel.len(),
                mae,
            });
        }
    }
    rows
}

/// An evaluation `evaltest` compares: a real one, or the zero baseline.
#[derive(Clone, Debug, PartialEq)]
pub enum EvalChoice {
    /// Every position even: the baseline any evaluation must beat.
    Zero,
    Kind(crate::engine::eval::EvalKind),
}

impl std::str::FromStr for EvalChoice {
    type Err = String;
    /// `zero`, or an evaluation name as the `eval` option takes it (a weight
    /// file is checked).
    fn from_str(s: &str) -> Result<EvalChoice, String> {
        match s {
            "zero" => Ok(EvalChoice::Zero),
            s => crate::engine::eval::EvalKind::from_name(s).map(EvalChoice::Kind),
        }
    }
}

impl std::fmt::Display for EvalChoice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EvalChoice::Zero => f.write_str("zero"),
            EvalChoice::Kind(k) => write!(f, "{k}"),
        }
    }
}

impl EvalChoice {
    pub fn evaluator(&self) -> Result<Box<dyn Evaluator>, String> {
        /// The baseline: every position even.
        struct Zero;
        impl Evaluator for Zero {
            fn evaluate(&self, _: &Position) -> i32 {
                0
            }
            fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
                crate::engine::eval::handcrafted::PROBCUT_SIGMA.sigma(depth, shallow, empties)
            }
        }
        match self {
            EvalChoice::Zero => Ok(Box::new(Zero)),
            EvalChoice::Kind(k) => k.try_evaluator(),
        }
    }
}

/// What `mollett evaltest` prints: the evaluations' names and the rows.
pub struct EvalTestReport {
    pub names: Vec<String>,
    pub rows: Vec<ErrorRow>,
}

/// Reads the sample files and measures each evaluation on the samples with
/// `range` empties (only exact ones with `exact_only`), by variant and per
/// `bucket` of empties. Tournament games' positions before 24 empties are
/// labelled as `early` says.
pub fn evaltest(
    files: &[std::path::PathBuf],
    evals: &[(String, EvalChoice)],
    range: (u32, u32),
    exact_only: bool,
    bucket: u32,
    early: EarlyLabel,
) -> Result<EvalTestReport, String> {
    let mut samples = Vec::new();
    for f in files {
        samples.extend(read_samples_labelled(f, early)?);
    }
    if exact_only {
        samples.retain(|s| s.exact);
    }
    let evaluators = evals
        .iter()
        .map(|(_, e)| e.evaluator())
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&dyn Evaluator> = evaluators.iter().map(|e| e.as_ref()).collect();
    Ok(EvalTestReport {
        names: evals.iter().map(|(n, _)| n.clone()).collect(),
        rows: eval_errors(&samples, &refs, range.0, range.1, bucket),
    })
}

impl std::fmt::Display for EvalTestReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "variant  empties  positions")?;
        for e in &self.names {
            write!(f, "  {e:>12}")?;
        }
        writeln!(f)?;
        for r in &self.rows {
            write!(
                f,
                "{:7}  {:2}-{:2}  {:9}",
                r.variant.name(),
                r.empties.0,
                r.empties.1,
                r.count
            )?;
            for m in &r.mae {
                write!(f, "  {m:12.2}")?;
            }
            writeln!(f)?;
        }
        writeln!(
            f,
            "(mean absolute error in discs of the static evaluation against the labels)"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The zero evaluation's error is the mean size of the labels: with
    /// theoretical labels, that of each game's score from 24 empties, on
    /// every position before them; with played ones, that of its result.
    #[test]
    fn wthor_positions_before_24_empties_take_the_label_asked_for() {
        let path =
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wthor/WTH_2018.wtb");
        let file = crate::rules::wthor::read(&path).unwrap();
        let (mut n, mut played, mut theory) = (0u32, 0i64, 0i64);
        for g in &file.games {
            g.replay(|pos, _| {
                if (30..=40).contains(&pos.empty_count()) {
                    n += 1;
                    played += g.result().abs() as i64;
                    theory += g.theoretical_result().abs() as i64;
                }
            });
        }
        let zero = [("zero".to_string(), EvalChoice::Zero)];
        let mae = |early| {
            let report = evaltest(
                std::slice::from_ref(&path),
                &zero,
                (30, 40),
                false,
                0,
                early,
            )
            .unwrap();
            assert_eq!(report.rows.len(), 1);
            assert_eq!(report.rows[0].count, n as usize);
            report.rows[0].mae[0]
        };
        let (p, t) = (mae(EarlyLabel::Played), mae(EarlyLabel::Theoretical));
        assert!((p - played as f64 / n as f64).abs() < 1e-6, "{p}");
        assert!((t - theory as f64 / n as f64).abs() < 1e-6, "{t}");
        assert!((p - t).abs() > 0.1, "{p} {t}");
    }
}
