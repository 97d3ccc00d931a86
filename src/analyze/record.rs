//! A reviewed move as a JSON line (`mollett analyze --json`, and the `--out`
//! file that `--resume` continues and that merged shards are read from).

use crate::engine::chances::{class_error, score_drop, Chances, DROP_MISTAKE, WINNING};
use crate::engine::review::{ceil2, round2, Class, MoveReview, ReviewDepth};
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
    /// figures, to find the position again, and so that `--resume` knows
    /// the game it belongs to).
    pub line: String,
    /// What the search expects from the best move on (the best move first).
    #[serde(default)]
    pub pv: String,
    /// Every legal move's value, best first, from the same search.
    #[serde(default)]
    pub moves: Vec<MoveValue>,
    /// For an estimate (not exact) at the measured depth: the mean error,
    /// in discs, of such estimates at this many empties against exact
    /// values ([`expected_error`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<f64>,
    /// `value` from black's view (the first colour's: red's in classic),
    /// so that the values of a game's moves follow its course.
    #[serde(default)]
    pub black_value: f64,
    /// The mover's win, draw and loss chances after the move, from `value`
    /// and the error the classes count (exact: 1, 0 or 0).
    #[serde(default)]
    pub chances: WinDrawLoss,
    /// How much the move lowered the mover's expected score (win plus half
    /// a draw) against the best move: what the class weighs with the discs.
    #[serde(default)]
    pub score_drop: f64,
    /// [`ONLY_MOVE`], [`MISSED_WIN`].
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// Where the game was played, when its file says (GGF's `PC`, WTHOR's
    /// tournament): kept so that a game read back from an analysis file
    /// keeps it (its heading, the `PC` of `--ggf`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
}

/// Chances in thousandths.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct WinDrawLoss {
    pub win: f64,
    pub draw: f64,
    pub loss: f64,
}

impl From<Chances> for WinDrawLoss {
    fn from(c: Chances) -> WinDrawLoss {
        WinDrawLoss {
            win: round3(c.win),
            draw: round3(c.draw),
            loss: round3(c.loss),
        }
    }
}

/// A legal move and its value for the mover (`value`), or for a move more
/// than the review's window below the best, an upper bound of it
/// (`at_most`, rounded up): one of the two.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MoveValue {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at_most: Option<f64>,
}

impl MoveValue {
    /// The figure shown: the value, or the bound.
    pub fn figure(&self) -> f64 {
        self.value.or(self.at_most).unwrap_or(f64::NAN)
    }
}

/// The settings that decide a review's values, as the first line of an
/// `--out` file: `--resume` goes on only with the same.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunSettings {
    /// The format of the lines below and how their values are made (this
    /// one: 5, moves more than the window below the best bounded, not
    /// valued; a file of 4 valued every move, one of 3 made each estimate
    /// from an empty table: neither resumes).
    pub mollett_analyze: u32,
    /// The rule set transcripts are read in.
    pub variant: String,
    pub depth: u32,
    pub exact: u32,
    /// The evaluation and its weights' hash.
    pub eval: String,
    /// The opening book consulted (`none`: reviews search every move).
    pub book: String,
    /// `--hash`: the table's size changes what a search keeps, so the
    /// values (absent in files of older runs, which then do not resume).
    #[serde(default)]
    pub hash: Option<usize>,
}

/// The analysis file format [`RunSettings`] heads.
pub const FORMAT: u32 = 5;

/// FNV-1a, 64 bits: a weight file's identity.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

