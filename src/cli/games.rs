//! `match`, `tournament`, `tune`, `report` and `openings`: their arguments,
//! the runner's configurations made of them, and the runs.

use super::sprt::{optional_sprt, sprt_word};
use clap::Args;
use mollett::files::RunFile;
use mollett::rules::moveline::moves_text;
use mollett::rules::Variant;
use mollett::tournament::config::{unique_names, Config};
use mollett::tournament::openings::{self, GenConfig, Opening};
use mollett::tournament::report::{read_files, Report};
use mollett::tournament::report_html;
use mollett::tournament::runner;
use mollett::tournament::schedule::Format;
use mollett::tournament::tune::{self, Param, TuneConfig};
use mollett::tournament::types::parse_shard;
use mollett::tournament::{EngineSpec, RefereeLimits, TimeControl};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;

use super::parsers::parse_max_eval;

/// The Ctrl-C flag of a run, set up (by `main`) only when the run starts.
pub type StopFlag = fn() -> Arc<AtomicBool>;
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
    /// Also write the report as one HTML page with plots, when the run ends.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// `mollett report`.
#[derive(Args)]
pub struct ReportArgs {
    #[arg(required = true)]
    files: Vec<PathBuf>,
    /// Also write the report as one HTML page with plots.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// SPRT bounds: elo0=A elo1=B [alpha=X beta=Y]; takes every word
    /// after it, so give the files first.
    #[arg(long, num_args = 1.., value_parser = sprt_word)]
    sprt: Vec<String>,
}

/// A match or tournament to run, and where its page goes.
pub struct GamesRun {
    config: Config,
    html: Option<PathBuf>,
}

/// Refuses a page that could not be written (checked before any game or
/// file is read), or one that would replace a file the run reads or
/// writes.
fn check_html(html: Option<&PathBuf>, files: &[RunFile]) -> Result<(), String> {
    match html {
        Some(path) => mollett::files::guard("--html", path, files),
        None => Ok(()),
    }
}

/// Each result file and its GGF twin, as [`check_html`] names them.
fn result_files<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> Vec<RunFile> {
    files
        .into_iter()
        .flat_map(|f| {
            [
                RunFile::new(f, "a result file"),
                RunFile::new(
                    mollett::tournament::results_ggf::ggf_path(f),
                    format!("the GGF record of the result file {}", f.display()),
                ),
            ]
        })
        .collect()
}

