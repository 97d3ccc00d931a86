//! A move's review: what the move played is worth against the best move,
//! in discs for its mover, and how bad the difference is. One analysis for
//! every face (`mollett analyze`, scripts, the board): `docs/analyze.md`
//! states the classes and the accuracy figure.

use crate::engine::chances::{class_error, score_drop, DROP_INACCURACY, DROP_MISTAKE};
use crate::engine::search::{Engine, Limits, Scoring, Settings};
use crate::rules::color::Variant;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::sync::atomic::AtomicBool;

/// How deep a review looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewDepth {
    /// With this many empties or fewer before the move, every value is
    /// exact (perfect play to the end).
    pub exact_from: u32,
    /// Before that, the midgame search depth of the position, which
    /// values every legal move.
    pub depth: u32,
}

impl ReviewDepth {
    /// Settings for a reviewing engine: the end scored as tournaments score
    /// it in modern games (empties to the winner, as WTHOR's and FFO's
    /// scores are), by the discs in classic ones; no solve before
    /// `exact_from`, so a value marked inexact is a search's estimate.
    pub fn settings(&self, variant: Variant, base: Settings) -> Settings {
        Settings {
            scoring: match variant {
                Variant::Modern => Scoring::EmptiesToWinner,
                Variant::Classic => Scoring::Discs,
            },
            endgame_empties: self.exact_from.saturating_sub(1),
            randomness: 0.0,
            ..base
        }
    }
}

impl Default for ReviewDepth {
    fn default() -> ReviewDepth {
        ReviewDepth {
            exact_from: 22,
            depth: 14,
        }
    }
}

/// A move's class by its loss in discs, weighed by the result it leaves
/// (thresholds in [`Class::judge`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Class {
    /// The only legal move: no choice, not counted in a player's figures.
    Forced,
    /// Loses nothing.
    Best,
    /// Loses under [`INACCURACY`] discs.
    Good,
    Inaccuracy,
    Mistake,
    Blunder,
}

/// Losses from which a move is an inaccuracy, a mistake, a blunder (discs).
pub const INACCURACY: f64 = 2.0;
pub const MISTAKE: f64 = 4.0;
pub const BLUNDER: f64 = 8.0;

/// A result decided this clearly (discs, for the mover: a win still this
/// large after the move, or a loss this large with the best move) makes a
/// move whose result stands at most a mistake ([`CLEAR`]) or an inaccuracy
/// ([`DECIDED`]): the discs it gives away do not change who wins, as
/// lichess grades by winning chances rather than by centipawns.
pub const CLEAR: f64 = 10.0;
pub const DECIDED: f64 = 20.0;

/// Hundredths, as values are shown: classes are of the values a reader
/// sees, so a loss shown as 8.00 is a blunder.
pub fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// Hundredths, rounded up: an upper bound as shown stays one.
pub fn ceil2(v: f64) -> f64 {
    (v * 100.0 - 1e-9).ceil() / 100.0
}

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Forced,
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a chosen move that loses `loss` discs, by discs alone.
    pub fn of(loss: f64) -> Class {
        if loss >= BLUNDER {
            Class::Blunder
        } else if loss >= MISTAKE {
            Class::Mistake
        } else if loss >= INACCURACY {
            Class::Inaccuracy
        } else if loss > 0.0 {
            Class::Good
        } else {
            Class::Best
        }
    }

    /// The class of a move worth `value` where the best is worth `best`,
    /// values whose mean error is `error` (none: exact), both taken as
    /// shown (to hundredths): by its loss ([`Class::of`]), but a move that
    /// drops the mover's expected score ([`score_drop`]) by
    /// [`DROP_MISTAKE`] is at least a mistake (exact: a win into a draw or a
    /// loss, a draw into a loss), by [`DROP_INACCURACY`] at least an
    /// inaccuracy; one whose result stands is at most a mistake when the
    /// mover still wins by [`CLEAR`] or more (or loses by that much with
    /// the best move), at most an inaccuracy from [`DECIDED`].
    pub fn judge(best: f64, value: f64, error: Option<f64>) -> Class {
        let (best, value) = (round2(best), round2(value));
        let by_discs = Class::of(round2(best - value));
        let drop = score_drop(best, value, error);
        if drop >= DROP_MISTAKE {
            return by_discs.max(Class::Mistake);
        }
        let margin = if value > 0.0 {
            value
        } else if best < 0.0 {
            -best
        } else {
            0.0
        };
        let capped = if margin >= DECIDED {
            by_discs.min(Class::Inaccuracy)
        } else if margin >= CLEAR {
            by_discs.min(Class::Mistake)
        } else {
            by_discs
        };
        if drop >= DROP_INACCURACY {
            capped.max(Class::Inaccuracy)
        } else {
            capped
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Class::Forced => "forced",
            Class::Best => "best",
            Class::Good => "good",
            Class::Inaccuracy => "inaccuracy",
            Class::Mistake => "mistake",
            Class::Blunder => "blunder",
        }
    }

    pub fn parse(name: &str) -> Option<Class> {
        Class::ALL.into_iter().find(|c| c.name() == name)
    }

    /// The mark a move list shows after the move (`?!`, `?`, `??`).
    pub fn mark(self) -> &'static str {
        match self {
            Class::Inaccuracy => "?!",
            Class::Mistake => "?",
            Class::Blunder => "??",
            _ => "",
        }
    }
}

