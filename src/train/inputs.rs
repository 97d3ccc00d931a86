//! Labelled positions from any file the tools read: position files,
//! corpus games, WTHOR tournament games and FFO problems; and a seeded draw
//! from them.

use super::corpus::{corpus_samples, GameLimits};
use super::sample::Sample;
use super::wthor;
use crate::rng::Rng;
use crate::rules::position::Position;
use std::path::Path;

/// Up to `n` samples drawn (seeded) from those of `files` whose positions
/// have a move, are past the classic free opening and pass `keep`; the
/// same files, `n` and seed give the same samples in the same order.
pub fn draw_samples(
    files: &[std::path::PathBuf],
    n: usize,
    seed: u64,
    keep: impl Fn(&Position) -> bool,
) -> Result<Vec<Sample>, String> {
    let mut pool = Vec::new();
    for f in files {
        pool.extend(
            read_samples(f)?
                .into_iter()
                .filter(|s| !s.pos.in_classic_opening() && s.pos.moves() != 0 && keep(&s.pos)),
        );
    }
    if pool.is_empty() {
        return Err("no usable positions in the files (check the empties and depth limits)".into());
    }
    // A seeded partial shuffle picks the positions.
    let mut rng = Rng::new(seed);
    let n = n.min(pool.len());
    for i in 0..n {
        let j = i + (rng.next_u64() % (pool.len() - i) as u64) as usize;
        pool.swap(i, j);
    }
    pool.truncate(n);
    Ok(pool)
}

/// Reads every sample of a position file. An `.obf` file (the FFO
/// problems) gives one exact sample per problem that has scores: its best
/// score, which counts empty squares for the winner. A `.wtb` file (WTHOR
/// tournament games) gives its games' positions ([`wthor::samples`]).
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    if path.extension().is_some_and(|e| e == "games") {
        return corpus_samples(path, &GameLimits::default(), false);
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        return wthor::read_samples(path);
    }
    if path.extension().is_some_and(|e| e == "obf") {
        let problems = crate::rules::obf::read(path)?;
        return Ok(problems
            .into_iter()
            .filter_map(|p| {
                p.best_score().map(|s| Sample {
                    pos: p.pos,
                    score: s as f32,
                    exact: true,
                    depth: p.pos.empty_count(),
                })
            })
            .collect());
    }
    let text = crate::rules::text::read_text(path)?;
    // A position file grows while self-play writes it: a torn last line is
    // skipped, not an error.
    let (whole, torn) = crate::files::whole_lines(text.as_bytes());
    if !torn.is_empty() {
        eprintln!(
            "mollett: warning: {}",
            crate::files::torn_message(path, torn)
        );
    }
    let text = &text[..whole.len()];
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        if let Some(s) =
            Sample::parse(line).map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?
        {
            out.push(s);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn obf_problems_read_as_exact_samples() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo/fforum-40-59.obf");
        let samples = read_samples(&path).unwrap();
        assert_eq!(samples.len(), 20);
        assert!(samples
            .iter()
            .all(|s| s.exact && s.depth == s.pos.empty_count()));
        // FFO #40: 20 empties, black to move, best a2 for +38.
        assert_eq!(samples[0].pos.empty_count(), 20);
        assert_eq!(samples[0].score, 38.0);
        // #59: 34 empties, +64.
        assert_eq!(samples[19].pos.empty_count(), 34);
        assert_eq!(samples[19].score, 64.0);
    }
}
