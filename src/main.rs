//! The `mollett` command: the protocol loop by default, plus measuring
//! subcommands, the match runner and the training tools. Arguments are
//! parsed in `cli.rs`; each arm below calls into the library and prints what
//! it returns (perft, solve, openings, selfplay and train still format or
//! write some of their output here).

mod cli;

use clap::Parser;
use cli::{optional_sprt, BookCommand, Cli, CliCommand};
use mollett::engine::search::Progress;
use mollett::engine::suite::{solve_all, SolveRow};
use mollett::rules::movelist::moves_text;
use mollett::rules::obf::Problem;
use mollett::tournament::config::Config;
use mollett::tournament::report::merge_files;
use mollett::tournament::runner;
use mollett::tournament::schedule::Format;
use mollett::tournament::{openings, tune};
use mollett::train::{evaltest, grow, probcut, selfplay, swing, train_files, GameLimits};
use mollett::{perft, Color, Position};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(log_line)
        .init();
    let cli = Cli::try_parse().unwrap_or_else(|e| one_line_error(e));
    let variant = cli.variant;
    if cli.command.as_ref().is_some_and(CliCommand::only_prints) {
        // A command that only prints ends quietly when its reader goes
        // (`mollett report games.txt | head -1`), as Unix tools do. Those
        // that talk to engine processes keep SIGPIPE ignored: a dead
        // engine's pipe must be an error, not the runner's death.
        // SAFETY: setting a signal disposition to its default.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_DFL) };
    }
    let result = match cli.command {
        None => {
            exit_when_stdout_closes();
            let stdin = std::io::BufReader::new(std::io::stdin());
            let mut options = mollett::protocol::Options::default();
            cli.options
                .iter()
                .try_for_each(|(name, value)| options.set(name, value))
                .and_then(|()| {
                    let out = std::io::stdout();
                    mollett::protocol::run_configured(stdin, out, variant, cli.protocol, options)
                        .map_err(|e| e.to_string())
                })
        }
        Some(CliCommand::Perft { depth }) => {
            let pos = Position::start(variant, Color::Black);
            // Rows from depth 1 (perft 0 is its one row, the position itself).
            for d in depth.min(1)..=depth {
                let t = Instant::now();
                let n = perft(&pos, d);
                let secs = t.elapsed().as_secs_f64();
                let mnps = n as f64 / secs.max(1e-9) / 1e6;
                println!("perft {d:2} {n:>14} {secs:9.3} s {mnps:>8.1} Mn/s");
            }
            Ok(())
        }
        Some(CliCommand::Bench { eval }) => {
            let (nodes, nps) = mollett::engine::bench::run_with(&eval);
            println!("{nodes} nodes {nps} nps");
            Ok(())
        }
        Some(CliCommand::Solve {
            file,
            threads,
            ids,
            hash,
            eval,
            heartbeat,
        }) => mollett::rules::obf::read(&file).and_then(|problems| {
            let ids = ids.unwrap_or(0..=usize::MAX);
            if !problems.iter().any(|p| ids.contains(&p.id)) {
                let (lo, hi) = (problems.iter().map(|p| p.id).min(), problems.iter().map(|p| p.id).max());
                return Err(match (lo, hi) {
                    (Some(lo), Some(hi)) => format!(
                        "{}: no problem with an id in --ids {}-{}; the file holds {} problem(s), #{lo} to #{hi}",
                        file.display(),
                        ids.start(),
                        ids.end(),
                        problems.len()
                    ),
                    _ => format!("{}: the file holds no problems", file.display()),
                });
            }
            println!("{}", SolveRow::HEADER);
            let (threads, hash) = (threads as usize, hash.map(|h| h as usize));
            // Progress on stderr, so a long solve shows it is alive.
            let live = |p: &Problem, s: &Progress| eprintln!("#{} {}", p.id, s);
            let totals = solve_all(
                &problems,
                ids,
                threads,
                hash,
                &eval,
                &mut |row| println!("{row}"),
                Some(&live),
                (heartbeat > 0).then(|| std::time::Duration::from_secs(heartbeat)),
            )?;
            println!("{totals}");
            if totals.wrong > 0 {
                std::process::exit(1);
            }
            Ok(())
        }),
        Some(CliCommand::Match { run, games }) => {
            run_games(run.config(Format::Match { games }, variant, 2))
        }
        Some(CliCommand::Tournament {
            run,
            rounds,
            gauntlet,
        }) => {
            let format = if gauntlet {
                Format::Gauntlet { rounds }
            } else {
                Format::RoundRobin { rounds }
            };
            run_games(run.config(format, variant, 3))
        }
        Some(CliCommand::Tune(args)) => args.config(variant).and_then(|cfg| {
            warn_all(&cfg.warnings());
            let outcome = tune::run(&cfg, ctrl_c_flag())?;
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
        }),
        Some(CliCommand::Report { files, sprt }) => optional_sprt(&sprt)
            .and_then(|sprt| merge_files(&files, sprt))
            .map(|report| print!("{report}")),
        Some(CliCommand::Openings(args)) => args
            .out
            .as_deref()
            .map_or(Ok(()), mollett::files::check_output)
            .and_then(|()| {
                let cfg = args.config(variant);
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
                match &args.out {
                    Some(path) => mollett::files::replace(path, text.as_bytes()),
                    None => Ok(print!("{text}")),
                }
            }),
        Some(CliCommand::Selfplay(args)) => {
            args.config(variant).and_then(|cfg| match &args.corpus {
                Some(path) => {
                    let stop = ctrl_c_flag();
                    let s = grow::grow_corpus(&cfg, &args.eval, path, args.threads, &stop)?;
                    eprintln!(
                        "selfplay: {} games added, {} were present, {} of this shard still to play",
                        s.added, s.present, s.missing
                    );
                    if s.missing > 0 && stop.load(Ordering::SeqCst) {
                        return Err("interrupted; rerun the same command to play the rest".into());
                    }
                    Ok(())
                }
                None => {
                    let s = selfplay::write_positions(&cfg, &args.eval, args.out.as_deref())?;
                    eprintln!(
                        "selfplay: done, {} games, {} positions ({} exact)",
                        s.games, s.positions, s.exact
                    );
                    Ok(())
                }
            })
        }
        Some(CliCommand::Train(args)) => {
            let t = Instant::now();
            let limits = GameLimits {
                modern: args.modern_games,
                classic: args.classic_games,
            };
            // A bad --out is found now, not after minutes of fitting.
            mollett::files::check_output(&args.out)
                .and_then(|()| train_files(&args.files, &limits, &args.config()))
                .and_then(|(weights, report)| {
                print!("{report}");
                weights.write(&args.out).map_err(|e| e.to_string())?;
                let bytes = std::fs::metadata(&args.out).map_or(0, |m| m.len());
                let secs = t.elapsed().as_secs_f64();
                eprintln!(
                    "train: wrote {} ({bytes} bytes) in {secs:.1} s",
                    args.out.display()
                );
                Ok(())
            })
        }
        Some(CliCommand::Probcut(args)) => args
            .eval
            .try_evaluator()
            .and_then(|e| probcut::run(&args.config(), e))
            .map(|(cells, model)| print!("{}", probcut::ProbcutReport { cells, model })),
        Some(CliCommand::Evaltest(args)) => {
            let evals: Vec<_> = args
                .eval
                .iter()
                .map(|e| (e.to_string(), e.clone()))
                .collect();
            let range = (args.min_empties, args.max_empties);
            evaltest(&args.files, &evals, range, args.exact_only, args.bucket)
                .map(|report| print!("{report}"))
        }
        Some(CliCommand::Book(command)) => book(command),
        Some(CliCommand::Swing(args)) => {
            swing::run(&args.config(), &args.eval).map(|report| print!("{report}"))
        }
    };
    if let Err(e) = result {
        eprintln!("mollett: {e}");
        std::process::exit(2);
    }
}

