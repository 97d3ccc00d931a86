//! A tuning run: each iteration a short match between the engine at θ+cΔ
//! and at θ−cΔ played by the runner, one line per iteration in the
//! progress file, and resume from it.

use super::gains::{perturb, update, Gains};
use super::param::Param;
use crate::files::Writer;
use crate::rng::Rng;
use crate::rules::color::Variant;
use crate::tournament::client::EngineSpec;
use crate::tournament::config::{clock_warnings, Config};
use crate::tournament::matchup::Matchup;
use crate::tournament::openings::{classic_placements, Opening};
use crate::tournament::referee::RefereeLimits;
use crate::tournament::runner;
use crate::tournament::schedule::Format;
use crate::tournament::stats::Wdl;
use crate::tournament::types::TimeControl;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// What one iteration did: a line of the output file.
#[derive(Clone, Debug, PartialEq)]
pub struct Iteration {
    /// From 1.
    pub iter: usize,
    /// θ+'s games against θ−.
    pub wdl: Wdl,
    /// θ after the step.
    pub theta: Vec<f64>,
}

impl Iteration {
    pub fn result(&self) -> i32 {
        self.wdl.wins as i32 - self.wdl.losses as i32
    }

    /// `iter=3 wdl=1-0-1 result=+0 NAME=VALUE ...`, θ at full precision.
    pub fn to_line(&self, params: &[Param]) -> String {
        let w = self.wdl;
        let mut line = format!(
            "iter={} wdl={}-{}-{} result={:+}",
            self.iter,
            w.wins,
            w.draws,
            w.losses,
            self.result()
        );
        for (p, v) in params.iter().zip(&self.theta) {
            line.push_str(&format!(" {}={v}", p.name));
        }
        line
    }

    pub fn parse(line: &str, params: &[Param]) -> Result<Iteration, String> {
        let bad = || format!("bad tuning line '{line}'");
        let field = |key: &str| {
            line.split_whitespace()
                .find_map(|w| w.strip_prefix(key)?.strip_prefix('='))
                .ok_or_else(bad)
        };
        let wdl: Vec<u32> = field("wdl")?
            .split('-')
            .map(|x| x.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let [wins, draws, losses] = wdl[..] else {
            return Err(bad());
        };
        Ok(Iteration {
            iter: field("iter")?.parse().map_err(|_| bad())?,
            wdl: Wdl {
                wins,
                draws,
                losses,
            },
            theta: params
                .iter()
                .map(|p| field(&p.name)?.parse().map_err(|_| bad()))
                .collect::<Result<_, _>>()?,
        })
    }
}

/// Everything a tuning run needs.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// Both sides run this engine, each with its own `set_option` lines.
    pub engine: EngineSpec,
    pub params: Vec<Param>,
    pub iterations: usize,
    /// Games per iteration: pairs, one opening with colours swapped.
    pub games_per_iter: usize,
    pub variant: Variant,
    pub tc: TimeControl,
    pub limits: RefereeLimits,
    /// In file order; shuffled by `seed`.
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    /// Draws the perturbations and shuffles the openings.
    pub seed: u64,
    /// One line per iteration, after a header.
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// A line per iteration on stderr.
    pub progress: bool,
}

/// Where a run stopped.
#[derive(Clone, Debug, PartialEq)]
pub struct TuneOutcome {
    pub theta: Vec<f64>,
    /// Iterations finished, resumed ones included.
    pub done: usize,
    pub interrupted: bool,
}

impl TuneConfig {
    /// The output file's first line: what fixes the run's choices, checked on resume.
    pub fn header(&self) -> String {
        let params: Vec<String> = self.params.iter().map(|p| format!("param={p}")).collect();
        format!(
            "# mollett tune iterations={} games-per-iter={} seed={} {}",
            self.iterations,
            self.games_per_iter,
            self.seed,
            params.join(" ")
        )
    }

    /// [`clock_warnings`] for the tuned engine.
    pub fn warnings(&self) -> Vec<String> {
        clock_warnings(&self.engine, self.engine.tc.unwrap_or(self.tc))
    }

    /// The engine with values `v`, sent by `set_option` after its own `init` lines.
    fn engine_at(&self, tag: &str, v: &[f64]) -> EngineSpec {
        let mut spec = self.engine.clone();
        spec.name = format!("{}-{tag}", spec.name);
        for (p, x) in self.params.iter().zip(v) {
            spec.init
                .push(format!("set_option {} {}", p.name, p.text(*x)));
        }
        spec
    }
}

/// Iterations already in `out`, checked against this run's header, and the
/// length of its whole lines (a torn last line is cut off to it).
fn read_progress(
    cfg: &TuneConfig,
    out: &Path,
    bytes: &[u8],
) -> Result<(Vec<Iteration>, u64), String> {
    let whole = crate::files::whole_lines_of(out, bytes, "; the iteration is run again");
    let text = std::str::from_utf8(whole).map_err(|_| format!("{}: not UTF-8", out.display()))?;
    let mut lines = text.lines();
    if lines.next() != Some(cfg.header().as_str()) {
        return Err(format!(
            "{}: not a run with these parameters, iterations, games per iteration and seed (its first line differs from '{}')",
            out.display(),
            cfg.header()
        ));
    }
    let mut done = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty() && !l.starts_with('#')) {
        let it = Iteration::parse(line, &cfg.params)?;
        if it.iter != done.len() + 1 {
            return Err(format!(
                "{}: iteration {} out of order",
                out.display(),
                it.iter
            ));
        }
        done.push(it);
    }
    Ok((done, whole.len() as u64))
}

