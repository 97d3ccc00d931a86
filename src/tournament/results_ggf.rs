//! The GGF twin of a result file (`FILE.ggf`, which NBoard opens): one GGF
//! game record per finished game, reconciled with the result file on resume.

use super::results::{GameRecord, Outcome};
use super::types::{Reason, TimeControl, MAX_MOVE_VALUE};
use crate::rules::color::Variant;
use crate::rules::ggf::{ggf_game, GgfGame};
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};

/// What ties a GGF record to its result line: players, start and moves.
type GameKey = (String, String, Position, Vec<Move>);

fn ggf_key(g: &GgfGame) -> GameKey {
    (
        g.black.clone().unwrap_or_default(),
        g.white.clone().unwrap_or_default(),
        g.start,
        g.moves.iter().map(|m| m.mv).collect(),
    )
}

fn record_key(r: &GameRecord) -> GameKey {
    (
        r.black.clone(),
        r.white.clone(),
        r.start_position(),
        r.moves.clone(),
    )
}

/// Each record's GGF game (games played alike twice take theirs in order),
/// `None` where there is none (classic games have none).
pub(super) fn match_details<'a>(
    records: &[GameRecord],
    ggf: &'a [GgfGame],
) -> Vec<Option<&'a GgfGame>> {
    let mut by_key: HashMap<GameKey, VecDeque<&GgfGame>> = HashMap::new();
    for g in ggf {
        by_key.entry(ggf_key(g)).or_default().push_back(g);
    }
    records
        .iter()
        .map(|r| {
            if r.variant != Variant::Modern {
                return None;
            }
            by_key.get_mut(&record_key(r)).and_then(|q| q.pop_front())
        })
        .collect()
}

/// A GGF file as read: its game records with their lines, and the lines
/// skipped as damaged, named as the warnings on stderr name them.
#[derive(Default)]
pub struct GgfFile {
    pub games: Vec<(GgfGame, String)>,
    pub skipped: Vec<String>,
}

/// Reads the GGF file `path` (none when it is missing) a line at a time,
/// holding at most [`MAX_RECORD_LINE`](crate::files::MAX_RECORD_LINE) bytes
/// of a line. A line that is not a game record, holds a move value past
/// ±[`MAX_MOVE_VALUE`], or has no end is skipped with a warning.
pub fn read_ggf_file(path: &Path) -> Result<GgfFile, String> {
    use crate::files::{read_lines, MAX_RECORD_LINE};
    let file = match std::fs::metadata(path) {
        Ok(_) => {
            crate::files::regular_input(path)?;
            std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(GgfFile::default()),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut out = GgfFile::default();
    let reader = std::io::BufReader::new(file);
    let read = read_lines(path, reader, MAX_RECORD_LINE, "", |line| {
        let at = format!("{}:{}", path.display(), line.number);
        let why = match line.text {
            Err(len) => crate::files::too_long(len),
            Ok(raw) => {
                let text = String::from_utf8_lossy(&raw);
                if text.trim().is_empty() {
                    return;
                }
                match GgfGame::parse(&text) {
                    Ok(g) => match g.moves.iter().position(|m| {
                        m.eval.is_some_and(|v| v.abs() > MAX_MOVE_VALUE)
                    }) {
                        None => {
                            out.games.push((g, text.into_owned()));
                            return;
                        }
                        Some(i) => format!(
                            "the value of move {} is not a number of discs within ±{MAX_MOVE_VALUE}",
                            i + 1
                        ),
                    },
                    Err(e) => format!("not a game record: {e}"),
                }
            }
        };
        let name = format!("{at}: skipped: {why}");
        log::warn!("{name}");
        out.skipped.push(name);
    })?;
    if let Some(len) = read.torn {
        out.skipped.push(format!(
            "{}: skipped: the last line has no end ({len} bytes)",
            path.display()
        ));
    }
    Ok(out)
}

/// `FILE.ggf` beside the result file `FILE`.
pub fn ggf_path(out: &Path) -> PathBuf {
    let mut path = out.to_path_buf().into_os_string();
    path.push(".ggf");
    PathBuf::from(path)
}

/// A game's GGF record: the result as black's margin (64 for a forfeit), the
/// clock (`tc`) as `TI`, `times` and `evals` per ply when known.
pub(super) fn ggf_record(
    tc: TimeControl,
    rec: &GameRecord,
    start: &Position,
    times: &[f64],
    evals: &[Option<f64>],
) -> GgfGame {
    let margin = match (rec.reason, rec.outcome) {
        (Reason::Normal, _) => rec.discs[0] as i32 - rec.discs[1] as i32,
        (_, Outcome::BlackWins) => 64,
        _ => -64,
    };
    let clock = match tc {
        TimeControl::Fischer { base, .. } => Some(base),
        _ => None,
    };
    ggf_game(
        start,
        &rec.moves,
        times,
        evals,
        &rec.black,
        &rec.white,
        Some(margin),
        clock,
    )
}

/// The result file is the record of truth, and the GGF file is written after
/// it: a kill between the two appends leaves a game without its GGF record.
/// On resume, keep one GGF record per finished game (matched by players,
/// start and moves) and write the missing ones from the result lines (without
/// per-move times, which only the GGF kept); records of no finished game are
/// dropped. The file is replaced in one rename.
pub(super) fn reconcile_ggf(
    tc: TimeControl,
    out: &Path,
    records: &[GameRecord],
) -> Result<(), String> {
    let path = ggf_path(out);
    let read = read_ggf_file(&path)?;
    let mut kept: Vec<(GameKey, String)> = read
        .games
        .into_iter()
        .map(|(g, line)| (ggf_key(&g), line))
        .collect();
    let damaged = !read.skipped.is_empty();
    let mut rewritten = String::new();
    let mut written = 0;
    for rec in records {
        let start = rec.start_position();
        let key = record_key(rec);
        let line = match kept.iter().position(|(k, _)| *k == key) {
            Some(i) => kept.swap_remove(i).1,
            None => {
                written += 1;
                ggf_record(tc, rec, &start, &[], &[]).to_string()
            }
        };
        rewritten.push_str(&line);
        rewritten.push('\n');
    }
    if written == 0 && kept.is_empty() && !damaged {
        return Ok(());
    }
    if written > 0 {
        eprintln!(
            "{}: {written} game(s) had no GGF record (a kill between the two writes): written from the result lines",
            path.display()
        );
    }
    crate::files::replace(&path, rewritten.as_bytes())
}
