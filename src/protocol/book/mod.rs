//! The opening book: its file format (`format.rs`, `docs/book.md`), Edax's
//! (`edax.rs`), and the lookup the session makes before a search. Building
//! and learning books lives with the training code (`train/book.rs`).

pub mod edax;
pub mod format;

use crate::rng::Rng;
use crate::rules::bitboard::symmetry;
use crate::rules::color::Variant;
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use format::{map_square, INVERSE, PASS};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

pub use format::{key_of, Book, BookMove, BookPosition, Key, EXACT};

/// Reads and checks a Mollett book file; every error names the file.
pub fn load(path: &Path) -> Result<Book, String> {
    crate::files::regular_input(path)?;
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Book::from_bytes(bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// A book entry found under symmetry `s`, in the frame of the position
/// that was looked up (moves mapped back from the canonical one).
fn own_frame(key: Key, s: usize, found: BookPosition) -> BookPosition {
    BookPosition {
        key,
        games: found.games,
        moves: found
            .moves
            .into_iter()
            .map(|m| BookMove {
                square: map_square(m.square, INVERSE[s]),
                ..m
            })
            .collect(),
    }
}

/// A book move as the position sees it: the move, and what the book says of it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hit {
    pub mv: Move,
    /// Discs, for the side to move.
    pub value: f64,
    pub depth: u8,
    pub games: u32,
}

impl Hit {
    pub fn exact(&self) -> bool {
        self.depth == EXACT
    }
}

fn to_move(square: u8) -> Move {
    if square == PASS {
        Move::Pass
    } else {
        Move::Place(Square::from_index(square as u32))
    }
}

/// Moves in board order (`a1` first, a pass last): equal values list in it.
fn square_order(a: Move, b: Move) -> std::cmp::Ordering {
    let index = |m: Move| m.square().map_or(64, |sq| sq.index());
    index(a).cmp(&index(b))
}

impl Book {
    /// The legal book moves of `pos`, best first; empty when the book does
    /// not hold it or is of the other variant. One binary search.
    pub fn lookup(&self, pos: &Position) -> Vec<Hit> {
        if pos.variant != self.variant() {
            return Vec::new();
        }
        let (key, _) = key_of(pos);
        let Some(found) = self.find(&key) else {
            return Vec::new();
        };
        // A symmetric position (the start) takes the moves of every
        // symmetry that maps it to its canonical image.
        let mut hits = Vec::new();
        for s in (0..8).filter(|&s| {
            (symmetry(pos.player, s), symmetry(pos.opponent, s)) == (key.player, key.opponent)
        }) {
            hits.extend(
                own_frame(key, s, found.clone())
                    .moves
                    .iter()
                    .map(|m| Hit {
                        mv: to_move(m.square),
                        value: m.value as f64 / 100.0,
                        depth: m.depth,
                        games: m.games,
                    })
                    .filter(|h| pos.play(h.mv).is_some()),
            );
        }
        hits.sort_by(|a, b| b.value.total_cmp(&a.value).then(square_order(a.mv, b.mv)));
        // One line a move: its best value.
        let mut seen = Vec::new();
        hits.retain(|h| {
            let new = !seen.contains(&h.mv);
            seen.push(h.mv);
            new
        });
        hits
    }
}

/// The move to play from `hits` (best first): the first (so equal values
/// go by board order), or with `randomness` discs any within that much of
/// the best, drawn by `rng`.
pub fn choose(hits: &[Hit], randomness: f64, rng: &mut Rng) -> Option<Hit> {
    let best = hits.first()?;
    if randomness <= 0.0 {
        return Some(*best);
    }
    let near = hits
        .iter()
        .take_while(|h| h.value >= best.value - randomness)
        .count();
    if near <= 1 {
        return Some(*best);
    }
    Some(hits[rng.below(near as u64) as usize])
}

/// The books built into the binary (`docs/book.md`, "The shipped books"),
/// one a variant; an empty file is no book.
#[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
const SHIPPED: [(Variant, &[u8]); 2] = [
    (Variant::Modern, include_bytes!("modern-53faafc95f30.book")),
    (
        Variant::Classic,
        include_bytes!("classic-dc92c3fb5115.book"),
    ),
];

/// The browser build's books: fetched on their first use (`engine::data`).
#[cfg(all(feature = "data-on-demand", target_arch = "wasm32"))]
const SHIPPED: [(Variant, fn() -> &'static [u8]); 2] = [
    (Variant::Modern, || {
        crate::engine::data::bytes(crate::engine::data::Data::ModernBook)
    }),
    (Variant::Classic, || {
        crate::engine::data::bytes(crate::engine::data::Data::ClassicBook)
    }),
];

/// The bytes of `SHIPPED[i]`.
fn shipped_bytes(i: usize) -> &'static [u8] {
    #[cfg(all(feature = "data-on-demand", target_arch = "wasm32"))]
    return SHIPPED[i].1();
    #[cfg(not(all(feature = "data-on-demand", target_arch = "wasm32")))]
    SHIPPED[i].1
}

/// The shipped book of `variant`, checked on its first use (not at
/// start-up) and then searched in place in the binary's own bytes.
pub fn shipped(variant: Variant) -> Option<&'static Book> {
    static BOOKS: [OnceLock<Option<Book>>; 2] = [OnceLock::new(), OnceLock::new()];
    let i = SHIPPED.iter().position(|(v, _)| *v == variant)?;
    BOOKS[i]
        .get_or_init(|| {
            let bytes = shipped_bytes(i);
            if bytes.is_empty() {
                return None;
            }
            match Book::from_bytes(bytes) {
                Ok(book) if book.variant() == variant => Some(book),
                Ok(_) => {
                    log::error!(
                        "the shipped {variant} book is of the other variant; playing without it"
                    );
                    None
                }
                Err(e) => {
                    log::error!("the shipped {variant} book: {e}; playing without it");
                    None
                }
            }
        })
        .as_ref()
}

