//! `selfplay`, `train`, `probcut`, `evaltest` and `swing`: their arguments,
//! the training code's configurations made of them, and the runs.

use super::parsers::{parse_eval, parse_layout, parse_plies};
use super::stop::CtrlC;
use clap::Args;
use mollett::engine::eval::pattern::PatternSet;
use mollett::engine::eval::EvalKind;
use mollett::files::RunFile;
use mollett::rules::Variant;
use mollett::tournament::openings;
use mollett::tournament::types::parse_shard;
use mollett::train::corpus::Positions;
use mollett::train::wthor::{EarlyLabel, WthorStarts};
use mollett::train::{
    evaltest, fit, grow, probcut, selfplay, swing, train_files, EvalChoice, GameLimits,
};
use std::fmt::Display;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// `mollett selfplay`.
#[derive(Args)]
pub struct SelfplayArgs {
    /// Games in the whole run (all shards).
    #[arg(long, default_value_t = 100)]
    pub games: usize,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Play slice i of n of the games (game k belongs to shard k mod n + 1).
    #[arg(long, default_value = "1/1", value_parser = parse_shard)]
    pub shard: (usize, usize),
    /// Random opening of 0 to N plies (classic: after 4 random placements).
    #[arg(long, default_value_t = 8)]
    pub random_plies: usize,
    /// Start game k from line k (cyclically) of this openings file instead.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Start each game from a WTHOR tournament game (.wtb files, or
    /// directories of them; the held-out year is left out), replayed to a
    /// random ply of --wthor-plies; game and ply come from the seed and k.
    #[arg(long, num_args = 1.., conflicts_with = "openings")]
    pub wthor: Vec<PathBuf>,
    /// Plies of the WTHOR game replayed: LO-HI.
    #[arg(long, default_value = "8-40", value_parser = parse_plies, requires = "wthor")]
    pub wthor_plies: (usize, usize),
    /// Search depth that labels each position and chooses the move.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Solve exactly from this many empties down.
    #[arg(long, default_value_t = 16)]
    pub exact_empties: u32,
    /// Chance of a random move before the exact phase.
    #[arg(long, default_value_t = 0.1)]
    pub random_prob: f64,
    /// Record only positions with at most this many empties.
    #[arg(long, default_value_t = 60)]
    pub max_record_empties: u32,
    /// Record only positions with at least this many empties (games stop below).
    #[arg(long, default_value_t = 0)]
    pub min_empties: u32,
    /// Start no new game after this many seconds.
    #[arg(long)]
    pub max_seconds: Option<f64>,
    /// Evaluation of the searches: handcrafted, learned, or a weight file.
    #[arg(long, default_value = "handcrafted", value_parser = parse_eval)]
    pub eval: EvalKind,
    /// Transposition table in MB.
    #[arg(long, default_value_t = 32)]
    pub hash: usize,
    /// Output file (default: stdout); appended to.
    #[arg(long, conflicts_with = "corpus")]
    pub out: Option<PathBuf>,
    /// Append whole games to this corpus file (`.games`, see
    /// docs/training.md) instead of positions; resumes, skipping the
    /// games it already holds.
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Games played at once (corpus runs), one search thread each.
    #[arg(long, default_value_t = 1)]
    pub threads: usize,
}

