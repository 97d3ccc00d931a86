//! Everything a match or tournament run needs, with the warnings about
//! settings that quietly defeat themselves and the engines' unique names.

use super::client::{EngineSpec, TimeFormat};
use super::openings::Opening;
use super::referee::RefereeLimits;
use super::schedule::Format;
use super::stats::Sprt;
use super::types::TimeControl;
use crate::protocol::Protocol;
use crate::rules::color::Variant;
use std::path::PathBuf;

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub variant: Variant,
    /// The clock of engines whose spec sets none.
    pub tc: TimeControl,
    pub limits: RefereeLimits,
    /// From a file; empty means the start position (modern) or random
    /// centre placements (classic).
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// `(i, n)`, 1-based: run the pairs whose number is `i - 1` modulo `n`.
    pub shard: (usize, usize),
    /// Shuffles the openings' order (and seeds classic placements).
    pub seed: Option<u64>,
    pub sprt: Option<Sprt>,
    /// Print a progress line per game on stderr.
    pub progress: bool,
}

/// Settings that are accepted but quietly defeat themselves, for one engine
/// playing with clock `tc`: warnings to print at the start of a run.
///
/// - A clock under one second (per game, or per move) for a GTP engine that
///   gets whole seconds (no `time=frac`): times are rounded down, so the
///   engine is told it has 0 s, and Mollett then moves at once.
/// - A clock for GRhino (`gtp-rhino`): it ignores GTP clocks and plays at the
///   pace of its level, yet the runner holds it to the clock.
pub fn clock_warnings(spec: &EngineSpec, tc: TimeControl) -> Vec<String> {
    let clock = match tc {
        TimeControl::None => return Vec::new(),
        TimeControl::Fischer { base, inc } if inc > 0.0 => {
            format!("{base} s per game + {inc} s per move")
        }
        TimeControl::Fischer { base, .. } => format!("{base} s per game"),
        TimeControl::PerMove(st) => format!("{st} s per move"),
    };
    let rhino = spec.cmd.split_whitespace().find(|w| {
        std::path::Path::new(w)
            .file_name()
            .is_some_and(|f| f.to_string_lossy().to_lowercase().contains("gtp-rhino"))
    });
    if let Some(program) = rhino {
        return vec![format!(
            "engine '{}' looks like GRhino ({program}), which ignores GTP clocks: it plays at the pace of its level whatever the clock ({clock}), and is still held to it, so a slow level loses on time; give it tc=none in its --engine (its level, -l N, sets its strength)",
            spec.name
        )];
    }
    let short = match tc {
        TimeControl::Fischer { base, .. } => base < 1.0,
        TimeControl::PerMove(st) => st < 1.0,
        TimeControl::None => false,
    };
    if short && spec.proto == Protocol::Gtp && spec.time == TimeFormat::Int {
        return vec![format!(
            "engine '{}' has a clock under one second ({clock}), but GTP times go to it in whole seconds, rounded down: it is told 0 s, and an engine that believes it (Mollett) moves at once; add time=frac to its --engine if it reads fractions of a second, as Mollett does",
            spec.name
        )];
    }
    Vec::new()
}

impl Config {
    /// [`clock_warnings`] for every engine of the run.
    pub fn warnings(&self) -> Vec<String> {
        self.engines
            .iter()
            .flat_map(|e| clock_warnings(e, e.tc.unwrap_or(self.tc)))
            .collect()
    }
}

/// Makes engine names unique (`mollett`, `mollett-2`): they identify engines in result lines.
pub fn unique_names(specs: &mut [EngineSpec]) {
    let mut seen: Vec<String> = Vec::new();
    for s in specs.iter_mut() {
        let base = s.name.clone();
        let mut k = 2;
        while seen.contains(&s.name) {
            s.name = format!("{base}-{k}");
            k += 1;
        }
        seen.push(s.name.clone());
    }
}
