//! What a reviewed game came to, beside its moves: the result, WTHOR's
//! theoretical score, the named opening, and the turning point. The text
//! heads each game with them; `--json` gives them as one `"kind":"game"`
//! line before the game's moves.

use super::openings::opening_of;
use super::record::MoveRecord;
use super::sources::ReviewGame;
use crate::engine::chances::{class_error, Chances, DROP_MISTAKE, WINNING};
use crate::engine::review::Class;
use crate::rules::color::{Color, Variant};
use crate::rules::moveline::parse_moves;
use crate::rules::position::Position;
use crate::rules::square::Move;
use serde::{Deserialize, Serialize};

/// One game's facts (a `--json` line of its own).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameFacts {
    pub game: String,
    /// Always `game`: tells this line from the moves' lines.
    pub kind: String,
    pub black: String,
    /// The second colour's player (white, or red in classic).
    pub white: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The final discs; none for a game not played to its end.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<FinalDiscs>,
    /// WTHOR's theoretical score (black minus white, perfect play from
    /// `empties` empties), where the file has it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub theoretical: Option<Theoretical>,
    /// The named opening the game is in (the board page's table).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<OpeningName>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turning_point: Option<TurningPoint>,
}

/// Discs at the end (modern: empties to the winner, as WTHOR counts).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct FinalDiscs {
    pub black: i32,
    pub white: i32,
    /// Black minus white.
    pub score: i32,
}

#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Theoretical {
    pub score: i32,
    pub empties: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OpeningName {
    pub name: String,
    /// The table's line (f5 orientation).
    pub line: String,
}

/// The move after which the game's result stood for good, or (`kind`
/// `largest swing`) where none did, the move that lost the most.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TurningPoint {
    /// `result` or `largest swing`.
    pub kind: String,
    pub ply: usize,
    pub color: String,
    #[serde(rename = "move")]
    pub mv: String,
    /// Black's view: the best move's value, and the move's.
    pub black_before: f64,
    pub black_after: f64,
    /// The result from then on, for black: `win`, `draw`, `loss`.
    pub black_result: String,
}

/// Win, draw or loss for black, as black's expected score stands: exact
/// values give 1, 1/2 or 0; an estimate counts as a win from [`WINNING`]
/// (about 2 discs at the measured error), a loss to 1 - [`WINNING`].
fn standing(score: f64) -> &'static str {
    if score >= WINNING {
        "win"
    } else if score <= 1.0 - WINNING {
        "loss"
    } else {
        "draw"
    }
}

/// Black's expected score at a value for the mover of `r`.
fn black_score(r: &MoveRecord, mover_value: f64) -> f64 {
    let c = Chances::of(mover_value, class_error(r.exact, r.empties));
    if is_black(r) {
        c.score()
    } else {
        c.flipped().score()
    }
}

fn is_black(r: &MoveRecord) -> bool {
    r.color == "black"
}

fn black_view(r: &MoveRecord, v: f64) -> f64 {
    if is_black(r) {
        v
    } else {
        -v
    }
}

impl GameFacts {
    /// The facts of the game `records` (one game's, in ply order) review;
    /// `game` is the game as read (none for one read back from an analysis
    /// file: it is rebuilt from its records).
    pub fn of(id: &str, game: Option<&ReviewGame>, records: &[&MoveRecord]) -> GameFacts {
        let rebuilt = game.is_none().then(|| rebuild(id, records)).flatten();
        let game = game.or(rebuilt.as_ref());
        let end = game.and_then(|g| {
            g.moves
                .iter()
                .try_fold(g.start, |p, &m| p.play(m))
                .filter(Position::is_game_over)
        });
        let result = end.map(|pos| {
            let modern = pos.variant == Variant::Modern;
            let sign = if pos.side == Color::Black { 1 } else { -1 };
            let score = sign * pos.final_score(modern);
            let (b, w) = (
                pos.discs_of(Color::Black).count_ones() as i32,
                pos.discs_of(Color::White).count_ones() as i32,
            );
            let (black, white) = if modern {
                ((64 + score) / 2, (64 - score) / 2)
            } else {
                (b, w)
            };
            FinalDiscs {
                black,
                white,
                score,
            }
        });
        let opening = game
            .filter(|g| g.start == Position::start(Variant::Modern, Color::Black))
            .and_then(|g| opening_of(&g.moves))
            .map(|o| OpeningName {
                name: o.name.clone(),
                line: o.line.clone(),
            });
        let named = |colour: &str| {
            records
                .iter()
                .find(|r| r.color == colour)
                .map(|r| r.player.clone())
        };
        GameFacts {
            game: id.to_string(),
            kind: "game".into(),
            black: game.map_or_else(|| named("black").unwrap_or_default(), |g| g.black.clone()),
            white: game.map_or_else(
                || named("white").or_else(|| named("red")).unwrap_or_default(),
                |g| g.white.clone(),
            ),
            event: game
                .and_then(|g| g.event.clone())
                .or_else(|| records.iter().find_map(|r| r.event.clone())),
            turning_point: turning_point(records, result.map(|r| r.score)),
            result,
            theoretical: game
                .and_then(|g| g.theoretical)
                .map(|(score, empties)| Theoretical { score, empties }),
            opening,
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("facts serialise")
    }
}

/// The turning point of a game's judged moves: the first move from which
/// black's standing ([`standing`]) is the final result's to the end,
/// where the position before it stood otherwise; with no such move (the
/// result stood from the start, or the values never settle), the move
/// with the largest drop in expected score (then in discs).
fn turning_point(records: &[&MoveRecord], final_score: Option<i32>) -> Option<TurningPoint> {
    let judged: Vec<&MoveRecord> = records
        .iter()
        .copied()
        .filter(|r| r.class() != Some(Class::Forced))
        .collect();
    let last = judged.last()?;
    let result = match final_score {
        Some(s) => standing(Chances::of(f64::from(s), None).score()),
        None => standing(black_score(last, last.value)),
    };
    let point = |r: &MoveRecord, kind: &str| TurningPoint {
        kind: kind.into(),
        ply: r.ply,
        color: r.color.clone(),
        mv: r.mv.clone(),
        black_before: black_view(r, r.best_value),
        black_after: black_view(r, r.value),
        black_result: standing(black_score(r, r.value)).into(),
    };
    // The first move of the final run of moves that leave the result.
    let from = judged
        .iter()
        .rposition(|r| standing(black_score(r, r.value)) != result)
        .map_or(0, |i| i + 1);
    if let Some(r) = judged.get(from) {
        let before = standing(black_score(r, r.best_value));
        if before != result && r.score_drop >= DROP_MISTAKE {
            return Some(point(r, "result"));
        }
    }
    let swing = judged.iter().max_by(|a, b| {
        a.score_drop
            .total_cmp(&b.score_drop)
            .then(a.loss.total_cmp(&b.loss))
            .then(b.ply.cmp(&a.ply))
    })?;
    Some(point(swing, "largest swing"))
}

/// A game read back from an analysis file: its moves from the last
/// reviewed move's line, from the start of its variant, with the forced
/// passes after it to the end.
pub fn rebuild(id: &str, moves: &[&MoveRecord]) -> Option<ReviewGame> {
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
        theoretical: None,
    })
}