/// `mollett train`.
#[derive(Args)]
pub struct TrainArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    #[arg(long, default_value_t = 20)]
    pub epochs: usize,
    /// Game stages (by discs on the board).
    #[arg(long, default_value_t = mollett::engine::eval::pattern::DEFAULT_STAGES)]
    pub stages: usize,
    /// The pattern layout to fit: v1 (the shipped eleven patterns, 46
    /// instances), v2 (v1 and three ten-square shapes, 58 instances), v3
    /// (v2 with mobility and potential mobility as tables per stage beside
    /// their linear terms), v4 (v3 with tables of the corner-anchored discs of
    /// each side, the side to move's discs and the odd quadrants) or o1 (four
    /// ten-square corner and edge shapes, 20 instances: for ordering the exact
    /// solver).
    #[arg(long, default_value = "v1", value_parser = parse_layout)]
    pub layout: &'static PatternSet,
    /// Adam step size (discs).
    #[arg(long, default_value_t = 0.02)]
    pub lr: f32,
    /// L2 regularisation.
    #[arg(long, default_value_t = 0.01)]
    pub l2: f32,
    #[arg(long, default_value_t = 128)]
    pub batch: usize,
    /// Fraction of positions held out to measure the fit.
    #[arg(long, default_value_t = 0.1)]
    pub holdout: f64,
    /// Weight of neighbouring stages' samples.
    #[arg(long, default_value_t = 0.5)]
    pub neighbour_weight: f32,
    /// Blend searched labels with the game's exact outcome by this weight.
    #[arg(long, default_value_t = 0.5)]
    pub outcome_weight: f32,
    /// Fit only positions with at least this many empty squares.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub min_empties: u32,
    /// Fit only positions with at most this many empty squares.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub max_empties: u32,
    /// Fit only exactly labelled positions (a corpus game's from its exact
    /// empties on, a tournament game's at 24 empties, `e` lines).
    #[arg(long)]
    pub exact_only: bool,
    /// Label a tournament game's positions before 24 empties with its
    /// theoretical score (perfect play from 24 empties), not the result as played.
    #[arg(long)]
    pub wthor_theoretical: bool,
    /// Leave out a corpus game's positions before its last random move
    /// after the opening (their game's result carries that move's loss).
    #[arg(long)]
    pub clean_labels: bool,
    /// From modern corpus files, only the games with an index below this
    /// (default: all): repeats a run on a corpus that has grown since.
    #[arg(long)]
    pub modern_games: Option<u64>,
    /// The same for classic corpus files.
    #[arg(long)]
    pub classic_games: Option<u64>,
    #[arg(long, default_value = "weights.bin")]
    pub out: PathBuf,
}

/// `mollett probcut`.
#[derive(Args)]
pub struct ProbcutArgs {
    /// Position files (as `selfplay` writes them) to sample from.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Evaluation: handcrafted, learned, or a weight file.
    #[arg(long, default_value = "handcrafted", value_parser = parse_eval)]
    pub eval: EvalKind,
    #[arg(long, default_value_t = 300)]
    pub positions: usize,
    /// Deepest search measured.
    #[arg(long, default_value_t = 10)]
    pub max_depth: u32,
    /// Shallowest deep search measured.
    #[arg(long, default_value_t = 3)]
    pub min_depth: u32,
    #[arg(long, default_value_t = 56)]
    pub max_empties: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// `mollett evaltest`.
#[derive(Args)]
pub struct EvaltestArgs {
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Evaluations to compare: handcrafted, learned, zero (always 0), or weight files.
    #[arg(long, num_args = 1.., default_values = ["handcrafted", "learned"])]
    pub eval: Vec<EvalChoice>,
    #[arg(long, default_value_t = 20)]
    pub min_empties: u32,
    #[arg(long, default_value_t = 30)]
    pub max_empties: u32,
    /// Only exactly solved positions.
    #[arg(long)]
    pub exact_only: bool,
    /// Also report per bucket of this many empties (0: none).
    #[arg(long, default_value_t = 0)]
    pub bucket: u32,
    /// Label a tournament game's positions before 24 empties with its
    /// theoretical score (perfect play from 24 empties), not the result as
    /// played: a yardstick for the middle game that no evaluation wrote.
    #[arg(long)]
    pub wthor_theoretical: bool,
}

/// `mollett swing`.
#[derive(Args)]
pub struct SwingArgs {
    /// Position or corpus files to sample from.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Evaluations to compare: handcrafted, learned, or weight files.
    #[arg(long, num_args = 1.., default_values = ["learned"])]
    pub eval: Vec<EvalChoice>,
    #[arg(long, default_value_t = 200)]
    pub positions: usize,
    #[arg(long, default_value_t = 30)]
    pub min_empties: u32,
    #[arg(long, default_value_t = 40)]
    pub max_empties: u32,
    /// Shallowest depth d whose swing |v(d) - v(d-1)| is measured.
    #[arg(long, default_value_t = 6)]
    pub min_depth: u32,
    /// Deepest search.
    #[arg(long, default_value_t = 12)]
    pub max_depth: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The search's leaf tempo in discs (the `tempo` option; default: the engine's).
    #[arg(long)]
    pub tempo: Option<f64>,
}