/// The `book_file` option: the shipped book (the default), no book, or a
/// book read from a file when the option was set. Equal when the choices
/// (for files, the paths) are.
#[derive(Clone, Debug, Default)]
pub enum BookFile {
    #[default]
    Shipped,
    None,
    File(PathBuf, Arc<Book>),
}

impl BookFile {
    /// The book to ask in a game of `variant` (a file's book of the other
    /// variant is returned too; its lookups find nothing).
    pub fn book(&self, variant: Variant) -> Option<&Book> {
        match self {
            BookFile::Shipped => shipped(variant),
            BookFile::None => None,
            BookFile::File(_, book) => Some(book),
        }
    }
}

impl PartialEq for BookFile {
    fn eq(&self, other: &BookFile) -> bool {
        match (self, other) {
            (BookFile::Shipped, BookFile::Shipped) | (BookFile::None, BookFile::None) => true,
            (BookFile::File(a, _), BookFile::File(b, _)) => a == b,
            _ => false,
        }
    }
}

impl fmt::Display for BookFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BookFile::Shipped => f.write_str("shipped"),
            BookFile::None => f.write_str("none"),
            BookFile::File(p, _) => write!(f, "{}", p.display()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::{Color, Variant};

    #[test]
    fn a_move_stored_in_one_frame_is_found_in_all() {
        let start = Position::start(Variant::Modern, Color::Black);
        let f5: Move = "f5".parse().unwrap();
        let after = start.play(f5).unwrap();
        // The book holds d6 after f5 (the perpendicular opening).
        let d6 = "d6".parse::<Square>().unwrap().index() as u8;
        let p = BookPosition {
            key: Key {
                player: after.player,
                opponent: after.opponent,
                supply: [0, 0],
            },
            games: 3,
            moves: vec![BookMove {
                square: d6,
                value: 25,
                depth: 10,
                games: 3,
                leaf: true,
            }],
        };
        let book = Book::from_positions(Variant::Modern, vec![p]);
        // After c4 (f5's mirror image) the same reply is e3, its image.
        let c4 = start.play("c4".parse().unwrap()).unwrap();
        let hits = book.lookup(&c4);
        assert_eq!(hits.len(), 1);
        assert_eq!(hits[0].mv.to_string(), "e3");
        assert_eq!(hits[0].value, 0.25);
        assert_eq!(book.lookup(&after)[0].mv.to_string(), "d6");
        assert!(book.lookup(&start).is_empty());
        let classic = Position::start(Variant::Classic, Color::Black);
        assert!(book.lookup(&classic).is_empty());
    }

    #[test]
    fn randomness_picks_among_near_moves() {
        let hit = |sq: &str, value| Hit {
            mv: sq.parse().unwrap(),
            value,
            depth: 4,
            games: 0,
        };
        let hits = [hit("d3", 1.0), hit("c4", 0.5), hit("f5", -3.0)];
        let mut rng = Rng::new(1);
        assert_eq!(choose(&hits, 0.0, &mut rng).unwrap().mv, hits[0].mv);
        let picked: Vec<_> = (0..50)
            .map(|_| choose(&hits, 1.0, &mut rng).unwrap().mv)
            .collect();
        assert!(picked.contains(&hits[1].mv) && !picked.contains(&hits[2].mv));
        assert!(choose(&[], 1.0, &mut rng).is_none());
    }
}
