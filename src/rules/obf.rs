//! OBF, the one-line board notation of the FFO endgame problems: a position
//! as 64 squares and a side, and problem files that add move scores.

use crate::rules::color::{Color, Variant};
use crate::rules::position::{Position, PositionError, CLASSIC_SUPPLY};
use crate::rules::square::Move;
use std::path::Path;

impl Position {
    /// The position's 64-character OBF board (`X` black, `O` white, `-` empty)
    /// followed by a space and the side to move.
    pub fn to_obf(&self) -> String {
        let black = self.discs_of(Color::Black);
        let white = self.discs_of(Color::White);
        let mut s: String = (0..64)
            .map(|i| {
                if black >> i & 1 != 0 {
                    'X'
                } else if white >> i & 1 != 0 {
                    'O'
                } else {
                    '-'
                }
            })
            .collect();
        s.push(' ');
        s.push(if self.side == Color::Black { 'X' } else { 'O' });
        s
    }

    /// Reads an OBF board: 64 characters (`X`/`x`/`*`/`b` black, `O`/`o`/`w`
    /// white, `-`/`.` empty) and a side (`X` or `O`). In classic, `supply`
    /// gives each side's discs in hand (black, then the second colour); when
    /// `None` they are 32 minus a balanced share of the discs on the board.
    pub fn from_obf(
        board: &str,
        side: &str,
        variant: Variant,
        supply: Option<[u8; 2]>,
    ) -> Result<Position, PositionError> {
        let chars: Vec<char> = board.chars().collect();
        if chars.len() != 64 {
            return Err(PositionError("board must have 64 squares"));
        }
        let (mut black, mut white) = (0u64, 0u64);
        for (i, c) in chars.iter().enumerate() {
            match c {
                'X' | 'x' | '*' | 'b' | 'B' => black |= 1 << i,
                'O' | 'o' | 'w' | 'W' => white |= 1 << i,
                '-' | '.' => {}
                _ => return Err(PositionError("board squares must be X, O or -")),
            }
        }
        let side = match side {
            "X" | "x" | "*" | "b" | "B" => Color::Black,
            "O" | "o" | "w" | "W" => Color::White,
            _ => return Err(PositionError("side must be X or O")),
        };
        let supply = match variant {
            Variant::Modern => [0, 0],
            Variant::Classic => {
                let s = match supply {
                    Some(s) => s,
                    None => {
                        // Without passes black has placed ceil(n/2) discs when it
                        // started, and the side to move tells who started.
                        let n = (black | white).count_ones() as u8;
                        let (mover, other) = (n / 2, n - n / 2);
                        let (b, w) = if side == Color::Black {
                            (mover, other)
                        } else {
                            (other, mover)
                        };
                        [CLASSIC_SUPPLY - b.min(32), CLASSIC_SUPPLY - w.min(32)]
                    }
                };
                if s[0] > CLASSIC_SUPPLY || s[1] > CLASSIC_SUPPLY {
                    return Err(PositionError("supplies must be 0 to 32"));
                }
                // Every disc on the board was placed from a supply and none is ever removed.
                if s[0] as u32 + s[1] as u32 + (black | white).count_ones() != 64 {
                    return Err(PositionError(
                        "supplies and discs on the board must add up to 64",
                    ));
                }
                s
            }
        };
        Ok(Position::from_colors(black, white, side, variant, supply))
    }
}

/// One problem: its number, the position (modern rules) and the scores the
/// file gives its moves, best first (several may tie).
#[derive(Clone, Debug)]
pub struct Problem {
    pub id: usize,
    pub pos: Position,
    pub scores: Vec<(Move, i32)>,
}

impl Problem {
    /// The file's best score, if it gives any.
    pub fn best_score(&self) -> Option<i32> {
        self.scores.iter().map(|s| s.1).max()
    }

    /// True when `mv` is one of the moves the file scores best.
    pub fn is_best(&self, mv: Move) -> bool {
        let best = self.best_score();
        self.scores.iter().any(|&(m, s)| m == mv && Some(s) == best)
    }
}

/// The number of the file's first problem: `A` for a name `…-A-B.obf`
/// (`fforum-40-59.obf` starts at #40), else 1.
pub fn first_id(path: &Path) -> usize {
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let parts: Vec<&str> = stem.rsplit('-').take(2).collect();
    match parts.as_slice() {
        [b, a] if b.parse::<usize>().is_ok() => a.parse().unwrap_or(1),
        _ => 1,
    }
}

/// Parses OBF text: one problem a line, `BOARD SIDE; MOVE:SCORE; …`;
/// blank lines and `%`/`#` comments are skipped. Ids count lines with a board from `first`.
pub fn parse(text: &str, first: usize) -> Result<Vec<Problem>, String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
            continue;
        }
        let mut parts = line.split(';');
        let mut head = parts.next().unwrap_or("").split_whitespace();
        let (Some(board), Some(side)) = (head.next(), head.next()) else {
            return Err(format!("line {}: expected a board and a side", n + 1));
        };
        let pos = Position::from_obf(board, side, Variant::Modern, None)
            .map_err(|e| format!("line {}: {e}", n + 1))?;
        let mut scores = Vec::new();
        for part in parts {
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let (m, s) = part
                .split_once(':')
                .ok_or_else(|| format!("line {}: bad move score '{part}'", n + 1))?;
            let mv: Move = m
                .trim()
                .parse()
                .map_err(|_| format!("line {}: bad move '{m}'", n + 1))?;
            let s: i32 = s
                .trim()
                .trim_start_matches('+')
                .parse()
                .map_err(|_| format!("line {}: bad score '{s}'", n + 1))?;
            scores.push((mv, s));
        }
        out.push(Problem {
            id: first + out.len(),
            pos,
            scores,
        });
    }
    Ok(out)
}

/// Reads an OBF file, numbering its problems from `first_id(path)`.
pub fn read(path: &Path) -> Result<Vec<Problem>, String> {
    let text = super::text::read_text(path)?;
    parse(&text, first_id(path)).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_from_the_file_name() {
        assert_eq!(first_id(Path::new("x/fforum-40-59.obf")), 40);
        assert_eq!(first_id(Path::new("fforum-1-19.obf")), 1);
        assert_eq!(first_id(Path::new("endgames.obf")), 1);
    }

    #[test]
    fn lines_parse_with_tied_best_moves() {
        let text = "--------X-X------XXXXOOOOOXOXX--OOOXXXX-OOXXXX--O-OOOX-----OO--- O; G6:+0; B7:+0; E2:-2;\n";
        let p = parse(text, 7).unwrap();
        assert_eq!(p[0].id, 7);
        assert_eq!(p[0].best_score(), Some(0));
        assert!(p[0].is_best("b7".parse().unwrap()));
        assert!(!p[0].is_best("e2".parse().unwrap()));
    }
}