/// The files an engine's command names (its program, a book, weights):
/// the words of `cmd` that are files, from the engine's folder.
fn engine_files(spec: &EngineSpec) -> Vec<RunFile> {
    spec.cmd
        .split_whitespace()
        .flat_map(|w| [w, w.split_once('=').map_or("", |(_, v)| v)])
        .filter(|w| !w.is_empty())
        .map(|w| match &spec.dir {
            Some(dir) => dir.join(w),
            None => PathBuf::from(w),
        })
        .filter(|p| p.is_file())
        .map(|p| RunFile::new(p, format!("a file engine '{}' reads", spec.name)))
        .collect()
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

    /// The files the games read (the openings file), for [`mollett::files::guard`].
    fn input_files(&self) -> Vec<RunFile> {
        self.openings
            .iter()
            .map(|o| RunFile::new(o, "the openings file"))
            .collect()
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
    ) -> Result<GamesRun, String> {
        let mut engines = self
            .engines
            .iter()
            .map(|s| engine_spec(s))
            .collect::<Result<Vec<_>, _>>()?;
        let mut inputs = self.games.input_files();
        inputs.extend(engines.iter().flat_map(engine_files));
        if let Some(out) = &self.out {
            mollett::files::guard("--out", out, &inputs)?;
            let twin = mollett::tournament::results_ggf::ggf_path(out);
            mollett::files::guard("--out", &twin, &inputs)?;
        }
        let mut files = result_files(&self.out);
        files.extend(inputs);
        check_html(self.html.as_ref(), &files)?;
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
        let config = Config {
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
        };
        Ok(GamesRun {
            config,
            html: self.html,
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
        let engine = engine_spec(&self.engine)?;
        if let Some(out) = &self.out {
            let mut inputs = self.games.input_files();
            inputs.extend(engine_files(&engine));
            mollett::files::guard("--out", out, &inputs)?;
        }
        Ok(TuneConfig {
            engine,
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

impl RunArgs {
    /// `mollett match`'s configuration: `games` games between two engines.
    pub fn match_config(self, games: usize, variant: Variant) -> Result<GamesRun, String> {
        self.config(Format::Match { games }, variant, 2)
    }

    /// `mollett tournament`'s configuration: a round robin, or a gauntlet
    /// of the first engine against the others.
    pub fn tournament_config(
        self,
        rounds: usize,
        gauntlet: bool,
        variant: Variant,
    ) -> Result<GamesRun, String> {
        let format = if gauntlet {
            Format::Gauntlet { rounds }
        } else {
            Format::RoundRobin { rounds }
        };
        self.config(format, variant, 3)
    }
}

/// `match` and `tournament`: runs the games (Ctrl-C stops cleanly), prints
/// the report and writes its page (of every game in `--out`, resumed ones
/// included).
pub fn run_games(run: Result<GamesRun, String>, stop: StopFlag) -> Result<(), String> {
    let GamesRun { config, html } = run?;
    warn_all(&config.warnings());
    let outcome = runner::run(&config, stop())?;
    print!("{}", outcome.report);
    if let Some(path) = &html {
        let (ggf, skipped) = match &config.out {
            Some(out) => report_html::ggf_beside(out),
            None => (outcome.ggf.clone(), Vec::new()),
        };
        let sources: Vec<PathBuf> = config.out.iter().cloned().collect();
        let page = report_html::Page {
            report: &outcome.report,
            records: &outcome.records,
            ggf: &ggf,
            skipped: &skipped,
            sources: &sources,
        };
        report_html::write(path, &page)?;
    }
    if outcome.interrupted {
        return Err("interrupted: rerun with --resume to play the rest".into());
    }
    Ok(())
}

impl TuneArgs {
    /// Tunes (Ctrl-C stops cleanly) and prints the values reached as
    /// `set_option` lines.
    pub fn run(self, variant: Variant, stop: StopFlag) -> Result<(), String> {
        let cfg = self.config(variant)?;
        warn_all(&cfg.warnings());
        let outcome = tune::run(&cfg, stop())?;
        for (p, v) in cfg.params.iter().zip(&outcome.theta) {
            println!("set_option {} {}", p.name, p.text(*v));
        }
        if outcome.interrupted {
            let (done, all) = (outcome.done, cfg.iterations);
            return Err(format!(
                "interrupted: values after {done} of {all} iterations"
            ));
        }
        Ok(())
    }
}

impl ReportArgs {
    /// `mollett report`: the report of the result files, with the SPRT's
    /// verdict when `--sprt` is given, and its page with `--html`.
    pub fn run(&self) -> Result<Report, String> {
        let sprt = optional_sprt(&self.sprt)?;
        check_html(self.html.as_ref(), &result_files(&self.files))?;
        let read = read_files(&self.files)?;
        mollett::files::warn_empty(&self.files);
        let report = Report::build(&read.records, sprt);
        // The GGF twins are read even without a page, so that a damaged
        // record is warned of as a torn result line is.
        let mut ggf = Vec::new();
        let mut skipped = read.skipped.clone();
        for f in &self.files {
            let (games, damaged) = report_html::ggf_beside(f);
            ggf.extend(games);
            skipped.extend(damaged);
        }
        if let Some(path) = &self.html {
            let page = report_html::Page {
                report: &report,
                records: &read.records,
                ggf: &ggf,
                skipped: &skipped,
                sources: &self.files,
            };
            report_html::write(path, &page)?;
        }
        Ok(report)
    }
}

impl OpeningsArgs {
    /// Generates the openings and writes them to `--out` (replaced whole)
    /// or stdout; a bad `--out` is refused before the searches.
    pub fn run(&self, variant: Variant) -> Result<(), String> {
        if let Some(path) = &self.out {
            mollett::files::guard("--out", path, &[])?;
        }
        let cfg = self.config(variant);
        let found = openings::generate(&cfg);
        if found.is_empty() {
            return Err(format!(
                "no opening of {} plies met the conditions (within {} discs of even at depth {}); allow a larger --max-eval",
                cfg.plies, cfg.max_eval, cfg.depth
            ));
        }
        if found.len() < cfg.count {
            eprintln!(
                "mollett: warning: only {} of {} openings met the conditions",
                found.len(),
                cfg.count
            );
        }
        let text: String = found.iter().map(|m| moves_text(m) + "\n").collect();
        match &self.out {
            Some(path) => mollett::files::replace(path, text.as_bytes()),
            None => {
                print!("{text}");
                Ok(())
            }
        }
    }
}

/// Warnings about the settings of a run, on stderr before it starts.
fn warn_all(warnings: &[String]) {
    for w in warnings {
        eprintln!("mollett: warning: {w}");
    }
}
