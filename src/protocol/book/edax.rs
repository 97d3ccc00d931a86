//! Edax's `book.dat`, read and written from its published layout (Edax 4.x,
//! `src/book.c`): a header, then each position's board, game counts, score
//! bounds, link count, level, links (score, move) and leaf (its best move
//! outside the book). Little-endian throughout; see `docs/book.md`.

use super::format::{Book, BookMove, BookPosition, Key, EXACT, PASS};
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};

/// `"EDAX"` and `"BOOK"` read as little-endian words.
const EDAX: &[u8; 4] = b"XADE";
const BOOK: &[u8; 4] = b"KOOB";
/// The format version Edax 4 checks; the release byte is not checked.
const VERSION: u8 = 4;
const RELEASE: u8 = 6;
/// Header: magics (8), version and release (2), the date (8: year as a
/// 16-bit word, month, day, hour, minute, second, padding), five 32-bit
/// options (level, empties, midgame error, endcut error, verbosity) and the
/// position count.
const HEADER_LEN: usize = 42;
/// A position without its links: two boards (16), four counts (16), three
/// scores (6), link count and level (2).
const POSITION_LEN: usize = 40;
/// Edax's "no move" in a leaf.
const NO_MOVE: u8 = 65;
/// Edax's worst score, the value of a missing leaf.
const NO_SCORE: i8 = -127;

