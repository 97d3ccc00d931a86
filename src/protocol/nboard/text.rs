//! How the NBoard dialect writes evals, depths and lines.

use crate::engine::search::SearchResult;
use crate::protocol::session::hundredths;
use crate::rules::ggf::move_text;
use crate::rules::square::Move;

/// An eval as NBoard reads it: discs with two decimals.
pub fn eval_text(score: f64) -> String {
    format!("{:.2}", hundredths(score))
}

/// `100%` for an exact solve, else the midgame depth reached.
pub fn depth_text(r: &SearchResult) -> String {
    if r.exact {
        "100%".into()
    } else {
        r.depth.to_string()
    }
}

/// The first `depth` moves of `pv` (passes do not count): what a search
/// of that depth found, without the table's longer line from before.
pub fn searched_line(pv: &[Move], depth: u32) -> &[Move] {
    let mut placed = 0;
    let end = pv
        .iter()
        .position(|m| {
            if *m != Move::Pass {
                placed += 1;
            }
            placed > depth
        })
        .unwrap_or(pv.len());
    &pv[..end]
}

/// A principal variation without spaces: `F5-D6-C3`, passes as `PA`.
pub fn pv_text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|&m| move_text(m))
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn texts() {
        assert_eq!(eval_text(-0.001), "0.00");
        assert_eq!(eval_text(-1.0), "-1.00");
        assert_eq!(eval_text(2.346), "2.35");
        assert_eq!(
            pv_text(&["f5".parse().unwrap(), Move::Pass, "c3".parse().unwrap()]),
            "F5-PA-C3"
        );
    }
}
