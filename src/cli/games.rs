//! How games are played, shared by `match`, `tournament` and `tune`: the
//! clock, limits and openings (`GameArgs`), the engines' specs, and the
//! files a run reads, which what it writes is checked against.

use clap::Args;
use mollett::files::RunFile;
use mollett::rules::Variant;
use mollett::tournament::openings::{self, Opening};
use mollett::tournament::{EngineSpec, RefereeLimits, TimeControl};
use std::path::PathBuf;
use std::time::Duration;

/// How games are played: shared by `match`, `tournament` and `tune`.
#[derive(Args)]
pub struct GameArgs {
    /// Time control BASE+INC in seconds (e.g. 60+0.5), or none.
    #[arg(long, conflicts_with = "st")]
    pub tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    pub st: Option<f64>,
    /// Seconds a move may overrun its clock before it forfeits.
    #[arg(long, default_value_t = 0.2)]
    pub margin: f64,
    /// Seconds to wait for any answer not bounded by a clock (hang limit).
    #[arg(long, default_value_t = 60.0)]
    pub timeout: f64,
    /// File of openings: move sequences or boards, one a line.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    pub concurrency: usize,
    /// No progress lines on stderr.
    #[arg(long)]
    pub quiet: bool,
}

impl GameArgs {
    pub fn time_control(&self) -> Result<TimeControl, String> {
        match (&self.tc, self.st) {
            (Some(tc), _) => tc.parse::<TimeControl>(),
            (None, Some(st)) if st > 0.0 => Ok(TimeControl::PerMove(st)),
            (None, Some(_)) => Err("--st must be positive".into()),
            (None, None) => Ok(TimeControl::None),
        }
    }

    pub fn limits(&self) -> RefereeLimits {
        RefereeLimits {
            margin: self.margin,
            hang: Duration::from_secs_f64(self.timeout.max(0.01)),
        }
    }

    /// The files the games read (the openings file), for [`mollett::files::guard`].
    pub fn input_files(&self) -> Vec<RunFile> {
        self.openings
            .iter()
            .map(|o| RunFile::new(o, "the openings file"))
            .collect()
    }

    pub fn openings(&self, variant: Variant) -> Result<Vec<Opening>, String> {
        match &self.openings {
            Some(path) => openings::read_file(path, variant),
            None => Ok(Vec::new()),
        }
    }
}

pub fn engine_spec(s: &str) -> Result<EngineSpec, String> {
    s.parse::<EngineSpec>()
        .map_err(|e| format!("--engine '{s}': {e}"))
}

/// Refuses a page that could not be written (checked before any game or
/// file is read), or one that would replace a file the run reads or
/// writes.
pub fn check_html(html: Option<&PathBuf>, files: &[RunFile]) -> Result<(), String> {
    match html {
        Some(path) => mollett::files::guard("--html", path, files),
        None => Ok(()),
    }
}

/// Each result file and its GGF twin, as [`check_html`] names them.
pub fn result_files<'a>(files: impl IntoIterator<Item = &'a PathBuf>) -> Vec<RunFile> {
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
pub fn engine_files(spec: &EngineSpec) -> Vec<RunFile> {
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

/// Warnings about the settings of a run, on stderr before it starts.
pub fn warn_all(warnings: &[String]) {
    for w in warnings {
        eprintln!("mollett: warning: {w}");
    }
}
