//! `openings`: balanced random openings, written whole.

use super::parsers::parse_max_eval;
use clap::Args;
use mollett::rules::moveline::moves_text;
use mollett::rules::Variant;
use mollett::tournament::openings::{self, GenConfig};
use std::path::PathBuf;

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