/// Runs the iterations not yet in `cfg.out`. `abort` (Ctrl-C) drops the
/// iteration under way; θ is then that of the last finished one.
pub fn run(cfg: &TuneConfig, abort: Arc<AtomicBool>) -> Result<TuneOutcome, String> {
    if cfg.params.is_empty() {
        return Err("nothing to tune: give --param".into());
    }
    if cfg.games_per_iter == 0 || !cfg.games_per_iter.is_multiple_of(2) {
        return Err("--games-per-iter must be even: games come in colour-swapped pairs".into());
    }
    let params = &cfg.params;
    let mut theta: Vec<f64> = params.iter().map(|p| p.start).collect();
    let mut done = 0;
    // One writer per progress file, from before it is read to the end.
    let mut progress = None;
    if let Some(out) = &cfg.out {
        let mut file = Writer::lock(out)?;
        let bytes = file.read()?;
        if !bytes.is_empty() && !cfg.resume {
            return Err(format!(
                "{} exists; pass --resume to continue it, or remove it",
                out.display()
            ));
        }
        if bytes.is_empty() {
            file.append(&(cfg.header() + "\n"))?;
        } else {
            let (earlier, whole_len) = read_progress(cfg, out, &bytes)?;
            if let Some(last) = earlier.last() {
                theta = last.theta.clone();
                done = last.iter;
            }
            file.truncate(whole_len)?;
        }
        progress = Some(file);
    }

    // Every random choice comes from the seed in a fixed order, so a resumed
    // run makes the same choices as one that never stopped.
    let mut rng = Rng::new(cfg.seed);
    let pairs = cfg.games_per_iter / 2;
    let mut openings = cfg.openings.clone();
    rng.shuffle(&mut openings);
    if openings.is_empty() && cfg.variant == Variant::Classic {
        openings = classic_placements(pairs * cfg.iterations, cfg.seed);
    }
    let gains: Vec<Gains> = params
        .iter()
        .map(|p| Gains::new(p, cfg.iterations))
        .collect();
    for k in 1..=cfg.iterations {
        let flips: Vec<f64> = params
            .iter()
            .map(|_| if rng.next_u64() & 1 == 1 { 1.0 } else { -1.0 })
            .collect();
        if k <= done {
            continue;
        }
        let (plus, minus) = perturb(params, &gains, &theta, k, &flips);
        let engines = vec![cfg.engine_at("plus", &plus), cfg.engine_at("minus", &minus)];
        let first = (k - 1) * pairs;
        let games = Config {
            engines,
            format: Format::Match {
                games: cfg.games_per_iter,
            },
            variant: cfg.variant,
            tc: cfg.tc,
            limits: cfg.limits,
            openings: (0..pairs)
                .filter(|_| !openings.is_empty())
                .map(|j| openings[(first + j) % openings.len()].clone())
                .collect(),
            concurrency: cfg.concurrency,
            out: None,
            resume: false,
            shard: (1, 1),
            seed: None,
            sprt: None,
            progress: false,
        };
        let outcome = runner::run(&games, abort.clone())?;
        if abort.load(Ordering::SeqCst) {
            return Ok(TuneOutcome {
                theta,
                done,
                interrupted: true,
            });
        }
        let [a, b] = [&games.engines[0].name, &games.engines[1].name];
        let wdl = Matchup::from_records(a, b, &outcome.records).wdl;
        let mut it = Iteration {
            iter: k,
            wdl,
            theta: Vec::new(),
        };
        it.theta = update(params, &gains, &theta, k, &flips, it.result());
        if let Some(file) = progress.as_mut() {
            file.append(&(it.to_line(params) + "\n"))?;
        }
        if cfg.progress {
            let values: Vec<String> = params
                .iter()
                .zip(&it.theta)
                .map(|(p, v)| format!("{}={v:.3}", p.name))
                .collect();
            eprintln!(
                "[{k}/{}] {}-{}-{} ({:+}) {}",
                cfg.iterations,
                wdl.wins,
                wdl.draws,
                wdl.losses,
                it.result(),
                values.join(" ")
            );
        }
        theta = it.theta;
        done = k;
    }
    Ok(TuneOutcome {
        theta,
        done,
        interrupted: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip() {
        let params: Vec<Param> = vec![
            "depth=3,1,6,1".parse().unwrap(),
            "randomness=1.5,0,4,0.5".parse().unwrap(),
        ];
        let it = Iteration {
            iter: 7,
            wdl: Wdl {
                wins: 1,
                draws: 0,
                losses: 1,
            },
            theta: vec![3.123456789, 0.1 + 0.2],
        };
        let line = it.to_line(&params);
        assert_eq!(
            line,
            "iter=7 wdl=1-0-1 result=+0 depth=3.123456789 randomness=0.30000000000000004"
        );
        assert_eq!(Iteration::parse(&line, &params), Ok(it));
    }
}
