//! A running engine process: start-up, the line channel from its stdout,
//! the game calls (dispatched to the GTP or NBoard client) and shutdown.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so a
//! hung engine costs a timeout, never a blocked runner.

use super::spec::EngineSpec;
use crate::protocol::Protocol;
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::tournament::types::TimeControl;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Why a call to an engine failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// No (complete) answer within the limit.
    Timeout,
    /// The process could not start, closed its output or could not be written to.
    Crash(String),
    /// An answer that is not the protocol's, or not a move.
    Malformed(String),
    /// The user stopped the run.
    Aborted,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Timeout => f.write_str("no answer in time"),
            EngineError::Crash(m) => write!(f, "crashed: {m}"),
            EngineError::Malformed(m) => write!(f, "malformed answer: {m}"),
            EngineError::Aborted => f.write_str("aborted"),
        }
    }
}

/// Longest line an engine may write, in bytes: past it the engine forfeits
/// (`malformed`) instead of growing the runner without end.
pub const MAX_ENGINE_LINE: usize = 64 * 1024;

/// One line of an engine's output (without its line feed): `Err` when it is
/// longer than `MAX_ENGINE_LINE` or not UTF-8; `None` at the end.
fn read_bounded_line(out: &mut impl BufRead) -> std::io::Result<Option<Result<String, String>>> {
    let mut line = Vec::new();
    loop {
        let buf = match out.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            if line.is_empty() {
                return Ok(None);
            }
            break;
        }
        let end = buf.iter().position(|&b| b == b'\n');
        let take = end.unwrap_or(buf.len());
        if line.len() + take > MAX_ENGINE_LINE {
            return Ok(Some(Err(format!(
                "a line longer than {MAX_ENGINE_LINE} bytes"
            ))));
        }
        line.extend_from_slice(&buf[..take]);
        out.consume(end.map_or(take, |i| i + 1));
        if end.is_some() {
            break;
        }
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    Ok(Some(
        String::from_utf8(line).map_err(|_| "a line that is not UTF-8".to_string()),
    ))
}

/// What `genmove` produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    Move(Move),
    Resign,
}

/// A running engine.
pub struct EngineProcess {
    pub spec: EngineSpec,
    child: Child,
    stdin: ChildStdin,
    pub(super) lines: Receiver<Result<String, String>>,
    pub(super) next_id: u32,
    /// False once the engine refused `play <colour> pass`; passes are then
    /// implied by the colour of the next move.
    pub takes_passes: bool,
    /// `list_commands` (GTP), lower case; empty when unknown.
    pub(super) commands: Vec<String>,
    /// Ids of questions whose answers were given up on (a slow
    /// `last_value`): their answers, when they come, are skipped.
    pub(super) abandoned: Vec<u32>,
    abort: Arc<AtomicBool>,
    /// Limit for calls other than `genmove`.
    pub hang: Duration,
}

