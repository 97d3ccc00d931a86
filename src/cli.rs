//! The command line: the top-level clap types (`Cli`, `CliCommand`) and
//! their small parsers. Each subcommand's arguments, their conversion into
//! the library's configurations and the run that prints the result live in
//! `cli/`.

use clap::{Parser, Subcommand};
use mollett::protocol::Protocol;
use mollett::rules::Variant;

mod analyze;
mod book;
mod corpus;
mod games;
mod matches;
mod measure;
mod openings;
mod parsers;
mod report;
mod room_play;
mod run_file;
mod sprt;
mod stop;
mod train;
mod tune;

pub use analyze::AnalyzeArgs;
pub use book::BookCommand;
pub use corpus::CorpusCommand;
pub use matches::{run_games, RunArgs};
pub use measure::{perft_rows, BenchArgs, SolveArgs};
pub use openings::OpeningsArgs;
pub use report::ReportArgs;
pub use room_play::RoomPlayArgs;
pub use train::{EvaltestArgs, ProbcutArgs, SelfplayArgs, SwingArgs, TrainArgs};
pub use tune::TuneArgs;

#[derive(Parser)]
#[command(
    name = "mollett",
    version,
    about = "A Reversi engine: modern (Othello) and classic rules, GTP-style protocol on stdin/stdout"
)]
pub struct Cli {
    /// Rule set at start-up: modern or classic.
    #[arg(long, global = true, default_value = "modern", value_parser = parse_variant)]
    pub variant: Variant,
    /// Protocol of the loop: gtp (which switches to nboard when the first line is `nboard 2`) or nboard.
    #[arg(long, default_value = "gtp", value_parser = parse_protocol)]
    pub protocol: Protocol,
    /// Start the protocol loop with an option set, as `set_option NAME VALUE`
    /// would (for GUIs that never send set_option); repeatable.
    #[arg(long = "option", value_name = "NAME=VALUE", value_parser = parse_option)]
    pub options: Vec<(String, String)>,
    #[command(subcommand)]
    pub command: Option<CliCommand>,
}

#[derive(Subcommand)]
pub enum CliCommand {
    /// Count the leaves of the game tree to DEPTH plies from the start.
    Perft {
        #[arg(value_parser = clap::value_parser!(u32).range(0..=60))]
        depth: u32,
    },
    /// Search fixed positions to a fixed depth; prints `N nodes M nps` last
    /// (with --midgame: time to depth per thread count).
    Bench(BenchArgs),
    /// Solve each position of an OBF file exactly (empties to the winner) and
    /// check the scores; exits non-zero on a wrong score or move.
    Solve(SolveArgs),
    /// Play a match between two engines (see docs/match.md).
    Match {
        #[command(flatten)]
        run: RunArgs,
        /// Number of games (played in pairs: one opening, colours swapped).
        #[arg(long, default_value_t = 10)]
        games: usize,
    },
    /// Play a round robin (or gauntlet) between three or more engines.
    Tournament {
        #[command(flatten)]
        run: RunArgs,
        /// Game pairs per pairing.
        #[arg(long, default_value_t = 1)]
        rounds: usize,
        /// The first engine plays each other; the others do not meet.
        #[arg(long)]
        gauntlet: bool,
    },
    /// Tune numeric engine options by SPSA (see docs/tuning.md).
    Tune(TuneArgs),
    /// Merge result files and print the report of them all.
    Report(ReportArgs),
    /// Review games move by move: each move's value, the best move, the
    /// discs lost, its class; per player figures (see docs/analyze.md).
    Analyze(AnalyzeArgs),
    /// Write random balanced openings, one move sequence a line.
    Openings(OpeningsArgs),
    /// Play varied games and write positions labelled by search and exact solves (see docs/training.md).
    Selfplay(SelfplayArgs),
    /// Fit pattern weights to position files and write a weight file.
    Train(TrainArgs),
    /// Fit ProbCut's error model (shallow against deep search) for an evaluation.
    Probcut(ProbcutArgs),
    /// Mean absolute error of the evaluations against labelled positions.
    Evaltest(EvaltestArgs),
    /// How much search scores move between consecutive depths (odd/even swing) for each evaluation.
    Swing(SwingArgs),
    /// Opening books: build, show, check, merge; Edax's book.dat in and out (see docs/book.md).
    #[command(subcommand)]
    Book(BookCommand),
    /// The self-play corpus: seal a run's open file into chunks, check the manifest (see docs/training.md).
    #[command(subcommand)]
    Corpus(CorpusCommand),
    /// Seat an engine in a room of mollett-server and play its colour to
    /// the end (see docs/rooms.md).
    RoomPlay(RoomPlayArgs),
}

impl CliCommand {
    /// Commands whose only output is what they print (no engine processes).
    pub fn only_prints(&self) -> bool {
        matches!(
            self,
            CliCommand::Perft { .. }
                | CliCommand::Bench(_)
                | CliCommand::Solve(_)
                | CliCommand::Report(_)
                | CliCommand::Analyze(_)
                | CliCommand::Openings(_)
                | CliCommand::Train(_)
                | CliCommand::Probcut(_)
                | CliCommand::Evaltest(_)
                | CliCommand::Swing(_)
                | CliCommand::Selfplay(_)
                | CliCommand::Book(_)
                | CliCommand::Corpus(_)
        )
    }
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s).ok_or_else(|| format!("unknown variant '{s}' (modern or classic)"))
}

/// `NAME=VALUE`, checked against the option table.
fn parse_option(s: &str) -> Result<(String, String), String> {
    let (name, value) = s
        .split_once('=')
        .ok_or_else(|| format!("expected NAME=VALUE, got '{s}'"))?;
    mollett::protocol::Options::default().set(name, value)?;
    Ok((name.to_string(), value.to_string()))
}

fn parse_protocol(s: &str) -> Result<Protocol, String> {
    s.parse()
}
