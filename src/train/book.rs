//! Building and handling opening books (`mollett book`): a modern book from
//! the WTHOR tournament games scored by Mollett's own search, merging,
//! showing, checking, and Edax's `book.dat` in and out. The format and the
//! lookup are the protocol layer's (`protocol::book`).

use super::wthor::WthorStarts;
use crate::engine::search::{Engine, Limits, Settings};
use crate::files;
use crate::protocol::book::edax::{self, EdaxBook};
use crate::protocol::book::format::map_square;
use crate::protocol::book::{self, Book, BookMove, BookPosition, Key, EXACT};
use crate::rules::color::{Color, Variant};
use crate::rules::moveline::parse_moves;
use crate::rules::position::Position;
use crate::rules::square::Square;
use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// What `book build` makes and how.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    /// WTHOR files or folders (a folder's held-out year is skipped).
    pub wthor: Vec<PathBuf>,
    /// Positions of the games' first `plies` plies.
    pub plies: usize,
    /// Depth of the search scoring each played move.
    pub depth: u32,
    pub threads: usize,
}

/// What a build did: printed by `book build`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuildReport {
    pub games: usize,
    pub years: (u16, u16),
    pub positions: usize,
    pub moves: usize,
}

impl fmt::Display for BuildReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} positions, {} moves from {} games ({}-{})",
            self.positions, self.moves, self.games, self.years.0, self.years.1
        )
    }
}

/// A position of the games, in its canonical frame, with how often each
/// (canonical) move was played there.
struct Seen {
    pos: Position,
    games: u32,
    moves: BTreeMap<u8, u32>,
}

/// A modern book of the WTHOR games' first `plies` plies: every position
/// reached, each move played there scored by a search of depth `depth` of
/// the position after it (negated to the mover's view).
pub fn build_from_wthor(cfg: &BuildConfig) -> Result<(Book, BuildReport), String> {
    if !(1..=60).contains(&cfg.plies) || !(1..=60).contains(&cfg.depth) {
        return Err("book build: --plies and --depth must be 1 to 60".into());
    }
    let starts = WthorStarts::load(&cfg.wthor, (0, 60))?;
    let mut seen: HashMap<Key, Seen> = HashMap::new();
    for game in &starts.games {
        let mut pos = Position::start(Variant::Modern, Color::Black);
        for &sq in game.iter().take(cfg.plies) {
            if pos.must_pass() {
                pos = pos.pass();
            }
            let (key, s) = book::key_of(&pos);
            let entry = seen.entry(key).or_insert_with(|| Seen {
                pos: Position {
                    player: key.player,
                    opponent: key.opponent,
                    ..pos
                },
                games: 0,
                moves: BTreeMap::new(),
            });
            entry.games += 1;
            *entry
                .moves
                .entry(map_square(sq.index() as u8, s))
                .or_insert(0) += 1;
            pos = pos.play_unchecked(sq);
        }
    }
    let settings = Settings {
        threads: cfg.threads.max(1),
        ..Settings::default()
    };
    let mut engine = Engine::try_new(settings)?;
    let limits = Limits {
        depth: Some(cfg.depth),
        multi_pv: 1,
        ..Limits::default()
    };
    let stop = AtomicBool::new(false);
    let mut keys: Vec<&Key> = seen.keys().collect();
    keys.sort();
    let mut positions = Vec::with_capacity(keys.len());
    for (i, key) in keys.into_iter().enumerate() {
        let s = &seen[key];
        let moves = s
            .moves
            .iter()
            .map(|(&sq, &games)| {
                let (value, depth) = score_move(&mut engine, &s.pos, sq, &limits, &stop);
                BookMove {
                    square: sq,
                    value: (value * 100.0).round().clamp(-6400.0, 6400.0) as i16,
                    depth,
                    games,
                    leaf: false,
                }
            })
            .collect();
        positions.push(BookPosition {
            key: *key,
            games: s.games,
            moves,
        });
        if (i + 1) % 1000 == 0 {
            log::info!("book build: {} of {} positions scored", i + 1, seen.len());
        }
    }
    let book = Book::from_positions(Variant::Modern, positions);
    let report = BuildReport {
        games: starts.games.len(),
        years: starts.years,
        positions: book.len(),
        moves: book.move_count(),
    };
    Ok((book, report))
}

/// The value of playing `sq` in `pos` for its mover, and the depth (or
/// [`EXACT`]) of the search that gave it.
fn score_move(
    engine: &mut Engine,
    pos: &Position,
    sq: u8,
    limits: &Limits,
    stop: &AtomicBool,
) -> (f64, u8) {
    let next = pos.play_unchecked(Square::from_index(sq as u32));
    if next.is_game_over() {
        return (-next.final_score(false) as f64, EXACT);
    }
    let (searched, sign) = if next.must_pass() {
        (next.pass(), 1.0)
    } else {
        (next, -1.0)
    };
    let r = engine.search(&searched, limits, stop);
    let depth = if r.exact {
        EXACT
    } else {
        r.depth.min(60) as u8
    };
    (sign * r.score, depth)
}

/// Reads a Mollett book (errors name the file).
pub fn read(path: &Path) -> Result<Book, String> {
    book::load(path)
}

/// Writes `book` whole (the old file stays until the new one is complete).
pub fn write(path: &Path, book: &Book) -> Result<(), String> {
    files::replace(path, book.bytes())
}

/// `book check`: one line on the book.
pub fn check(path: &Path) -> Result<String, String> {
    let b = read(path)?;
    Ok(format!(
        "{}: {} book, {} positions, {} moves",
        path.display(),
        b.variant(),
        b.len(),
        b.move_count()
    ))
}

/// `book show`: the book moves of the position after `moves` (from the
/// book's variant's start), one `<move> <value> depth <d> games <n>` line
/// each, best first.
pub fn show(book: &Book, moves: &str) -> Result<String, String> {
    let mut pos = Position::start(book.variant(), Color::Black);
    for mv in parse_moves(moves)? {
        pos = pos
            .play(mv)
            .ok_or_else(|| format!("--moves {moves}: {mv} is illegal"))?;
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
