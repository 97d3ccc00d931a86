//! WTHOR game files (`.wtb`), the French Othello federation's database of
//! tournament games, read and replayed through the (modern) rules.
//!
//! A file is a 16-byte header (byte 14: the number of empties from which the
//! theoretical score was solved; bytes 10-11: the year, u16 LE) and 68 bytes a
//! game: tournament, black and white player numbers (u16 LE each), black's
//! real disc count, black's theoretical disc count (perfect play from the
//! header's empties, empties to the winner), then 60 move bytes `10*row +
//! column` (row 1 at the top, column 1 = a), 0 after the last move. Passes
//! are not written: the replay passes where the side to move cannot move.

use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};
use std::path::Path;

pub const HEADER_LEN: usize = 16;
pub const GAME_LEN: usize = 68;

/// One game of a WTHOR file, checked legal when it was read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorGame {
    pub tournament: u16,
    pub black: u16,
    pub white: u16,
    /// Black's discs at the end of the game as played.
    pub black_discs: u8,
    /// Black's discs with perfect play from the file's `depth` empties.
    pub theoretical: u8,
    moves: Vec<Square>,
}

impl WthorGame {
    /// Placements in order, passes left out.
    pub fn moves(&self) -> &[Square] {
        &self.moves
    }

    /// The result as played: black minus white, empties to the winner.
    pub fn result(&self) -> i32 {
        2 * self.black_discs as i32 - 64
    }

    /// The perfect-play result from the exactly solved position: black minus
    /// white, empties to the winner.
    pub fn theoretical_result(&self) -> i32 {
        2 * self.theoretical as i32 - 64
    }

    /// Plays the moves from the start, passing where a side cannot move;
    /// calls `visit` with each position before its move. Returns the last
    /// position (after a pass if one is due).
    pub fn replay(&self, mut visit: impl FnMut(&Position, Square)) -> Position {
        let mut pos = Position::start(Variant::Modern, Color::Black);
        for &sq in &self.moves {
            if pos.must_pass() {
                pos = pos.pass();
            }
            visit(&pos, sq);
            pos = pos.play_unchecked(sq);
        }
        if pos.must_pass() {
            pos = pos.pass();
        }
        pos
    }
}

/// A WTHOR file: its year, the empties of its theoretical scores, its games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorFile {
    pub year: u16,
    pub depth: u8,
    pub games: Vec<WthorGame>,
}

/// Parses one game record (`GAME_LEN` bytes), replaying it.
fn parse_game(b: &[u8]) -> Result<WthorGame, String> {
    let u16_at = |i: usize| u16::from_le_bytes([b[i], b[i + 1]]);
    let (black_discs, theoretical) = (b[6], b[7]);
    if black_discs > 64 || theoretical > 64 {
        return Err(format!(
            "disc counts {black_discs} and {theoretical} (at most 64)"
        ));
    }
    let mut pos = Position::start(Variant::Modern, Color::Black);
    let mut moves = Vec::new();
    for (i, &byte) in b[8..].iter().enumerate() {
        if byte == 0 {
            if let Some(j) = b[8 + i..].iter().position(|&x| x != 0) {
                return Err(format!(
                    "move {} ({}) follows the end",
                    i + j + 1,
                    b[8 + i + j]
                ));
            }
            break;
        }
        let (row, col) = (byte / 10, byte % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return Err(format!("move {}: byte {byte} is not a square", i + 1));
        }
        let sq = Square::from_coords(col - 1, row - 1);
        if pos.must_pass() {
            pos = pos.pass();
        }
        pos = pos
            .play(Move::Place(sq))
            .ok_or_else(|| format!("move {} ({sq}) is illegal", i + 1))?;
        moves.push(sq);
    }
    Ok(WthorGame {
        tournament: u16_at(0),
        black: u16_at(2),
        white: u16_at(4),
        black_discs,
        theoretical,
        moves,
    })
}