/// One move reviewed. Values are in discs for the mover, as the final disc
/// difference (exact) or the search's estimate of it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview {
    pub played: Move,
    pub value: f64,
    pub best_move: Move,
    pub best_value: f64,
    /// `best_value - value`, never negative.
    pub loss: f64,
    pub class: Class,
    /// Both values are exact.
    pub exact: bool,
    /// The line the search expects from the best move on (the best move
    /// first): why it is best.
    pub pv: Vec<Move>,
    /// Every legal move with its value, from the same search: the best,
    /// the move played and every move within [`WINDOW`] discs of the best
    /// valued, best first; the others after them with an upper bound of
    /// their value.
    pub moves: Vec<MoveValue>,
}

/// A legal move's value in a review, or an upper bound of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveValue {
    pub mv: Move,
    /// Discs for the mover.
    pub value: f64,
    /// `value` is only an upper bound: the move lies more than [`WINDOW`]
    /// discs below the best.
    pub at_most: bool,
}

/// Moves within this many discs of the best get their own values in a
/// review; a move further below (a blunder's loss, [`BLUNDER`], or more)
/// is proven to be so and no more, for about half the nodes of valuing
/// every move (issue 79).
pub const WINDOW: f64 = BLUNDER;

/// Reviews `played` in `pos` (a legal placement) with `engine`, whose
/// settings say how the end is scored: one search that weighs every legal
/// move (multi-PV: values within [`WINDOW`] of the best and for the move
/// played, bounds below), so the move played and the best one are weighed
/// alike.
/// The engine's table is cleared first: the review depends on the position
/// alone. `stop` cuts the search short (the review is then not to be kept).
pub fn review_move(
    engine: &mut Engine,
    pos: &Position,
    played: Move,
    depth: ReviewDepth,
    stop: &AtomicBool,
) -> MoveReview {
    // From an empty table, so that a move's review depends on its position
    // only: a resumed, sharded or threaded run gives the values an unbroken
    // one does.
    engine.clear();
    review_move_after(engine, pos, played, depth, stop)
}

/// [`review_move`] with the engine's table as it is: what the reviews
/// before it left there orders this one's search. An exact review's values
/// are the same whatever the table holds (only which of equal moves comes
/// first, and the line shown, may differ); an estimate's value depends on
/// what the table holds. `mollett analyze` keeps the table through a whole
/// game, cleared at its start and its plies reviewed in order, so each
/// review searches positions the one before searched already and its
/// values depend on the game alone.
pub fn review_move_after(
    engine: &mut Engine,
    pos: &Position,
    played: Move,
    depth: ReviewDepth,
    stop: &AtomicBool,
) -> MoveReview {
    let legal = pos.legal_moves();
    let exact = pos.empty_count() <= depth.exact_from;
    if legal.len() == 1 {
        // Forced: valued for the graph, not judged.
        let limits = Limits {
            depth: (!exact).then_some(depth.depth.max(1)),
            exact,
            ..Limits::default()
        };
        let (value, line) = value_after(engine, pos, played, &limits, stop);
        let mut pv = vec![played];
        pv.extend(line);
        return MoveReview {
            played,
            value,
            best_move: played,
            best_value: value,
            loss: 0.0,
            class: Class::Forced,
            exact,
            pv,
            moves: vec![MoveValue {
                mv: played,
                value,
                at_most: false,
            }],
        };
    }
    // One search of every move: the best and the move played valued, and
    // every move within the window; the rest proven below it.
    let limits = Limits {
        depth: (!exact).then_some(depth.depth.max(1)),
        exact,
        multi_pv: 1,
        window: Some(WINDOW),
        keep: Some(played),
        ..Limits::default()
    };
    let root = engine.search(pos, &limits, stop);
    let mut moves: Vec<MoveValue> = root
        .lines
        .iter()
        .map(|l| MoveValue {
            mv: l.mv,
            value: l.score,
            at_most: l.upper_bound,
        })
        .collect();
    // Values best first, then the bounds, each by its figure.
    moves.sort_by(|a, b| a.at_most.cmp(&b.at_most).then(b.value.total_cmp(&a.value)));
    let (best_move, best_value) = moves
        .first()
        .map_or((root.best, root.score), |m| (m.mv, m.value));
    let value = moves
        .iter()
        .find(|m| m.mv == played)
        .map_or(best_value, |m| m.value);
    let loss = (best_value - value).max(0.0);
    let mut pv = root.pv;
    if pv.first() != Some(&best_move) {
        pv = vec![best_move];
    }
    MoveReview {
        played,
        value,
        best_move,
        best_value,
        loss,
        class: Class::judge(best_value, value, class_error(exact, pos.empty_count())),
        exact,
        pv,
        moves,
    }
}

