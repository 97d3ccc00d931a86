//! The GGF twin of a result file (`FILE.ggf`, which NBoard opens): one GGF
//! game record per finished game, reconciled with the result file on resume.

use super::record::{GameRecord, Outcome};
use super::types::{Reason, TimeControl};
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

/// `FILE.ggf` beside the result file `FILE`.
pub(super) fn ggf_path(out: &Path) -> PathBuf {
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
    let bytes = match std::fs::metadata(&path) {
        Ok(_) => crate::rules::text::read_bytes(&path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let whole = crate::files::whole_lines_of(&path, &bytes, "");
    let torn = &bytes[whole.len()..];
    let text = String::from_utf8_lossy(whole).into_owned();
    let mut kept: Vec<(GameKey, String)> = Vec::new();
    for line in text.lines() {
        let Ok(g) = GgfGame::parse(line) else {
            continue; // not a game record
        };
        kept.push((ggf_key(&g), line.to_string()));
    }
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
    if written == 0 && kept.is_empty() && torn.is_empty() {
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
