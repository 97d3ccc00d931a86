//! The `mollett` command: the protocol loop by default, plus measuring
//! subcommands and the match runner (`match`, `tournament`, `report`, `openings`).

use clap::{Args, Parser, Subcommand};
use mollett::tournament::openings::{self, GenConfig};
use mollett::tournament::record::read_results;
use mollett::tournament::report::{parse_sprt, Report};
use mollett::tournament::runner::{self, unique_names, Config, Format};
use mollett::tournament::{EngineSpec, Limits, TimeControl};
use mollett::{perft, Color, Position, Variant};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

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
    /// Solve each position of an OBF file exactly (empties to the winner) and
    /// check the scores; exits non-zero on a wrong score or move.
    Solve {
        file: PathBuf,
        /// Search threads.
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Only problems A to B (numbers as in the file: `fforum-40-59.obf` starts at 40).
        #[arg(long)]
        ids: Option<String>,
        /// Transposition table size in megabytes.
        #[arg(long, default_value_t = 64)]
        hash: usize,
    },
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
    /// Merge result files and print the report of them all.
    Report {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// SPRT bounds: elo0=A elo1=B [alpha=X beta=Y].
        #[arg(long, num_args = 1..)]
        sprt: Vec<String>,
    },
    /// Write random balanced openings, one move sequence a line.
    Openings {
        /// Plies per opening.
        #[arg(long, default_value_t = 8)]
        plies: usize,
        #[arg(long, default_value_t = 100)]
        count: usize,
        /// Keep openings evaluated within this many discs of even.
        #[arg(long, default_value_t = 2.0)]
        max_eval: f64,
        /// Search depth of the evaluation.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Output file (default: stdout).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

/// Options shared by `match` and `tournament`.
#[derive(Args)]
struct RunArgs {
    /// An engine: `key=value` words (name, cmd, dir, proto, tc, st, init); repeat per engine.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    /// Time control BASE+INC in seconds (e.g. 60+0.5), or none.
    #[arg(long, conflicts_with = "st")]
    tc: Option<String>,
    /// Fixed seconds per move.
    #[arg(long)]
    st: Option<f64>,
    /// Seconds a move may overrun its clock before it forfeits.
    #[arg(long, default_value_t = 0.2)]
    margin: f64,
    /// Seconds to wait for any answer not bounded by a clock (hang limit).
    #[arg(long, default_value_t = 60.0)]
    timeout: f64,
    /// File of openings: move sequences or boards, one a line.
    #[arg(long)]
    openings: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Result file, one line per game (plus FILE.ggf for modern games).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Continue the run recorded in --out, skipping finished games.
    #[arg(long)]
    resume: bool,
    /// Run slice i of n of the game list (pairs kept together).
    #[arg(long, default_value = "1/1")]
    shard: String,
    /// Shuffle the openings (and seed classic centre placements).
    #[arg(long)]
    seed: Option<u64>,
    /// SPRT: elo0=A elo1=B [alpha=X beta=Y]; stops at a bound (matches only).
    #[arg(long, num_args = 1..)]
    sprt: Vec<String>,
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
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
        Some(Command::Solve {
            file,
            threads,
            ids,
            hash,
        }) => match solve_file(&file, threads, ids.as_deref(), hash) {
            Ok(true) => {}
            Ok(false) => std::process::exit(1),
            Err(e) => {
                eprintln!("mollett: {e}");
                std::process::exit(2);
            }
        },
        Some(Command::Match { run, games }) => {
            exit_on_error(run_games(run, Format::Match { games }, cli.variant, 2))
        }
        Some(Command::Tournament {
            run,
            rounds,
            gauntlet,
        }) => {
            let format = if gauntlet {
                Format::Gauntlet { rounds }
            } else {
                Format::RoundRobin { rounds }
            };
            exit_on_error(run_games(run, format, cli.variant, 3))
        }
        Some(Command::Report { files, sprt }) => exit_on_error(report(&files, &sprt)),
        Some(Command::Openings {
            plies,
            count,
            max_eval,
            depth,
            seed,
            out,
        }) => {
            let cfg = GenConfig {
                variant: cli.variant,
                plies,
                count,
                max_eval,
                depth,
                seed,
            };
            let found = openings::generate(&cfg);
            if found.len() < count {
                eprintln!("only {} openings met the conditions", found.len());
            }
            let text: String = found
                .iter()
                .map(|m| openings::moves_text(m) + "\n")
                .collect();
            match out {
                Some(path) => exit_on_error(
                    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display())),
                ),
                None => print!("{text}"),
            }
        }
    }
}

