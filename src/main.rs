//! The `mollett` command: the protocol loop by default, plus measuring
//! subcommands, the match runner and the training tools. Arguments are
//! parsed in `cli.rs`, and each subcommand's run lives beside its arguments
//! in `cli/` (the work in the library); here are one arm of dispatch per
//! subcommand and the process's setup: logging, SIGPIPE, Ctrl-C, and the
//! watch on stdout.

mod cli;

use clap::Parser;
use cli::{Cli, CliCommand};
use mollett::protocol::Protocol;
use mollett::Variant;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .format(log_line)
        .init();
    quiet_when_stdout_closes();
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
        None => protocol_loop(variant, cli.protocol, &cli.options),
        Some(CliCommand::Perft { depth }) => {
            cli::perft_rows(variant, depth).for_each(|row| println!("{row}"));
            Ok(())
        }
        Some(CliCommand::Bench(args)) => args.run(),
        Some(CliCommand::Solve(args)) => args.run(),
        Some(CliCommand::Match { run, games }) => {
            cli::run_games(run.match_config(games, variant), ctrl_c_flag)
        }
        Some(CliCommand::Tournament {
            run,
            rounds,
            gauntlet,
        }) => cli::run_games(
            run.tournament_config(rounds, gauntlet, variant),
            ctrl_c_flag,
        ),
        Some(CliCommand::Tune(args)) => args.run(variant, ctrl_c_flag),
        Some(CliCommand::Report(args)) => args.run().map(|report| print!("{report}")),
        Some(CliCommand::Analyze(args)) => args.run(variant, ctrl_c_flag),
        Some(CliCommand::Openings(args)) => args.run(variant),
        Some(CliCommand::Selfplay(args)) => args.run(variant, ctrl_c_flag),
        Some(CliCommand::Train(args)) => args.run(),
        Some(CliCommand::Probcut(args)) => args.run().map(|report| print!("{report}")),
        Some(CliCommand::Evaltest(args)) => args.run().map(|report| print!("{report}")),
        Some(CliCommand::Book(command)) => command.run(variant, ctrl_c_flag),
        Some(CliCommand::Corpus(command)) => command.run(),
        Some(CliCommand::Swing(args)) => args.run().map(|report| print!("{report}")),
        Some(CliCommand::RoomPlay(args)) => args.run(ctrl_c_flag),
    };
    if let Err(e) = result {
        eprintln!("mollett: {e}");
        std::process::exit(2);
    }
}

/// The protocol loop on stdin and stdout, started with the `--option`
/// settings; it ends when stdout's reader goes.
fn protocol_loop(
    variant: Variant,
    protocol: Protocol,
    settings: &[(String, String)],
) -> Result<(), String> {
    exit_when_stdout_closes();
    let stdin = std::io::BufReader::new(std::io::stdin());
    let mut options = mollett::protocol::Options::default();
    settings
        .iter()
        .try_for_each(|(name, value)| options.set(name, value))
        .and_then(|()| {
            let out = std::io::stdout();
            mollett::protocol::run_configured(stdin, out, variant, protocol, options)
                .map_err(|e| e.to_string())
        })
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

/// Every subcommand ends quietly when the reader of its stdout goes
/// (`mollett match ... | head -1`), as Unix tools do: those that keep
/// SIGPIPE ignored (they talk to engine processes) see the write fail, and
/// `print!` panics; that one panic exits with the status a SIGPIPE death
/// has (128 + 13), without a message or backtrace.
fn quiet_when_stdout_closes() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.starts_with("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(141);
        }
        default(info)
    }));
}

/// Help and version print as clap prints them; an error in the arguments
/// is one line (`mollett: error: ...`) and exit status 2.
fn one_line_error(e: clap::Error) -> ! {
    if !e.use_stderr() {
        e.exit();
    }
    let text = e.render().to_string();
    // The first paragraph on one line: a missing argument's name is on the
    // line after "the following required arguments were not provided:".
    let first: Vec<&str> = text
        .lines()
        .map(str::trim)
        .skip_while(|l| l.is_empty())
        .take_while(|l| !l.is_empty())
        .collect();
    let first = if first.is_empty() {
        "error".to_string()
    } else {
        first.join(" ")
    };
    let why = first.strip_prefix("error: ").unwrap_or(&first);
    eprintln!("mollett: {why}");
    std::process::exit(2);
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
