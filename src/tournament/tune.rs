//! SPSA tuning of numeric engine options, each iteration a short match
//! between the engine at θ+cΔ and at θ−cΔ played by the runner.
//!
//! The gains follow Spall's schedule with Fishtest's parametrisation: each
//! parameter gives its perturbation at the last iteration (`c_end`) and the
//! ratio `r_end = a_end / c_end²`, from which
//!
//! ```text
//! c   = c_end · N^γ              c_k = c / k^γ
//! a   = r_end · c_end² · (A + N)^α  a_k = a / (A + k)^α
//! θ  += a_k / c_k · (wins − losses of θ+) · Δ,  clamped to [min, max]
//! ```
//!
//! with `N` iterations, `A = N / 10`, `α = 0.602`, `γ = 0.101` and `Δ` a
//! random ±1 per parameter.

use super::client::EngineSpec;
use super::config::{clock_warnings, Config};
use super::matchup::Matchup;
use super::openings::{classic_placements, Opening};
use super::referee::RefereeLimits;
use super::runner;
use super::schedule::Format;
use super::types::TimeControl;
use crate::files::Writer;
use crate::rng::Rng;
use crate::rules::color::Variant;
use crate::tournament::stats::Wdl;
use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Decay exponent of the step size `a_k`.
pub const ALPHA: f64 = 0.602;
/// Decay exponent of the perturbation `c_k`.
pub const GAMMA: f64 = 0.101;
/// `r_end` when a parameter gives none (Fishtest's default).
pub const DEFAULT_R_END: f64 = 0.002;
/// Keys of an iteration line; parameters may not take these names.
const LINE_KEYS: [&str; 3] = ["iter", "wdl", "result"];

/// One tuned option: `NAME=START,MIN,MAX,C_END[,R_END]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub start: f64,
    pub min: f64,
    pub max: f64,
    /// Perturbation at the last iteration.
    pub c_end: f64,
    /// `a_end / c_end²` at the last iteration.
    pub r_end: f64,
    /// Sent rounded: START, MIN and MAX were written without a decimal point
    /// (an integer option refuses `3.0`).
    pub integer: bool,
}

impl FromStr for Param {
    type Err = String;

    fn from_str(s: &str) -> Result<Param, String> {
        let bad = |why: &str| format!("--param '{s}': {why}");
        let (name, values) = s
            .split_once('=')
            .ok_or_else(|| bad("expected NAME=START,MIN,MAX,C_END[,R_END]"))?;
        if name.is_empty() || name.contains(char::is_whitespace) {
            return Err(bad("bad option name"));
        }
        if LINE_KEYS.contains(&name) {
            return Err(bad("that name is reserved for the output lines"));
        }
        let words: Vec<&str> = values.split(',').map(str::trim).collect();
        if !(4..=5).contains(&words.len()) {
            return Err(bad("expected NAME=START,MIN,MAX,C_END[,R_END]"));
        }
        let nums = words
            .iter()
            .map(|w| w.parse::<f64>().ok().filter(|x| x.is_finite()))
            .collect::<Option<Vec<f64>>>()
            .ok_or_else(|| bad("values must be numbers"))?;
        let p = Param {
            name: name.to_string(),
            start: nums[0],
            min: nums[1],
            max: nums[2],
            c_end: nums[3],
            r_end: nums.get(4).copied().unwrap_or(DEFAULT_R_END),
            integer: words[..3].iter().all(|w| !w.contains(['.', 'e', 'E'])),
        };
        if !(p.min < p.max && (p.min..=p.max).contains(&p.start)) {
            return Err(bad("needs MIN < MAX and START within them"));
        }
        if !(p.c_end > 0.0 && p.r_end > 0.0) {
            return Err(bad("C_END and R_END must be positive"));
        }
        Ok(p)
    }
}

impl fmt::Display for Param {
    /// The canonical form, written in the output file's header.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v = |x: f64| {
            if self.integer {
                format!("{x}")
            } else {
                format!("{x:?}") // keeps the decimal point: `3.0`
            }
        };
        write!(
            f,
            "{}={},{},{},{},{}",
            self.name,
            v(self.start),
            v(self.min),
            v(self.max),
            self.c_end,
            self.r_end
        )
    }
}

impl Param {
    /// The value as sent to the engine: rounded for integer options, else at
    /// most six decimals.
    pub fn text(&self, v: f64) -> String {
        if self.integer {
            return format!("{}", v.round() as i64);
        }
        let s = format!("{v:.6}");
        let s = s.trim_end_matches('0').trim_end_matches('.');
        if s == "-0" {
            "0".to_string()
        } else {
            s.to_string()
        }
    }

    fn clamp(&self, v: f64) -> f64 {
        v.clamp(self.min, self.max)
    }
}

/// One parameter's SPSA gains for a run of `iterations`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    c: f64,
    a: f64,
    big_a: f64,
}

impl Gains {
    pub fn new(p: &Param, iterations: usize) -> Gains {
        let n = iterations.max(1) as f64;
        let big_a = 0.1 * n;
        Gains {
            c: p.c_end * n.powf(GAMMA),
            a: p.r_end * p.c_end * p.c_end * (big_a + n).powf(ALPHA),
            big_a,
        }
    }

