//! An engine process driven over GTP or NBoard, every call bounded in time.
//!
//! A reader thread turns the engine's stdout into a channel of lines, so a
//! hung engine costs a timeout, never a blocked runner. Known quirks of real
//! Othello engines are tolerated: upper-case moves, `PASS`/`PA`, `=` with or
//! without a space before the id, and engines (GRhino) that refuse
//! `play <colour> pass` and infer passes from the colour of the next move.

use super::types::TimeControl;
use crate::protocol::Protocol;
use crate::rules::color::{Color, Variant};
use crate::rules::ggf::ggf_game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How GTP `time_settings` and `time_left` write seconds. Either way times are
/// rounded down, so an engine never believes it has more than it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeFormat {
    /// Whole seconds (GRhino refuses fractions): the default.
    Int,
    /// Milliseconds as three decimals, for engines that accept them (Mollett).
    Frac,
}

impl TimeFormat {
    /// `secs` as this format writes it. A `budget` (`time_settings`) is at
    /// least one unit, as 0 means no limit there; a time left may be 0.
    pub fn secs(self, secs: f64, budget: bool) -> String {
        let floor = budget as u64;
        match self {
            TimeFormat::Int => (secs.max(0.0).floor() as u64).max(floor).to_string(),
            TimeFormat::Frac => {
                // The nudge keeps 0.57 from printing as 0.569 (0.57 * 1000 is
                // 569.999...); it is a nanosecond, far below any clock's grain.
                let ms = ((secs.max(0.0) * 1000.0 + 1e-6).floor() as u64).max(floor);
                format!("{}.{:03}", ms / 1000, ms % 1000)
            }
        }
    }
}

/// How to start and drive one engine: the `--engine` option's value.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    pub name: String,
    /// Program and arguments, split on whitespace (no shell quoting).
    pub cmd: String,
    pub dir: Option<PathBuf>,
    pub proto: Protocol,
    /// Overrides the match's time control for this engine (`tc=none`: no clock).
    pub tc: Option<TimeControl>,
    /// Commands sent once after start-up, e.g. `set_option depth 10`.
    pub init: Vec<String>,
    /// How clock times are written (GTP).
    pub time: TimeFormat,
}

const SPEC_KEYS: [&str; 8] = ["name", "cmd", "dir", "proto", "tc", "st", "init", "time"];

impl FromStr for EngineSpec {
    type Err = String;

    /// Space-separated `key=value` pairs; a token that does not start with a
    /// known `key=` continues the previous value (`cmd=gtp-rhino -l 4`).
    fn from_str(s: &str) -> Result<EngineSpec, String> {
        let mut pairs: Vec<(String, String)> = Vec::new();
        for tok in s.split_whitespace() {
            let key = tok.split_once('=').map(|(k, _)| k);
            match key {
                Some(k) if SPEC_KEYS.contains(&k) => {
                    pairs.push((k.to_string(), tok[k.len() + 1..].to_string()));
                }
                _ => match pairs.last_mut() {
                    Some((_, v)) => {
                        if !v.is_empty() {
                            v.push(' ');
                        }
                        v.push_str(tok);
                    }
                    None => return Err(format!("engine spec must start with key=value: '{tok}'")),
                },
            }
        }
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: String::new(),
            dir: None,
            proto: Protocol::Gtp,
            tc: None,
            init: Vec::new(),
            time: TimeFormat::Int,
        };
        for (k, v) in pairs {
            match k.as_str() {
                "name" => spec.name = v,
                "cmd" => spec.cmd = v,
                "dir" => spec.dir = Some(PathBuf::from(v)),
                "proto" => {
                    spec.proto = v.parse()?;
                }
                "tc" => spec.tc = Some(v.parse()?),
                "st" => {
                    let st: f64 = v.parse().map_err(|_| format!("bad st '{v}'"))?;
                    spec.tc = Some(TimeControl::PerMove(st));
                }
                "init" => spec.init.push(v),
                "time" => {
                    spec.time = match v.to_ascii_lowercase().as_str() {
                        "int" => TimeFormat::Int,
                        "frac" => TimeFormat::Frac,
                        _ => return Err(format!("unknown time format '{v}' (int or frac)")),
                    }
                }
                _ => unreachable!("keys are checked above"),
            }
        }
        if spec.cmd.trim().is_empty() {
            return Err("engine spec needs cmd=PROGRAM".to_string());
        }
        if spec.name.is_empty() {
            let program = spec.cmd.split_whitespace().next().unwrap_or("engine");
            spec.name = std::path::Path::new(program)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| program.to_string());
        }
        // Names go into whitespace-separated result lines.
        spec.name = spec.name.split_whitespace().collect::<Vec<_>>().join("_");
        Ok(spec)
    }
}

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

