//! The `mollett` command: the protocol loop by default, plus measuring
//! subcommands and the match runner (`match`, `tournament`, `report`,
//! `openings`, `tune`).

use clap::{Args, Parser, Subcommand};
use mollett::engine::eval::EvalKind;
use mollett::protocol::Protocol;
use mollett::tournament::openings::{self, GenConfig};
use mollett::tournament::record::read_results;
use mollett::tournament::report::{parse_sprt, Report};
use mollett::tournament::runner::{self, unique_names, Config, Format};
use mollett::tournament::tune::{self, Param, TuneConfig};
use mollett::tournament::{EngineSpec, Opening, RefereeLimits, TimeControl};
use mollett::train::{fit, probcut, selfplay};
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
    /// Protocol of the loop: gtp (which switches to nboard when the first line is `nboard 2`) or nboard.
    #[arg(long, default_value = "gtp", value_parser = parse_protocol)]
    protocol: Protocol,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Count the leaves of the game tree to DEPTH plies from the start.
    Perft { depth: u32 },
    /// Search fixed positions to a fixed depth; prints `N nodes M nps` last.
    Bench {
        /// Static evaluation: learned (the signature), handcrafted, or a weight file.
        #[arg(long, default_value = "learned", value_parser = parse_eval)]
        eval: EvalKind,
    },
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
        /// Evaluation that orders moves at many empties: learned (the fastest solves), handcrafted, or a weight file.
        #[arg(long, default_value = "learned", value_parser = parse_eval)]
        eval: EvalKind,
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
    /// Tune numeric engine options by SPSA (see docs/tuning.md).
    Tune(TuneArgs),
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
    /// Play varied games and write positions labelled by search and exact solves (see docs/training.md).
    Selfplay {
        /// Games in the whole run (all shards).
        #[arg(long, default_value_t = 100)]
        games: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Play slice i of n of the games (game k belongs to shard k mod n + 1).
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Random opening of 0 to N plies (classic: after 4 random placements).
        #[arg(long, default_value_t = 8)]
        random_plies: usize,
        /// Start game k from line k (cyclically) of this openings file instead.
        #[arg(long)]
        openings: Option<PathBuf>,
        /// Search depth that labels each position and chooses the move.
        #[arg(long, default_value_t = 6)]
        depth: u32,
        /// Solve exactly from this many empties down.
        #[arg(long, default_value_t = 16)]
        exact_empties: u32,
        /// Chance of a random move before the exact phase.
        #[arg(long, default_value_t = 0.1)]
        random_prob: f64,
        /// Record only positions with at most this many empties.
        #[arg(long, default_value_t = 60)]
        max_record_empties: u32,
        /// Record only positions with at least this many empties (games stop below).
        #[arg(long, default_value_t = 0)]
        min_empties: u32,
        /// Start no new game after this many seconds.
        #[arg(long)]
        max_seconds: Option<f64>,
        /// Evaluation of the searches: handcrafted, learned, or a weight file.
        #[arg(long, default_value = "handcrafted")]
        eval: String,
        /// Transposition table in MB.
        #[arg(long, default_value_t = 32)]
        hash: usize,
        /// Output file (default: stdout); appended to.
        #[arg(long, conflicts_with = "corpus")]
        out: Option<PathBuf>,
        /// Append whole games to this corpus file (`.games`, see
        /// docs/training.md) instead of positions; resumes, skipping the
        /// games it already holds.
        #[arg(long)]
        corpus: Option<PathBuf>,
        /// Games played at once (corpus runs), one search thread each.
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// Fit pattern weights to position files and write a weight file.
    Train {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 20)]
        epochs: usize,
        /// Game stages (by discs on the board).
        #[arg(long, default_value_t = mollett::engine::eval::pattern::DEFAULT_STAGES)]
        stages: usize,
        /// Adam step size (discs).
        #[arg(long, default_value_t = 0.02)]
        lr: f32,
        /// L2 regularisation.
        #[arg(long, default_value_t = 0.01)]
        l2: f32,
        #[arg(long, default_value_t = 128)]
        batch: usize,
        /// Fraction of positions held out to measure the fit.
        #[arg(long, default_value_t = 0.1)]
        holdout: f64,
        /// Weight of neighbouring stages' samples.
        #[arg(long, default_value_t = 0.5)]
        neighbour_weight: f32,
        /// Blend searched labels with the game's exact outcome by this weight.
        #[arg(long, default_value_t = 0.5)]
        outcome_weight: f32,
        #[arg(long, default_value = "weights.bin")]
        out: PathBuf,
    },
    /// Fit ProbCut's error model (shallow against deep search) for an evaluation.
    Probcut {
        /// Position files (as `selfplay` writes them) to sample from.
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Evaluation: handcrafted, learned, or a weight file.
        #[arg(long, default_value = "handcrafted")]
        eval: String,
        #[arg(long, default_value_t = 300)]
        positions: usize,
        /// Deepest search measured.
        #[arg(long, default_value_t = 10)]
        max_depth: u32,
        /// Shallowest deep search measured.
        #[arg(long, default_value_t = 3)]
        min_depth: u32,
        #[arg(long, default_value_t = 56)]
        max_empties: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Mean absolute error of the evaluations against labelled positions.
    Evaltest {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Evaluations to compare: handcrafted, learned, zero (always 0), or weight files.
        #[arg(long, num_args = 1.., default_values = ["handcrafted", "learned"])]
        eval: Vec<String>,
        #[arg(long, default_value_t = 20)]
        min_empties: u32,
        #[arg(long, default_value_t = 30)]
        max_empties: u32,
        /// Only exactly solved positions.
        #[arg(long)]
        exact_only: bool,
        /// Also report per bucket of this many empties (0: none).
        #[arg(long, default_value_t = 0)]
        bucket: u32,
    },
}