impl SwingArgs {
    pub fn config(&self) -> swing::SwingConfig {
        swing::SwingConfig {
            files: self.files.clone(),
            positions: self.positions,
            min_empties: self.min_empties,
            max_empties: self.max_empties,
            min_depth: self.min_depth,
            max_depth: self.max_depth,
            seed: self.seed,
            leaf_tempo: self
                .tempo
                .map_or(mollett::engine::search::params::LEAF_TEMPO, |t| {
                    (t * mollett::engine::eval::UNITS_PER_DISC as f64).round() as i32
                }),
        }
    }
}

/// The weight file an evaluation reads, if any.
fn eval_file(eval: &EvalKind) -> Option<RunFile> {
    match eval {
        EvalKind::File(p) => Some(RunFile::new(p, "the evaluation's weight file")),
        _ => None,
    }
}

impl SelfplayArgs {
    pub fn config(&self, variant: Variant) -> Result<selfplay::SelfplayConfig, String> {
        let wthor = if self.wthor.is_empty() {
            None
        } else if variant == Variant::Classic {
            return Err("--wthor: tournament games are modern Othello; not with classic".into());
        } else {
            Some(Arc::new(WthorStarts::load(&self.wthor, self.wthor_plies)?))
        };
        Ok(selfplay::SelfplayConfig {
            variant,
            games: self.games,
            seed: self.seed,
            shard: self.shard,
            random_plies: self.random_plies,
            openings: match &self.openings {
                Some(p) => openings::read_file(p, variant)?,
                None => Vec::new(),
            },
            wthor,
            depth: self.depth,
            exact_empties: self.exact_empties,
            random_prob: self.random_prob,
            max_record_empties: self.max_record_empties,
            min_empties: self.min_empties,
            max_time: self.max_seconds.map(Duration::from_secs_f64),
            hash_mb: self.hash,
            progress: true,
        })
    }
}

/// How `--wthor-theoretical` (of `train` and `evaltest`) labels a tournament
/// game's positions before 24 empties.
fn early_label(theoretical: bool) -> EarlyLabel {
    if theoretical {
        EarlyLabel::Theoretical
    } else {
        EarlyLabel::Played
    }
}

impl TrainArgs {
    pub fn config(&self) -> fit::FitConfig {
        fit::FitConfig {
            set: self.layout,
            stages: self.stages,
            epochs: self.epochs,
            seed: self.seed,
            lr: self.lr,
            l2: self.l2,
            batch: self.batch,
            holdout: self.holdout,
            neighbour_weight: self.neighbour_weight,
            outcome_weight: self.outcome_weight,
            empties: (self.min_empties, self.max_empties),
            exact_only: self.exact_only,
            wthor_early: early_label(self.wthor_theoretical),
            corpus_positions: if self.clean_labels {
                Positions::Clean
            } else {
                Positions::All
            },
            progress: true,
        }
    }
}

impl ProbcutArgs {
    pub fn config(&self) -> probcut::ProbcutConfig {
        probcut::ProbcutConfig {
            files: self.files.clone(),
            positions: self.positions,
            max_depth: self.max_depth,
            min_depth: self.min_depth,
            max_empties: self.max_empties,
            seed: self.seed,
        }
    }
}