/// A GTP answer: `Ok` for `=`, `Err` for `?`, with the id stripped.
pub type GtpAnswer = Result<String, String>;

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
    lines: Receiver<Result<String, String>>,
    next_id: u32,
    /// False once the engine refused `play <colour> pass`; passes are then
    /// implied by the colour of the next move.
    pub takes_passes: bool,
    /// `list_commands` (GTP), lower case; empty when unknown.
    commands: Vec<String>,
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
            loop {
                let line = match read_bounded_line(&mut out) {
                    Ok(Some(line)) => line,
                    Ok(None) | Err(_) => break,
                };
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

    /// True when `list_commands` named `cmd`, or when the engine gave no list.
    pub fn lists(&self, cmd: &str) -> bool {
        self.commands.is_empty() || self.commands.iter().any(|c| c == cmd)
    }

    fn write_line(&mut self, line: &str) -> Result<(), EngineError> {
        log::debug!("{} < {line}", self.spec.name);
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| EngineError::Crash(format!("write failed: {e}")))
    }

    /// The next line before `deadline`, polling the abort flag.
    fn recv(&mut self, deadline: Instant) -> Result<String, EngineError> {
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

    /// Sends one GTP command (with an id) and reads its answer.
    pub fn gtp(&mut self, cmd: &str, limit: Duration) -> Result<GtpAnswer, EngineError> {
        // Lines left over (debug output, a late answer) are not this answer.
        while self.lines.try_recv().is_ok() {}
        let id = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("{id} {cmd}"))?;
        let deadline = Instant::now() + limit;
        let first = loop {
            let line = self.recv(deadline)?;
            let t = line.trim();
            if !t.is_empty() {
                break t.to_string();
            }
        };
        let ok = match first.as_bytes()[0] {
            b'=' => true,
            b'?' => false,
            _ => {
                return Err(EngineError::Malformed(format!(
                    "answer to '{cmd}' is not GTP: {first:?}"
                )))
            }
        };
        let mut text = strip_id(&first[1..], id).trim().to_string();
        loop {
            let line = self.recv(deadline)?;
            if line.trim().is_empty() {
                break;
            }
            text.push('\n');
            text.push_str(line.trim_end());
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }

    /// A GTP command that must succeed: a `?` answer is malformed.
    pub fn gtp_ok(&mut self, cmd: &str) -> Result<String, EngineError> {
        let hang = self.hang;
        self.gtp(cmd, hang)?
            .map_err(|m| EngineError::Malformed(format!("'{cmd}' failed: {m}")))
    }

    /// NBoard: `ping n` and wait for `pong n`, reading `set myname` on the way.
    fn nboard_sync(&mut self, limit: Duration) -> Result<(), EngineError> {
        let n = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("ping {n}"))?;
        let deadline = Instant::now() + limit;
        let want = format!("pong {n}");
        loop {
            if self.recv(deadline)?.trim() == want {
                return Ok(());
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
        if self.spec.proto == Protocol::Nboard {
            return Ok(()); // the whole game goes with every `go`
        }
        if is_standard_start {
            match start.variant {
                Variant::Modern => self.gtp_ok("clear_board")?,
                Variant::Classic => self.gtp_ok("newgame classic")?,
            };
        } else {
            let obf = start.to_obf();
            let cmd = match start.variant {
                Variant::Modern => format!("setboard {obf}"),
                Variant::Classic => {
                    self.gtp_ok("newgame classic")?;
                    format!("setboard {obf} {} {}", start.supply[0], start.supply[1])
                }
            };
            self.gtp_ok(&cmd)?;
        }
        if self.lists("time_settings") {
            let time = self.spec.time;
            let secs = |t| time.secs(t, true);
            let cmd = match tc {
                TimeControl::None => None,
                TimeControl::Fischer { base, .. } => {
                    Some(format!("time_settings {} 0 0", secs(base)))
                }
                TimeControl::PerMove(st) => Some(format!("time_settings 0 {} 1", secs(st))),
            };
            if let Some(cmd) = cmd {
                // An engine may not care about clocks; the runner keeps them anyway.
                let hang = self.hang;
                let _ = self.gtp(&cmd, hang)?;
            }
        }
        Ok(())
    }

    /// Tells the engine about a move played by `colour` (its own forced pass included).
    pub fn tell(&mut self, variant: Variant, colour: Color, mv: Move) -> Result<(), EngineError> {
        if self.spec.proto == Protocol::Nboard {
            return Ok(());
        }
        if mv == Move::Pass && !self.takes_passes {
            return Ok(());
        }
        let cmd = format!("play {} {mv}", colour.name(variant));
        let hang = self.hang;
        match self.gtp(&cmd, hang)? {
            Ok(_) => Ok(()),
            Err(_) if mv == Move::Pass => {
                // GRhino: `? syntax error`. The next colour implies the pass.
                self.takes_passes = false;
                Ok(())
            }
            Err(m) => Err(EngineError::Malformed(format!("'{cmd}' failed: {m}"))),
        }
    }

    /// Asks for a move for the side to move of `game` (start + moves);
    /// `time_left` is sent first when a clock runs.
    pub fn genmove(
        &mut self,
        start: &Position,
        moves: &[Move],
        colour: Color,
        time_left: Option<(f64, TimeControl)>,
        limit: Duration,
    ) -> Result<Reply, EngineError> {
        let variant = start.variant;
        match self.spec.proto {
            Protocol::Gtp => {
                if let Some((left, tc)) = time_left {
                    if self.lists("time_left") {
                        let stones = matches!(tc, TimeControl::PerMove(_)) as u32;
                        let cmd = format!(
                            "time_left {} {} {stones}",
                            colour.name(variant),
                            self.spec.time.secs(left, false)
                        );
                        let hang = self.hang;
                        let _ = self.gtp(&cmd, hang)?;
                    }
                }
                let cmd = format!("genmove {}", colour.name(variant));
                match self.gtp(&cmd, limit)? {
                    Ok(text) => parse_reply(&text),
                    Err(m) => Err(EngineError::Malformed(format!("'{cmd}' failed: {m}"))),
                }
            }
            Protocol::Nboard => {
                let ti = time_left.map(|(left, _)| left);
                let ggf = ggf_game(start, moves, &[], "black", "white", None, ti);
                self.write_line(&format!("set game {ggf}"))?;
                let hang = self.hang;
                self.nboard_sync(hang)?;
                self.write_line("go")?;
                let deadline = Instant::now() + limit;
                loop {
                    let line = self.recv(deadline)?;
                    if let Some(rest) = line.trim().strip_prefix("===") {
                        let word = rest.trim().split('/').next().unwrap_or("");
                        return parse_reply(word);
                    }
                }
            }
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

/// Removes the id after `=`/`?`: `=12 c4` and `= 12 c4` both give ` c4`.
fn strip_id(rest: &str, id: u32) -> &str {
    let ids = id.to_string();
    if let Some(r) = rest.strip_prefix(&ids) {
        if r.is_empty() || r.starts_with(char::is_whitespace) {
            return r;
        }
    }
    // With a space only when more follows, so `= 2` (a bare answer) stays.
    let t = rest.trim_start();
    if let Some(r) = t.strip_prefix(&ids) {
        if r.starts_with(char::is_whitespace) && !r.trim().is_empty() {
            return r;
        }
    }
    rest
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spec_values_continue_over_spaces() {
        let s: EngineSpec = "name=rhino cmd=/usr/games/gtp-rhino -l 4 init=set_option depth 10"
            .parse()
            .unwrap();
        assert_eq!(s.name, "rhino");
        assert_eq!(s.cmd, "/usr/games/gtp-rhino -l 4");
        assert_eq!(s.init, vec!["set_option depth 10".to_string()]);
        let s: EngineSpec = "cmd=target/release/mollett tc=none".parse().unwrap();
        assert_eq!(s.name, "mollett");
        assert_eq!(s.tc, Some(TimeControl::None));
        assert!("name=x".parse::<EngineSpec>().is_err());
        assert!("cmd=x proto=uci".parse::<EngineSpec>().is_err());
        assert_eq!(s.time, TimeFormat::Int);
        let s: EngineSpec = "cmd=mollett time=frac".parse().unwrap();
        assert_eq!(s.time, TimeFormat::Frac);
        assert!("cmd=x time=ms".parse::<EngineSpec>().is_err());
    }

    #[test]
    fn clock_times_round_down() {
        let int = |t, budget| TimeFormat::Int.secs(t, budget);
        let frac = |t, budget| TimeFormat::Frac.secs(t, budget);
        assert_eq!(int(60.0, true), "60");
        assert_eq!(int(2.9, false), "2");
        // A budget is never 0 (no limit); a time left may be.
        assert_eq!(int(0.4, true), "1");
        assert_eq!(int(0.4, false), "0");
        assert_eq!(frac(0.4, false), "0.400");
        assert_eq!(frac(1.0, true), "1.000");
        assert_eq!(frac(0.57, false), "0.570");
        assert_eq!(frac(12.34567, false), "12.345");
        assert_eq!(frac(0.0009, false), "0.000");
        assert_eq!(frac(0.0004, true), "0.001");
        assert_eq!(frac(-0.3, false), "0.000");
    }

    #[test]
    fn ids_and_quirks() {
        assert_eq!(strip_id("12 c4", 12).trim(), "c4");
        assert_eq!(strip_id(" 12 c4", 12).trim(), "c4");
        assert_eq!(strip_id(" 2", 2).trim(), "2");
        assert_eq!(strip_id(" C4", 3).trim(), "C4");
        assert_eq!(strip_id("3", 3).trim(), "");
        assert_eq!(
            parse_reply("PASS").unwrap(),
            Reply::Move(crate::rules::square::Move::Pass)
        );
        assert_eq!(parse_reply("PA").unwrap(), Reply::Move(Move::Pass));
        assert_eq!(
            parse_reply("C4").unwrap(),
            Reply::Move(Move::Place("c4".parse().unwrap()))
        );
        assert_eq!(parse_reply("Resign").unwrap(), Reply::Resign);
        assert!(parse_reply("hello").is_err());
    }
}
