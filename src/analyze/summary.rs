//! `mollett analyze --summary`: the players ranked over all their games,
//! and the opening moves most often marked; each side's figures, which the
//! game tables and GGF comments show too.

use super::record::MoveRecord;
use crate::engine::review::{Class, Tally};
use crate::tournament::report::count;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The last ply of the opening, for the opening figures.
pub const OPENING_PLIES: usize = 20;

/// `+1.50`, `-4.00`, `+0.00`.
pub fn value_text(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v:+.2}")
}

pub fn tally_text(t: &Tally) -> String {
    format!(
        "{}, loss {:.2} ({:.2} a move), {}, {}, {}, accuracy {:.1}",
        count(t.moves as u64, "move", "moves"),
        t.total_loss,
        t.average_loss(),
        count(t.inaccuracies as u64, "inaccuracy", "inaccuracies"),
        count(t.mistakes as u64, "mistake", "mistakes"),
        count(t.blunders as u64, "blunder", "blunders"),
        t.accuracy()
    )
}

/// Each player's (name, colour) tally in `records`.
pub fn tallies<'a>(
    records: impl Iterator<Item = &'a MoveRecord>,
) -> BTreeMap<(String, String), Tally> {
    let mut out: BTreeMap<(String, String), Tally> = BTreeMap::new();
    for r in records {
        if let Some(c) = r.class() {
            out.entry((r.player.clone(), r.color.clone()))
                .or_default()
                .add(r.loss, c);
        }
    }
    out
}

/// Every player with at least `min_games` games, ranked by average loss
/// over them (fewest discs lost a move first), then the opening moves most
/// often lost (by every player).
pub fn summary_text(records: &[MoveRecord], min_games: usize) -> String {
    // In one order whatever the files' order (shards read together): sums
    // of rounded losses then add up to the last bit alike.
    let mut sorted: Vec<&MoveRecord> = records.iter().collect();
    sorted.sort_by(|a, b| a.game.cmp(&b.game).then(a.ply.cmp(&b.ply)));
    let records = sorted;
    let mut players: BTreeMap<&str, (Tally, std::collections::BTreeSet<&str>)> = BTreeMap::new();
    for r in records.iter().copied() {
        if let Some(c) = r.class() {
            let e = players.entry(r.player.as_str()).or_default();
            e.0.add(r.loss, c);
            e.1.insert(r.game.as_str());
        }
    }
    let all = players.len();
    let mut ranked: Vec<_> = players
        .into_iter()
        .filter(|(_, (t, games))| t.moves > 0 && games.len() >= min_games)
        .collect();
    ranked.sort_by(|a, b| {
        a.1 .0
            .average_loss()
            .total_cmp(&b.1 .0.average_loss())
            .then(a.0.cmp(b.0))
    });
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:>4}  {:<24} {:>5} {:>6} {:>9} {:>6} {:>6} {:>6} {:>8}",
        "rank", "player", "games", "moves", "loss/move", "inacc", "mist", "blund", "accuracy"
    );
    for (i, (name, (t, games))) in ranked.iter().enumerate() {
        let _ = writeln!(
            s,
            "{:>4}  {:<24} {:>5} {:>6} {:>9.2} {:>6} {:>6} {:>6} {:>8.1}",
            i + 1,
            name,
            games.len(),
            t.moves,
            t.average_loss(),
            t.inaccuracies,
            t.mistakes,
            t.blunders,
            t.accuracy()
        );
    }
    if ranked.len() < all {
        let _ = writeln!(
            s,
            "({} of {all} players with fewer than {min_games} games not ranked)",
            all - ranked.len()
        );
    }
    let lost = opening_losses(records.iter().copied());
    if !lost.is_empty() {
        // What it lists is what it says: the moves classed an inaccuracy
        // or worse, which may lose fewer discs than an inaccuracy's where
        // they drop the expected result (docs/analyze.md).
        let _ = writeln!(
            s,
            "\nOpening moves most often marked ?!, ? or ?? (plies 1-{OPENING_PLIES}; an inaccuracy or worse):"
        );
        for l in lost.iter().take(10) {
            let _ = writeln!(
                s,
                "  {} {}: {} times, {:.2} discs on average (best {})",
                if l.before.is_empty() {
                    "(start)"
                } else {
                    &l.before
                },
                l.mv,
                l.count,
                l.total / l.count as f64,
                l.best
            );
        }
    }
    s
}

/// An opening move played and lost in several games.
pub struct OpeningLoss {
    /// The moves before it.
    pub before: String,
    pub mv: String,
    pub best: String,
    pub count: usize,
    pub total: f64,
}

/// Moves of plies up to [`OPENING_PLIES`] classed an inaccuracy or worse,
/// by position and move, most often first.
pub fn opening_losses<'a>(records: impl Iterator<Item = &'a MoveRecord>) -> Vec<OpeningLoss> {
    let mut by: BTreeMap<(String, String), OpeningLoss> = BTreeMap::new();
    for r in records {
        let lost = r.class().is_some_and(|c| c >= Class::Inaccuracy);
        if r.ply > OPENING_PLIES || !lost {
            continue;
        }
        let before = r.line[..r.line.len().saturating_sub(r.mv.len())].to_string();
        let e = by
            .entry((before.clone(), r.mv.clone()))
            .or_insert_with(|| OpeningLoss {
                before,
                mv: r.mv.clone(),
                best: r.best_move.clone(),
                count: 0,
                total: 0.0,
            });
        e.count += 1;
        e.total += r.loss;
    }
    let mut out: Vec<OpeningLoss> = by.into_values().collect();
    out.sort_by(|a, b| b.count.cmp(&a.count).then(b.total.total_cmp(&a.total)));
    out
}
