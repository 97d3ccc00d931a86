//! Opening names for the review: the board page's table
//! (`web/www/shared/openings.js`), read from that file itself when Mollett
//! is built, so that one list names openings on the page and in
//! `mollett analyze` and there is no copy to drift. The page's
//! JavaScript module stays as it is (the browser loads it without a
//! build step); this file reads its `OPENINGS` and `MIRRORS` literals,
//! and a test checks that every line of them was read.

use crate::rules::square::{Move, Square};
use std::sync::OnceLock;

/// The board page's opening table, as the browser loads it.
const SOURCE: &str = include_str!("../../web/www/shared/openings.js");

/// A named line, in the f5 orientation, as squares.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub name: String,
    /// The moves, `f5d6c3` (passes never occur this early).
    pub line: String,
}

/// The four symmetries that keep the start (each its own inverse), as the
/// page's `SYMMETRIES`: (file, rank) from 0.
fn transform(sq: (usize, usize), symmetry: &str) -> (usize, usize) {
    let (f, r) = sq;
    match symmetry {
        "rotate180" => (7 - f, 7 - r),
        "diagonal" => (r, f),
        "antidiagonal" => (7 - r, 7 - f),
        _ => (f, r),
    }
}

const SYMMETRIES: [&str; 4] = ["identity", "rotate180", "diagonal", "antidiagonal"];

/// The named lines, and the positions that are their own mirror image.
type Table = (Vec<Opening>, Vec<(String, String)>);

/// Every `["line", "Name"]` pair of the `OPENINGS` literal, and every
/// `{ prefix: "...", symmetry: "..." }` of `MIRRORS`.
fn parse(source: &str) -> Table {
    let block = |start: &str| -> &str {
        let from = source.find(start).map_or(source.len(), |i| i + start.len());
        let rest = &source[from..];
        &rest[..rest.find("];").unwrap_or(rest.len())]
    };
    // The strings of a line, in order (the table holds no escapes).
    let strings = |line: &str| -> Vec<String> {
        line.split('"')
            .enumerate()
            .filter(|(i, _)| i % 2 == 1)
            .map(|(_, s)| s.to_string())
            .collect()
    };
    let openings = block("export const OPENINGS = [")
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with('['))
        .filter_map(|l| match strings(l).as_slice() {
            [line, name] => Some(Opening {
                name: name.clone(),
                line: line.clone(),
            }),
            _ => None,
        })
        .collect();
    let mirrors = block("export const MIRRORS = [")
        .split('{')
        .skip(1)
        .filter_map(|entry| match strings(entry).as_slice() {
            [prefix, symmetry, ..] => Some((prefix.clone(), symmetry.clone())),
            _ => None,
        })
        .collect();
    (openings, mirrors)
}

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| parse(SOURCE))
}

/// The named openings, as the page has them.
pub fn openings() -> &'static [Opening] {
    &table().0
}

fn squares(moves: &[Move]) -> Vec<(usize, usize)> {
    moves
        .iter()
        .take_while(|m| matches!(m, Move::Place(_)))
        .filter_map(|m| match m {
            Move::Place(sq) => Some((sq.col() as usize, sq.row() as usize)),
            _ => None,
        })
        .collect()
}

fn text(sqs: &[(usize, usize)]) -> String {
    sqs.iter()
        .map(|&(f, r)| Square::from_coords(f as u8, r as u8).to_string())
        .collect()
}

/// The named opening a modern game from the standard start is in: the
/// longest line of the table its moves begin with, in whichever of the
/// four orientations its first move puts it (the page's `openingOf`).
pub fn opening_of(moves: &[Move]) -> Option<&'static Opening> {
    let game = squares(moves);
    let first = *game.first()?;
    let symmetry = SYMMETRIES
        .into_iter()
        .find(|s| transform((5, 4), s) == first)?;
    let base: Vec<_> = game.iter().map(|&sq| transform(sq, symmetry)).collect();
    let mut seen = vec![text(&base)];
    for (prefix, mirror) in &table().1 {
        let n = prefix.len() / 2;
        if base.len() >= n && text(&base[..n]) == *prefix {
            let mut m = base[..n].to_vec();
            m.extend(base[n..].iter().map(|&sq| transform(sq, mirror)));
            seen.push(text(&m));
        }
    }
    openings()
        .iter()
        .filter(|o| seen.iter().any(|t| t.starts_with(&o.line)))
        .max_by_key(|o| o.line.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::moveline::parse_moves;

    #[test]
    fn the_pages_table_is_read_whole() {
        // Every table line of the JavaScript, read.
        let listed = SOURCE
            .lines()
            .filter(|l| l.trim_start().starts_with("[\"f5"))
            .count();
        assert!(listed > 60, "{listed}");
        assert_eq!(openings().len(), listed);
        assert_eq!(
            table().1,
            vec![("f5f6e6".to_string(), "diagonal".to_string())]
        );
        let name = |t: &str| opening_of(&parse_moves(t).unwrap()).map(|o| o.name.as_str());
        assert_eq!(name("f5d6c3d3c4e3"), Some("Tiger"));
        // Other first moves: c4 is f5 turned half round, e6 f5 on the a1-h8
        // diagonal.
        assert_eq!(name("c4e3"), Some("Perpendicular"));
        assert_eq!(name("c4c3"), Some("Diagonal"));
        assert_eq!(name("e6f6f5"), Some("Diagonal"));
        // After f5 f6 e6 the board is its own mirror: d6 c3 is the Buffalo's f4 c3.
        assert_eq!(name("f5f6e6d6c3"), Some("Buffalo"));
        assert_eq!(name("a1"), None);
    }
}
