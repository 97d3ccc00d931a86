//! The GGF twin of a result file (`FILE.ggf`, which NBoard opens): one GGF
//! game record per finished game, reconciled with the result file on resume.

use super::record::{GameRecord, Outcome};
use super::types::{Reason, TimeControl};
use crate::rules::color::Color;
use crate::rules::ggf::ggf_game;
use crate::rules::position::Position;
use std::path::{Path, PathBuf};

/// `FILE.ggf` beside the result file `FILE`.
pub(super) fn ggf_path(out: &Path) -> PathBuf {
    let mut path = out.to_path_buf().into_os_string();
    path.push(".ggf");
    PathBuf::from(path)
}

/// A game's GGF record: the result as black's margin (64 for a forfeit), the
/// clock (`tc`) as `TI`, `times` and `evals` per ply when known.
pub(super) fn ggf_line(
    tc: TimeControl,
    rec: &GameRecord,
    start: &Position,
    times: &[f64],
    evals: &[Option<f64>],
) -> String {
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
    type Key = (String, String, Position, Vec<crate::rules::square::Move>);
    let mut kept: Vec<(Key, String)> = Vec::new();
    for line in text.lines() {
        let Ok(g) = crate::rules::ggf::GgfGame::parse(line) else {
            continue; // not a game record
        };
        let key = (
            g.black.clone().unwrap_or_default(),
            g.white.clone().unwrap_or_default(),
            g.start,
            g.moves.iter().map(|m| m.mv).collect(),
        );
        kept.push((key, line.to_string()));
    }
    let mut rewritten = String::new();
    let mut written = 0;
    for rec in records {
        let start = rec
            .start
            .unwrap_or_else(|| Position::start(rec.variant, Color::Black));
        let key = (
            rec.black.clone(),
            rec.white.clone(),
            start,
            rec.moves.clone(),
        );
        let line = match kept.iter().position(|(k, _)| *k == key) {
            Some(i) => kept.swap_remove(i).1,
            None => {
                written += 1;
                ggf_line(tc, rec, &start, &[], &[])
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