/// How games are played: shared by `match`, `tournament` and `tune`.
#[derive(Args)]
struct GameArgs {
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
    /// No progress lines on stderr.
    #[arg(long)]
    quiet: bool,
}

impl GameArgs {
    fn time_control(&self) -> Result<TimeControl, String> {
        match (&self.tc, self.st) {
            (Some(tc), _) => tc.parse::<TimeControl>(),
            (None, Some(st)) if st > 0.0 => Ok(TimeControl::PerMove(st)),
            (None, Some(_)) => Err("--st must be positive".into()),
            (None, None) => Ok(TimeControl::None),
        }
    }

    fn limits(&self) -> RefereeLimits {
        RefereeLimits {
            margin: self.margin,
            hang: Duration::from_secs_f64(self.timeout.max(0.01)),
        }
    }

    fn openings(&self, variant: Variant) -> Result<Vec<Opening>, String> {
        match &self.openings {
            Some(path) => openings::read_file(path, variant),
            None => Ok(Vec::new()),
        }
    }
}

/// `mollett tune`.
#[derive(Args)]
struct TuneArgs {
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

/// Options shared by `match` and `tournament`.
#[derive(Args)]
struct RunArgs {
    /// An engine: `key=value` words (name, cmd, dir, proto, tc, st, init, time); repeat per engine.
    #[arg(long = "engine", required = true)]
    engines: Vec<String>,
    #[command(flatten)]
    games: GameArgs,
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
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::parse(s).ok_or_else(|| format!("unknown variant '{s}' (modern or classic)"))
}

/// `handcrafted`, `learned`, or a weight file.
fn parse_eval(s: &str) -> Result<EvalKind, String> {
    EvalKind::from_name(s)
}

fn parse_protocol(s: &str) -> Result<Protocol, String> {
    s.parse()
}

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    match cli.command {
        None => {
            let stdin = std::io::BufReader::new(std::io::stdin());
            let out = std::io::stdout();
            if let Err(e) = mollett::protocol::run_with(stdin, out, cli.variant, cli.protocol) {
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
        Some(Command::Bench { eval }) => {
            let (nodes, nps) = mollett::engine::bench::run_with(&eval);
            println!("{nodes} nodes {nps} nps");
        }
        Some(Command::Solve {
            file,
            threads,
            ids,
            hash,
            eval,
        }) => match solve_file(&file, threads, ids.as_deref(), hash, &eval) {
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
        Some(Command::Tune(args)) => exit_on_error(tune(args, cli.variant)),
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
                .map(|m| mollett::rules::movelist::moves_text(m) + "\n")
                .collect();
            match out {
                Some(path) => exit_on_error(
                    std::fs::write(&path, text).map_err(|e| format!("{}: {e}", path.display())),
                ),
                None => print!("{text}"),
            }
        }
        Some(Command::Selfplay {
            games,
            seed,
            shard,
            random_plies,
            openings,
            depth,
            exact_empties,
            random_prob,
            max_record_empties,
            min_empties,
            max_seconds,
            eval,
            hash,
            out,
            corpus,
            threads,
        }) => exit_on_error((|| {
            let cfg = selfplay::SelfplayConfig {
                variant: cli.variant,
                games,
                seed,
                shard: parse_shard(&shard)?,
                random_plies,
                openings: match &openings {
                    Some(p) => openings::read_file(p, cli.variant)?,
                    None => Vec::new(),
                },
                depth,
                exact_empties,
                random_prob,
                max_record_empties,
                min_empties,
                max_time: max_seconds.map(Duration::from_secs_f64),
                hash_mb: hash,
                progress: true,
            };
            match corpus {
                Some(path) => selfplay_corpus(cfg, &eval, &path, threads),
                None => selfplay(cfg, &eval, out),
            }
        })()),
        Some(Command::Train {
            files,
            seed,
            epochs,
            stages,
            lr,
            l2,
            batch,
            holdout,
            neighbour_weight,
            outcome_weight,
            out,
        }) => {
            let cfg = fit::FitConfig {
                stages,
                epochs,
                seed,
                lr,
                l2,
                batch,
                holdout,
                neighbour_weight,
                outcome_weight,
                progress: true,
            };
            exit_on_error(train(&files, &cfg, &out))
        }
        Some(Command::Probcut {
            files,
            eval,
            positions,
            max_depth,
            min_depth,
            max_empties,
            seed,
        }) => exit_on_error(probcut(
            &probcut::ProbcutConfig {
                files,
                positions,
                max_depth,
                min_depth,
                max_empties,
                seed,
            },
            &eval,
        )),
        Some(Command::Evaltest {
            files,
            eval,
            min_empties,
            max_empties,
            exact_only,
            bucket,
        }) => exit_on_error(evaltest(
            &files,
            &eval,
            (min_empties, max_empties),
            exact_only,
            bucket,
        )),
    }
}

/// `probcut`: prints the measured cells and the fitted error model.
fn probcut(cfg: &probcut::ProbcutConfig, eval: &str) -> Result<(), String> {
    let evaluator = mollett::engine::eval::evaluator_by_name(eval)?;
    let (cells, model) = probcut::run(cfg, evaluator)?;
    println!("depth shallow empties positions mean sd fitted");
    for c in &cells {
        println!(
            "{:5} {:7} {:7.1} {:9} {:+5.2} {:5.2} {:6.2}",
            c.depth,
            c.shallow,
            c.empties,
            c.n,
            c.mean,
            c.sd,
            model.sigma(c.depth, c.shallow, c.empties.round() as u32)
        );
    }
    println!(
        "SigmaModel {{ base: {:.4}, per_depth: {:.4}, per_shallow: {:.4}, per_empty: {:.4} }}",
        model.base, model.per_depth, model.per_shallow, model.per_empty
    );
    Ok(())
}

fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    s.split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .filter(|&(i, n)| i >= 1 && i <= n)
        .ok_or_else(|| format!("--shard '{s}': expected i/n with 1 <= i <= n"))
}

/// `selfplay`: writes labelled positions.
fn selfplay(cfg: selfplay::SelfplayConfig, eval: &str, out: Option<PathBuf>) -> Result<(), String> {
    let evaluator = mollett::engine::eval::evaluator_by_name(eval)?;
    let stats = match out {
        Some(path) => {
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(&path)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            selfplay::run(&cfg, evaluator, &mut f)?
        }
        None => selfplay::run(&cfg, evaluator, &mut std::io::stdout().lock())?,
    };
    eprintln!(
        "selfplay: done, {} games, {} positions ({} exact)",
        stats.games, stats.positions, stats.exact
    );
    Ok(())
}

/// `selfplay --corpus`: appends whole games to a corpus file.
fn selfplay_corpus(
    cfg: selfplay::SelfplayConfig,
    eval: &str,
    path: &std::path::Path,
    threads: usize,
) -> Result<(), String> {
    mollett::engine::eval::evaluator_by_name(eval)?;
    let (bench, _) = mollett::engine::bench::run();
    let header = selfplay::corpus_header(&cfg, eval, bench)?;
    let stop = ctrl_c_flag();
    let stats = selfplay::run_corpus(
        &cfg,
        &header,
        &|| mollett::engine::eval::evaluator_by_name(eval),
        path,
        threads,
        &stop,
    )?;
    eprintln!(
        "selfplay: {} games added, {} were present, {} of this shard still to play",
        stats.added, stats.present, stats.missing
    );
    if stats.missing > 0 && stop.load(Ordering::SeqCst) {
        return Err("interrupted; rerun the same command to play the rest".into());
    }
    Ok(())
}

/// `train`: fits and writes a weight file.
fn train(files: &[PathBuf], cfg: &fit::FitConfig, out: &PathBuf) -> Result<(), String> {
    let t = Instant::now();
    let mut samples = Vec::new();
    for f in files {
        samples.extend(mollett::train::read_samples(f)?);
    }
    eprintln!(
        "train: read {} positions in {:.1} s",
        samples.len(),
        t.elapsed().as_secs_f64()
    );
    let (weights, reports) = fit::fit(&samples, cfg);
    println!("stage  discs  train  held-out  MAE-train  MAE-held-out");
    let (mut n, mut sum) = (0usize, 0f64);
    for r in &reports {
        println!(
            "{:5}  {:2}-{:2}  {:6}  {:8}  {:9.2}  {:12.2}",
            r.stage, r.discs.0, r.discs.1, r.train, r.held_out, r.train_mae, r.held_out_mae
        );
        if r.held_out > 0 {
            n += r.held_out;
            sum += r.held_out_mae * r.held_out as f64;
        }
    }
    if n > 0 {
        println!(
            "held-out MAE over all stages: {:.2} discs ({n} positions)",
            sum / n as f64
        );
    }
    weights.write(out).map_err(|e| e.to_string())?;
    eprintln!(
        "train: wrote {} ({} bytes) in {:.1} s",
        out.display(),
        std::fs::metadata(out).map(|m| m.len()).unwrap_or(0),
        t.elapsed().as_secs_f64()
    );
    Ok(())
}

/// `evaltest`: MAE of evaluations against labelled positions.
fn evaltest(
    files: &[PathBuf],
    evals: &[String],
    range: (u32, u32),
    exact_only: bool,
    bucket: u32,
) -> Result<(), String> {
    let mut samples = Vec::new();
    for f in files {
        samples.extend(mollett::train::read_samples(f)?);
    }
    if exact_only {
        samples.retain(|s| s.exact);
    }
    /// The baseline: every position even.
    struct Zero;
    impl mollett::engine::eval::Evaluator for Zero {
        fn evaluate(&self, _: &Position) -> i32 {
            0
        }
    }
    let evaluators = evals
        .iter()
        .map(|e| match e.as_str() {
            "zero" => Ok(Box::new(Zero) as Box<dyn mollett::engine::eval::Evaluator>),
            e => mollett::engine::eval::evaluator_by_name(e),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let refs: Vec<&dyn mollett::engine::eval::Evaluator> =
        evaluators.iter().map(|e| e.as_ref()).collect();
    let rows = mollett::train::eval_errors(&samples, &refs, range.0, range.1, bucket);
    print!("variant  empties  positions");
    for e in evals {
        print!("  {e:>12}");
    }
    println!();
    for r in rows {
        print!(
            "{:7}  {:2}-{:2}  {:9}",
            r.variant.name(),
            r.empties.0,
            r.empties.1,
            r.count
        );
        for m in &r.mae {
            print!("  {m:12.2}");
        }
        println!();
    }
    println!("(mean absolute error in discs of the static evaluation against the labels)");
    Ok(())
}

/// `solve`: one row per problem and a total; true when every answer is right.
fn solve_file(
    file: &std::path::Path,
    threads: usize,
    ids: Option<&str>,
    hash: usize,
    eval: &EvalKind,
) -> Result<bool, String> {
    use mollett::engine::suite;
    let problems = mollett::rules::obf::read(file)?;
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
    engine.set_evaluator(eval.evaluator());
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
    if args.resume && args.out.is_none() {
        return Err("--resume needs --out".into());
    }
    let cfg = Config {
        engines,
        format,
        variant,
        tc: args.games.time_control()?,
        limits: args.games.limits(),
        openings: args.games.openings(variant)?,
        concurrency: args.games.concurrency,
        out: args.out,
        resume: args.resume,
        shard: (i, n),
        seed: args.seed,
        sprt,
        progress: !args.games.quiet,
    };
    let abort = ctrl_c_flag();
    let outcome = runner::run(&cfg, abort)?;
    print!("{}", outcome.report);
    Ok(())
}

/// Ctrl-C: the first sets the flag, for a clean stop (unfinished games
/// dropped, report printed); a second one exits at once.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let abort = Arc::new(AtomicBool::new(false));
    let flag = abort.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("stopping: Ctrl-C again to quit at once");
    });
    abort
}