/// Parses a whole file; errors name the game (1-based).
pub fn parse(bytes: &[u8]) -> Result<WthorFile, String> {
    if bytes.len() < HEADER_LEN || !(bytes.len() - HEADER_LEN).is_multiple_of(GAME_LEN) {
        return Err(format!(
            "{} bytes is not a WTHOR game file (16 + 68 a game)",
            bytes.len()
        ));
    }
    let n = (bytes.len() - HEADER_LEN) / GAME_LEN;
    let count = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
    if count != n {
        return Err(format!("header says {count} games, the file holds {n}"));
    }
    if !matches!(bytes[12], 0 | 8) || bytes[13] != 0 {
        return Err(format!(
            "board size {} and game type {}: not 8x8 games",
            bytes[12], bytes[13]
        ));
    }
    let depth = bytes[14];
    if depth > 60 {
        return Err(format!("header: {depth} empties for the theoretical score"));
    }
    let games = bytes[HEADER_LEN..]
        .chunks(GAME_LEN)
        .enumerate()
        .map(|(i, g)| parse_game(g).map_err(|e| format!("game {}: {e}", i + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(WthorFile {
        year: u16::from_le_bytes([bytes[10], bytes[11]]),
        depth,
        games,
    })
}

/// Reads a `.wtb` file; errors name the file (and the game).
pub fn read(path: &Path) -> Result<WthorFile, String> {
    let bytes = crate::rules::text::read_bytes(path)?;
    parse(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file of `games` records (each tournament, players, discs, moves).
    fn file(year: u16, games: &[(u8, u8, &[&str])]) -> Vec<u8> {
        let mut b = vec![20, 18, 7, 27];
        b.extend((games.len() as u32).to_le_bytes());
        b.extend([0, 0]);
        b.extend(year.to_le_bytes());
        b.extend([8, 0, 24, 0]);
        for (i, &(real, theory, moves)) in games.iter().enumerate() {
            b.extend((i as u16).to_le_bytes());
            b.extend([1, 0, 2, 0, real, theory]);
            let mut m: Vec<u8> = moves
                .iter()
                .map(|t| {
                    let sq: Square = t.parse().unwrap();
                    10 * (sq.row() + 1) + sq.col() + 1
                })
                .collect();
            m.resize(60, 0);
            b.extend(m);
        }
        b
    }

    /// The shortest game: black wipes white out in 9 moves.
    const WIPEOUT: [&str; 9] = ["f5", "d6", "c5", "f6", "e7", "f4", "g5", "e6", "e3"];

    #[test]
    fn a_good_game_replays_to_its_board() {
        let f = parse(&file(2018, &[(64, 64, &WIPEOUT), (32, 30, &["f5", "d6"])])).unwrap();
        assert_eq!((f.year, f.depth, f.games.len()), (2018, 24, 2));
        let g = &f.games[0];
        assert_eq!((g.black, g.white, g.result()), (1, 2, 64));
        assert_eq!(g.moves().len(), 9);
        let mut seen = 0;
        let end = g.replay(|pos, _| seen += pos.empty_count());
        assert!(end.is_game_over());
        assert_eq!(end.discs_of(Color::Black).count_ones(), 13);
        assert_eq!(seen, (52..=60).sum::<u32>());
        // An unfinished game is kept as it is.
        assert_eq!(f.games[1].moves().len(), 2);
        assert_eq!(f.games[1].theoretical_result(), -4);
    }

    #[test]
    fn bad_games_and_files_are_refused_with_the_game_number() {
        let illegal = file(2018, &[(32, 32, &["f5"]), (32, 32, &["f5", "a1"])]);
        assert_eq!(
            parse(&illegal).unwrap_err(),
            "game 2: move 2 (a1) is illegal"
        );
        let mut off_board = file(2018, &[(32, 32, &["f5"])]);
        off_board[HEADER_LEN + 9] = 59;
        assert!(parse(&off_board)
            .unwrap_err()
            .contains("game 1: move 2: byte 59"));
        let mut gap = file(2018, &[(32, 32, &["f5"])]);
        gap[HEADER_LEN + 10] = 64;
        assert!(parse(&gap).unwrap_err().contains("follows the end"));
        let mut discs = file(2018, &[(32, 32, &["f5"])]);
        discs[HEADER_LEN + 6] = 65;
        assert!(parse(&discs)
            .unwrap_err()
            .starts_with("game 1: disc counts"));
        let good = file(2018, &[(32, 32, &["f5"])]);
        assert!(parse(&good[..good.len() - 1])
            .unwrap_err()
            .contains("not a WTHOR game file"));
        let mut count = good.clone();
        count[4] = 2;
        assert!(parse(&count).unwrap_err().contains("header says 2 games"));
    }

    #[test]
    fn read_errors_name_the_file() {
        let tmp = tempfile::Builder::new()
            .prefix("mollett-wthor-")
            .tempdir()
            .unwrap();
        let path = tmp.path().join("games.wtb");
        std::fs::write(&path, [0u8; 17]).unwrap();
        let e = read(&path).unwrap_err();
        assert!(e.starts_with(&path.display().to_string()) && e.contains("17 bytes"));
    }
}
