//! `--out FILE --resume --shard i/n`: a long run's record, its
//! continuation and its slice, declared once for `match`, `tournament` and
//! `analyze`.

use clap::Args;
use mollett::tournament::types::parse_shard;
use std::path::PathBuf;

/// The record of a run that can be stopped, resumed and split.
#[derive(Args)]
pub struct RunFileArgs {
    /// The run's record, written as it goes: a result line a game (and
    /// FILE.ggf for modern games) for match and tournament, a JSON line a
    /// move for analyze.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Go on with the run recorded in --out: what it holds is not done again.
    #[arg(long)]
    pub resume: bool,
    /// Only slice i of n of the work: game pairs for match and tournament
    /// (kept together), games i, i+n, ... (from 1) for analyze.
    #[arg(long, default_value = "1/1", value_parser = parse_shard)]
    pub shard: (usize, usize),
}
