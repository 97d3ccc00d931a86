//! `bench`: fixed positions searched to a fixed depth; the node count is the
//! signature of search behaviour. `bench --midgame`: time to a midgame depth.
//!
//! The positions come from seeded random playouts of both variants (so the
//! list needs no data file) and are the same on every run; each is searched
//! on one thread with a fresh table, so the node count is reproducible.

use crate::clock::Instant;
use crate::engine::eval::EvalKind;
use crate::engine::search::{Engine, Limits, Settings};
use crate::rules::color::Variant;
use crate::rules::position::{playout, Position};
use crate::rules::square::Move;
use std::sync::atomic::AtomicBool;

/// Midgame depth of every bench search; positions within the endgame
/// threshold are solved exactly instead.
pub const BENCH_DEPTH: u32 = 10;

/// (variant, empty squares, playout seed) for each bench position.
const POSITIONS: [(Variant, u32, u64); 11] = [
    (Variant::Modern, 52, 1),
    (Variant::Modern, 44, 2),
    (Variant::Modern, 36, 3),
    (Variant::Modern, 30, 4),
    (Variant::Modern, 24, 5),
    (Variant::Modern, 18, 6),
    (Variant::Modern, 16, 7),
    (Variant::Classic, 54, 8),
    (Variant::Classic, 40, 9),
    (Variant::Classic, 26, 10),
    // Within 32 discs at 18 empties: the endgame's selective pass runs.
    (Variant::Modern, 18, 11),
];

/// Runs the bench with the default evaluation (`EvalKind::default()`, the
/// learned one) and returns (nodes, nodes per second); the node count is the
/// search signature (what `mollett bench` prints and commits cite).
pub fn run() -> (u64, u64) {
    run_with(&EvalKind::default())
}

/// Runs the bench with the given evaluation (its node count differs from the
/// default signature, but is as reproducible).
pub fn run_with(eval: &EvalKind) -> (u64, u64) {
    let limits = Limits {
        depth: Some(BENCH_DEPTH),
        multi_pv: 1,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    // Nodes a second count the searches alone: not the embedded sets'
    // decoding on their first use (done here), nor a weight file's loading
    // by each engine (a 9 MB file took half a second of an 0.7 s bench).
    let warm = eval.evaluator();
    for &(variant, empties, seed) in &POSITIONS {
        let pos = playout(variant, empties, seed);
        std::hint::black_box((warm.evaluate(&pos), warm.order_evaluate(&pos)));
    }
    let mut secs = 0.0;
    let mut nodes = 0;
    for (i, &(variant, empties, seed)) in POSITIONS.iter().enumerate() {
        let pos = playout(variant, empties, seed);
        let mut engine = Engine::new(Settings {
            eval: eval.clone(),
            ..Settings::default()
        });
        let start = Instant::now();
        let r = engine.search(&pos, &limits, &stop);
        secs += start.elapsed().as_secs_f64();
        eprintln!(
            "bench {:2} {:7} {} {:>4} {:+6.2}{} {:>10} nodes {:6.3}s",
            i + 1,
            variant.name(),
            pos.to_obf(),
            r.best.to_string(),
            r.score,
            if r.exact { "=" } else { " " },
            r.nodes,
            r.time.as_secs_f64()
        );
        nodes += r.nodes;
    }
    (nodes, (nodes as f64 / secs.max(1e-9)) as u64)
}

/// `bench --midgame`'s positions: WTHOR 2018 games (the held-out year),
/// every 242nd game from the first, at 36 to 44 empties (40 twice), where
/// the side to move has two moves or more. Time to a fixed midgame depth on
/// them measures what more threads buy before the exact phase (issue 71).
pub const MIDGAME_POSITIONS: [&str; 10] = [
    "-----------------XXOOOX-OOXOOX---OOOXXX---OOXX----O-XX-----XXX-- X",
    "------------O------XOO----XXXXX---XXOX---XXXXO----XXOO---XXXXX-- O",
    "----------O-------OOXXXX-OOOOXOX---OOXXX---OOXXX-----X-------X-- X",
    "-----------------O-XX-X---OXXX---XOOXXX-XXOXOO----OOOO-------O-- O",
    "------------O----OOOOX--OOOOOO---XXXOXX---XXOOO-----O----------- X",
    "------------XO------OOO----OOOX---OOOOX---XXOOX----XXO-------X-- O",
    "------------O-----XOXO---XOXXO---OOOXO----XXXXO-----X--------X-- X",
    "----------XXXX---OOXOO---OOXOO----XOOX----XOO------------------- O",
    "------------------XO-O----XXOO----OOOO-----XOXO----XXX----OX---- X",
    "----------XOO-----OOOOO---OOOOOO-XXXOOOO----XXX----------------- X",
];

/// One search of `bench --midgame`.
#[derive(Clone, Copy, Debug)]
pub struct MidgameRun {
    pub nodes: u64,
    pub secs: f64,
    /// CPU seconds of the main search thread, and of the helpers together.
    pub main_cpu: f64,
    pub helper_cpu: f64,
    /// The main thread's CPU seconds scaled by its wall time over the part of
    /// it not spent waiting for helpers: its time to depth on a machine
    /// where each thread has a core, whatever else this one runs.
    pub own_core_secs: f64,
    pub best: Move,
    pub score: f64,
}

/// Searches `pos` to `depth` on `threads` threads with a fresh table of
/// `hash_mb` MB: one measurement of time to depth.
pub fn midgame_run(
    pos: &Position,
    eval: &EvalKind,
    threads: usize,
    depth: u32,
    hash_mb: usize,
) -> MidgameRun {
    let mut engine = Engine::new(Settings {
        threads,
        hash_mb,
        eval: eval.clone(),
        ..Settings::default()
    });
    let limits = Limits {
        depth: Some(depth),
        multi_pv: 1,
        ..Limits::default()
    };
    let r = engine.search(pos, &limits, &AtomicBool::new(false));
    let cpu: Vec<f64> = r.thread_cpu.iter().map(|c| c.as_secs_f64()).collect();
    MidgameRun {
        nodes: r.nodes,
        secs: r.time.as_secs_f64(),
        main_cpu: cpu.first().copied().unwrap_or(0.0),
        helper_cpu: cpu.iter().skip(1).sum(),
        own_core_secs: {
            let (wall, waited) = (r.time.as_secs_f64(), r.main_waited.as_secs_f64());
            cpu.first().copied().unwrap_or(0.0) * wall / (wall - waited).max(1e-9)
        },
        best: r.best,
        score: r.score,
    }
}
