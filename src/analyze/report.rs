//! What `mollett analyze` prints: each game's moves with their values and
//! classes and each player's figures, or (`--summary`) the players ranked
//! over all their games and the opening moves most often lost.

use super::record::MoveRecord;
use super::sources::ReviewGame;
use crate::engine::review::{Class, Tally};
use crate::rules::color::{Color, Variant};
use crate::rules::ggf::GgfGame;
use crate::rules::moveline::parse_moves;
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::tournament::report::count;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// The last ply of the opening, for the opening figures.
pub const OPENING_PLIES: usize = 20;

/// `+1.50`, `-4.00`, `+0.00`.
fn value_text(v: f64) -> String {
    let v = if v == 0.0 { 0.0 } else { v };
    format!("{v:+.2}")
}

fn tally_text(t: &Tally) -> String {
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
fn tallies<'a>(records: impl Iterator<Item = &'a MoveRecord>) -> BTreeMap<(String, String), Tally> {
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

/// Every game: a table of its moves, then each side's figures.
pub fn games_text(games: &[ReviewGame], records: &[MoveRecord]) -> String {
    let mut by_game: BTreeMap<&str, Vec<&MoveRecord>> = BTreeMap::new();
    for r in records {
        by_game.entry(r.game.as_str()).or_default().push(r);
    }
    let mut order: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    for id in by_game.keys() {
        if !order.contains(id) {
            order.push(id);
        }
    }
    let mut s = String::new();
    for id in order {
        let Some(moves) = by_game.get(id) else {
            continue;
        };
        // Players as the game list names them, or as its moves do (a
        // file analysed before, read back).
        let named = |colour: &str| {
            moves
                .iter()
                .find(|r| r.color == colour)
                .map(|r| r.player.clone())
        };
        let game = games.iter().find(|g| g.id == id);
        let (black, white) = match game {
            Some(g) => (g.black.clone(), g.white.clone()),
            None => (
                named("black").unwrap_or_default(),
                named("white").or_else(|| named("red")).unwrap_or_default(),
            ),
        };
        let event = game
            .and_then(|g| g.event.as_deref())
            .or_else(|| moves.iter().find_map(|r| r.event.as_deref()))
            .map_or(String::new(), |e| format!(", {e}"));
        let _ = writeln!(s, "Game {id}: {black} (black) - {white}{event}");
        let _ = writeln!(
            s,
            "{:>4}  {:<6} {:<4} {:>7}  {:<4} {:>7}  {:>6}  class",
            "ply", "colour", "move", "value", "best", "value", "loss"
        );
        for r in moves {
            let _ = writeln!(
                s,
                "{:>4}  {:<6} {:<4} {:>7}  {:<4} {:>7}  {:>6.2}  {}{}{}",
                r.ply,
                r.color,
                format!("{}{}", r.mv, r.class().map_or("", |c| c.mark())),
                value_text(r.value),
                r.best_move,
                value_text(r.best_value),
                r.loss,
                r.class,
                match (r.exact, r.error) {
                    (true, _) => " (exact)".to_string(),
                    (false, Some(e)) => format!(" (estimate, ±{e:.1})"),
                    (false, None) => String::new(),
                },
                // Why the best move is best, where the move played was not.
                if r.class().is_some_and(|c| c >= Class::Inaccuracy) {
                    format!("  best line {}", r.pv)
                } else {
                    String::new()
                },
            );
        }
        for ((player, colour), t) in tallies(moves.iter().copied()) {
            let _ = writeln!(s, "{player} ({colour}): {}", tally_text(&t));
        }
        s.push('\n');
    }
    s
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
        let _ = writeln!(
            s,
            "\nOpening moves most often lost (plies 1-{OPENING_PLIES}, a loss of {:.0} discs or more):",
            crate::engine::review::INACCURACY
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

/// Moves of plies up to [`OPENING_PLIES`] that lost at least an
/// inaccuracy's discs, by position and move, most often first.
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

/// Each reviewed game as a GGF record (modern games only: GGF has no
/// classic board): every move's value in its `/eval` field, and a `C` tag
/// with each side's accuracy and every marked move with the best move.
/// Games read back from analysis files are rebuilt from their moves; a
/// game not reviewed to its end is left out.
pub fn games_ggf(games: &[ReviewGame], records: &[MoveRecord]) -> Vec<GgfGame> {
    let mut by_game: BTreeMap<&str, Vec<&MoveRecord>> = BTreeMap::new();
    for r in records {
        by_game.entry(r.game.as_str()).or_default().push(r);
    }
    let mut out = Vec::new();
    let mut done = std::collections::HashSet::new();
    let rebuilt: Vec<ReviewGame> = by_game
        .iter()
        .filter(|(id, _)| !games.iter().any(|g| g.id == **id))
        .filter_map(|(id, moves)| rebuild(id, moves))
        .collect();
    for g in games.iter().chain(&rebuilt) {
        if g.start.variant != Variant::Modern || !done.insert(g.id.as_str()) {
            continue;
        }
        let Some(moves) = by_game.get(g.id.as_str()) else {
            continue;
        };
        // A game cut short by Ctrl-C is left out whole: its accuracy would
        // cover only the moves done.
        let reviewed = |ply: usize| moves.iter().any(|r| r.ply == ply);
        if !(g.moves.iter().enumerate()).all(|(i, &mv)| mv == Move::Pass || reviewed(i + 1)) {
            continue;
        }
        let mut ggf = GgfGame::new(g.start);
        ggf.place = Some(g.event.clone().unwrap_or_else(|| "mollett analyze".into()));
        ggf.black = Some(g.black.clone());
        ggf.white = Some(g.white.clone());
        let mut pos = g.start;
        for (i, &mv) in g.moves.iter().enumerate() {
            let eval = moves.iter().find(|r| r.ply == i + 1).map(|r| r.value);
            ggf.push(mv, eval, None);
            pos = pos.play(mv).expect("moves checked when read");
        }
        if pos.is_game_over() {
            let black = if pos.side == Color::Black { 1 } else { -1 };
            ggf.result = Some(format!("{:+}.000", black * pos.final_score(true)));
        }
        let mut c = String::from("mollett analyze:");
        for ((player, colour), t) in tallies(moves.iter().copied()) {
            let _ = write!(
                c,
                " {player} ({colour}) accuracy {:.1}, {} ?!, {} ?, {} ??;",
                t.accuracy(),
                t.inaccuracies,
                t.mistakes,
                t.blunders
            );
        }
        for r in moves
            .iter()
            .filter(|r| r.class().is_some_and(|c| c >= Class::Inaccuracy))
        {
            let mark = r.class().map_or("", |c| c.mark());
            let _ = write!(
                c,
                " {}. {}{mark} {} (best {} {});",
                r.ply,
                r.mv,
                value_text(r.value),
                r.best_move,
                value_text(r.best_value)
            );
        }
        ggf.other
            .push(("C".into(), c.trim_end_matches(';').to_string()));
        out.push(ggf);
    }
    out
}

/// A game read back from an analysis file: its moves from the last
/// reviewed move's line, from the start of its variant.
fn rebuild(id: &str, moves: &[&MoveRecord]) -> Option<ReviewGame> {
    let last = moves.iter().max_by_key(|r| r.ply)?;
    let variant = if moves.iter().any(|r| r.color == "red") {
        Variant::Classic
    } else {
        Variant::Modern
    };
    let named = |colour: &str| {
        moves
            .iter()
            .find(|r| r.color == colour)
            .map(|r| r.player.clone())
    };
    let start = Position::start(variant, Color::Black);
    let mut line = parse_moves(&last.line).ok()?;
    // Forced passes after the last reviewed move, to the end.
    let mut pos = start;
    for &m in &line {
        pos = pos.play(m)?;
    }
    while pos.must_pass() {
        line.push(Move::Pass);
        pos = pos.play(Move::Pass)?;
    }
    Some(ReviewGame {
        id: id.to_string(),
        event: moves.iter().find_map(|r| r.event.clone()),
        black: named("black").unwrap_or_default(),
        white: named("white").or_else(|| named("red")).unwrap_or_default(),
        start,
        moves: line,
    })
}
