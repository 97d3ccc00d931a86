//! The command line: clap types, and their conversion into the library's
//! configurations. The work itself lives in the library.

use clap::{Args, Parser, Subcommand};
use mollett::engine::eval::EvalKind;
use mollett::protocol::Protocol;
use mollett::rules::Variant;
use mollett::tournament::config::{unique_names, Config};
use mollett::tournament::openings::{self, GenConfig, Opening};
use mollett::tournament::schedule::Format;
use mollett::tournament::tune::{Param, TuneConfig};
use mollett::tournament::types::parse_shard;
use mollett::tournament::{EngineSpec, RefereeLimits, TimeControl};
use mollett::train::wthor::WthorStarts;
use mollett::train::{fit, probcut, selfplay, swing, EvalChoice};
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

mod sprt;

pub use sprt::optional_sprt;
use sprt::sprt_word;

#[derive(Parser)]
#[command(
    name = "mollett",
    version,
    about = "A Reversi engine: modern (Othello) and classic rules, GTP-style protocol on stdin/stdout"
)]
pub struct Cli {
    /// Rule set at start-up: modern or classic.
    #[arg(long, global = true, default_value = "modern", value_parser = parse_variant)]
    pub variant: Variant,
    /// Protocol of the loop: gtp (which switches to nboard when the first line is `nboard 2`) or nboard.
    #[arg(long, default_value = "gtp", value_parser = parse_protocol)]
    pub protocol: Protocol,
    /// Start the protocol loop with an option set, as `set_option NAME VALUE`
    /// would (for GUIs that never send set_option); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

#[derive(Subcommand)]
pub enum CliCommand {
    /// Count the leaves of the game tree to DEPTH plies from the start.
    Perft {
        #[arg(value_parser = clap::value_parser!(u32).range(0..=60))]
        depth: u32,
    },
    /// Search fixed positions to a fixed depth; prints `N nodes M nps` last.
    Bench {
        /// Static evaluation: learned (the signature), handcrafted, or a weight file.
        #[arg(long, default_value = "learned", value_parser = parse_eval)]
        eval: EvalKind,
    },
    /// Solve each position of an OBF file exactly (empties to the winner) and
    /// check the scores; exits non-zero on a wrong score or move.
    Solve {
        file: PathBuf,
        /// Search threads (1 to 256, as the threads option).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Only problems A to B (numbers as in the file: `fforum-40-59.obf` starts at 40).
        #[arg(long, value_parser = parse_ids)]
        ids: Option<RangeInclusive<usize>>,
        /// Transposition table size in megabytes (1 to 65536, as the hash option); without it,
        /// each problem's by its empties: 128 MB to 27, 1024 MB from 28 (at most half the memory available).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65536))]
        hash: Option<u64>,
        /// Evaluation that orders moves at many empties: learned (the fastest solves), handcrafted, or a weight file.
        #[arg(long, default_value = "learned", value_parser = parse_eval)]
        eval: EvalKind,
        /// Seconds between `working` lines on stderr while one step of a solve is still at work (0: none).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=86400))]
        heartbeat: u64,
    },
    /// Play a match between two engines (see docs/match.md).
    Match {
        #[command(flatten)]
        run: RunArgs,
        /// Number of games (played in pairs: one opening, colours swapped).
        #[arg(long, default_value_t = 10)]
        games: usize,
    },
    /// Play a round robin (or gauntlet) between three or more engines.
    Tournament {
        #[command(flatten)]
        run: RunArgs,
        /// Game pairs per pairing.
        #[arg(long, default_value_t = 1)]
        rounds: usize,
        /// The first engine plays each other; the others do not meet.
        #[arg(long)]
        gauntlet: bool,
    },
    /// Tune numeric engine options by SPSA (see docs/tuning.md).
    Tune(TuneArgs),
    /// Merge result files and print the report of them all.
    Report {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// SPRT bounds: elo0=A elo1=B [alpha=X beta=Y]; takes every word
        /// after it, so give the files first.
        #[arg(long, num_args = 1.., value_parser = sprt_word)]
        sprt: Vec<String>,
    },
    /// Write random balanced openings, one move sequence a line.
    Openings(OpeningsArgs),
    /// Play varied games and write positions labelled by search and exact solves (see docs/training.md).
    Selfplay(SelfplayArgs),
    /// Fit pattern weights to position files and write a weight file.
    Train(TrainArgs),
    /// Fit ProbCut's error model (shallow against deep search) for an evaluation.
    Probcut(ProbcutArgs),
    /// Mean absolute error of the evaluations against labelled positions.
    Evaltest(EvaltestArgs),
    /// How much search scores move between consecutive depths (odd/even swing) for each evaluation.
    Swing(SwingArgs),
    /// Opening books: build, show, check, merge; Edax's book.dat in and out (see docs/book.md).
    #[command(subcommand)]
    Book(BookCommand),
}

/// `mollett book ...`: every output is replaced whole.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Read an Edax book.dat and write it as a Mollett book.
    ImportEdax { input: PathBuf, output: PathBuf },
    /// Write a modern Mollett book as an Edax book.dat.
    ExportEdax { input: PathBuf, output: PathBuf },
    /// A position's book moves with value, depth and games, best first.
    Show {
        file: PathBuf,
        /// The moves from the start to the position (f5d6c3...; default: the start).
        #[arg(long, default_value = "")]
        moves: String,
    },
    /// Read and check a whole book; print its variant and counts.
    Check { file: PathBuf },
    /// The union of two books of one variant.
    Merge {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// A modern book of the WTHOR games (held-out 2018 skipped), each played move scored by search.
    Build {
        /// WTHOR files or folders of .wtb files (e.g. corpus/wthor).
        #[arg(long, required = true)]
        wthor: Vec<PathBuf>,
        /// Positions of each game's first N plies (1 to 60).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=60))]
        plies: u64,
        /// Depth of the search scoring each played move (1 to 60).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Search threads (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

/// How games are played: shared by `match`, `tournament` and `tune`.
#[derive(Args)]
pub struct GameArgs {
    /// Time control BASE+INC in seconds (e.g. 60+0.5), or none.
    #[arg(long, conflicts_with = "st")]
    tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    st: Option<f64>,
    /// Seconds a move may overrun its clock before it forfeits.
    #[arg(long, default_value_t = 0.2)]
    margin: f64,
    /// Seconds to wait for any answer not bounded by a clock (hang limit).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// File of openings: move sequences or boards, one a line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

/// `mollett tune`.
#[derive(Args)]
pub struct TuneArgs {
    /// The engine, as for `match`; both sides run it, each with its own values.
    #[arg(long)]
    engine: String,
    /// NAME=START,MIN,MAX,C_END[,R_END]: an option to tune; repeatable. Values
    /// are sent rounded when START, MIN and MAX have no decimal point.
    #[arg(long = "param", required = true)]
    params: Vec<String>,
    #[arg(long, default_value_t = 100)]
    iterations: usize,
    /// Games per iteration, in colour-swapped pairs.
    #[arg(long, default_value_t = 2)]
    games_per_iter: usize,
    #[command(flatten)]
    games: GameArgs,
    /// Draws the perturbations and shuffles the openings.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// File with one line per iteration (iteration, result, values).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run recorded in --out.
    #[arg(long)]
    resume: bool,
}

/// Options shared by `match` and `tournament`.
#[derive(Args)]
pub struct RunArgs {
    /// An engine: `key=value` words (name, cmd, dir, proto, tc, st, init, time); repeat per engine.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    #[command(flatten)]
    games: GameArgs,
    /// Result file, one line per game (plus FILE.ggf for modern games).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run recorded in --out, skipping finished games.
    #[arg(long)]
    resume: bool,
    /// Run slice i of n of the game list (pairs kept together).
    #[arg(long, default_value = "1/1", value_parser = parse_shard)]
    shard: (usize, usize),
    /// Shuffle the openings (and seed classic centre placements).
    #[arg(long)]
    seed: Option<u64>,
    /// SPRT: elo0=A elo1=B [alpha=X beta=Y]; stops at a bound (matches only).
    #[arg(long, num_args = 1.., value_parser = sprt_word)]
    sprt: Vec<String>,
}

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

/// `mollett openings`.
#[derive(Args)]
pub struct OpeningsArgs {
    /// Plies per opening, 1 to 50 (classic's four free placements count):
    /// at least ten empties are left to play.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u64).range(1..=50))]
    pub plies: u64,
    /// How many distinct openings to write, 1 to 1000000; fewer (with a
    /// warning) when not that many meet the conditions.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub count: u64,
    /// Keep openings evaluated within this many discs of even (0 to 64).
    #[arg(long, default_value_t = 2.0, allow_negative_numbers = true, value_parser = parse_max_eval)]
    pub max_eval: f64,
    /// Search depth of the evaluation.
    #[arg(long, default_value_t = 6)]
    pub depth: u32,
    /// Seed of the random plies: the same seed writes the same openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Output file (default: stdout), replaced whole.
    #[arg(long)]
    pub out: Option<PathBuf>,
}

impl CliCommand {
    /// Commands whose only output is what they print (no engine processes).
    pub fn only_prints(&self) -> bool {
        matches!(
            self,
            CliCommand::Perft { .. }
                | CliCommand::Bench { .. }
                | CliCommand::Solve { .. }
                | CliCommand::Report { .. }
                | CliCommand::Openings(_)
                | CliCommand::Train(_)
                | CliCommand::Probcut(_)
                | CliCommand::Evaltest(_)
                | CliCommand::Swing(_)
                | CliCommand::Selfplay(_)
                | CliCommand::Book(_)
        )
    }
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s).ok_or_else(|| format!("unknown variant '{s}' (modern or classic)"))
}

/// `handcrafted`, `learned`, or a weight file (checked when given).
fn parse_eval(s: &str) -> Result<EvalKind, String> {
    EvalKind::from_name(s)
}

/// `NAME=VALUE`, checked against the option table.
fn parse_option(s: &str) -> Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE, got '{s}'"))?;
    mollett::protocol::Options::default().set(name, value)?;
    Ok((name.to_string(), value.to_string()))
}

fn parse_protocol(s: &str) -> Result<Protocol, String> {
    s.parse()
}

/// `--max-eval`: discs, 0 to 64.
fn parse_max_eval(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=64.0).contains(&x) => Ok(x),
        Ok(_) => Err(format!("{s} is not in 0..=64 (discs)")),
        Err(_) => Err(format!("'{s}' is not a number")),
    }
}