/// Warnings and errors read as the command's own (`mollett: warning: ...`),
/// whichever part of the program found them; debugging detail (`RUST_LOG`)
/// keeps its level and module.
fn log_line(buf: &mut env_logger::fmt::Formatter, record: &log::Record) -> std::io::Result<()> {
    use std::io::Write;
    match record.level() {
        log::Level::Error => writeln!(buf, "mollett: error: {}", record.args()),
        log::Level::Warn => writeln!(buf, "mollett: warning: {}", record.args()),
        level => writeln!(buf, "[{level} {}] {}", record.target(), record.args()),
    }
}

/// Help and version print as clap prints them; an error in the arguments
/// is one line (`mollett: error: ...`) and exit status 2.
fn one_line_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    let text = e.render().to_string();
    let first = text
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("error");
    let why = first.strip_prefix("error: ").unwrap_or(first);
    eprintln!("mollett: {why}");
    std::process::exit(2);
}

/// `match` and `tournament`: runs the games (Ctrl-C stops cleanly) and
/// prints the report.
fn run_games(config: Result<Config, String>) -> Result<(), String> {
    let config = config?;
    warn_all(&config.warnings());
    let outcome = runner::run(&config, ctrl_c_flag())?;
    print!("{}", outcome.report);
    if outcome.interrupted {
        return Err("interrupted: rerun with --resume to play the rest".into());
    }
    Ok(())
}