    /// Perturbation at iteration `k` (from 1).
    pub fn c(&self, k: usize) -> f64 {
        self.c / (k as f64).powf(GAMMA)
    }

    /// Step size at iteration `k` (from 1).
    pub fn a(&self, k: usize) -> f64 {
        self.a / (self.big_a + k as f64).powf(ALPHA)
    }
}

/// The two engines' values at iteration `k`: θ ± c_k Δ, clamped.
pub fn perturb(
    params: &[Param],
    gains: &[Gains],
    theta: &[f64],
    k: usize,
    flips: &[f64],
) -> (Vec<f64>, Vec<f64>) {
    let side = |sign: f64| {
        params
            .iter()
            .enumerate()
            .map(|(i, p)| p.clamp(theta[i] + sign * gains[i].c(k) * flips[i]))
            .collect()
    };
    (side(1.0), side(-1.0))
}

/// θ after iteration `k`, where θ+ scored `result` (wins − losses) against θ−.
pub fn update(
    params: &[Param],
    gains: &[Gains],
    theta: &[f64],
    k: usize,
    flips: &[f64],
    result: i32,
) -> Vec<f64> {
    params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let g = gains[i];
            p.clamp(theta[i] + g.a(k) / g.c(k) * result as f64 * flips[i])
        })
        .collect()
}

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

    /// The engine with values `v`, sent by `set_option` after its own `init` lines.
    /// [`clock_warnings`] for the tuned engine.
    pub fn warnings(&self) -> Vec<String> {
        clock_warnings(&self.engine, self.engine.tc.unwrap_or(self.tc))
    }

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

/// Iterations already in `out`, checked against this run's header.
fn read_progress(cfg: &TuneConfig, out: &Path, bytes: &[u8]) -> Result<Vec<Iteration>, String> {
    let (whole, torn) = crate::files::whole_lines(bytes);
    if !torn.trim_ascii().is_empty() {
        log::warn!(
            "{}; the iteration is run again",
            crate::files::torn_message(out, torn)
        );
    }
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
    Ok(done)
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
            let earlier = read_progress(cfg, out, &bytes)?;
            if let Some(last) = earlier.last() {
                theta = last.theta.clone();
                done = last.iter;
            }
            file.truncate(crate::files::whole_lines(&bytes).0.len() as u64)?;
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
    fn params_parse_and_print() {
        let p: Param = "depth=3,1,6,1".parse().unwrap();
        assert!(p.integer);
        assert_eq!((p.start, p.min, p.max, p.c_end), (3.0, 1.0, 6.0, 1.0));
        assert_eq!(p.r_end, DEFAULT_R_END);
        assert_eq!(p.text(3.49), "3");
        assert_eq!(p.text(3.5), "4");
        assert_eq!(p.to_string(), "depth=3,1,6,1,0.002");
        let f: Param = "time_hard_factor=4.0,1,10,0.5,0.01".parse().unwrap();
        assert!(!f.integer);
        assert_eq!(f.text(4.25), "4.25");
        assert_eq!(f.text(4.0), "4");
        assert_eq!(f.text(1.0 / 3.0), "0.333333");
        assert_eq!(f.to_string(), "time_hard_factor=4.0,1.0,10.0,0.5,0.01");
        assert_eq!(f.to_string().parse::<Param>(), Ok(f));
        for bad in [
            "depth",
            "depth=3,1,6",
            "depth=7,1,6,1",
            "depth=3,6,1,1",
            "depth=3,1,6,0",
            "depth=x,1,6,1",
            "result=1,0,2,1",
        ] {
            assert!(bad.parse::<Param>().is_err(), "{bad}");
        }
    }

    #[test]
    fn gains_end_at_c_end_and_r_end() {
        let p: Param = "x=0,-10,10,2,0.01".parse().unwrap();
        let g = Gains::new(&p, 100);
        assert!((g.c(100) - 2.0).abs() < 1e-12);
        assert!((g.a(100) / (g.c(100) * g.c(100)) - 0.01).abs() < 1e-12);
        // Both shrink as the run goes on.
        assert!(g.c(1) > g.c(50) && g.a(1) > g.a(50));
    }

    #[test]
    fn steps_follow_the_winner_and_stay_in_range() {
        let params: Vec<Param> = vec![
            "x=0,-10,10,1,0.1".parse().unwrap(),
            "y=9,0,10,2,0.1".parse().unwrap(),
        ];
        let gains: Vec<Gains> = params.iter().map(|p| Gains::new(p, 10)).collect();
        let theta = [0.0, 9.0];
        let flips = [1.0, 1.0];
        let (plus, minus) = perturb(&params, &gains, &theta, 1, &flips);
        assert!(plus[0] > 0.0 && minus[0] < 0.0);
        assert_eq!(plus[1], 10.0, "clamped to MAX");
        // θ+ won: x moves up; a draw leaves θ alone.
        let won = update(&params, &gains, &theta, 1, &flips, 2);
        assert!(won[0] > 0.0);
        assert_eq!(update(&params, &gains, &theta, 1, &flips, 0), theta);
        let lost = update(&params, &gains, &theta, 1, &[-1.0, 1.0], 200);
        assert_eq!(lost[0], -10.0);
        assert_eq!(lost[1], 10.0);
    }

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