/// A move and its score in discs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Link {
    pub score: i8,
    pub square: u8,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxPosition {
    pub player: u64,
    pub opponent: u64,
    /// Wins, draws, losses and unfinished lines below the position.
    pub counts: [u32; 4],
    /// Value, lower and upper bound.
    pub score: [i16; 3],
    pub level: u8,
    pub links: Vec<Link>,
    pub leaf: Link,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EdaxBook {
    pub date: [u8; 8],
    /// Level, empties, midgame error, endcut error, verbosity.
    pub options: [i32; 5],
    pub positions: Vec<EdaxPosition>,
}

/// Reads an Edax book from its bytes.
pub fn parse(b: &[u8]) -> Result<EdaxBook, String> {
    if b.len() < HEADER_LEN || &b[..4] != EDAX || &b[4..8] != BOOK {
        return Err("not an Edax opening book (no EDAX BOOK header)".into());
    }
    if b[8] != VERSION {
        return Err(format!(
            "Edax book version {}, only {VERSION} is read",
            b[8]
        ));
    }
    let i32_at = |i: usize| i32::from_le_bytes(b[i..i + 4].try_into().expect("4 bytes"));
    let date: [u8; 8] = b[10..18].try_into().expect("8 bytes");
    let options = [0, 1, 2, 3, 4].map(|k| i32_at(18 + 4 * k));
    let n = i32_at(38);
    if n < 0 {
        return Err(format!("{n} positions"));
    }
    let truncated = |i: usize| format!("truncated in position {} of {n}", i + 1);
    let mut at = HEADER_LEN;
    let mut positions = Vec::with_capacity((n as usize).min(b.len() / POSITION_LEN));
    for i in 0..n as usize {
        let p = b.get(at..at + POSITION_LEN).ok_or_else(|| truncated(i))?;
        let u64_at = |k: usize| u64::from_le_bytes(p[k..k + 8].try_into().expect("8 bytes"));
        let u32_at = |k: usize| u32::from_le_bytes(p[k..k + 4].try_into().expect("4 bytes"));
        let i16_at = |k: usize| i16::from_le_bytes([p[k], p[k + 1]]);
        let n_links = p[38] as usize;
        let links_at = at + POSITION_LEN;
        let l = b
            .get(links_at..links_at + 2 * (n_links + 1))
            .ok_or_else(|| truncated(i))?;
        let link = |k: usize| Link {
            score: l[2 * k] as i8,
            square: l[2 * k + 1],
        };
        let pos = EdaxPosition {
            player: u64_at(0),
            opponent: u64_at(8),
            counts: [u32_at(16), u32_at(20), u32_at(24), u32_at(28)],
            score: [i16_at(32), i16_at(34), i16_at(36)],
            level: p[39],
            links: (0..n_links).map(link).collect(),
            leaf: link(n_links),
        };
        if pos.player & pos.opponent != 0
            || pos.links.iter().any(|l| l.square > PASS)
            || pos.leaf.square > NO_MOVE
        {
            return Err(format!("position {} is damaged", i + 1));
        }
        positions.push(pos);
        at = links_at + 2 * (n_links + 1);
    }
    if at != b.len() {
        return Err(format!("{} bytes after the last position", b.len() - at));
    }
    Ok(EdaxBook {
        date,
        options,
        positions,
    })
}

/// Writes `book` in Edax's layout.
pub fn write(book: &EdaxBook) -> Vec<u8> {
    let mut b = Vec::new();
    b.extend_from_slice(EDAX);
    b.extend_from_slice(BOOK);
    b.extend_from_slice(&[VERSION, RELEASE]);
    b.extend_from_slice(&book.date);
    for o in book.options {
        b.extend_from_slice(&o.to_le_bytes());
    }
    b.extend_from_slice(&(book.positions.len() as i32).to_le_bytes());
    for p in &book.positions {
        b.extend_from_slice(&p.player.to_le_bytes());
        b.extend_from_slice(&p.opponent.to_le_bytes());
        for c in p.counts {
            b.extend_from_slice(&c.to_le_bytes());
        }
        for s in p.score {
            b.extend_from_slice(&s.to_le_bytes());
        }
        b.extend_from_slice(&[p.links.len() as u8, p.level]);
        for l in p.links.iter().chain([&p.leaf]) {
            b.extend_from_slice(&[l.score as u8, l.square]);
        }
    }
    b
}

impl EdaxBook {
    /// Edax's counts of links and of leaves (positions with a leaf move).
    pub fn links_and_leaves(&self) -> (usize, usize) {
        let links = self.positions.iter().map(|p| p.links.len()).sum();
        let leaves = self
            .positions
            .iter()
            .filter(|p| p.leaf.square != NO_MOVE)
            .count();
        (links, leaves)
    }

    /// Mollett's book of the same positions: links and the leaf become
    /// moves (the leaf flagged), scores in hundredths, Edax's level kept as
    /// each move's depth, the game counts summed into the position's games.
    pub fn to_book(&self) -> Book {
        let positions = self.positions.iter().map(|p| {
            let mv = |l: &Link, leaf| BookMove {
                square: l.square,
                value: l.score as i16 * 100,
                depth: p.level,
                games: 0,
                leaf,
            };
            let mut moves: Vec<BookMove> = p.links.iter().map(|l| mv(l, false)).collect();
            if p.leaf.square != NO_MOVE {
                moves.push(mv(&p.leaf, true));
            }
            BookPosition {
                key: Key {
                    player: p.player,
                    opponent: p.opponent,
                    supply: [0, 0],
                },
                games: p.counts.iter().fold(0u32, |a, &c| a.saturating_add(c)),
                moves,
            }
        });
        Book::from_positions(Variant::Modern, positions.collect())
    }

    /// Edax's book of a modern Mollett book. A move whose position is in the
    /// book (and was not a leaf) is a link; the best of the others is the
    /// leaf, the rest are dropped (Edax keeps one). Values are rounded to
    /// discs; a position's level is its deepest move's depth (exact: 60).
    pub fn from_book(book: &Book) -> Result<EdaxBook, String> {
        if book.variant() != Variant::Modern {
            return Err("Edax books are modern Othello; this book is classic".into());
        }
        let mut positions = Vec::with_capacity(book.len());
        let mut deepest = 0u8;
        let mut fewest_empties = 60;
        for p in book.positions() {
            let pos = Position {
                player: p.key.player,
                opponent: p.key.opponent,
                side: Color::Black,
                variant: Variant::Modern,
                supply: [0, 0],
            };
            fewest_empties = fewest_empties.min(pos.empty_count());
            let linked = |m: &BookMove| {
                let next = if m.square == PASS {
                    pos.must_pass().then(|| pos.pass())
                } else {
                    pos.play(Move::Place(Square::from_index(m.square as u32)))
                };
                next.is_some_and(|n| book.find(&super::format::key_of(&n).0).is_some())
            };
            let score = |m: &BookMove| Link {
                score: ((m.value as f64 / 100.0).round() as i32).clamp(-64, 64) as i8,
                square: m.square,
            };
            let (links, others): (Vec<&BookMove>, Vec<&BookMove>) =
                p.moves.iter().partition(|m| !m.leaf && linked(m));
            let leaf = others.iter().max_by_key(|m| m.value).map_or(
                Link {
                    score: NO_SCORE,
                    square: NO_MOVE,
                },
                |m| score(m),
            );
            let links: Vec<Link> = links.iter().map(|m| score(m)).collect();
            let value = links
                .iter()
                .chain([&leaf])
                .map(|l| l.score)
                .max()
                .unwrap_or(NO_SCORE);
            let level = p
                .moves
                .iter()
                .map(|m| {
                    if m.depth == EXACT {
                        60
                    } else {
                        m.depth.min(60)
                    }
                })
                .max()
                .unwrap_or(0);
            deepest = deepest.max(level);
            positions.push(EdaxPosition {
                player: p.key.player,
                opponent: p.key.opponent,
                counts: [0, 0, 0, p.games],
                score: [value as i16; 3],
                level,
                links,
                leaf,
            });
        }
        Ok(EdaxBook {
            date: [0; 8],
            // Edax's own defaults for the errors (2 discs midgame, 1 endcut).
            options: [deepest as i32, fewest_empties as i32, 2, 1, 0],
            positions,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn damaged_edax_books_are_refused() {
        assert!(parse(b"XADEKOOB").is_err());
        assert!(parse(&[0; 64]).unwrap_err().contains("not an Edax"));
        let empty = write(&EdaxBook {
            date: [0; 8],
            options: [1, 2, 3, 4, 5],
            positions: Vec::new(),
        });
        assert_eq!(parse(&empty).unwrap().options, [1, 2, 3, 4, 5]);
        let mut longer = empty.clone();
        longer[38] = 1;
        assert!(parse(&longer).unwrap_err().contains("truncated"));
    }
}
