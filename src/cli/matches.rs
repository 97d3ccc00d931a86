//! `match` and `tournament`: their arguments, the runner's configuration
//! made of them, and the run that prints the report and writes its page.

use super::games::{check_html, engine_files, engine_spec, result_files, warn_all, GameArgs};
use super::run_file::RunFileArgs;
use super::sprt::{optional_sprt, sprt_word};
use super::stop::CtrlC;
use clap::Args;
use mollett::rules::Variant;
use mollett::tournament::config::{unique_names, Config};
use mollett::tournament::report_html;
use mollett::tournament::runner;
use mollett::tournament::schedule::Format;
use std::path::PathBuf;

/// Options shared by `match` and `tournament`.
#[derive(Args)]
pub struct RunArgs {
    /// An engine: `key=value` words (name, cmd, dir, proto, tc, st, init, time); repeat per engine.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    #[command(flatten)]
    games: GameArgs,
    #[command(flatten)]
    run: RunFileArgs,
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

/// A match or tournament to run, and where its page goes.
pub struct GamesRun {
    config: Config,
    html: Option<PathBuf>,
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
        if let Some(out) = &self.run.out {
            mollett::files::guard("--out", out, &inputs)?;
            let twin = mollett::tournament::results_ggf::ggf_path(out);
            mollett::files::guard("--out", &twin, &inputs)?;
        }
        let mut files = result_files(&self.run.out);
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
        if self.run.resume && self.run.out.is_none() {
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
            out: self.run.out,
            resume: self.run.resume,
            shard: self.run.shard,
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
pub fn run_games(run: Result<GamesRun, String>, stop: CtrlC) -> Result<(), String> {
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