/// The value of `mv` in `pos` for its mover, and the line after it: the
/// position after it searched within `limits` (after the opponent's forced
/// pass, when there is one).
fn value_after(
    engine: &mut Engine,
    pos: &Position,
    mv: Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> (f64, Vec<Move>) {
    let next = pos.play(mv).expect("a legal move");
    if next.must_pass() {
        let again = next.play(Move::Pass).expect("a forced pass");
        let r = engine.search(&again, limits, stop);
        let mut line = vec![Move::Pass];
        line.extend(r.pv);
        return (r.score, line);
    }
    let r = engine.search(&next, limits, stop);
    (-r.score, r.pv)
}

/// A move's accuracy, 0 to 100: `100 * 2^(-loss/4)`, so a move that loses
/// nothing scores 100, a mistake's 4 discs halve it, a blunder's 8 leave 25.
pub fn move_accuracy(loss: f64) -> f64 {
    100.0 * (-loss.max(0.0) / 4.0).exp2()
}

/// A player's figures over their judged (not forced) moves.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub moves: usize,
    pub total_loss: f64,
    /// Judged moves per class: inaccuracies, mistakes, blunders.
    pub inaccuracies: usize,
    pub mistakes: usize,
    pub blunders: usize,
    /// Sum of [`move_accuracy`] over the judged moves.
    pub accuracy_sum: f64,
}

impl Tally {
    pub fn add(&mut self, loss: f64, class: Class) {
        if class == Class::Forced {
            return;
        }
        self.moves += 1;
        self.total_loss += loss;
        self.accuracy_sum += move_accuracy(loss);
        match class {
            Class::Inaccuracy => self.inaccuracies += 1,
            Class::Mistake => self.mistakes += 1,
            Class::Blunder => self.blunders += 1,
            _ => {}
        }
    }

    pub fn merge(&mut self, other: &Tally) {
        self.moves += other.moves;
        self.total_loss += other.total_loss;
        self.inaccuracies += other.inaccuracies;
        self.mistakes += other.mistakes;
        self.blunders += other.blunders;
        self.accuracy_sum += other.accuracy_sum;
    }

    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss / self.moves as f64
        }
    }

    /// The mean of the judged moves' accuracies (100 with none).
    pub fn accuracy(&self) -> f64 {
        if self.moves == 0 {
            100.0
        } else {
            self.accuracy_sum / self.moves as f64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_and_accuracy_follow_the_stated_thresholds() {
        assert_eq!(Class::of(0.0), Class::Best);
        assert_eq!(Class::of(1.99), Class::Good);
        assert_eq!(Class::of(2.0), Class::Inaccuracy);
        assert_eq!(Class::of(4.0), Class::Mistake);
        assert_eq!(Class::of(8.0), Class::Blunder);
        // The result weighs: +1 to -1 loses 2 discs but the game (exact).
        assert_eq!(Class::judge(1.0, -1.0, None), Class::Mistake);
        assert_eq!(Class::judge(2.0, 0.0, None), Class::Mistake);
        // A 30-disc win kept at 22 is no blunder; at 12, no more than a mistake.
        assert_eq!(Class::judge(30.0, 22.0, None), Class::Inaccuracy);
        assert_eq!(Class::judge(30.0, 12.0, None), Class::Mistake);
        assert_eq!(Class::judge(30.0, 8.0, None), Class::Blunder);
        // Already lost by 24 with the best move: losing by 34 changes nothing.
        assert_eq!(Class::judge(-24.0, -34.0, None), Class::Inaccuracy);
        // An estimate that loses about a disc around an even position is
        // no mistake, whatever side of 0 it ends (2.f6 of f5 f6, ±3.68).
        assert_eq!(Class::judge(0.6, -0.4, Some(3.68)), Class::Good);
        assert_eq!(Class::judge(0.5, -0.67, Some(3.68)), Class::Good);
        // Losing 4 discs from +2 to -2 moves the result even so.
        assert_eq!(Class::judge(2.0, -2.0, Some(3.68)), Class::Mistake);
        // Thresholds apply to the values as shown: a loss shown as 8.00.
        assert_eq!(Class::judge(8.004, 0.0, None), Class::Blunder);
        assert_eq!(Class::judge(-3.0, -10.996, Some(3.68)), Class::Blunder);
        assert_eq!(Class::judge(-3.0, -10.994, Some(3.68)), Class::Mistake);
        assert_eq!(move_accuracy(0.0), 100.0);
        assert_eq!(move_accuracy(4.0), 50.0);
        assert_eq!(move_accuracy(8.0), 25.0);
        for c in Class::ALL {
            assert_eq!(Class::parse(c.name()), Some(c));
        }
        let mut t = Tally::default();
        t.add(0.0, Class::Forced);
        t.add(0.0, Class::Best);
        t.add(8.0, Class::Blunder);
        assert_eq!((t.moves, t.blunders), (2, 1));
        assert_eq!(t.accuracy(), 62.5);
        assert_eq!(t.average_loss(), 4.0);
    }
}