/// `LO-HI`: a range of plies.
fn parse_plies(s: &str) -> Result<(usize, usize), String> {
    s.split_once('-')
        .and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?)))
        .filter(|(a, b)| a <= b && *b <= 60)
        .ok_or_else(|| format!("'{s}': expected LO-HI with LO <= HI <= 60"))
}

/// `A-B` or `A`: problem numbers.
fn parse_ids(r: &str) -> Result<RangeInclusive<usize>, String> {
    let (a, b) = r.split_once('-').unwrap_or((r, r));
    let parse = |x: &str| {
        x.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected A-B, got '{r}'"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("expected A-B with A <= B, got '{r}'"));
    }
    Ok(a..=b)
}

impl GameArgs {
    fn time_control(&self) -> Result<TimeControl, String> {
        match (&self.tc, self.st) {
            (Some(tc), _) => tc.parse::<TimeControl>(),
            (None, Some(st)) if st > 0.0 => Ok(TimeControl::PerMove(st)),
            (None, Some(_)) => Err("--st must be positive".into()),
            (None, None) => Ok(TimeControl::None),
        }
    }

    fn limits(&self) -> RefereeLimits {
        RefereeLimits {
            margin: self.margin,
            hang: Duration::from_secs_f64(self.timeout.max(0.01)),
        }
    }

