//! Building and handling opening books (`mollett book`): a modern book from
//! the WTHOR tournament games scored by Mollett's own search, merging,
//! showing, checking, and Edax's `book.dat` in and out. The format and the
//! lookup are the protocol layer's (`protocol::book`).

use super::book_run::{self, Line, Progress, Scorer, Task};
use super::wthor::WthorStarts;
use crate::files;
use crate::protocol::book::edax::{self, EdaxBook};
use crate::protocol::book::format::map_square;
use crate::protocol::book::{self, Book, Key};
use crate::rules::color::{Color, Variant};
use crate::rules::moveline::parse_game;
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What `book build` makes and how.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    pub variant: Variant,
    /// WTHOR files or folders (a folder's held-out year is skipped); none:
    /// every position the rules reach from the variant's start.
    pub wthor: Vec<PathBuf>,
    /// Positions of the first `plies` plies.
    pub plies: usize,
    /// Depth of the search scoring each move.
    pub depth: u32,
    /// Only the WTHOR positions played in at least this many games.
    pub min_games: u32,
    pub threads: usize,
    /// Slice `i` of `n` (1-based): position `k` of the run's list is shard
    /// `k mod n + 1`'s.
    pub shard: (usize, usize),
    /// The progress file, the run's source of truth (see `book_run`).
    pub progress: PathBuf,
}

/// What a build did: printed by `book build`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildReport {
    /// Where the positions came from, in words.
    pub source: String,
    pub positions: usize,
    pub moves: usize,
    /// Positions this run scored, and this shard's still unscored (stopped).
    pub scored: usize,
    pub missing: usize,
}

impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions, {} moves from {}; {} scored by this run, {} still to score",
            self.positions, self.moves, self.source, self.scored, self.missing
        )
    }
}

/// A position of the games, in its canonical frame, with how often each
/// (canonical) move was played there.
struct Seen {
    games: u32,
    moves: BTreeMap<u8, u32>,
}

/// Calls `f` with each position of the games' first `plies` plies (its
/// key and symmetry), the game's index, the ply and the move played there.
fn each_position(
    starts: &WthorStarts,
    plies: usize,
    mut f: impl FnMut((Key, usize), usize, usize, Square),
) {
    for (g, game) in starts.games.iter().enumerate() {
        let mut pos = Position::start(Variant::Modern, Color::Black);
        for (ply, &sq) in game.iter().take(plies).enumerate() {
            if pos.must_pass() {
                pos = pos.pass();
            }
            f(book::key_of(&pos), g, ply, sq);
            pos = pos.play_unchecked(sq);
        }
    }
}

/// Every position of the WTHOR games' first `plies` plies, with each move
/// played there and how often; and the source in words.
fn wthor_tasks(cfg: &BuildConfig) -> Result<(Vec<Task>, String), String> {
    if cfg.variant != Variant::Modern {
        return Err("book build: --wthor games are modern; the classic book is built from the rules' tree (no --wthor)".into());
    }
    let starts = WthorStarts::load(&cfg.wthor, (0, 60))?;
    let mut seen: HashMap<Key, Seen> = HashMap::new();
    each_position(&starts, cfg.plies, |(key, s), _, _, sq| {
        let entry = seen.entry(key).or_insert_with(|| Seen {
            games: 0,
            moves: BTreeMap::new(),
        });
        entry.games += 1;
        *entry
            .moves
            .entry(map_square(sq.index() as u8, s))
            .or_insert(0) += 1;
    });
    let tasks = seen
        .into_iter()
        .filter(|(_, s)| s.games >= cfg.min_games)
        .map(|(key, s)| Task {
            key,
            games: s.games,
            moves: s.moves.into_iter().collect(),
        })
        .collect();
    let (a, b) = starts.years;
    Ok((tasks, format!("{} games ({a}-{b})", starts.games.len())))
}

