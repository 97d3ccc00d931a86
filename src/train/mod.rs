//! The learning pipeline: `mollett selfplay` writes labelled positions,
//! `mollett train` fits the pattern weights, `mollett evaltest` measures an
//! evaluation against labelled positions. See `docs/training.md`.
//!
//! A position file has one position a line (`#` starts a comment):
//!
//! ```text
//! <64 squares X/O/-> <side X|O> <modern|classic> <black supply> <white supply> <score> <source>
//! ```
//!
//! `score` is the final disc difference from the side to move's view
//! (discs only, empties to nobody); `source` is `e` for an exact solve or
//! `dN` for an N-ply search.

pub mod book;
pub mod corpus;
pub mod fit;
pub mod probcut;
pub mod selfplay;
pub mod swing;
pub mod wthor;

use crate::engine::eval::Evaluator;
use crate::rules::color::Variant;
use crate::rules::position::Position;
use std::path::Path;

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub pos: Position,
    /// Final disc difference, side to move's view.
    pub score: f32,
    /// The score is an exact solve (else a search at `depth`).
    pub exact: bool,
    pub depth: u32,
}

impl Sample {
    /// The line written to position files.
    pub fn to_line(&self) -> String {
        let source = if self.exact {
            "e".to_string()
        } else {
            format!("d{}", self.depth)
        };
        format!(
            "{} {} {} {} {:+.2} {}",
            self.pos.to_obf(),
            self.pos.variant,
            self.pos.supply[0],
            self.pos.supply[1],
            self.score,
            source
        )
    }

    /// Parses a line of a position file (`None` for blanks and comments).
    pub fn parse(line: &str) -> Result<Option<Sample>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Ok(None);
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 7 {
            return Err(format!("expected 7 fields, found {}", f.len()));
        }
        let variant = Variant::parse(f[2]).ok_or_else(|| format!("bad variant '{}'", f[2]))?;
        let sb: u8 = f[3].parse().map_err(|_| "bad supply".to_string())?;
        let sw: u8 = f[4].parse().map_err(|_| "bad supply".to_string())?;
        let supply = (variant == Variant::Classic).then_some([sb, sw]);
        let pos = Position::from_obf(f[0], f[1], variant, supply).map_err(|e| e.to_string())?;
        let score: f32 = f[5].parse().map_err(|_| format!("bad score '{}'", f[5]))?;
        if !(-64.0..=64.0).contains(&score) {
            return Err(format!("score {score} out of range"));
        }
        let (exact, depth) = match f[6] {
            "e" => (true, pos.empty_count()),
            d => (
                false,
                d.strip_prefix('d')
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("bad source '{d}' (e or dN)"))?,
            ),
        };
        Ok(Some(Sample {
            pos,
            score,
            exact,
            depth,
        }))
    }
}

/// Which games of the corpus files `train` reads: for each variant, only
/// the games with an index below the limit (`None`: all), so that a
/// training run can be repeated exactly on a corpus that has grown since.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameLimits {
    pub modern: Option<u64>,
    pub classic: Option<u64>,
}

impl GameLimits {
    fn below(&self, variant: Variant) -> Option<u64> {
        match variant {
            Variant::Modern => self.modern,
            Variant::Classic => self.classic,
        }
    }
}

