//! The GTP client: commands with ids and their answers, the game calls in
//! GTP, and the quirks of real Othello engines: upper-case moves,
//! `PASS`/`PA`, `=` with or without a space before the id, and engines
//! (GRhino) that refuse `play <colour> pass` and infer passes from the
//! colour of the next move.

use super::process::{parse_reply, EngineError, EngineProcess, Reply};
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::tournament::types::{TimeControl, MAX_MOVE_VALUE};
use std::time::{Duration, Instant};

/// A GTP answer: `Ok` for `=`, `Err` for `?`, with the id stripped.
pub type GtpAnswer = Result<String, String>;

impl EngineProcess {
    /// True when `list_commands` named `cmd`, or when the engine gave no list.
    pub fn lists(&self, cmd: &str) -> bool {
        self.commands.is_empty() || self.commands.iter().any(|c| c == cmd)
    }

    /// Sends one GTP command (with an id) and reads its answer.
    pub fn gtp(&mut self, cmd: &str, limit: Duration) -> Result<GtpAnswer, EngineError> {
        // Lines left over (debug output, a late answer) are not this answer.
        while self.lines.try_recv().is_ok() {}
        let id = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("{id} {cmd}"))?;
        let deadline = Instant::now() + limit;
        let (ok, first) = loop {
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
            // `=ID`: the id written against the sign is GTP's, and must be ours.
            match answer_id(&first[1..]) {
                Some(got) if got == id => {}
                Some(got) if self.abandoned.contains(&got) => {
                    // The late answer of a question given up on: not this one.
                    self.abandoned.retain(|&a| a != got);
                    while !self.recv(deadline)?.trim().is_empty() {}
                    continue;
                }
                Some(got) => {
                    return Err(EngineError::Malformed(format!(
                        "answer to '{id} {cmd}' carries the id {got}: {first:?}"
                    )))
                }
                None => {}
            }
            break (ok, first);
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

    /// [`EngineProcess::new_game`] in GTP: the board, then the clock.
    pub(super) fn gtp_new_game(
        &mut self,
        start: &Position,
        is_standard_start: bool,
        tc: TimeControl,
    ) -> Result<(), EngineError> {
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

    /// [`EngineProcess::tell`] in GTP: `play`.
    pub(super) fn gtp_tell(
        &mut self,
        variant: Variant,
        colour: Color,
        mv: Move,
    ) -> Result<(), EngineError> {
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

    /// [`EngineProcess::genmove`] in GTP: `time_left`, then `genmove`.
    pub(super) fn gtp_genmove(
        &mut self,
        variant: Variant,
        colour: Color,
        time_left: Option<(f64, TimeControl)>,
        limit: Duration,
    ) -> Result<Reply, EngineError> {
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
}

impl EngineProcess {
    /// The engine's value of the move it just chose, in discs for its
    /// mover: Mollett's GTP extension `last_value` (see protocol.md), asked
    /// only of an engine whose `list_commands` names it, and waited for up
    /// to `limit`. A `?` is no value, and so is an answer later than
    /// `limit` (warned of; the late answer is skipped when it comes). An
    /// answer that is not one number of discs within ±64 is malformed.
    pub(super) fn gtp_last_value(&mut self, limit: Duration) -> Result<Option<f64>, EngineError> {
        if !self.commands.iter().any(|c| c == "last_value") {
            return Ok(None);
        }
        let id = self.next_id;
        let text = match self.gtp("last_value", limit) {
            Ok(Ok(text)) => text,
            Ok(Err(_)) => return Ok(None),
            Err(EngineError::Timeout) => {
                self.abandoned.push(id);
                log::warn!(
                    "{}: no answer to last_value within {:.1} s: the move is kept without its value",
                    self.spec.name,
                    limit.as_secs_f64()
                );
                return Ok(None);
            }
            Err(e) => return Err(e),
        };
        parse_value(&text)
            .map(Some)
            .map_err(|why| EngineError::Malformed(format!("last_value answered {text:?}: {why}")))
    }
}

/// A move's value as an engine writes it (`+1.25`, `-4`, `+0.60 book`): one
/// number of discs within ±[`MAX_MOVE_VALUE`], maybe followed by words
/// that are not numbers; `Err` says what is wrong.
pub fn parse_value(text: &str) -> Result<f64, String> {
    let mut words = text.split_whitespace();
    let word = words.next().ok_or("no value")?;
    let v: f64 = word
        .parse()
        .map_err(|_| format!("{word:?} is not a number"))?;
    if !v.is_finite() || v.abs() > MAX_MOVE_VALUE {
        return Err(format!(
            "{word} is not a number of discs within ±{MAX_MOVE_VALUE}"
        ));
    }
    if let Some(w) = words.find(|w| w.parse::<f64>().is_ok()) {
        return Err(format!("two numbers ({word}, {w}), not one value"));
    }
    Ok(v)
}

/// The id written against an answer's sign (`=12 c4`: 12), if any.
fn answer_id(rest: &str) -> Option<u32> {
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    // Past u32: an id no command of ours had.
    Some(rest[..digits].parse().unwrap_or(u32::MAX))
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

#[cfg(test)]
mod tests {
    use super::*;

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