impl EngineProcess {
    /// Starts the program and says hello (`list_commands` for GTP, `nboard 2`
    /// and a ping for NBoard), then sends the spec's `init` commands.
    pub fn start(
        spec: &EngineSpec,
        hang: Duration,
        abort: Arc<AtomicBool>,
    ) -> Result<EngineProcess, EngineError> {
        let mut words = spec.cmd.split_whitespace();
        let program = words
            .next()
            .ok_or_else(|| EngineError::Crash("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(words)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            // Its own process group: a terminal's Ctrl-C reaches the runner
            // only, and a kill reaches wrapper scripts' children too.
            .process_group(0);
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| EngineError::Crash(format!("cannot start '{}': {e}", spec.cmd)))?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut out = BufReader::new(stdout);
            // End of output or a read error ends the reader.
            while let Ok(Some(line)) = read_bounded_line(&mut out) {
                let malformed = line.is_err();
                if tx.send(line).is_err() || malformed {
                    break;
                }
            }
            // Dropping the sender tells the runner the output closed.
        });
        let mut e = EngineProcess {
            spec: spec.clone(),
            child,
            stdin,
            lines: rx,
            next_id: 1,
            takes_passes: true,
            commands: Vec::new(),
            abandoned: Vec::new(),
            abort,
            hang,
        };
        // Start-up may load tables (Edax, Egaroucid): more than one answer's wait.
        let hello = hang.max(Duration::from_secs(10));
        match spec.proto {
            Protocol::Gtp => {
                if let Ok(list) = e.gtp("list_commands", hello)? {
                    e.commands = list
                        .lines()
                        .map(|l| l.trim().to_ascii_lowercase())
                        .collect();
                }
            }
            Protocol::Nboard => {
                e.write_line("nboard 2")?;
                e.nboard_sync(hello)?;
            }
        }
        for c in spec.init.clone() {
            match spec.proto {
                Protocol::Gtp => {
                    if let Err(m) = e.gtp(&c, hello)? {
                        return Err(EngineError::Malformed(format!("'{c}' failed: {m}")));
                    }
                }
                Protocol::Nboard => e.write_line(&c)?,
            }
        }
        Ok(e)
    }

    pub fn name(&self) -> &str {
        &self.spec.name
    }

    pub(super) fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.spec.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Crash(format!("write failed: {e}")))
    }

    /// The next line before `deadline`, polling the abort flag.
    pub(super) fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
        loop {
            if self.abort.load(Ordering::Relaxed) {
                return Err(EngineError::Aborted);
            }
            let now = Instant::now();
            if now >= deadline {
                return Err(EngineError::Timeout);
            }
            let slice = (deadline - now).min(Duration::from_millis(50));
            match self.lines.recv_timeout(slice) {
                Ok(Ok(line)) => {
                    log::debug!("{} > {line}", self.spec.name);
                    return Ok(line);
                }
                Ok(Err(why)) => return Err(EngineError::Malformed(why)),
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self
                        .child
                        .wait_timeout_short()
                        .map(|s| format!(" ({s})"))
                        .unwrap_or_default();
                    return Err(EngineError::Crash(format!("output closed{status}")));
                }
            }
        }
    }

    /// Prepares a new game from `start` (then `opening` moves are sent with
    /// [`EngineProcess::tell`]) under `tc`.
    pub fn new_game(
        &mut self,
        start: &Position,
        is_standard_start: bool,
        tc: TimeControl,
    ) -> Result<(), EngineError> {
        match self.spec.proto {
            Protocol::Gtp => self.gtp_new_game(start, is_standard_start, tc),
            Protocol::Nboard => Ok(()), // the whole game goes with every `go`
        }
    }

    /// Tells the engine about a move played by `colour` (its own forced pass included).
    pub fn tell(&mut self, variant: Variant, colour: Color, mv: Move) -> Result<(), EngineError> {
        match self.spec.proto {
            Protocol::Gtp => self.gtp_tell(variant, colour, mv),
            Protocol::Nboard => Ok(()),
        }
    }

    /// Asks for a move for the side to move of `game` (start + moves);
    /// `time_left` is sent first when a clock runs. With the move comes the
    /// engine's value of it in discs, its own view, when it gives one
    /// (NBoard's `=== F5/1.50/1.23`; GTP's `genmove` carries none: see
    /// [`EngineProcess::last_value`]).
    pub fn genmove(
        &mut self,
        start: &Position,
        moves: &[Move],
        colour: Color,
        time_left: Option<(f64, TimeControl)>,
        limit: Duration,
    ) -> Result<(Reply, Option<f64>), EngineError> {
        match self.spec.proto {
            Protocol::Gtp => self
                .gtp_genmove(start.variant, colour, time_left, limit)
                .map(|reply| (reply, None)),
            Protocol::Nboard => self.nboard_genmove(start, moves, time_left, limit),
        }
    }

    /// The value of the move just chosen when it did not come with the move:
    /// a GTP engine's `last_value` (see [`EngineProcess::gtp_last_value`]),
    /// waited for up to `limit`; NBoard's `===` answer carries it already.
    pub fn last_value(&mut self, limit: Duration) -> Result<Option<f64>, EngineError> {
        match self.spec.proto {
            Protocol::Gtp => self.gtp_last_value(limit),
            Protocol::Nboard => Ok(None),
        }
    }

    /// Says goodbye, then kills what is left of the process group.
    pub fn quit(mut self) {
        let _ = match self.spec.proto {
            Protocol::Gtp => self.write_line("quit"),
            Protocol::Nboard => self.write_line("quit"),
        };
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills the group.
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        // The engine leads its own process group (see `start`).
        let pid = self.child.id() as libc::pid_t;
        // SAFETY: kill(2) with a negative pid signals the group we created.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

trait WaitShort {
    fn wait_timeout_short(&mut self) -> Option<std::process::ExitStatus>;
}

impl WaitShort for Child {
    /// The exit status, if the process ends within a moment.
    fn wait_timeout_short(&mut self) -> Option<std::process::ExitStatus> {
        for _ in 0..20 {
            if let Ok(Some(s)) = self.try_wait() {
                return Some(s);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    }
}

/// A move in any case, `pass`/`PASS`/`PA`, or `resign`.
pub fn parse_reply(text: &str) -> Result<Reply, EngineError> {
    let word = text.trim();
    if word.eq_ignore_ascii_case("resign") {
        return Ok(Reply::Resign);
    }
    word.parse::<Move>()
        .map(Reply::Move)
        .map_err(|_| EngineError::Malformed(format!("not a move: {word:?}")))
}