/// `solve`: one row per problem and a total; true when every answer is right.
fn solve_file(
    file: &std::path::Path,
    threads: usize,
    ids: Option<&str>,
    hash: usize,
) -> Result<bool, String> {
    use mollett::suite;
    let problems = suite::read(file)?;
    let (lo, hi) = match ids {
        None => (0, usize::MAX),
        Some(r) => {
            let (a, b) = r.split_once('-').unwrap_or((r, r));
            let parse = |x: &str| {
                x.trim()
                    .parse::<usize>()
                    .map_err(|_| format!("--ids '{r}': expected A-B"))
            };
            (parse(a)?, parse(b)?)
        }
    };
    let mut engine = suite::engine(threads.max(1), hash);
    println!(
        "{:>4} {:>7} {:>4} {:>6} {:>6} {:>14} {:>9} {:>10}",
        "id", "empties", "move", "score", "expect", "nodes", "time", "nodes/s"
    );
    let (mut nodes, mut secs, mut wrong, mut count) = (0u64, 0f64, 0, 0);
    for p in problems.iter().filter(|p| (lo..=hi).contains(&p.id)) {
        let s = suite::solve(&mut engine, p);
        let t = s.time.as_secs_f64();
        println!(
            "{:>4} {:>7} {:>4} {:>+6} {:>6} {:>14} {:>8.3}s {:>10.0}{}",
            format!("#{}", p.id),
            p.pos.empty_count(),
            s.best.to_string(),
            s.score,
            p.best_score().map_or("?".into(), |b| format!("{b:+}")),
            s.nodes,
            t,
            s.nodes as f64 / t.max(1e-9),
            if s.correct { "" } else { "  WRONG" }
        );
        nodes += s.nodes;
        secs += t;
        count += 1;
        if !s.correct {
            wrong += 1;
        }
    }
    println!(
        "total {count} positions, {wrong} wrong, {nodes} nodes, {secs:.3}s, {:.0} nodes/s, threads {threads}",
        nodes as f64 / secs.max(1e-9)
    );
    Ok(wrong == 0)
}

fn exit_on_error(r: Result<(), String>) {
    if let Err(e) = r {
        eprintln!("mollett: {e}");
        std::process::exit(2);
    }
}

/// `match` and `tournament`: builds the run, handles Ctrl-C, prints the report.
fn run_games(
    args: RunArgs,
    format: Format,
    variant: Variant,
    min_engines: usize,
) -> Result<(), String> {
    let mut engines = args
        .engines
        .iter()
        .map(|s| {
            s.parse::<EngineSpec>()
                .map_err(|e| format!("--engine '{s}': {e}"))
        })
        .collect::<Result<Vec<_>, _>>()?;
    if matches!(format, Format::Match { .. }) && engines.len() != 2 {
        return Err("a match needs exactly two --engine options (use tournament for more)".into());
    }
    if engines.len() < min_engines {
        return Err(format!("needs at least {min_engines} --engine options"));
    }
    unique_names(&mut engines);
    let tc = match (&args.tc, args.st) {
        (Some(tc), _) => tc.parse::<TimeControl>()?,
        (None, Some(st)) if st > 0.0 => TimeControl::PerMove(st),
        (None, Some(_)) => return Err("--st must be positive".into()),
        (None, None) => TimeControl::None,
    };
    let (i, n) = args
        .shard
        .split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .ok_or_else(|| format!("--shard '{}': expected i/n", args.shard))?;
    let sprt = if args.sprt.is_empty() {
        None
    } else {
        Some(parse_sprt(&args.sprt)?)
    };
    let openings = match &args.openings {
        Some(path) => openings::read_file(path, variant)?,
        None => Vec::new(),
    };
    if args.resume && args.out.is_none() {
        return Err("--resume needs --out".into());
    }
    let cfg = Config {
        engines,
        format,
        variant,
        tc,
        limits: Limits {
            margin: args.margin,
            hang: Duration::from_secs_f64(args.timeout.max(0.01)),
        },
        openings,
        concurrency: args.concurrency,
        out: args.out,
        resume: args.resume,
        shard: (i, n),
        seed: args.seed,
        sprt,
        progress: !args.quiet,
    };
    // Ctrl-C: the first stops cleanly (unfinished games dropped, report
    // printed); a second one exits at once.
    let abort = Arc::new(AtomicBool::new(false));
    let flag = abort.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("stopping: Ctrl-C again to quit at once");
    });
    let outcome = runner::run(&cfg, abort)?;
    print!("{}", outcome.report);
    Ok(())
}

/// `report`: merges result files as one long run.
fn report(files: &[PathBuf], sprt: &[String]) -> Result<(), String> {
    let mut records = Vec::new();
    for f in files {
        records.extend(read_results(f)?);
    }
    let sprt = if sprt.is_empty() {
        None
    } else {
        Some(parse_sprt(sprt)?)
    };
    print!("{}", Report::build(&records, sprt));
    Ok(())
}
