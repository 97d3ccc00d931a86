//! `mollett book ...`: the subcommands, and their runs; the work is
//! `mollett::train::book`'s.

use clap::Subcommand;
use std::path::PathBuf;

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
    /// Read and check a whole book; print its variant and counts.
    Check { file: PathBuf },
    /// The union of two books of one variant.
    Merge {
        a: PathBuf,
        b: PathBuf,
        #[arg(long)]
        out: PathBuf,
    },
    /// A modern book of the WTHOR games (held-out 2018 skipped), each played move scored by search.
    Build {
        /// WTHOR files or folders of .wtb files (e.g. corpus/wthor).
        #[arg(long, required = true)]
        wthor: Vec<PathBuf>,
        /// Positions of each game's first N plies (1 to 60).
        #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=60))]
        plies: u64,
        /// Depth of the search scoring each played move (1 to 60).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
        depth: u32,
        /// Search threads (1 to 256).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        #[arg(long)]
        out: PathBuf,
    },
}

impl BookCommand {
    /// Runs the subcommand and prints its counts or report; outputs are
    /// replaced whole, inputs read whole and checked.
    pub fn run(self) -> Result<(), String> {
        use mollett::train::book::{self as b, BuildConfig};
        match self {
            BookCommand::ImportEdax { input, output } => {
                let book = b::import_edax(&input)?;
                b::write(&output, &book)?;
                println!("{} positions, {} moves", book.len(), book.move_count());
            }
            BookCommand::ExportEdax { input, output } => {
                let book = b::read(&input)?;
                let bytes =
                    b::export_edax(&book).map_err(|e| format!("{}: {e}", input.display()))?;
                mollett::files::replace(&output, &bytes)?;
                println!("{} positions", book.len());
            }
            BookCommand::Show { file, moves } => {
                println!("{}", b::show(&b::read(&file)?, &moves)?)
            }
            BookCommand::Check { file } => println!("{}", b::check(&file)?),
            BookCommand::Merge { a, b: other, out } => {
                let merged = b::merge(&b::read(&a)?, &b::read(&other)?)?;
                b::write(&out, &merged)?;
                println!("{} positions, {} moves", merged.len(), merged.move_count());
            }
            BookCommand::Build {
                wthor,
                plies,
                depth,
                threads,
                out,
            } => {
                mollett::files::check_output(&out)?;
                let cfg = BuildConfig {
                    wthor,
                    plies: plies as usize,
                    depth,
                    threads: threads as usize,
                };
                let (book, report) = b::build_from_wthor(&cfg)?;
                b::write(&out, &book)?;
                println!("{report}");
            }
        }
        Ok(())
    }
}
