//! The `mollett` command: the protocol loop by default, plus measuring subcommands.

use clap::{Parser, Subcommand};
use mollett::{perft, Color, Position, Variant};
use std::time::Instant;

#[derive(Parser)]
#[command(
    name = "mollett",
    version,
    about = "A Reversi engine: modern (Othello) and classic rules, GTP-style protocol on stdin/stdout"
)]
struct Cli {
    /// Rule set at start-up: modern or classic.
    #[arg(long, global = true, default_value = "modern", value_parser = parse_variant)]
    variant: Variant,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to DEPTH plies from the start.
    Perft { depth: u32 },
    /// Search fixed positions to a fixed depth; prints `N nodes M nps` last.
    Bench,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s).ok_or_else(|| format!("unknown variant '{s}' (modern or classic)"))
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            if let Err(e) = mollett::protocol::run(stdin, std::io::stdout(), cli.variant) {
                log::error!("{e}");
                std::process::exit(1);
            }
        }
        Some(Command::Perft { depth }) => {
            let pos = Position::start(cli.variant, Color::Black);
            for d in 1..=depth {
                let t = Instant::now();
                let n = perft(&pos, d);
                let secs = t.elapsed().as_secs_f64();
                println!(
                    "perft {d:2} {n:>14} {secs:9.3} s {:>8.1} Mn/s",
                    n as f64 / secs.max(1e-9) / 1e6
                );
            }
        }
        Some(Command::Bench) => {
            let (nodes, nps) = mollett::bench::run();
            println!("{nodes} nodes {nps} nps");
        }
    }
}
