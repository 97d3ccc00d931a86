//! Move lists as text: `f5d6c3`, `F5 D6 C3` or `f5-d6`, passes as `pa`.

use crate::rules::position::Position;
use crate::rules::square::Move;

/// Moves run together, passes as `pa`: `f5d6pa`.
pub fn moves_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| match m {
            Move::Place(sq) => sq.to_string(),
            Move::Pass => "pa".to_string(),
        })
        .collect()
}

/// Reads `f5d6c3`, `F5 D6 C3` or `f5-d6`; passes as `pa` or `pass`.
pub fn parse_moves(s: &str) -> Result<Vec<Move>, String> {
    let mut out = Vec::new();
    let bad = |t: &str| format!("bad move '{t}' in '{s}'");
    for word in s.split(|c: char| c.is_whitespace() || c == '-' || c == ',') {
        if word.is_empty() {
            continue;
        }
        if word.eq_ignore_ascii_case("pass") {
            out.push(Move::Pass);
            continue;
        }
        if word.len() % 2 != 0 || !word.is_ascii() {
            return Err(bad(word));
        }
        for i in (0..word.len()).step_by(2) {
            out.push(word[i..i + 2].parse::<Move>().map_err(|_| bad(word))?);
        }
    }
    Ok(out)
}

/// `moves` played from `start` with the passes that were forced put back
/// (WTHOR, Zebra and most sites leave them out: `...h1a8` where a pass
/// comes before a8). A written pass stays where it is forced; a move that
/// is illegal even after a forced pass is refused with its number as
/// written, from 1.
pub fn with_forced_passes(start: Position, moves: &[Move]) -> Result<Vec<Move>, String> {
    let mut pos = start;
    let mut out = Vec::with_capacity(moves.len() + 2);
    for (i, &mv) in moves.iter().enumerate() {
        if mv != Move::Pass && pos.must_pass() && !pos.is_game_over() {
            pos = pos.pass();
            out.push(Move::Pass);
        }
        pos = pos
            .play(mv)
            .ok_or_else(|| format!("move {} ({mv}) is illegal", i + 1))?;
        out.push(mv);
    }
    Ok(out)
}

/// A transcript as people write it ([`parse_moves`]'s forms), read from
/// `start` with the forced passes put back ([`with_forced_passes`]).
pub fn parse_game(s: &str, start: Position) -> Result<Vec<Move>, String> {
    with_forced_passes(start, &parse_moves(s)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::{Color, Variant};

    /// (Passes left out and put back: tests/analyze.rs, on WTHOR games.)
    #[test]
    fn illegal_moves_and_unforced_passes_are_named() {
        let start = Position::start(Variant::Modern, Color::Black);
        // Black plays f5; white must answer, so "f5f5" is illegal at move 2.
        let err = parse_game("f5f5", start).unwrap_err();
        assert_eq!(err, "move 2 (f5) is illegal");
        // Written passes where none is forced are refused.
        let err = parse_game("f5pa", start).unwrap_err();
        assert_eq!(err, "move 2 (pass) is illegal");
    }
}