/// `tune`: SPSA iterations, then the final values as `set_option` lines on stdout.
fn tune(args: TuneArgs, variant: Variant) -> Result<(), String> {
    let engine = args
        .engine
        .parse::<EngineSpec>()
        .map_err(|e| format!("--engine '{}': {e}", args.engine))?;
    let params = args
        .params
        .iter()
        .map(|p| p.parse::<Param>())
        .collect::<Result<Vec<_>, _>>()?;
    if args.resume && args.out.is_none() {
        return Err("--resume needs --out".into());
    }
    let cfg = TuneConfig {
        engine,
        params,
        iterations: args.iterations,
        games_per_iter: args.games_per_iter,
        variant,
        tc: args.games.time_control()?,
        limits: args.games.limits(),
        openings: args.games.openings(variant)?,
        concurrency: args.games.concurrency,
        seed: args.seed,
        out: args.out,
        resume: args.resume,
        progress: !args.games.quiet,
    };
    let outcome = tune::run(&cfg, ctrl_c_flag())?;
    if outcome.interrupted {
        eprintln!(
            "interrupted: values after {} of {} iterations",
            outcome.done, cfg.iterations
        );
    }
    for (p, v) in cfg.params.iter().zip(&outcome.theta) {
        println!("set_option {} {}", p.name, p.text(*v));
    }
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
