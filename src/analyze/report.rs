//! What `mollett analyze` prints of each game: a heading with its result,
//! WTHOR's theoretical score and its opening, then a row a ply (passes
//! too) with black's view of the values, the move's loss and class, and
//! for each move that lost anything the best line and the next best
//! moves, then the turning point and each side's figures; or the same as
//! JSON lines (`--json`), or as GGF (`--ggf`). One game at a time
//! ([`game_text`], [`game_json`]), so that each game can be printed as
//! soon as it is done; `--summary` is in `summary`.

use super::facts::{rebuild, GameFacts};
use super::record::MoveRecord;
use super::sources::ReviewGame;
pub use super::summary::{opening_losses, summary_text, OpeningLoss, OPENING_PLIES};
use super::summary::{tallies, tally_text, value_text};
use crate::engine::review::Class;
use crate::rules::color::{Color, Variant};
use crate::rules::ggf::GgfGame;
use crate::rules::moveline::parse_moves;
use crate::rules::square::Move;
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// How many of the other moves a row that lost anything lists.
pub const ALTERNATIVES: usize = 3;

/// Each game's records, in the order of `games` (then games only read
/// back, in the order of their records), each in ply order.
pub fn by_game<'a>(
    games: &'a [ReviewGame],
    records: &'a [MoveRecord],
) -> Vec<(&'a str, Option<&'a ReviewGame>, Vec<&'a MoveRecord>)> {
    let mut grouped: BTreeMap<&str, Vec<&MoveRecord>> = BTreeMap::new();
    for r in records {
        grouped.entry(r.game.as_str()).or_default().push(r);
    }
    // The games read, then those only read back, as their records come.
    let mut order: Vec<&str> = games.iter().map(|g| g.id.as_str()).collect();
    let mut seen: std::collections::HashSet<&str> = order.iter().copied().collect();
    for r in records {
        if seen.insert(r.game.as_str()) {
            order.push(r.game.as_str());
        }
    }
    order
        .into_iter()
        .filter_map(|id| {
            let mut moves = grouped.remove(id)?;
            moves.sort_by_key(|r| r.ply);
            Some((id, games.iter().find(|g| g.id == id), moves))
        })
        .collect()
}

/// Every game's text ([`game_text`]), in order.
pub fn games_text(games: &[ReviewGame], records: &[MoveRecord]) -> String {
    by_game(games, records)
        .into_iter()
        .map(|(id, game, moves)| game_text(id, game, &moves))
        .collect()
}

/// Every game's JSON lines ([`game_json`]), in order.
pub fn games_json(games: &[ReviewGame], records: &[MoveRecord]) -> String {
    by_game(games, records)
        .into_iter()
        .map(|(id, game, moves)| game_json(id, game, &moves))
        .collect()
}

/// One game as JSON lines: its facts ([`GameFacts`], `"kind":"game"`),
/// then each move's record.
pub fn game_json(id: &str, game: Option<&ReviewGame>, records: &[&MoveRecord]) -> String {
    let mut s = GameFacts::of(id, game, records).to_json() + "\n";
    for r in records {
        s.push_str(&r.to_json());
        s.push('\n');
    }
    s
}

/// A best line as moves apart: `a1 pass h3 h1`.
pub fn line_text(pv: &str) -> String {
    parse_moves(pv).map_or_else(
        |_| pv.to_string(),
        |moves| {
            moves
                .iter()
                .map(Move::to_string)
                .collect::<Vec<_>>()
                .join(" ")
        },
    )
}

/// `r`'s value `v` (for its mover) from black's view.
fn black_view(r: &MoveRecord, v: f64) -> f64 {
    if r.color == "black" {
        v
    } else {
        -v
    }
}

/// The plies of a game's table: each reviewed move, and each pass (from
/// the game's moves, or for a game read back, where the plies skip one),
/// with the colour that passed.
fn rows<'a>(
    game: Option<&ReviewGame>,
    records: &[&'a MoveRecord],
) -> Vec<(usize, Result<&'a MoveRecord, String>)> {
    let variant = if records.iter().any(|r| r.color == "red") {
        Variant::Classic
    } else {
        Variant::Modern
    };
    let last = records.last().map_or(0, |r| r.ply);
    let mut out: Vec<(usize, Result<&MoveRecord, String>)> = Vec::new();
    match game {
        Some(g) => {
            for (i, (pos, mv)) in g.plies().into_iter().enumerate().take(last) {
                let ply = i + 1;
                if mv == Move::Pass {
                    out.push((ply, Err(pos.side.name(variant).to_string())));
                } else if let Some(r) = records.iter().find(|r| r.ply == ply) {
                    out.push((ply, Ok(*r)));
                }
            }
        }
        None => {
            let mut prev: Option<&MoveRecord> = None;
            for &r in records {
                // One ply skipped between two moves: the other side passed
                // (the mover of the next move moves again).
                if prev.is_some_and(|p| p.ply + 2 == r.ply) {
                    let mover = if r.color == "black" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    out.push((r.ply - 1, Err(mover.other().name(variant).to_string())));
                }
                out.push((r.ply, Ok(r)));
                prev = Some(r);
            }
        }
    }
    out
}

