//! Move choice: iterative deepening over a midgame search, and the exact
//! endgame solver. STUB: the public API below is fixed; the bodies are placeholders.

use crate::board::Position;
use crate::square::Move;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// How the final disc count is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Scoring {
    /// Discs on the board only; empty squares belong to nobody.
    #[default]
    Discs,
    /// Empty squares left at the end go to the winner (tournament rule, FFO).
    EmptiesToWinner,
}

/// What a search may spend. `None` means no limit of that kind.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Deepest midgame iteration.
    pub depth: Option<u32>,
    /// Node budget.
    pub nodes: Option<u64>,
    /// Do not start a new iteration after this much time.
    pub soft_time: Option<Duration>,
    /// Stop at once, with the best move so far, after this much time.
    pub hard_time: Option<Duration>,
    /// Solve exactly to the end of the game, whatever the other limits.
    pub exact: bool,
    /// Score this many root moves (for `hint n`); 1 for a plain search.
    pub multi_pv: usize,
}

/// Settings that persist between searches (from the option table).
#[derive(Clone, Debug)]
pub struct Settings {
    pub threads: usize,
    pub hash_mb: usize,
    pub scoring: Scoring,
    /// With this many empties or fewer, play is solved exactly.
    pub endgame_empties: u32,
    /// Root moves within this many discs of the best may be chosen at random (0: deterministic).
    pub randomness: f64,
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            hash_mb: 16,
            scoring: Scoring::Discs,
            endgame_empties: 18,
            randomness: 0.0,
            seed: 0,
        }
    }
}

/// The value of a root move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScoredMove {
    pub mv: Move,
    /// Side to move's view, in discs; exact when `SearchResult::exact`.
    pub score: f64,
}

/// What a search found.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// Always a legal move (`Pass` only when forced). Undefined when the game is over.
    pub best: Move,
    /// Side to move's view, in discs.
    pub score: f64,
    /// The score is the exact final disc difference under the scoring rule.
    pub exact: bool,
    /// Deepest completed midgame iteration (or empties, for an exact solve).
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
    pub pv: Vec<Move>,
    /// Root moves, best first: all of them for `multi_pv` > 1, else just the best.
    pub lines: Vec<ScoredMove>,
}

/// The searcher: owns the transposition table and persists between moves.
pub struct Engine {
    pub settings: Settings,
}

impl Engine {
    pub fn new(settings: Settings) -> Engine {
        Engine { settings }
    }

    /// Applies new settings (resizing the table when the hash size changed).
    pub fn configure(&mut self, settings: Settings) {
        self.settings = settings;
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {}

    /// Searches `pos` within `limits`. Returns early, with the best move so
    /// far, when `stop` becomes true. Progress goes to the log (stderr).
    pub fn search(&mut self, pos: &Position, limits: &Limits, stop: &AtomicBool) -> SearchResult {
        let _ = (limits, stop);
        let best = pos.legal_moves().first().copied().unwrap_or(Move::Pass);
        SearchResult {
            best,
            score: 0.0,
            exact: false,
            depth: 0,
            nodes: 0,
            time: Duration::ZERO,
            pv: vec![best],
            lines: vec![ScoredMove {
                mv: best,
                score: 0.0,
            }],
        }
    }
}
