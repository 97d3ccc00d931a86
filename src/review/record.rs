//! A reviewed move as a JSON line (`mollett analyze --json`, and the `--out`
//! file that `--resume` continues and that merged shards are read from).

use crate::engine::review::{Class, MoveReview};
use crate::rules::color::{Color, Variant};
use crate::rules::square::Move;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One reviewed move. Values are in discs for the player to move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveRecord {
    /// The game's id (`FILE:N`).
    pub game: String,
    /// The ply, from 1, passes counted.
    pub ply: usize,
    /// The mover's name.
    pub player: String,
    /// `black`, `white` (or `red` in classic).
    pub color: String,
    #[serde(rename = "move")]
    pub mv: String,
    pub value: f64,
    pub best_move: String,
    pub best_value: f64,
    pub loss: f64,
    pub class: String,
    pub exact: bool,
    /// Empty squares before the move.
    pub empties: u32,
    /// The game's moves up to and including this one (for the opening
    /// figures and to find the position again).
    pub line: String,
}

/// Two decimals, as values are shown: exact values stay whole numbers.
fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

impl MoveRecord {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        game: &str,
        ply: usize,
        player: &str,
        color: Color,
        variant: Variant,
        empties: u32,
        line: String,
        r: &MoveReview,
    ) -> MoveRecord {
        MoveRecord {
            game: game.to_string(),
            ply,
            player: player.to_string(),
            color: color.name(variant).to_string(),
            mv: r.played.to_string(),
            value: round2(r.value),
            best_move: r.best_move.to_string(),
            best_value: round2(r.best_value),
            loss: round2(r.loss),
            class: r.class.name().to_string(),
            exact: r.exact,
            empties,
            line,
        }
    }

    pub fn class(&self) -> Option<Class> {
        Class::parse(&self.class)
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a record serialises")
    }

    /// A line of an analysis file; `Err` says what is wrong with it.
    pub fn parse(line: &str) -> Result<MoveRecord, String> {
        let r: MoveRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
        if r.class().is_none() {
            return Err(format!("unknown class {:?}", r.class));
        }
        let sane = |v: f64| v.is_finite() && v.abs() <= 64.0;
        if !(sane(r.value) && sane(r.best_value) && r.loss >= 0.0 && r.loss <= 128.0) {
            return Err("a value is not a number of discs within ±64".into());
        }
        r.mv.parse::<Move>()
            .map_err(|_| format!("bad move {:?}", r.mv))?;
        Ok(r)
    }
}

/// The records of an analysis file, read a line at a time (a line over
/// [`MAX_RECORD_LINE`](crate::files::MAX_RECORD_LINE) bytes, or one that
/// is no record, skipped with a warning), and the length of its whole lines.
pub fn read_analysis(path: &Path) -> Result<(Vec<MoveRecord>, u64), String> {
    crate::files::regular_input(path)?;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_analysis_from(path, std::io::BufReader::new(file))
}

/// [`read_analysis`] of bytes read from `path` already.
pub fn read_analysis_from(
    path: &Path,
    reader: impl std::io::BufRead,
) -> Result<(Vec<MoveRecord>, u64), String> {
    use crate::files::{read_lines, MAX_RECORD_LINE};
    let mut out = Vec::new();
    let read = read_lines(
        path,
        reader,
        MAX_RECORD_LINE,
        "; it is analysed again",
        |line| {
            let at = format!("{}:{}", path.display(), line.number);
            let raw = match line.text {
                Ok(raw) => raw,
                Err(len) => {
                    log::warn!("{at}: skipped: {}", crate::files::too_long(len));
                    return;
                }
            };
            let text = String::from_utf8_lossy(&raw);
            if text.trim().is_empty() {
                return;
            }
            match MoveRecord::parse(text.trim()) {
                Ok(r) => out.push(r),
                Err(e) => log::warn!("{at}: skipped: {e}"),
            }
        },
    )?;
    Ok((out, read.whole_len))
}
