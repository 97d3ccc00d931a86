//! Move lists as text: `f5d6c3`, `F5 D6 C3` or `f5-d6`, passes as `pa`.

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