/// Up to `n` samples drawn (seeded) from those of `files` whose positions
/// have a move, are past the classic free opening and pass `keep`; the
/// same files, `n` and seed give the same samples in the same order.
pub fn draw_samples(
    files: &[std::path::PathBuf],
    n: usize,
    seed: u64,
    keep: impl Fn(&Position) -> bool,
) -> Result<Vec<Sample>, String> {
    let mut pool = Vec::new();
    for f in files {
        pool.extend(
            read_samples(f)?
                .into_iter()
                .filter(|s| !s.pos.in_classic_opening() && s.pos.moves() != 0 && keep(&s.pos)),
        );
    }
    if pool.is_empty() {
        return Err("no usable positions in the files (check the empties and depth limits)".into());
    }
    // A seeded partial shuffle picks the positions.
    let mut rng = Rng::new(seed);
    let n = n.min(pool.len());
    for i in 0..n {
        let j = i + (rng.next_u64() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(n);
    Ok(pool)
}

/// Reads every sample of a position file. An `.obf` file (the FFO
/// problems) gives one exact sample per problem that has scores: its best
/// score, which counts empty squares for the winner. A `.wtb` file (WTHOR
/// tournament games) gives its games' positions ([`wthor::samples`]).
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    if path.extension().is_some_and(|e| e == "games") {
        return corpus_samples(path, &GameLimits::default(), false);
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        return wthor::read_samples(path);
    }
    if path.extension().is_some_and(|e| e == "obf") {
        let problems = crate::rules::obf::read(path)?;
        return Ok(problems
            .into_iter()
            .filter_map(|p| {
                p.best_score().map(|s| Sample {
                    pos: p.pos,
                    score: s as f32,
                    exact: true,
                    depth: p.pos.empty_count(),
                })
            })
            .collect());
    }
    let text = crate::rules::text::read_text(path)?;
    // A position file grows while self-play writes it: a torn last line is
    // skipped, not an error.
    let (whole, torn) = crate::files::whole_lines(text.as_bytes());
    if !torn.is_empty() {
        eprintln!(
            "mollett: warning: {}",
            crate::files::torn_message(path, torn)
        );
    }
    let text = &text[..whole.len()];
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(s) =
            Sample::parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?
        {
            out.push(s);
        }
    }
    Ok(out)
}

/// Each sample's game outcome: the exact score of the first exactly solved
/// position of its game, from the sample's side to move's view (`None` when
/// the game has none). Games are recognised as `selfplay` writes them: runs
/// of lines whose empties strictly decrease.
pub fn game_outcomes(samples: &[Sample]) -> Vec<Option<f32>> {
    let mut out = vec![None; samples.len()];
    let mut start = 0;
    while start < samples.len() {
        let mut end = start + 1;
        while end < samples.len()
            && samples[end].pos.empty_count() < samples[end - 1].pos.empty_count()
        {
            end += 1;
        }
        if let Some(e) = samples[start..end].iter().find(|s| s.exact) {
            for (o, s) in out[start..end].iter_mut().zip(&samples[start..end]) {
                *o = Some(if s.pos.side == e.pos.side {
                    e.score
                } else {
                    -e.score
                });
            }
        }
        start = end;
    }
    out
}

