//! `mollett book learn`: Edax-style deviation learning. Each round walks
//! the book from the start along moves within the error bounds, completes
//! the positions it meets (scores their legal moves the book lacks), adds
//! the positions after their near-best moves that the book lacks, and then
//! re-minimaxes every value. Resumable through a progress file
//! (`book_run`): a round's plan depends only on the book before it, so a
//! rerun replays the file's rounds and scores only what is missing.

use super::book_run::{self, fingerprint, Line, Progress, Scorer, Task};
use crate::protocol::book::{key_of, Book, BookPosition, Key};
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use std::cmp::Reverse;
use std::collections::{BTreeMap, BinaryHeap, HashMap, HashSet};
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What `book learn` does.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Depth of the search scoring each move.
    pub depth: u32,
    /// A move is followed or added when its value is within this many discs
    /// of its position's best...
    pub max_error: f64,
    /// ... and the errors along its line from the start add up to at most this.
    pub total_error: f64,
    /// Positions are added only within the first `plies` plies.
    pub plies: usize,
    /// Rounds in all (those of the progress file included).
    pub rounds: u32,
    /// Positions scored at most in a round, the nearest the best line first.
    pub positions: usize,
    pub threads: usize,
    pub progress: PathBuf,
}

/// What a learning run did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnReport {
    pub rounds: u32,
    /// Positions of the book given, and of the book learned.
    pub before: usize,
    pub positions: usize,
    pub moves: usize,
    /// Positions this run scored (not those read back from the file).
    pub scored: usize,
    /// Stopped before the rounds were done.
    pub stopped: bool,
}

impl fmt::Display for LearnReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions ({} before), {} moves after {} rounds; {} scored by this run{}",
            self.positions,
            self.before,
            self.moves,
            self.rounds,
            self.scored,
            if self.stopped { " (stopped)" } else { "" }
        )
    }
}

type State = HashMap<Key, BookPosition>;

/// Plies from the variant's start to a position.
fn ply(variant: Variant, key: &Key) -> usize {
    let start = Position::start(variant, Color::Black);
    ((key.player | key.opponent).count_ones() - (start.player | start.opponent).count_ones())
        as usize
}

/// The move on canonical square `sq` of `pos` and where it leads.
fn follow(pos: &Position, sq: u8) -> Option<(Position, i32)> {
    if sq >= 64 || pos.moves() & (1u64 << sq) == 0 {
        return None;
    }
    book_run::next_position(pos, Move::Place(Square::from_index(sq as u32)))
}

/// Adds a scored position, or its newly scored moves to the one held.
fn apply(state: &mut State, p: &BookPosition) {
    match state.get_mut(&p.key) {
        None => {
            state.insert(p.key, p.clone());
        }
        Some(held) => {
            for m in &p.moves {
                match held.moves.iter_mut().find(|x| x.square == m.square) {
                    Some(x) => *x = *m,
                    None => held.moves.push(*m),
                }
            }
        }
    }
}

/// Negamax over the book: a move whose position is in the book takes that
/// position's best value (and depth); a move leading out of the book keeps
/// its searched value.
pub fn minimax(state: &mut State, variant: Variant) {
    fn value(
        key: Key,
        state: &mut State,
        memo: &mut HashMap<Key, (i16, u8)>,
        variant: Variant,
    ) -> (i16, u8) {
        if let Some(&v) = memo.get(&key) {
            return v;
        }
        let pos = book_run::position_of(variant, &key);
        let mut moves = state[&key].moves.clone();
        for m in &mut moves {
            let Some((child, sign)) = follow(&pos, m.square) else {
                continue;
            };
            let (child_key, _) = key_of(&child);
            if state.contains_key(&child_key) {
                let (v, depth) = value(child_key, state, memo, variant);
                m.value = if sign < 0 { -v } else { v };
                m.depth = depth;
                m.leaf = false;
            }
        }
        let best = moves
            .iter()
            .max_by_key(|m| m.value)
            .map_or((0, 0), |m| (m.value, m.depth));
        state.get_mut(&key).expect("held").moves = moves;
        memo.insert(key, best);
        best
    }
    let mut memo = HashMap::new();
    let mut keys: Vec<Key> = state.keys().copied().collect();
    keys.sort();
    for key in keys {
        value(key, state, &mut memo, variant);
    }
}

