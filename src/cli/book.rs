//! `mollett book ...`: the subcommands, and their runs; the work is
//! `mollett::train::book`'s.

use super::parsers::parse_max_eval;
use super::stop::CtrlC;
use clap::Subcommand;
use mollett::files::{guard, RunFile};
use mollett::tournament::types::parse_shard;
use mollett::Variant;
use std::path::{Path, PathBuf};

/// `OUT.progress` beside `out`, unless a file was given.
fn progress_file(given: Option<PathBuf>, out: &Path) -> PathBuf {
    given.unwrap_or_else(|| {
        let mut name = out.as_os_str().to_owned();
        name.push(".progress");
        PathBuf::from(name)
    })
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
    /// Read and check a whole book; print its variant and counts (with
    /// --wthor, also how many positions of those games it holds).
    Check {
        file: PathBuf,
        /// WTHOR files or folders: count the positions of their first
        /// --plies plies played in --min-games games or more that the book holds.
        #[arg(long)]
        wthor: Vec<PathBuf>,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
        plies: u32,
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..))]
        min_games: u32,
    },
    /// The union of two books of one variant.
    Merge {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// A book scored by search: of the WTHOR games' first plies (modern), or
    /// of every position of the variant's first plies (no --wthor; --variant
    /// classic covers every centre opening). Resumable: progress goes to a
    /// file, one line per position, and a rerun scores only what it lacks.
    Build {
        /// WTHOR files or folders of .wtb files (e.g. corpus/wthor); none: the rules' tree.
        #[arg(long)]
        wthor: Vec<PathBuf>,
        /// Positions of the first N plies (1 to 60).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=60))]
        plies: u64,
        /// Depth of the search scoring each move (1 to 60).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Only the WTHOR positions played in at least N games.
        #[arg(long, default_value_t = 1)]
        min_games: u32,
        /// Search threads (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Score slice i of n of the positions (position k belongs to shard k mod n + 1).
        #[arg(long, default_value = "1/1", value_parser = parse_shard)]
        shard: (usize, usize),
        /// The progress file (default: OUT.progress).
        #[arg(long)]
        progress: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
    /// Grow a book by deviation learning, then re-minimax its values. Resumable like build.
    Learn {
        input: PathBuf,
        /// Depth of the search scoring each move (1 to 60).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Follow and add moves within this many discs of their position's best.
        #[arg(long, default_value_t = 2.0, value_parser = parse_max_eval)]
        max_error: f64,
        /// ... whose line's errors from the start add up to at most this many discs.
        #[arg(long, default_value_t = 6.0, value_parser = parse_max_eval)]
        total_error: f64,
        /// Add positions only within the first N plies (1 to 60).
        #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..=60))]
        plies: u64,
        /// Rounds in all, those already in the progress file included.
        #[arg(long, default_value_t = 1)]
        rounds: u32,
        /// Positions scored at most per round.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..))]
        positions: u64,
        /// Search threads (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// The progress file (default: OUT.progress).
        #[arg(long)]
        progress: Option<PathBuf>,
        #[arg(long)]
        out: PathBuf,
    },
}

impl BookCommand {
    /// Runs the subcommand and prints its counts or report; outputs are
    /// replaced whole, inputs read whole and checked.
    pub fn run(self, variant: Variant, stop: CtrlC) -> Result<(), String> {
        use mollett::train::book::{self as b, BuildConfig};
        use mollett::train::book_learn::{learn, LearnConfig};
        match self {
            BookCommand::ImportEdax { input, output } => {
                guard("OUTPUT", &output, &[RunFile::new(&input, "the book read")])?;
                let book = b::import_edax(&input)?;
                b::write(&output, &book)?;
                println!("{} positions, {} moves", book.len(), book.move_count());
            }
            BookCommand::ExportEdax { input, output } => {
                guard("OUTPUT", &output, &[RunFile::new(&input, "the book read")])?;
                let book = b::read(&input)?;
                let bytes =
                    b::export_edax(&book).map_err(|e| format!("{}: {e}", input.display()))?;
                mollett::files::replace(&output, &bytes)?;
                println!("{} positions", book.len());
            }
            BookCommand::Show { file, moves } => {
                println!("{}", b::show(&b::read(&file)?, &moves)?)
            }
            BookCommand::Check {
                file,
                wthor,
                plies,
                min_games,
            } => {
                let book = b::read(&file)?;
                println!("{}", b::check(&file, &book));
                if !wthor.is_empty() {
                    println!("{}", b::coverage(&book, &wthor, plies as usize, min_games)?);
                }
            }
            BookCommand::Merge { a, b: other, out } => {
                let inputs = [
                    RunFile::new(&a, "a book merged"),
                    RunFile::new(&other, "a book merged"),
                ];
                guard("--out", &out, &inputs)?;
                let merged = b::merge(&b::read(&a)?, &b::read(&other)?)?;
                b::write(&out, &merged)?;
                println!("{} positions, {} moves", merged.len(), merged.move_count());
            }
            BookCommand::Build {
                wthor,
                plies,
                depth,
                min_games,
                threads,
                shard,
                progress,
                out,
            } => {
                let progress = progress_file(progress, &out);
                let mut inputs: Vec<RunFile> = wthor
                    .iter()
                    .map(|w| RunFile::new(w, "a WTHOR file"))
                    .collect();
                guard("--progress", &progress, &inputs)?;
                inputs.push(RunFile::new(&progress, "the progress file"));
                guard("--out", &out, &inputs)?;
                let cfg = BuildConfig {
                    variant,
                    wthor,
                    plies: plies as usize,
                    depth,
                    min_games,
                    threads: threads as usize,
                    shard,
                    progress,
                };
                let (book, report) = b::build(&cfg, &stop())?;
                b::write(&out, &book)?;
                println!("{report}");
            }
            BookCommand::Learn {
                input,
                depth,
                max_error,
                total_error,
                plies,
                rounds,
                positions,
                threads,
                progress,
                out,
            } => {
                let progress = progress_file(progress, &out);
                let mut inputs = vec![RunFile::new(&input, "the book read")];
                guard("--progress", &progress, &inputs)?;
                inputs.push(RunFile::new(&progress, "the progress file"));
                guard("--out", &out, &inputs)?;
                let book = b::read(&input)?;
                let cfg = LearnConfig {
                    depth,
                    max_error,
                    total_error,
                    plies: plies as usize,
                    rounds,
                    positions: positions as usize,
                    threads: threads as usize,
                    progress,
                };
                let (learned, report) = learn(&book, &cfg, &stop())?;
                b::write(&out, &learned)?;
                println!("{report}");
            }
        }
        Ok(())
    }
}
