//! A move's review: what the move played is worth against the best move,
//! in discs for its mover, and how bad the difference is. One analysis for
//! every face (`mollett analyze`, scripts, the board): `docs/analyze.md`
//! states the classes and the accuracy figure.

use crate::engine::search::{Engine, Limits, Scoring, Settings};
use crate::rules::color::Variant;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::sync::atomic::AtomicBool;

/// How deep a review looks.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ReviewDepth {
    /// With this many empties or fewer before the move, both values are
    /// exact (perfect play to the end).
    pub exact_from: u32,
    /// Before that, the midgame search depth of the position; the move
    /// played is searched one ply shallower from the position it leads to,
    /// as the position's own search sees it.
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

/// A move's class by its loss in discs (thresholds in [`Class::of`]).
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

impl Class {
    pub const ALL: [Class; 6] = [
        Class::Forced,
        Class::Best,
        Class::Good,
        Class::Inaccuracy,
        Class::Mistake,
        Class::Blunder,
    ];

    /// The class of a chosen move that loses `loss` discs.
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
#[derive(Clone, Copy, Debug, PartialEq)]
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
}

/// Reviews `played` in `pos` (a legal placement) with `engine`, whose
/// settings say how the end is scored. The engine's table is cleared first:
/// the review depends on the position alone. `stop` cuts the searches short
/// (the review is then not to be kept).
pub fn review_move(
    engine: &mut Engine,
    pos: &Position,
    played: Move,
    depth: ReviewDepth,
    stop: &AtomicBool,
) -> MoveReview {
    let legal = pos.legal_moves();
    let exact = pos.empty_count() <= depth.exact_from;
    let limits = |d: u32| Limits {
        depth: (!exact).then_some(d.max(1)),
        exact,
        ..Limits::default()
    };
    // From an empty table, so that a move's review depends on its position
    // only: a resumed or sharded run gives the values an unbroken one does.
    engine.clear();
    if legal.len() == 1 {
        // Forced: valued for the graph, not judged.
        let value = value_after(engine, pos, played, &limits(depth.depth), stop);
        return MoveReview {
            played,
            value,
            best_move: played,
            best_value: value,
            loss: 0.0,
            class: Class::Forced,
            exact,
        };
    }
    let root = engine.search(pos, &limits(depth.depth), stop);
    let (mut best_move, mut best_value) = (root.best, root.score);
    let value = if played == best_move {
        best_value
    } else {
        value_after(engine, pos, played, &limits(depth.depth - 1), stop)
    };
    // A shallower look at the move played can find it better than the
    // position's search did: then it is the best move found.
    if value > best_value {
        (best_move, best_value) = (played, value);
    }
    let loss = best_value - value;
    MoveReview {
        played,
        value,
        best_move,
        best_value,
        loss,
        class: Class::of(loss),
        exact,
    }
}

/// The value of `mv` in `pos` for its mover: the position after it searched
/// within `limits` (after the opponent's forced pass, when there is one).
fn value_after(
    engine: &mut Engine,
    pos: &Position,
    mv: Move,
    limits: &Limits,
    stop: &AtomicBool,
) -> f64 {
    let next = pos.play(mv).expect("a legal move");
    if next.must_pass() {
        let again = next.play(Move::Pass).expect("a forced pass");
        return engine.search(&again, limits, stop).score;
    }
    -engine.search(&next, limits, stop).score
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