pub use crate::rng::Rng;

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
    fn evaluator(&self) -> Result<Box<dyn Evaluator>, String> {
        /// The baseline: every position even.
        struct Zero;
        impl Evaluator for Zero {
            fn evaluate(&self, _: &Position) -> i32 {
                0
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
/// `bucket` of empties.
pub fn evaltest(
    files: &[std::path::PathBuf],
    evals: &[(String, EvalChoice)],
    range: (u32, u32),
    exact_only: bool,
    bucket: u32,
) -> Result<EvalTestReport, String> {
    let mut samples = Vec::new();
    for f in files {
        samples.extend(read_samples(f)?);
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

/// What `mollett train` prints: the fit per stage.
pub struct TrainReport {
    pub stages: Vec<fit::StageReport>,
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

/// How many game indices below `below` are absent from `games` (a corpus
/// file's games: `corpus::read` keeps each index once), counted up to the
/// returned bound: the smaller of `below` and one past the last game. A
/// file that simply ends before `below` (a finished run's file) is not short
/// of games; only gaps before its last game are.
fn missing_below(games: &[corpus::CorpusGame], below: u64) -> (u64, u64) {
    let end = games
        .iter()
        .map(|g| g.index + 1)
        .max()
        .unwrap_or(0)
        .min(below);
    let present = games.iter().filter(|g| g.index < end).count() as u64;
    (end, end - present)
}

/// The training samples of a corpus file, within `limits` (a warning when
/// games below a limit are missing: another copy would train differently).
fn corpus_samples(path: &Path, limits: &GameLimits, progress: bool) -> Result<Vec<Sample>, String> {
    let mut c = corpus::read(path)?;
    for s in &c.skipped {
        eprintln!("{}: {s} (skipped)", path.display());
    }
    if let Some(below) = limits.below(c.header.variant) {
        let (end, missing) = missing_below(&c.games, below);
        c.games.retain(|g| g.index < below);
        if missing > 0 {
            eprintln!(
                "train: warning: {}: {missing} of the games below index {end} are missing",
                path.display()
            );
        }
    }
    if progress {
        eprintln!("train: {}: {} games", path.display(), c.games.len());
    }
    Ok(corpus::samples(&c))
}

/// Reads the sample files and fits weights to them.
pub fn train_files(
    files: &[std::path::PathBuf],
    limits: &GameLimits,
    cfg: &fit::FitConfig,
) -> Result<(crate::engine::eval::pattern::PatternWeights, TrainReport), String> {
    let t = std::time::Instant::now();
    let mut samples = Vec::new();
    for f in files {
        if f.extension().is_some_and(|e| e == "games") {
            samples.extend(corpus_samples(f, limits, cfg.progress)?);
        } else if f.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")) {
            let file = crate::rules::wthor::read(f)?;
            if file.year == wthor::HELD_OUT_YEAR {
                return Err(wthor::held_out(f));
            }
            if cfg.progress {
                eprintln!("train: {}: {} games", f.display(), file.games.len());
            }
            samples.extend(wthor::samples(&file));
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
    let (weights, stages) = fit::fit(&samples, cfg);
    Ok((weights, TrainReport { stages }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::Color;

    #[test]
    fn game_limits_keep_the_games_below_the_index() {
        let dir = std::env::temp_dir().join(format!("mollett-limits-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("m.games");
        let header = corpus::Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        // The same game under three indices, out of order.
        let line = |i: u64| {
            let mut g = corpus::game_by(Variant::Modern, |moves| moves.trailing_zeros());
            g.index = i;
            g.to_line() + "\n"
        };
        let text = format!("{}\n{}{}{}", header.to_line(), line(2), line(0), line(1));
        std::fs::write(&path, text).unwrap();
        let all = corpus_samples(&path, &GameLimits::default(), false).unwrap();
        let two = GameLimits {
            modern: Some(2),
            classic: Some(0),
        };
        let below_two = corpus_samples(&path, &two, false).unwrap();
        assert_eq!(below_two.len() * 3, all.len() * 2);
        // The classic limit does not apply to a modern file.
        let classic_only = GameLimits {
            modern: None,
            classic: Some(0),
        };
        assert_eq!(
            corpus_samples(&path, &classic_only, false).unwrap().len(),
            all.len()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn only_gaps_before_a_files_last_game_count_as_missing() {
        let games = |indices: &[u64]| -> Vec<corpus::CorpusGame> {
            indices
                .iter()
                .map(|&i| {
                    let mut g = corpus::game_by(Variant::Modern, |moves| moves.trailing_zeros());
                    g.index = i;
                    g
                })
                .collect()
        };
        // A complete file of 3 games under a limit of 10 lacks nothing.
        assert_eq!(missing_below(&games(&[0, 1, 2]), 10), (3, 0));
        // Gaps before the last game count; games past the limit do not.
        assert_eq!(missing_below(&games(&[0, 3, 5, 12]), 10), (10, 7));
        assert_eq!(missing_below(&games(&[4, 0, 2]), 10), (5, 2));
        assert_eq!(missing_below(&games(&[]), 10), (0, 0));
    }

    #[test]
    fn obf_problems_read_as_exact_samples() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo/fforum-40-59.obf");
        let samples = read_samples(&path).unwrap();
        assert_eq!(samples.len(), 20);
        assert!(samples
            .iter()
            .all(|s| s.exact && s.depth == s.pos.empty_count()));
        // FFO #40: 20 empties, black to move, best a2 for +38.
        assert_eq!(samples[0].pos.empty_count(), 20);
        assert_eq!(samples[0].score, 38.0);
        // #59: 34 empties, +64.
        assert_eq!(samples[19].pos.empty_count(), 34);
        assert_eq!(samples[19].score, 64.0);
    }

    #[test]
    fn sample_lines_round_trip() {
        for variant in [Variant::Modern, Variant::Classic] {
            let pos = crate::rules::position::playout(variant, 30, 5);
            let s = Sample {
                pos,
                score: -6.5,
                exact: false,
                depth: 8,
            };
            let back = Sample::parse(&s.to_line()).unwrap().unwrap();
            assert_eq!(back, s);
        }
        let start = Position::start(Variant::Modern, Color::Black);
        let e = Sample {
            pos: start,
            score: 0.0,
            exact: true,
            depth: 60,
        };
        assert_eq!(Sample::parse(&e.to_line()).unwrap().unwrap(), e);
        assert!(Sample::parse("# comment").unwrap().is_none());
        assert!(Sample::parse("XO X modern 0 0 1 e").is_err());
    }
}