    fn openings(&self, variant: Variant) -> Result<Vec<Opening>, String> {
        match &self.openings {
            Some(path) => openings::read_file(path, variant),
            None => Ok(Vec::new()),
        }
    }
}

fn engine_spec(s: &str) -> Result<EngineSpec, String> {
    s.parse::<EngineSpec>()
        .map_err(|e| format!("--engine '{s}': {e}"))
}

impl RunArgs {
    /// The runner's configuration for `format` (a match needs two engines,
    /// other formats at least `min_engines`).
    pub fn config(
        self,
        format: Format,
        variant: Variant,
        min_engines: usize,
    ) -> Result<Config, String> {
        let mut engines = self
            .engines
            .iter()
            .map(|s| engine_spec(s))
            .collect::<Result<Vec<_>, _>>()?;
        if matches!(format, Format::Match { .. }) && engines.len() != 2 {
            return Err(
                "a match needs exactly two --engine options (use tournament for more)".into(),
            );
        }
        if engines.len() < min_engines {
            return Err(format!("needs at least {min_engines} --engine options"));
        }
        unique_names(&mut engines);
        if self.resume && self.out.is_none() {
            return Err("--resume needs --out".into());
        }
        Ok(Config {
            engines,
            format,
            variant,
            tc: self.games.time_control()?,
            limits: self.games.limits(),
            openings: self.games.openings(variant)?,
            concurrency: self.games.concurrency,
            out: self.out,
            resume: self.resume,
            shard: self.shard,
            seed: self.seed,
            sprt: optional_sprt(&self.sprt)?,
            progress: !self.games.quiet,
        })
    }
}

impl TuneArgs {
    pub fn config(self, variant: Variant) -> Result<TuneConfig, String> {
        let params = self
            .params
            .iter()
            .map(|p| p.parse::<Param>())
            .collect::<Result<Vec<_>, _>>()?;
        if self.resume && self.out.is_none() {
            return Err("--resume needs --out".into());
        }
        Ok(TuneConfig {
            engine: engine_spec(&self.engine)?,
            params,
            iterations: self.iterations,
            games_per_iter: self.games_per_iter,
            variant,
            tc: self.games.time_control()?,
            limits: self.games.limits(),
            openings: self.games.openings(variant)?,
            concurrency: self.games.concurrency,
            seed: self.seed,
            out: self.out,
            resume: self.resume,
            progress: !self.games.quiet,
        })
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

impl TrainArgs {
    pub fn config(&self) -> fit::FitConfig {
        fit::FitConfig {
            stages: self.stages,
            epochs: self.epochs,
            seed: self.seed,
            lr: self.lr,
            l2: self.l2,
            batch: self.batch,
            holdout: self.holdout,
            neighbour_weight: self.neighbour_weight,
            outcome_weight: self.outcome_weight,
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

impl OpeningsArgs {
    pub fn config(&self, variant: Variant) -> GenConfig {
        GenConfig {
            variant,
            plies: self.plies as usize,
            count: self.count as usize,
            max_eval: self.max_eval,
            depth: self.depth,
            seed: self.seed,
        }
    }
}
