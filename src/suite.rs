//! Endgame test suites in OBF (the FFO files): reading them and solving
//! them exactly, for `mollett solve` and the tests.

use crate::board::Position;
use crate::color::Variant;
use crate::search::{Engine, Limits, Scoring, Settings};
use crate::square::Move;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

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
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    parse(&text, first_id(path))
}

/// The outcome of one exact solve.
#[derive(Clone, Debug)]
pub struct Solved {
    pub best: Move,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// Score equal to the file's best and the move among the tied best
    /// (true when the file gives no scores).
    pub correct: bool,
}

/// Solves `problem` exactly with the empties-to-the-winner rule, on a cleared table.
pub fn solve(engine: &mut Engine, problem: &Problem) -> Solved {
    engine.clear();
    let limits = Limits {
        exact: true,
        multi_pv: 1,
        ..Limits::default()
    };
    let r = engine.search(&problem.pos, &limits, &AtomicBool::new(false));
    let score = r.score.round() as i32;
    let correct = r.exact
        && match problem.best_score() {
            Some(b) => b == score && problem.is_best(r.best),
            None => true,
        };
    Solved {
        best: r.best,
        score,
        nodes: r.nodes,
        time: r.time,
        correct,
    }
}

/// An engine set up for suites: empties to the winner, `threads`, `hash_mb`.
pub fn engine(threads: usize, hash_mb: usize) -> Engine {
    Engine::new(Settings {
        scoring: Scoring::EmptiesToWinner,
        threads,
        hash_mb,
        // Orders the solver's moves at many empties: the learned evaluation
        // halves the time of FFO #40-#47 against the handcrafted one (BENCHMARKS.md).
        eval: crate::eval::EvalKind::Learned,
        ..Settings::default()
    })
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
