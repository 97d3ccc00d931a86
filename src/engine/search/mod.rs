//! Move choice: the public search API and the engine that runs its threads.
//!
//! Iterative deepening drives a midgame PVS (`midgame.rs`) and, near the end
//! or on request, the exact solver (`endgame.rs`); `root.rs` holds the root
//! logic, `ordering.rs` move ordering, `params.rs` the tunables.

mod endgame;
mod midgame;
mod ordering;
pub mod params;
mod progress;
mod root;
mod worker;

use crate::clock::Instant;
use crate::engine::eval::{Evaluator, UNITS_PER_DISC};
use crate::engine::tt::TranspositionTable;
use crate::rules::position::Position;
use crate::rules::square::Move;
use root::{pv_from_tt, Plan, RootMove};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::time::Duration;
use worker::{CloseOnDrop, SplitPool, Worker};

pub use midgame::probcut_shallow_depth;
pub use progress::{Progress, Stage, Working};

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
    /// Root moves within this many discs of the best get their own values
    /// too, and every other root move an upper bound of its value
    /// (`SearchResult::lines` then holds every root move): a review values
    /// the moves a player might weigh, and proves the rest bad for fewer
    /// nodes.
    pub window: Option<f64>,
    /// A root move that gets its own value whatever its rank (the move a
    /// review judges).
    pub keep: Option<Move>,
    /// With a progress callback: a step still at work after this long tells
    /// it so ([`Stage::Working`]), and again after each such interval.
    pub heartbeat: Option<Duration>,
}

/// Empties from which play is solved exactly by default (the `endgame`
/// option); the time manager plans its clock around the same point.
pub const ENDGAME_EMPTIES: u32 = 18;

/// Settings that persist between searches (from the option table).
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    /// Search threads: more than one share the nodes of a search (YBWC
    /// split points), with one transposition table.
    pub threads: usize,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Final score rule, for exact solves and finished games.
    pub scoring: Scoring,
    /// With this many empties or fewer, play is solved exactly.
    pub endgame_empties: u32,
    /// Root moves within this many discs of the best may be chosen at random (0: deterministic).
    pub randomness: f64,
    /// Seed of the random root choice (mixed with the position's key).
    pub seed: u64,
    /// The static evaluation.
    pub eval: crate::engine::eval::EvalKind,
    /// The tunable search constants.
    pub params: params::Params,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            threads: 1,
            hash_mb: 16,
            scoring: Scoring::Discs,
            endgame_empties: ENDGAME_EMPTIES,
            randomness: 0.0,
            seed: 0,
            eval: crate::engine::eval::EvalKind::default(),
            params: params::Params::default(),
        }
    }
}

/// The value of a root move.
#[derive(Clone, Debug, PartialEq)]
pub struct ScoredMove {
    pub mv: Move,
    /// Side to move's view, in discs; exact when `SearchResult::exact`.
    pub score: f64,
    /// The line the search expects after this move (the move first), read
    /// from the table once the search is done.
    pub pv: Vec<Move>,
    /// `score` is only an upper bound of the move's value (a move below
    /// `Limits::window`).
    pub upper_bound: bool,
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
    /// The CPU time of each search thread, the main one first (zero where
    /// the platform cannot say): how busy the helpers were.
    pub thread_cpu: Vec<Duration>,
    /// Wall time the main thread spent waiting for helpers at split points.
    pub main_waited: Duration,
}

/// The searcher: owns the transposition table and persists between moves.
pub struct Engine {
    pub settings: Settings,
    tt: TranspositionTable,
    evaluator: Box<dyn Evaluator>,
}

/// Longest principal variation reported.
const MAX_PV: usize = 60;

fn to_discs(units: i32) -> f64 {
    units as f64 / UNITS_PER_DISC as f64
}

impl Engine {
    pub fn new(settings: Settings) -> Engine {
        Engine {
            tt: TranspositionTable::new(settings.hash_mb),
            evaluator: settings.eval.evaluator(),
            settings,
        }
    }

    /// [`Engine::new`], or why its table cannot be allocated.
    pub fn try_new(settings: Settings) -> Result<Engine, String> {
        Ok(Engine {
            tt: TranspositionTable::try_new(settings.hash_mb)?,
            evaluator: settings.eval.evaluator(),
            settings,
        })
    }

    /// Applies new settings (resizing the table when the hash size changed).
    pub fn configure(&mut self, settings: Settings) {
        if let Err(e) = self.try_configure(settings.clone()) {
            log::warn!("{e}");
            self.tt = TranspositionTable::new(settings.hash_mb);
            self.configure_rest(settings);
        }
    }

    /// [`Engine::configure`], refusing (and changing nothing) when the new
    /// table cannot be allocated.
    pub fn try_configure(&mut self, settings: Settings) -> Result<(), String> {
        if settings.hash_mb != self.settings.hash_mb {
            self.tt = TranspositionTable::try_new(settings.hash_mb)?;
        }
        self.configure_rest(settings);
        Ok(())
    }