impl SelfplayArgs {
    /// Grows `--corpus` by whole games (Ctrl-C stops cleanly; a rerun plays
    /// the rest), or writes labelled positions; the counts go to stderr.
    pub fn run(&self, variant: Variant, stop: CtrlC) -> Result<(), String> {
        let inputs: Vec<RunFile> = self
            .openings
            .iter()
            .map(|o| RunFile::new(o, "the openings file"))
            .chain(self.wthor.iter().map(|w| RunFile::new(w, "a WTHOR file")))
            .chain(eval_file(&self.eval))
            .collect();
        for (flag, out) in [("--out", &self.out), ("--corpus", &self.corpus)] {
            if let Some(out) = out {
                mollett::files::guard(flag, out, &inputs)?;
            }
        }
        let cfg = self.config(variant)?;
        match &self.corpus {
            Some(path) => {
                let stop = stop();
                let s = grow::grow_corpus(&cfg, &self.eval, path, self.threads, &stop)?;
                eprintln!(
                    "selfplay: {} games added, {} were present, {} of this shard still to play",
                    s.added, s.present, s.missing
                );
                if s.missing > 0 && stop.load(Ordering::SeqCst) {
                    return Err("interrupted; rerun the same command to play the rest".into());
                }
                Ok(())
            }
            None => {
                let s = selfplay::write_positions(&cfg, &self.eval, self.out.as_deref())?;
                eprintln!(
                    "selfplay: done, {} games, {} positions ({} exact)",
                    s.games, s.positions, s.exact
                );
                Ok(())
            }
        }
    }
}

impl TrainArgs {
    /// Fits, prints the report and writes the weight file (its size and the
    /// time taken to stderr); a bad `--out` is refused before the fitting.
    pub fn run(&self) -> Result<(), String> {
        let t = Instant::now();
        let limits = GameLimits {
            modern: self.modern_games,
            classic: self.classic_games,
        };
        if self.min_empties > self.max_empties {
            return Err(format!(
                "--min-empties {} is above --max-empties {}",
                self.min_empties, self.max_empties
            ));
        }
        let inputs: Vec<RunFile> = self
            .files
            .iter()
            .map(|f| RunFile::new(f, "a file to train on"))
            .collect();
        mollett::files::guard("--out", &self.out, &inputs)?;
        let (weights, report) = train_files(&self.files, &limits, &self.config())?;
        print!("{report}");
        weights.write(&self.out).map_err(|e| e.to_string())?;
        let bytes = std::fs::metadata(&self.out).map_or(0, |m| m.len());
        let secs = t.elapsed().as_secs_f64();
        eprintln!(
            "train: wrote {} ({bytes} bytes) in {secs:.1} s",
            self.out.display()
        );
        Ok(())
    }
}

impl ProbcutArgs {
    /// ProbCut's error model for `--eval`, with the cells it was fitted to.
    pub fn run(&self) -> Result<probcut::ProbcutReport, String> {
        let eval = self.eval.try_evaluator()?;
        probcut::run(&self.config(), eval)
            .map(|(cells, model)| probcut::ProbcutReport { cells, model })
    }
}

impl EvaltestArgs {
    /// Each evaluation's error against the labelled positions.
    pub fn run(&self) -> Result<impl Display, String> {
        mollett::files::warn_empty(&self.files);
        let evals: Vec<_> = self
            .eval
            .iter()
            .map(|e| (e.to_string(), e.clone()))
            .collect();
        let range = (self.min_empties, self.max_empties);
        let early = early_label(self.wthor_theoretical);
        evaltest(
            &self.files,
            &evals,
            range,
            self.exact_only,
            self.bucket,
            early,
        )
    }
}

impl SwingArgs {
    /// Each evaluation's swing between consecutive depths.
    pub fn run(&self) -> Result<impl Display, String> {
        swing::run(&self.config(), &self.eval)
    }
}
