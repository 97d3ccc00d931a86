//! Long book runs that survive a kill (`docs/book.md`): each scored
//! position is one line appended to a progress file, the run's source of
//! truth. A rerun reads the file's whole lines back (a torn last line is
//! cut off), scores only what is missing, and the book is written from the
//! file. Shared by `book build` and `book learn`.

use crate::engine::search::{Engine, Limits, Settings};
use crate::files::{self, Writer};
use crate::protocol::book::{key_of, Book, BookMove, BookPosition, Key, EXACT};
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;

/// A position to score: its canonical board, the games through it, and
/// the squares (canonical frame) to score with the games through each.
#[derive(Clone, Debug)]
pub struct Task {
    pub key: Key,
    pub games: u32,
    pub moves: Vec<(u8, u32)>,
}

/// The position of a book key (black to move; supplies side to move first).
pub fn position_of(variant: Variant, key: &Key) -> Position {
    Position {
        player: key.player,
        opponent: key.opponent,
        side: Color::Black,
        variant,
        supply: key.supply,
    }
}

/// Where a move leads in a book: the position after it, passed on when the
/// side to move then has no move (so book positions always have one), and
/// the sign that turns its value into the move's. `None`: the game is over.
pub fn next_position(pos: &Position, mv: Move) -> Option<(Position, i32)> {
    let next = pos.play(mv)?;
    if next.is_game_over() {
        None
    } else if next.must_pass() {
        Some((next.pass(), 1))
    } else {
        Some((next, -1))
    }
}

/// A position's legal squares (canonical frame when `pos` is canonical).
pub fn legal_squares(pos: &Position) -> Vec<u8> {
    pos.legal_moves()
        .into_iter()
        .filter_map(|m| m.square().map(|s| s.index() as u8))
        .collect()
}

/// Every legal move of a book position, to be scored.
pub fn task_of(pos: &Position, games: u32) -> Task {
    let (key, _) = key_of(pos);
    let canonical = Position {
        player: key.player,
        opponent: key.opponent,
        ..*pos
    };
    Task {
        key,
        games,
        moves: legal_squares(&canonical)
            .into_iter()
            .map(|sq| (sq, 0))
            .collect(),
    }
}

/// Scores tasks with a fixed-depth search, the same whatever came before
/// (the table is cleared for each position).
pub struct Scorer {
    engine: Engine,
    limits: Limits,
    variant: Variant,
}

impl Scorer {
    pub fn new(variant: Variant, depth: u32, threads: usize) -> Result<Scorer, String> {
        if !(1..=60).contains(&depth) {
            return Err("--depth must be 1 to 60".into());
        }
        let engine = Engine::try_new(Settings {
            threads: threads.max(1),
            ..Settings::default()
        })?;
        let limits = Limits {
            depth: Some(depth),
            multi_pv: 1,
            ..Limits::default()
        };
        Ok(Scorer {
            engine,
            limits,
            variant,
        })
    }

    /// The task's position with each of its moves scored for the side to move.
    pub fn score(&mut self, task: &Task) -> BookPosition {
        self.engine.clear();
        let pos = position_of(self.variant, &task.key);
        let stop = AtomicBool::new(false);
        let moves = task
            .moves
            .iter()
            .map(|&(sq, games)| {
                let mv = Move::Place(Square::from_index(sq as u32));
                let (value, depth) = match next_position(&pos, mv) {
                    None => {
                        let end = pos.play(mv).expect("a legal move");
                        (-end.final_score(false) as f64, EXACT)
                    }
                    Some((next, sign)) => {
                        let r = self.engine.search(&next, &self.limits, &stop);
                        let depth = if r.exact {
                            EXACT
                        } else {
                            r.depth.min(60) as u8
                        };
                        (sign as f64 * r.score, depth)
                    }
                };
                BookMove {
                    square: sq,
                    value: (value * 100.0).round().clamp(-6400.0, 6400.0) as i16,
                    depth,
                    games,
                    leaf: false,
                }
            })
            .collect();
        BookPosition {
            key: task.key,
            games: task.games,
            moves,
        }
    }
}

/// One line of a progress file: the round it belongs to (0 for a build)
/// and the scored position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    pub round: u32,
    pub position: BookPosition,
}

impl Line {
    /// `round player opponent supply supply games sq:value:depth:games...`
    /// (boards in hex, squares as indices).
    pub fn to_text(&self) -> String {
        let p = &self.position;
        let mut s = format!(
            "{} {:016x} {:016x} {} {} {}",
            self.round, p.key.player, p.key.opponent, p.key.supply[0], p.key.supply[1], p.games
        );
        for m in &p.moves {
            s.push_str(&format!(
                " {}:{}:{}:{}",
                m.square, m.value, m.depth, m.games
            ));
        }
        s
    }