    /// Everything but a new table's allocation.
    fn configure_rest(&mut self, settings: Settings) {
        if settings.eval != self.settings.eval {
            self.set_evaluator(settings.eval.evaluator());
        }
        if settings.hash_mb == self.settings.hash_mb && settings.scoring != self.settings.scoring {
            // Solved entries hold final scores under the old rule (a resized
            // table is new anyway).
            self.tt.clear();
        }
        self.settings = settings;
    }

    /// The static evaluation of `pos`, in evaluation units.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.evaluator.evaluate(pos)
    }

    /// Forgets everything learned (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    /// Replaces the evaluation (e.g. by a learned one) and forgets the table built with the old one.
    pub fn set_evaluator(&mut self, evaluator: Box<dyn Evaluator>) {
        self.evaluator = evaluator;
        self.tt.clear();
    }

    /// Searches `pos` within `limits`. Returns early, with the best move so
    /// far, when `stop` becomes true. Progress goes to the log (stderr).
    pub fn search(&mut self, pos: &Position, limits: &Limits, stop: &AtomicBool) -> SearchResult {
        self.search_with_progress(pos, limits, stop, None)
    }

    /// [`Engine::search`], telling `progress` of each completed step: every
    /// midgame iteration, then the win/loss/draw and exact solves (from the
    /// main search thread, as each completes).
    pub fn search_with_progress(
        &mut self,
        pos: &Position,
        limits: &Limits,
        stop: &AtomicBool,
        progress: Option<&(dyn Fn(&Progress) + Sync)>,
    ) -> SearchResult {
        let start = Instant::now();
        let empties_to_winner = self.settings.scoring == Scoring::EmptiesToWinner;
        let legal = pos.legal_moves();
        if legal.is_empty() {
            let score = pos.final_score(empties_to_winner) as f64;
            return SearchResult {
                best: Move::Pass,
                score,
                exact: true,
                depth: 0,
                nodes: 0,
                time: start.elapsed(),
                pv: Vec::new(),
                lines: vec![ScoredMove {
                    mv: Move::Pass,
                    score,
                    pv: Vec::new(),
                    upper_bound: false,
                }],
                thread_cpu: Vec::new(),
                main_waited: Duration::ZERO,
            };
        }
        let moves = self.initial_order(pos, &legal);

        let empties = pos.empty_count();
        let endgame = limits.exact || empties <= self.settings.endgame_empties;
        let multi_pv = limits.multi_pv.max(1).min(moves.len());
        let margin = (self.settings.randomness > 0.0)
            .then(|| (self.settings.randomness * UNITS_PER_DISC as f64).round() as i32);
        let window = limits
            .window
            .map(|w| (w.max(0.0) * UNITS_PER_DISC as f64).round() as i32);
        let max_depth = match (endgame, limits.depth) {
            (true, Some(d)) => d.min(self.settings.params.endgame_presearch_depth),
            (true, None) => self.settings.params.endgame_presearch_depth,
            (false, Some(d)) => d,
            (false, None) => u32::MAX,
        };
        let plan = Plan {
            root: *pos,
            endgame,
            force_exact: limits.exact,
            max_depth,
            multi_pv,
            // The wider of the two (`None` is below any `Some`).
            margin: margin.max(window),
            keep: limits.keep,
            start,
            soft: limits.soft_time,
            hard: limits.hard_time,
            heartbeat: limits.heartbeat,
        };
        let deadline = limits.hard_time.map(|h| start + h);
        self.tt.new_search();

        let done = AtomicBool::new(false);
        let searched = AtomicU64::new(0);
        let searched = &searched;
        let threads = self.settings.threads.max(1);
        // Every search shares its work at split points (YBWC): lazy SMP
        // helpers gained no time to depth (docs/history.md). A solve's
        // presearch iterations stay on one thread (its selective pass splits).
        let pool = SplitPool::new(threads - 1);
        let pool = (threads > 1).then_some(&pool);
        let midgame_splits = pool.is_some() && !endgame;
        let (tt, eval) = (&self.tt, self.evaluator.as_ref());
        let search_params = self.settings.params;
        let done = &done;
        // Every search thread's worker: the shared tables, stop conditions and parameters.
        let new_worker = move |node_limit: Option<u64>| {
            let mut w = Worker::new(
                tt,
                eval,
                empties_to_winner,
                stop,
                done,
                deadline,
                node_limit,
            );
            w.params = search_params;
            // Only heartbeats read the shared count: no search pays for it otherwise.
            w.searched = limits.heartbeat.and(Some(searched));
            w
        };
        let (report, nodes, moves, (main_cpu, main_waited)) = std::thread::scope(|s| {
            if let Some(pool) = pool {
                for _ in 1..threads {
                    std::thread::Builder::new()
                        .stack_size(params::THREAD_STACK)
                        .spawn_scoped(s, move || {
                            let mut w = new_worker(None);
                            w.pool = Some(pool);
                            pool.serve(w);
                        })
                        .expect("spawn a search thread");
                }
            }
            let plan = &plan;
            let main = move || {
                let cpu = worker::thread_cpu();
                let mut moves = moves;
                let mut w = new_worker(limits.nodes);
                w.pool = pool;
                w.midgame_splits = midgame_splits;
                w.progress = progress;
                let _close = pool.map(CloseOnDrop);
                let report = w.think(&mut moves, plan, empties);
                done.store(true, Relaxed);
                let cpu = worker::thread_cpu() - cpu;
                (report, w.nodes, moves, (cpu, w.waited))
            };
            // A thread of its own for the deep stack the search needs; the
            // browser build has one thread (its stack is set at link time).
            #[cfg(not(target_arch = "wasm32"))]
            let found = std::thread::Builder::new()
                .stack_size(params::THREAD_STACK)
                .spawn_scoped(s, main)
                .expect("spawn a search thread")
                .join()
                .expect("main search thread");
            #[cfg(target_arch = "wasm32")]
            let found = main();
            found
        });
        let mut thread_cpu = vec![main_cpu];
        thread_cpu.extend(pool.map(SplitPool::helper_cpu).unwrap_or_default());

        let mut chosen = 0;
        if let Some(m) = margin {
            // Any move proven within `m` of the best may be played.
            let candidates: Vec<usize> = (0..moves.len())
                .filter(|&i| i == 0 || (moves[i].exact && moves[i].score >= moves[0].score - m))
                .collect();
            let r = crate::rng::Rng::new(self.settings.seed ^ pos.key()).next_u64();
            chosen = candidates[(r % candidates.len() as u64) as usize];
        }
        let best = moves[chosen];
        let score = if chosen == 0 {
            report.score
        } else {
            best.score
        };
        let lines = if window.is_some() {
            // Every root move: a value, or a bound below the window.
            moves
                .iter()
                .map(|m| ScoredMove {
                    mv: m.mv,
                    score: to_discs(m.score),
                    pv: if m.exact {
                        pv_from_tt(&self.tt, m, MAX_PV)
                    } else {
                        vec![m.mv]
                    },
                    upper_bound: !m.exact,
                })
                .collect()
        } else if multi_pv > 1 {
            moves[..multi_pv]
                .iter()
                .map(|m| ScoredMove {
                    mv: m.mv,
                    score: to_discs(m.score),
                    pv: pv_from_tt(&self.tt, m, MAX_PV),
                    upper_bound: false,
                })
                .collect()
        } else {
            vec![ScoredMove {
                mv: best.mv,
                score: to_discs(score),
                pv: pv_from_tt(&self.tt, &best, MAX_PV),
                upper_bound: false,
            }]
        };
        let time = start.elapsed();
        log::debug!(
            "bestmove {} score {:+.2} nodes {} time {:.3}s",
            best.mv,
            to_discs(score),
            nodes,
            time.as_secs_f64()
        );
        SearchResult {
            best: best.mv,
            score: to_discs(score),
            exact: report.exact,
            depth: report.depth,
            nodes,
            time,
            pv: pv_from_tt(&self.tt, &best, MAX_PV),
            lines,
            thread_cpu,
            main_waited,
        }
    }

    /// Root moves in a cheap first order (a one-ply evaluation), so that even
    /// a search stopped at once answers with a sensible legal move.
    fn initial_order(&self, pos: &Position, legal: &[Move]) -> Vec<RootMove> {
        let mut moves: Vec<RootMove> = legal
            .iter()
            .map(|&mv| {
                let child = pos.play(mv).expect("legal move");
                let score = -self.evaluator.evaluate(&child)
                    + mv.square()
                        .map_or(0, |sq| ordering::SQUARE_PRIOR[sq.index()]);
                RootMove {
                    mv,
                    child,
                    score,
                    exact: false,
                }
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        moves
    }
}

#[cfg(test)]
mod tests {
    use super::{Progress, Stage};
    use std::time::Duration;

    #[test]
    fn a_win_loss_draw_line_gives_the_sign_of_the_result() {
        let line = |score: f64| {
            Progress {
                stage: Stage::WinLossDraw,
                depth: 20,
                score,
                pv: Vec::new(),
                nodes: 5,
                time: Duration::ZERO,
                working: None,
            }
            .to_string()
        };
        assert!(line(1.0).starts_with("wld +1 nodes 5"), "{}", line(1.0));
        assert!(line(0.0).starts_with("wld +0 nodes 5"), "{}", line(0.0));
        assert!(line(-1.0).starts_with("wld -1 nodes 5"), "{}", line(-1.0));
    }
}
