//! `tune`: its arguments, the SPSA configuration made of them, and the run.

use super::games::{engine_files, engine_spec, warn_all, GameArgs};
use super::stop::CtrlC;
use clap::Args;
use mollett::rules::Variant;
use mollett::tournament::tune::{self, Param, TuneConfig};
use std::path::PathBuf;

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

impl TuneArgs {
    /// Tunes (Ctrl-C stops cleanly) and prints the values reached as
    /// `set_option` lines.
    pub fn run(self, variant: Variant, stop: CtrlC) -> Result<(), String> {
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