/// A round's positions to score, nearest the best line first: the book
/// positions within the bounds that lack some legal move's value (only
/// those moves), and the positions after near-best moves that the book
/// lacks (all their moves). Paths are walked cheapest first, so each
/// position is reached with its least total error.
fn plan(state: &State, variant: Variant, cfg: &LearnConfig) -> Vec<Task> {
    let (max_error, total_error) = (
        (cfg.max_error * 100.0).round() as i32,
        (cfg.total_error * 100.0).round() as i32,
    );
    let mut tasks: BTreeMap<Key, (i32, Task)> = BTreeMap::new();
    let mut add = |e: i32, task: Task| {
        let entry = tasks.entry(task.key).or_insert((e, task.clone()));
        if e < entry.0 {
            *entry = (e, task);
        }
    };
    let root = Position::start(variant, Color::Black);
    let (root_key, _) = key_of(&root);
    let mut reached: HashMap<Key, i32> = HashMap::new();
    let mut heap = BinaryHeap::new();
    if state.contains_key(&root_key) {
        reached.insert(root_key, 0);
        heap.push(Reverse((0, root_key)));
    } else if cfg.plies > 0 {
        add(0, book_run::task_of(&root, 0));
    }
    while let Some(Reverse((e, key))) = heap.pop() {
        if reached.get(&key).is_some_and(|&r| r < e) {
            continue;
        }
        let held = &state[&key];
        let pos = book_run::position_of(variant, &key);
        let missing: Vec<(u8, u32)> = book_run::legal_squares(&pos)
            .into_iter()
            .filter(|sq| !held.moves.iter().any(|m| m.square == *sq))
            .map(|sq| (sq, 0))
            .collect();
        if !missing.is_empty() {
            add(
                e,
                Task {
                    key,
                    games: held.games,
                    moves: missing,
                },
            );
            continue;
        }
        let best = held.moves.iter().map(|m| m.value as i32).max().unwrap_or(0);
        for m in &held.moves {
            let d = best - m.value as i32;
            if d > max_error || e + d > total_error {
                continue;
            }
            let Some((child, _)) = follow(&pos, m.square) else {
                continue;
            };
            let (child_key, _) = key_of(&child);
            if state.contains_key(&child_key) {
                if reached.get(&child_key).is_none_or(|&r| e + d < r) {
                    reached.insert(child_key, e + d);
                    heap.push(Reverse((e + d, child_key)));
                }
            } else if ply(variant, &child_key) < cfg.plies {
                add(e + d, book_run::task_of(&child, 0));
            }
        }
    }
    let mut list: Vec<(i32, Task)> = tasks.into_values().collect();
    list.sort_by_key(|(e, t)| (*e, t.key));
    list.into_iter()
        .take(cfg.positions)
        .map(|(_, t)| t)
        .collect()
}

/// `book learn`: grows `input` by `cfg.rounds` rounds (see the module),
/// resuming from the progress file; the book learned so far when `stop`.
pub fn learn(
    input: &Book,
    cfg: &LearnConfig,
    stop: &AtomicBool,
) -> Result<(Book, LearnReport), String> {
    if !(0.0..=128.0).contains(&cfg.max_error) || !(0.0..=1000.0).contains(&cfg.total_error) {
        return Err("book learn: --max-error and --total-error are discs, 0 or more".into());
    }
    if cfg.positions == 0 || !(1..=60).contains(&cfg.plies) {
        return Err("book learn: --positions must be at least 1, --plies 1 to 60".into());
    }
    let variant = input.variant();
    let mut scorer = Scorer::new(variant, cfg.depth, cfg.threads)?;
    let header = format!(
        "mollett book learn: book={:016x} variant={variant} depth={} max_error={} total_error={} plies={} positions={}",
        fingerprint(input.bytes()),
        cfg.depth,
        cfg.max_error,
        cfg.total_error,
        cfg.plies,
        cfg.positions
    );
    let mut progress = Progress::open(&cfg.progress, &header)?;
    let mut from_file: BTreeMap<u32, Vec<Line>> = BTreeMap::new();
    for l in &progress.lines {
        from_file.entry(l.round).or_default().push(l.clone());
    }
    let last_in_file = from_file.keys().next_back().copied().unwrap_or(0);
    let mut state: State = input.positions().map(|p| (p.key, p)).collect();
    let before = state.len();
    minimax(&mut state, variant);
    let (mut scored, mut stopped, mut rounds) = (0, false, 0);
    let start = Instant::now();
    let mut last_log = start;
    for round in 1..=cfg.rounds.max(last_in_file) {
        let tasks = plan(&state, variant, cfg);
        let done_lines = from_file.remove(&round).unwrap_or_default();
        if tasks.is_empty() && done_lines.is_empty() {
            log::info!("book learn: nothing within the bounds to learn in round {round}");
            break;
        }
        let done: HashSet<Key> = done_lines.iter().map(|l| l.position.key).collect();
        for l in &done_lines {
            apply(&mut state, &l.position);
        }
        for task in tasks.iter().filter(|t| !done.contains(&t.key)) {
            if stop.load(Ordering::Relaxed) {
                stopped = true;
                break;
            }
            let position = scorer.score(task);
            apply(&mut state, &position);
            progress.append(Line { round, position })?;
            scored += 1;
            if last_log.elapsed() >= Duration::from_secs(30) {
                last_log = Instant::now();
                let minutes = start.elapsed().as_secs_f64() / 60.0;
                log::info!(
                    "book learn: round {round}, {scored} scored, {:.1} positions a minute",
                    scored as f64 / minutes
                );
            }
        }
        minimax(&mut state, variant);
        if stopped {
            break;
        }
        rounds = round;
        log::info!(
            "book learn: round {round} done: {} positions to score, {} positions in the book",
            tasks.len(),
            state.len()
        );
    }
    let book = Book::from_positions(variant, state.into_values().collect());
    let report = LearnReport {
        rounds,
        before,
        positions: book.len(),
        moves: book.move_count(),
        scored,
        stopped,
    };
    Ok((book, report))
}