/// Warnings about the settings of a run, on stderr before it starts.
fn warn_all(warnings: &[String]) {
    for w in warnings {
        eprintln!("mollett: warning: {w}");
    }
}

/// An engine must not outlive the GUI that reads it: when the reader of
/// stdout is gone (a pipe without readers reports an error, a terminal a
/// hang-up), stop all work and exit, whatever is running or queued. A write
/// to a closed stdout fails too and ends the loop; this also covers an
/// engine that is only searching and not writing.
fn exit_when_stdout_closes() {
    let watcher = std::thread::Builder::new().name("stdout-watch".into());
    let _ = watcher.spawn(|| loop {
        let mut fd = libc::pollfd {
            fd: libc::STDOUT_FILENO,
            events: 0,
            revents: 0,
        };
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut fd, 1, -1) };
        if ready > 0 && fd.revents & (libc::POLLERR | libc::POLLHUP | libc::POLLNVAL) != 0 {
            log::warn!("stdout is closed: exiting");
            std::process::exit(1);
        }
        if ready < 0 && std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    });
}

/// Ctrl-C (and SIGTERM, SIGHUP): the first sets the flag, for a clean stop
/// (unfinished games dropped, engines stopped, report printed, exit status
/// 2); a second one exits at once.
fn ctrl_c_flag() -> Arc<AtomicBool> {
    let abort = Arc::new(AtomicBool::new(false));
    let flag = abort.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!("stopping: again to quit at once");
    });
    abort
}

/// `mollett book ...`: the work is `mollett::train::book`'s; outputs are
/// replaced whole, inputs read whole and checked.
fn book(command: BookCommand) -> Result<(), String> {
    use mollett::train::book::{self as b, BuildConfig};
    match command {
        BookCommand::ImportEdax { input, output } => {
            let book = b::import_edax(&input)?;
            b::write(&output, &book)?;
            println!("{} positions, {} moves", book.len(), book.move_count());
        }
        BookCommand::ExportEdax { input, output } => {
            let book = b::read(&input)?;
            let bytes = b::export_edax(&book).map_err(|e| format!("{}: {e}", input.display()))?;
            mollett::files::replace(&output, &bytes)?;
            println!("{} positions", book.len());
        }
        BookCommand::Show { file, moves } => println!("{}", b::show(&b::read(&file)?, &moves)?),
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
