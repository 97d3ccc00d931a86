//! One game of the corpus: its line (index, moves, result) and its replay
//! through the rules.

use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};

/// One game of the corpus.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CorpusGame {
    /// Game index within its run (with the header's seed it fixes the game).
    pub index: u64,
    /// Placements in order, passes left out; `true` marks a random choice.
    pub moves: Vec<(Square, bool)>,
    /// Final disc difference, black minus white.
    pub result: i32,
}

impl CorpusGame {
    /// The record's line (without newline).
    pub fn to_line(&self) -> String {
        let mut s = format!("{} ", self.index);
        for &(sq, random) in &self.moves {
            let t = sq.to_string();
            if random {
                s.push_str(&t.to_ascii_uppercase());
            } else {
                s.push_str(&t);
            }
        }
        s.push_str(&format!(" {:+}", self.result));
        s
    }

    /// Parses a game line and replays it under `variant`'s rules, checking
    /// legality, that the game ended, and the result.
    pub fn parse(line: &str, variant: Variant) -> Result<CorpusGame, String> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 3 {
            return Err(format!("expected 3 fields, found {}", f.len()));
        }
        let index: u64 = f[0].parse().map_err(|_| format!("bad index '{}'", f[0]))?;
        let text = f[1].as_bytes();
        if !text.len().is_multiple_of(2) || text.len() > 2 * 64 || !f[1].is_ascii() {
            return Err("bad move list".into());
        }
        let mut moves = Vec::with_capacity(text.len() / 2);
        for pair in f[1].as_bytes().chunks(2) {
            let t = std::str::from_utf8(pair).map_err(|_| "bad move list".to_string())?;
            let sq: Square = t.parse().map_err(|_| format!("bad move '{t}'"))?;
            moves.push((sq, pair[0].is_ascii_uppercase()));
        }
        let result: i32 = f[2].parse().map_err(|_| format!("bad result '{}'", f[2]))?;
        let rec = CorpusGame {
            index,
            moves,
            result,
        };
        let end = rec.replay(variant, |_, _| {})?;
        if !end.is_game_over() {
            return Err("the game does not end".into());
        }
        let black = end.discs_of(Color::Black).count_ones() as i32;
        let white = end.discs_of(Color::White).count_ones() as i32;
        if black - white != rec.result {
            return Err(format!(
                "result {:+} but the final board is {black}-{white}",
                rec.result
            ));
        }
        Ok(rec)
    }

    /// How many of the game's first positions have a result that a random
    /// move after the opening decided in part: those up to its last random
    /// move that follows a searched one (0 when there is none). The opening's
    /// random or tournament moves come before any searched move and spoil
    /// nothing.
    pub fn spoiled_plies(&self) -> usize {
        let Some(first_searched) = self.moves.iter().position(|&(_, random)| !random) else {
            return 0;
        };
        self.moves
            .iter()
            .rposition(|&(_, random)| random)
            .filter(|&i| i > first_searched)
            .map_or(0, |i| i + 1)
    }

    /// Plays the moves from the variant's start, passing where a side cannot
    /// move; calls `visit` with every position that has a move, before the
    /// move, and the move's random flag. Returns the last position.
    pub fn replay(
        &self,
        variant: Variant,
        mut visit: impl FnMut(&Position, bool),
    ) -> Result<Position, String> {
        let mut pos = Position::start(variant, Color::Black);
        for (i, &(sq, random)) in self.moves.iter().enumerate() {
            if pos.must_pass() {
                pos = pos.pass();
            }
            visit(&pos, random);
            pos = pos
                .play(Move::Place(sq))
                .ok_or_else(|| format!("move {} ({sq}) is illegal", i + 1))?;
        }
        if pos.must_pass() {
            pos = pos.pass();
        }
        Ok(pos)
    }
}

/// For tests: a whole game (index 3), `pick` choosing each move from the legal ones.
#[cfg(test)]
pub(crate) fn game_by(variant: Variant, pick: fn(u64) -> u32) -> CorpusGame {
    let mut pos = Position::start(variant, Color::Black);
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        if pos.must_pass() {
            pos = pos.pass();
        }
        let sq = Square::from_index(pick(pos.moves()));
        moves.push((sq, moves.len() % 7 == 0));
        pos = pos.play(Move::Place(sq)).unwrap();
    }
    let b = pos.discs_of(Color::Black).count_ones() as i32;
    let w = pos.discs_of(Color::White).count_ones() as i32;
    CorpusGame {
        index: 3,
        moves,
        result: b - w,
    }
}
