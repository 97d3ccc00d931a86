//! Types every part of the match runner shares: clocks, how a game ended,
//! and the shard of a run that one process plays.

use std::fmt;
use std::str::FromStr;

/// A side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeControl {
    /// No clock: the engine plays as it likes, bounded only by the hang limit.
    None,
    /// `base` seconds for the game plus `inc` after each move.
    Fischer { base: f64, inc: f64 },
    /// A fixed number of seconds for every move.
    PerMove(f64),
}

impl FromStr for TimeControl {
    type Err = String;
    /// `none`, `BASE+INC` or `BASE` (seconds).
    fn from_str(s: &str) -> Result<TimeControl, String> {
        if s.eq_ignore_ascii_case("none") {
            return Ok(TimeControl::None);
        }
        let bad = || format!("bad time control '{s}' (none, BASE+INC or BASE, in seconds)");
        let (b, i) = s.split_once('+').unwrap_or((s, "0"));
        let base: f64 = b.parse().map_err(|_| bad())?;
        let inc: f64 = i.parse().map_err(|_| bad())?;
        if !(base > 0.0 && inc >= 0.0) {
            return Err(bad());
        }
        Ok(TimeControl::Fischer { base, inc })
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TimeControl::None => f.write_str("none"),
            TimeControl::Fischer { base, inc } => write!(f, "{base}+{inc}"),
            TimeControl::PerMove(st) => write!(f, "{st}/move"),
        }
    }
}

/// How a game ended, from the loser's side when someone faulted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Reason {
    /// Played to the end; discs decide.
    Normal,
    /// The loser played an illegal move.
    Illegal,
    /// The loser answered something that is not a move or not the protocol.
    Malformed,
    /// The loser's process died or closed its output.
    Crash,
    /// The loser did not answer within the hang limit (no clock).
    Timeout,
    /// The loser overran its clock by more than the margin.
    Time,
    /// The loser resigned.
    Resign,
}

impl Reason {
    pub const ALL: [Reason; 7] = [
        Reason::Normal,
        Reason::Illegal,
        Reason::Malformed,
        Reason::Crash,
        Reason::Timeout,
        Reason::Time,
        Reason::Resign,
    ];
    pub fn name(self) -> &'static str {
        match self {
            Reason::Normal => "normal",
            Reason::Illegal => "illegal",
            Reason::Malformed => "malformed",
            Reason::Crash => "crash",
            Reason::Timeout => "timeout",
            Reason::Time => "time",
            Reason::Resign => "resign",
        }
    }
    pub fn parse(s: &str) -> Option<Reason> {
        Reason::ALL.into_iter().find(|r| r.name() == s)
    }
}

/// `--shard i/n` (slice `i` of `n`, 1-based): the one parser of every tool
/// that splits its work (`match`, `tournament`, `selfplay`).
pub fn parse_shard(s: &str) -> Result<(usize, usize), String> {
    s.split_once('/')
        .and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)))
        .filter(|&(i, n)| i >= 1 && i <= n)
        .ok_or_else(|| format!("--shard '{s}': expected i/n with 1 <= i <= n"))
}

/// The largest value of a move, in discs for its mover: a value past it is
/// no engine's count of discs (the runner refuses it as a malformed answer,
/// and a GGF record that holds one is damaged).
pub const MAX_MOVE_VALUE: f64 = 64.0;
