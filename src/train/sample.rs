//! A labelled position and its line in a position file, and the game
//! outcomes that label a run of a game's positions.
//!
//! A position file has one position a line (`#` starts a comment):
//!
//! ```text
//! <64 squares X/O/-> <side X|O> <modern|classic> <black supply> <white supply> <score> <source>
//! ```
//!
//! `score` is the final disc difference from the side to move's view
//! (discs only, empties to nobody); `source` is `e` for an exact solve or
//! `dN` for an N-ply search.

use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;

/// A labelled position.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub pos: Position,
    /// Final disc difference, side to move's view.
    pub score: f32,
    /// The score is an exact solve (else a search at `depth`).
    pub exact: bool,
    pub depth: u32,
}

impl Sample {
    /// `pos` labelled with a game's result, black minus white (turned to
    /// the side to move's view); `exact` when that result is perfect play's.
    pub fn of_game(pos: Position, black_minus_white: i32, exact: bool) -> Sample {
        let score = match pos.side {
            Color::Black => black_minus_white,
            Color::White => -black_minus_white,
        };
        Sample {
            pos,
            score: score as f32,
            exact,
            depth: if exact { pos.empty_count() } else { 0 },
        }
    }

    /// The line written to position files.
    pub fn to_line(&self) -> String {
        let source = if self.exact {
            "e".to_string()
        } else {
            format!("d{}", self.depth)
        };
        format!(
            "{} {} {} {} {:+.2} {}",
            self.pos.to_obf(),
            self.pos.variant,
            self.pos.supply[0],
            self.pos.supply[1],
            self.score,
            source
        )
    }

    /// Parses a line of a position file (`None` for blanks and comments).
    pub fn parse(line: &str) -> Result<Option<Sample>, String> {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Ok(None);
        }
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 7 {
            return Err(format!("expected 7 fields, found {}", f.len()));
        }
        let variant = Variant::parse(f[2]).ok_or_else(|| format!("bad variant '{}'", f[2]))?;
        let sb: u8 = f[3].parse().map_err(|_| "bad supply".to_string())?;
        let sw: u8 = f[4].parse().map_err(|_| "bad supply".to_string())?;
        let supply = (variant == Variant::Classic).then_some([sb, sw]);
        let pos = Position::from_obf(f[0], f[1], variant, supply).map_err(|e| e.to_string())?;
        let score: f32 = f[5].parse().map_err(|_| format!("bad score '{}'", f[5]))?;
        if !(-64.0..=64.0).contains(&score) {
            return Err(format!("score {score} out of range"));
        }
        let (exact, depth) = match f[6] {
            "e" => (true, pos.empty_count()),
            d => (
                false,
                d.strip_prefix('d')
                    .and_then(|n| n.parse().ok())
                    .ok_or_else(|| format!("bad source '{d}' (e or dN)"))?,
            ),
        };
        Ok(Some(Sample {
            pos,
            score,
            exact,
            depth,
        }))
    }
}

/// Each sample's game outcome: the exact score of the first exactly solved
/// position of its game, from the sample's side to move's view (`None` when
/// the game has none). Games are recognised as `selfplay` writes them: runs
/// of lines whose empties strictly decrease.
pub fn game_outcomes(samples: &[Sample]) -> Vec<Option<f32>> {
    let mut out = vec![None; samples.len()];
    let mut start = 0;
    while start < samples.len() {
        let mut end = start + 1;
        while end < samples.len()
            && samples[end].pos.empty_count() < samples[end - 1].pos.empty_count()
        {
            end += 1;
        }
        if let Some(e) = samples[start..end].iter().find(|s| s.exact) {
            for (o, s) in out[start..end].iter_mut().zip(&samples[start..end]) {
                *o = Some(if s.pos.side == e.pos.side {
                    e.score
                } else {
                    -e.score
                });
            }
        }
        start = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sample_lines_round_trip() {
        for variant in [Variant::Modern, Variant::Classic] {
            let pos = crate::rules::position::playout(variant, 30, 5);
            let s = Sample {
                pos,
                score: -6.5,
                exact: false,
                depth: 8,
            };
            let back = Sample::parse(&s.to_line()).unwrap().unwrap();
            assert_eq!(back, s);
        }
        let start = Position::start(Variant::Modern, Color::Black);
        let e = Sample {
            pos: start,
            score: 0.0,
            exact: true,
            depth: 60,
        };
        assert_eq!(Sample::parse(&e.to_line()).unwrap().unwrap(), e);
        assert!(Sample::parse("# comment").unwrap().is_none());
        assert!(Sample::parse("XO X modern 0 0 1 e").is_err());
    }
}