/// One game as a person reads it: the heading (players, result, WTHOR's
/// theoretical score, opening), a row a ply with black's view of the
/// values, the best line and the next best moves under each move that
/// lost anything, the turning point, each side's figures.
pub fn game_text(id: &str, game: Option<&ReviewGame>, records: &[&MoveRecord]) -> String {
    let facts = GameFacts::of(id, game, records);
    let mut s = String::new();
    let event = facts
        .event
        .as_deref()
        .map_or(String::new(), |e| format!(", {e}"));
    let second = records
        .iter()
        .find(|r| r.color != "black")
        .map_or("white", |r| r.color.as_str());
    let _ = writeln!(
        s,
        "Game {id}: {} (black) - {} ({second}){event}",
        facts.black, facts.white
    );
    let mut about = vec![match facts.result {
        Some(r) => format!(
            "Result {}-{} ({})",
            r.black,
            r.white,
            match r.score {
                0 => "a draw".to_string(),
                s if s > 0 => format!("black by {s}"),
                s => format!("{second} by {}", -s),
            }
        ),
        None => "Not played to the end".to_string(),
    }];
    if let Some(t) = facts.theoretical {
        about.push(format!(
            "WTHOR's theoretical score {:+} (perfect play from {} empties)",
            t.score, t.empties
        ));
    }
    if let Some(o) = &facts.opening {
        about.push(format!("opening {} ({})", o.name, line_text(&o.line)));
    }
    let _ = writeln!(s, "{}", about.join("; "));
    let _ = writeln!(
        s,
        "Values for black (+ is good for black); loss and class for the mover; \"black\": black's expected score (win + draw/2)."
    );
    let _ = writeln!(
        s,
        "{:>4}  {:<6} {:<5} {:>7}  {:<4} {:>7}  {:>6}  {:>5}  class",
        "ply", "colour", "move", "value", "best", "value", "loss", "black"
    );
    for (ply, row) in rows(game, records) {
        let r = match row {
            Ok(r) => r,
            Err(colour) => {
                let _ = writeln!(s, "{ply:>4}  {colour:<6} pass");
                continue;
            }
        };
        let black_score = if r.color == "black" {
            r.chances.win + r.chances.draw / 2.0
        } else {
            r.chances.loss + r.chances.draw / 2.0
        };
        let tags = r.tags.join(", ");
        let _ = writeln!(
            s,
            "{:>4}  {:<6} {:<5} {:>7}  {:<4} {:>7}  {:>6.2}  {:>4.0}%  {}{}{}",
            r.ply,
            r.color,
            format!("{}{}", r.mv, r.class().map_or("", |c| c.mark())),
            value_text(r.black_value),
            r.best_move,
            value_text(black_view(r, r.best_value)),
            r.loss,
            black_score * 100.0,
            r.class,
            match (r.exact, r.error) {
                (true, _) => " (exact)".to_string(),
                (false, Some(e)) => format!(" (estimate, ±{e:.1})"),
                (false, None) => " (estimate)".to_string(),
            },
            if tags.is_empty() {
                String::new()
            } else {
                format!(" - {tags}")
            },
        );
        if r.loss > 0.0 {
            // Why the best move is best, and what else there was.
            let others: Vec<String> = r
                .moves
                .iter()
                .filter(|m| m.mv != r.mv)
                .take(ALTERNATIVES)
                .map(|m| {
                    // A bound for the mover: at most for black, at least
                    // for white, in black's view.
                    let bound = match (m.value, r.color == "black") {
                        (Some(_), _) => "",
                        (None, true) => "≤",
                        (None, false) => "≥",
                    };
                    let figure = value_text(black_view(r, m.figure()));
                    format!("{} {bound}{figure}", m.mv)
                })
                .collect();
            let _ = writeln!(
                s,
                "{:>24}best line {}; best others {}",
                "",
                line_text(&r.pv),
                others.join(", ")
            );
        }
    }
    if let Some(t) = &facts.turning_point {
        let mark = records
            .iter()
            .find(|r| r.ply == t.ply)
            .and_then(|r| r.class())
            .map_or("", |c| c.mark());
        let _ = writeln!(
            s,
            "{}: {}. {} {}{mark} (black {} -> {}): {}",
            if t.kind == "result" {
                "Turning point"
            } else {
                "Largest swing"
            },
            t.ply,
            t.color,
            t.mv,
            value_text(t.black_before),
            value_text(t.black_after),
            match (t.kind.as_str(), t.black_result.as_str()) {
                ("result", "win") => "black wins from here on",
                ("result", "loss") => "black loses from here on",
                ("result", _) => "a draw from here on",
                _ => "the result stood throughout; this move lost the most",
            }
        );
    }
    for ((player, colour), t) in tallies(records.iter().copied()) {
        let _ = writeln!(s, "{player} ({colour}): {}", tally_text(&t));
    }
    s.push('\n');
    s
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