impl RunSettings {
    pub fn new(variant: Variant, depth: &ReviewDepth, hash_mb: usize) -> RunSettings {
        use crate::engine::eval::pattern::{EMBEDDED_CLASSIC_WEIGHTS, EMBEDDED_WEIGHTS};
        RunSettings {
            mollett_analyze: FORMAT,
            variant: variant.name().to_string(),
            depth: depth.depth,
            exact: depth.exact_from,
            eval: format!(
                "learned {:016x} {:016x}",
                fnv(EMBEDDED_WEIGHTS),
                fnv(EMBEDDED_CLASSIC_WEIGHTS)
            ),
            book: "none".into(),
            hash: Some(hash_mb),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("settings serialise")
    }

    /// What differs from `other` (`depth 2, now 8`), in words; empty when
    /// nothing does.
    pub fn differences(&self, now: &RunSettings) -> Vec<String> {
        let mut out = Vec::new();
        let mut diff = |name: &str, was: String, is: String| {
            if was != is {
                out.push(format!("{name} {was} (this run: {is})"));
            }
        };
        diff(
            "format",
            self.mollett_analyze.to_string(),
            now.mollett_analyze.to_string(),
        );
        diff("--variant", self.variant.clone(), now.variant.clone());
        diff("--depth", self.depth.to_string(), now.depth.to_string());
        diff("--exact", self.exact.to_string(), now.exact.to_string());
        diff("evaluation", self.eval.clone(), now.eval.clone());
        diff("book", self.book.clone(), now.book.clone());
        let mb = |h: Option<usize>| h.map_or("not recorded".into(), |h| h.to_string());
        diff("--hash", mb(self.hash), mb(now.hash));
        out
    }
}

// The measured error of estimates: with the winning chances it weighs
// (engine), where every face's classes come from.
pub use crate::engine::chances::{expected_error, ESTIMATE_ERROR, MEASURED_DEPTH};

/// Thousandths, as chances are shown.
fn round3(v: f64) -> f64 {
    (v * 1000.0).round() / 1000.0
}

/// The tag of a played move that was the only one keeping its result.
pub const ONLY_MOVE: &str = "only move";
/// The tag of a played move that let a win go.
pub const MISSED_WIN: &str = "missed win";

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
        depth: &ReviewDepth,
        r: &MoveReview,
    ) -> MoveRecord {
        let (value, best_value) = (round2(r.value), round2(r.best_value));
        let weighed = class_error(r.exact, empties);
        let drop = score_drop(best_value, value, weighed);
        // As shown: values to hundredths, bounds rounded up.
        let moves: Vec<MoveValue> = r
            .moves
            .iter()
            .map(|m| MoveValue {
                mv: m.mv.to_string(),
                value: (!m.at_most).then(|| round2(m.value)),
                at_most: m.at_most.then(|| ceil2(m.value)),
            })
            .collect();
        let mut tags = Vec::new();
        // A bound stands for every value under it: the drop from the best
        // only grows as the value falls, so a bound that drops that much
        // proves it (one that does not leaves the tag off).
        let played = r.played.to_string();
        let others_lose = moves.len() > 1
            && moves
                .iter()
                .filter(|m| m.mv != played)
                .all(|m| score_drop(best_value, m.figure(), weighed) >= DROP_MISTAKE);
        if value == best_value && others_lose {
            tags.push(ONLY_MOVE.to_string());
        }
        let wins = |v: f64| Chances::of(v, weighed).score() >= WINNING;
        if wins(best_value) && !wins(value) && drop >= DROP_MISTAKE {
            tags.push(MISSED_WIN.to_string());
        }
        MoveRecord {
            game: game.to_string(),
            ply,
            player: player.to_string(),
            color: color.name(variant).to_string(),
            mv: played,
            value,
            best_move: r.best_move.to_string(),
            best_value,
            // Of the values as shown, as the class is.
            loss: round2(best_value - value).max(0.0),
            class: r.class.name().to_string(),
            exact: r.exact,
            empties,
            line,
            pv: crate::rules::moveline::moves_text(&r.pv),
            moves,
            error: if r.exact {
                None
            } else {
                expected_error(empties, depth.depth)
            },
            black_value: if color == Color::Black { value } else { -value },
            chances: Chances::of(value, weighed).into(),
            score_drop: drop,
            tags,
            event: None,
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

/// A `"kind":"game"` line of `--json` (a game's facts, not a move).
fn is_game_line(line: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(line)
        .is_ok_and(|v| v.get("kind").and_then(|k| k.as_str()) == Some("game"))
}

/// An analysis file read: its settings line, its records, the length of
/// its whole lines.
pub struct AnalysisFile {
    pub settings: Option<RunSettings>,
    pub records: Vec<MoveRecord>,
    pub whole_len: u64,
}

/// The records of an analysis file, read a line at a time (a line over
/// [`MAX_RECORD_LINE`](crate::files::MAX_RECORD_LINE) bytes, or one that
/// is no record, skipped with a warning), and its settings line.
pub fn read_analysis(path: &Path) -> Result<AnalysisFile, String> {
    crate::files::regular_input(path)?;
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    read_analysis_from(path, std::io::BufReader::new(file))
}

/// [`read_analysis`] of bytes read from `path` already.
pub fn read_analysis_from(
    path: &Path,
    reader: impl std::io::BufRead,
) -> Result<AnalysisFile, String> {
    use crate::files::{read_lines, MAX_RECORD_LINE};
    let mut out = Vec::new();
    let mut settings = None;
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
            if line.number == 1 {
                if let Ok(s) = serde_json::from_str::<RunSettings>(text.trim()) {
                    settings = Some(s);
                    return;
                }
            }
            match MoveRecord::parse(text.trim()) {
                Ok(r) => out.push(r),
                // A game's facts (`--json` saved): made again from its moves.
                Err(_) if is_game_line(text.trim()) => {}
                Err(e) => log::warn!("{at}: skipped: {e}"),
            }
        },
    )?;
    Ok(AnalysisFile {
        settings,
        records: out,
        whole_len: read.whole_len,
    })
}