/// Every position the rules reach from the variant's start in fewer than
/// `plies` plies (a forced pass is no ply), each with all its moves.
fn tree_tasks(variant: Variant, plies: usize) -> Vec<Task> {
    let mut tasks = Vec::new();
    let mut level = vec![Position::start(variant, Color::Black)];
    for ply in 0..plies {
        tasks.extend(level.iter().map(|p| book_run::task_of(p, 0)));
        if ply + 1 == plies {
            break;
        }
        let mut next: HashMap<Key, Position> = HashMap::new();
        for pos in &level {
            for mv in pos.legal_moves() {
                if let Some((child, _)) = book_run::next_position(pos, mv) {
                    next.entry(book::key_of(&child).0).or_insert(child);
                }
            }
        }
        level = next.into_values().collect();
    }
    tasks
}

/// Discs on the board: the positions' order after games, shallowest first.
fn discs(key: &Key) -> u32 {
    (key.player | key.opponent).count_ones()
}

/// `book build`: scores this shard's positions that the progress file does
/// not hold yet, one line each, until done or `stop`; then the book of
/// every position in the file. Each position's moves are scored by a
/// search of depth `depth` of the position after the move (negated to the
/// mover's view), with the table cleared, so a resumed or sharded run
/// scores exactly what one run would.
pub fn build(cfg: &BuildConfig, stop: &AtomicBool) -> Result<(Book, BuildReport), String> {
    if !(1..=60).contains(&cfg.plies) || !(1..=60).contains(&cfg.depth) {
        return Err("book build: --plies and --depth must be 1 to 60".into());
    }
    let (si, sn) = cfg.shard;
    if si == 0 || si > sn {
        return Err("--shard i/n needs 1 <= i <= n".into());
    }
    let mut scorer = Scorer::new(cfg.variant, cfg.depth, cfg.threads)?;
    let (mut tasks, source) = if cfg.wthor.is_empty() {
        let what = format!("the {} tree", cfg.variant);
        (tree_tasks(cfg.variant, cfg.plies), what)
    } else {
        wthor_tasks(cfg)?
    };
    // Most played first, then shallowest, so a partial run is already a
    // book of the main lines: a position comes after the one before it in
    // its games (played at least as often, and shallower), except one that
    // transpositions make more played than each of the lines into it.
    tasks.sort_by_key(|t| (std::cmp::Reverse(t.games), discs(&t.key), t.key));
    let header = format!(
        "mollett book build: variant={} source={source} plies={} depth={} min_games={}",
        cfg.variant, cfg.plies, cfg.depth, cfg.min_games
    );
    let mut progress = Progress::open(&cfg.progress, &header)?;
    let done: HashSet<Key> = progress.lines.iter().map(|l| l.position.key).collect();
    let todo: Vec<&Task> = tasks
        .iter()
        .enumerate()
        .filter(|(k, t)| k % sn == si - 1 && !done.contains(&t.key))
        .map(|(_, t)| t)
        .collect();
    log::info!(
        "book build: {}: {} positions in all, {} of this shard's to score",
        cfg.progress.display(),
        tasks.len(),
        todo.len()
    );
    let start = Instant::now();
    let mut last = start;
    let mut scored = 0;
    for task in &todo {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let position = scorer.score(task);
        progress.append(Line { round: 0, position })?;
        scored += 1;
        if last.elapsed() >= Duration::from_secs(30) {
            last = Instant::now();
            let minutes = start.elapsed().as_secs_f64() / 60.0;
            log::info!(
                "book build: {scored} of {} scored, {:.1} positions a minute",
                todo.len(),
                scored as f64 / minutes
            );
        }
    }
    let book = book_run::book_of(cfg.variant, &progress.lines);
    let report = BuildReport {
        source,
        positions: book.len(),
        moves: book.move_count(),
        scored,
        missing: todo.len() - scored,
    };
    Ok((book, report))
}

/// Reads a Mollett book (errors name the file).
pub fn read(path: &Path) -> Result<Book, String> {
    book::load(path)
}

/// Writes `book` whole (the old file stays until the new one is complete).
pub fn write(path: &Path, book: &Book) -> Result<(), String> {
    files::replace(path, book.bytes())
}