    pub fn parse(text: &str) -> Result<Line, String> {
        let bad = || format!("not a progress line: '{text}'");
        let mut f = text.split_whitespace();
        let mut next = || f.next().ok_or_else(bad);
        let round = next()?.parse().map_err(|_| bad())?;
        let player = u64::from_str_radix(next()?, 16).map_err(|_| bad())?;
        let opponent = u64::from_str_radix(next()?, 16).map_err(|_| bad())?;
        let supply = [
            next()?.parse().map_err(|_| bad())?,
            next()?.parse().map_err(|_| bad())?,
        ];
        let games = next()?.parse().map_err(|_| bad())?;
        let parse_move = |m: &str| -> Option<BookMove> {
            let v: Vec<&str> = m.split(':').collect();
            match v[..] {
                [sq, value, depth, games] => Some(BookMove {
                    square: sq.parse().ok().filter(|&s: &u8| s < 64)?,
                    value: value.parse().ok()?,
                    depth: depth.parse().ok()?,
                    games: games.parse().ok()?,
                    leaf: false,
                }),
                _ => None,
            }
        };
        let moves = f
            .map(|m| parse_move(m).ok_or_else(bad))
            .collect::<Result<Vec<_>, _>>()?;
        if player & opponent != 0 {
            return Err(bad());
        }
        Ok(Line {
            round,
            position: BookPosition {
                key: Key {
                    player,
                    opponent,
                    supply,
                },
                games,
                moves,
            },
        })
    }
}

/// A progress file, locked for this run, with the lines it held.
pub struct Progress {
    writer: Writer,
    pub lines: Vec<Line>,
}

impl Progress {
    /// Opens (or starts) the progress file `path` of a run described by
    /// `header` (one line): a file of another run is refused, a torn last
    /// line is cut off.
    pub fn open(path: &std::path::Path, header: &str) -> Result<Progress, String> {
        let mut writer = Writer::lock(path)?;
        let shown = path.display();
        let bytes = writer.read()?;
        if bytes.is_empty() {
            writer.append(&format!("{header}\n"))?;
            return Ok(Progress {
                writer,
                lines: Vec::new(),
            });
        }
        let whole = files::whole_lines_of(path, &bytes, "; it is scored again");
        writer.truncate(whole.len() as u64)?;
        let text = std::str::from_utf8(whole).map_err(|_| format!("{shown}: not text"))?;
        let mut rows = text.lines();
        let first = rows.next().unwrap_or("");
        if first != header {
            return Err(format!(
                "{shown} was made by another run ('{first}', this one is '{header}'): give another --progress file"
            ));
        }
        let lines = rows
            .enumerate()
            .map(|(i, l)| Line::parse(l).map_err(|e| format!("{shown}:{}: {e}", i + 2)))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Progress { writer, lines })
    }

    /// Appends one scored position (one write, flushed).
    pub fn append(&mut self, line: Line) -> Result<(), String> {
        self.writer.append(&format!("{}\n", line.to_text()))?;
        self.lines.push(line);
        Ok(())
    }
}

/// The book of a progress file's positions (a position scored twice keeps
/// its last line).
pub fn book_of(variant: Variant, lines: &[Line]) -> Book {
    let mut all: BTreeMap<Key, BookPosition> = BTreeMap::new();
    for l in lines {
        all.insert(l.position.key, l.position.clone());
    }
    Book::from_positions(variant, all.into_values().collect())
}

/// A short fingerprint of bytes (FNV-1a), naming a run's input in its header.
pub fn fingerprint(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_back_and_bad_ones_are_refused() {
        let line = Line {
            round: 3,
            position: BookPosition {
                key: Key {
                    player: 0x0000_0008_1000_0000,
                    opponent: 0x0000_0010_0800_0000,
                    supply: [30, 31],
                },
                games: 4,
                moves: vec![BookMove {
                    square: 19,
                    value: -125,
                    depth: EXACT,
                    games: 2,
                    leaf: false,
                }],
            },
        };
        assert_eq!(Line::parse(&line.to_text()).unwrap(), line);
        assert!(Line::parse("1 00 00 0 0").is_err());
        assert!(Line::parse("1 ff ff 0 0 0").is_err(), "overlapping discs");
        assert!(Line::parse("1 01 02 0 0 0 64:0:1:0").is_err(), "square 64");
    }
}