/// `book check`: one line on the book read from `path`.
pub fn check(path: &Path, b: &Book) -> String {
    format!(
        "{}: {} book, {} positions, {} moves",
        path.display(),
        b.variant(),
        b.len(),
        b.move_count()
    )
}

/// `book check --wthor`: how many of the WTHOR games' positions of the
/// first `plies` plies played in `min_games` games or more the book holds,
/// and the most played one it lacks (as the moves that reach it).
pub fn coverage(
    book: &Book,
    wthor: &[PathBuf],
    plies: usize,
    min_games: u32,
) -> Result<String, String> {
    if book.variant() != Variant::Modern {
        return Err("book check --wthor: the WTHOR games are modern; this book is classic".into());
    }
    let starts = WthorStarts::load(wthor, (0, 60))?;
    // Each position's games, and the first line that reached it.
    let mut seen: HashMap<Key, (u32, usize, usize)> = HashMap::new();
    each_position(&starts, plies, |(key, _), g, ply, _| {
        seen.entry(key).or_insert((0, g, ply)).0 += 1;
    });
    let wanted: Vec<(&Key, &(u32, usize, usize))> =
        seen.iter().filter(|(_, v)| v.0 >= min_games).collect();
    let missing = wanted.iter().filter(|(k, _)| book.find(k).is_none());
    let lacking = missing.clone().count();
    let first = missing
        .max_by_key(|(k, v)| (v.0, std::cmp::Reverse(discs(k)), std::cmp::Reverse(**k)))
        .map(|(_, &(games, g, ply))| {
            let line: String = starts.games[g][..ply]
                .iter()
                .map(|s| s.to_string())
                .collect();
            format!("; the most played it lacks: {games} games, after '{line}'")
        })
        .unwrap_or_default();
    Ok(format!(
        "holds {} of the {} positions of the first {plies} plies played in {min_games}+ of {} WTHOR games ({:.1} %){first}",
        wanted.len() - lacking,
        wanted.len(),
        starts.games.len(),
        100.0 * (wanted.len() - lacking) as f64 / wanted.len().max(1) as f64
    ))
}

/// `book show`: the book moves of the position after `moves` (from the
/// book's variant's start), one `<move> <value> depth <d> games <n>` line
/// each, best first.
pub fn show(book: &Book, moves: &str) -> Result<String, String> {
    let mut pos = Position::start(book.variant(), Color::Black);
    for mv in parse_game(moves, pos).map_err(|e| format!("--moves {moves}: {e}"))? {
        pos = pos.play(mv).expect("checked by parse_game");
    }
    let hits = book.lookup(&pos);
    if hits.is_empty() {
        return Ok("no book moves".into());
    }
    Ok(hits
        .iter()
        .map(|h| {
            let depth = if h.exact() {
                "exact".to_string()
            } else {
                h.depth.to_string()
            };
            format!("{} {:+.2} depth {depth} games {}", h.mv, h.value, h.games)
        })
        .collect::<Vec<_>>()
        .join("\n"))
}

/// `book merge`: the union of two books of one variant.
pub fn merge(a: &Book, b: &Book) -> Result<Book, String> {
    if a.variant() != b.variant() {
        return Err(format!(
            "cannot merge a {} book with a {} one",
            a.variant(),
            b.variant()
        ));
    }
    Ok(Book::from_positions(
        a.variant(),
        a.positions().chain(b.positions()).collect(),
    ))
}

/// `book import-edax`: an Edax `book.dat` as a Mollett book.
pub fn import_edax(input: &Path) -> Result<Book, String> {
    files::regular_input(input)?;
    let bytes = std::fs::read(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let e = edax::parse(&bytes).map_err(|e| format!("{}: {e}", input.display()))?;
    Ok(e.to_book())
}

/// `book export-edax`: a modern Mollett book as Edax's bytes.
pub fn export_edax(book: &Book) -> Result<Vec<u8>, String> {
    EdaxBook::from_book(book).map(|e| edax::write(&e))
}
