//! Labelled positions from any file the tools read: position files,
//! corpus games, WTHOR tournament games and FFO problems; and a seeded draw
//! from them.

use super::corpus::{read, samples, CorpusGame, Positions};
use super::sample::Sample;
use super::wthor;
use crate::rng::Rng;
use crate::rules::color::Variant;
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
/// tournament games) gives its games' positions ([`wthor::samples`]),
/// labelled with the results as played.
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    read_samples_labelled(path, wthor::EarlyLabel::Played)
}

/// [`read_samples`], with a tournament game's positions before 24 empties
/// labelled as `early` says.
pub fn read_samples_labelled(path: &Path, early: wthor::EarlyLabel) -> Result<Vec<Sample>, String> {
    if super::corpus::is_corpus(path) {
        return corpus_samples(path, &GameLimits::default(), Positions::All, false);
    }
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
    {
        return wthor::read_samples(path, early);
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
    let whole = crate::files::whole_lines_of(path, text.as_bytes(), "");
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

/// Which games of the corpus files `train` reads: for each variant, only
/// the games with an index below the limit (`None`: all), so that a
/// training run can be repeated exactly on a corpus that has grown since.
#[derive(Clone, Copy, Debug, Default)]
pub struct GameLimits {
    pub modern: Option<u64>,
    pub classic: Option<u64>,
}

impl GameLimits {
    fn below(&self, variant: Variant) -> Option<u64> {
        match variant {
            Variant::Modern => self.modern,
            Variant::Classic => self.classic,
        }
    }
}

/// How many game indices from `start` to below `below` are absent from
/// `games` (a corpus file's games: `corpus::read` keeps each index once),
/// counted up to the returned bound: the smaller of `below` and one past the
/// last game. A file that simply ends before `below` (a finished run's file)
/// is not short of games; only gaps before its last game are. An open file
/// starts at 0, a chunk at the first index its header names.
fn missing_below(games: &[CorpusGame], start: u64, below: u64) -> (u64, u64) {
    let end = games
        .iter()
        .map(|g| g.index + 1)
        .max()
        .unwrap_or(0)
        .min(below);
    let present = games
        .iter()
        .filter(|g| (start..end).contains(&g.index))
        .count() as u64;
    (end, end.saturating_sub(start) - present)
}

/// The training samples of a corpus file, within `limits` (a warning when
/// games below a limit are missing: another copy would train differently),
/// of the games' `positions`; with `progress`, the games read are told on stderr.
pub fn corpus_samples(
    path: &Path,
    limits: &GameLimits,
    positions: Positions,
    progress: bool,
) -> Result<Vec<Sample>, String> {
    let mut c = read(path)?;
    for s in &c.skipped {
        eprintln!("{}: {s} (skipped)", path.display());
    }
    if let Some(below) = limits.below(c.header.variant) {
        let start = super::corpus::chunk_range(&c.header).map_or(0, |(first, _)| first);
        let (end, missing) = missing_below(&c.games, start, below);
        c.games.retain(|g| g.index < below);
        if missing > 0 {
            eprintln!(
                "train: warning: {}: {missing} of the games below index {end} are missing",
                path.display()
            );
        }
    }
    if progress {
        eprintln!("train: {}: {} games", path.display(), c.games.len());
    }
    Ok(samples(&c, positions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::train::corpus::{game_by, Header};

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

    #[test]
    fn game_limits_keep_the_games_below_the_index() {
        let tmp = tempfile::Builder::new()
            .prefix("mollett-limits-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        let path = dir.join("m.games");
        let header = Header::new(Variant::Modern, 20, &[("seed", "1".into())]);
        // The same game under three indices, out of order.
        let line = |i: u64| {
            let mut g = game_by(Variant::Modern, |moves| moves.trailing_zeros());
            g.index = i;
            g.to_line() + "\n"
        };
        let text = format!("{}\n{}{}{}", header.to_line(), line(2), line(0), line(1));
        std::fs::write(&path, text).unwrap();
        let all = corpus_samples(&path, &GameLimits::default(), Positions::All, false).unwrap();
        let two = GameLimits {
            modern: Some(2),
            classic: Some(0),
        };
        let below_two = corpus_samples(&path, &two, Positions::All, false).unwrap();
        assert_eq!(below_two.len() * 3, all.len() * 2);
        // The classic limit does not apply to a modern file.
        let classic_only = GameLimits {
            modern: None,
            classic: Some(0),
        };
        assert_eq!(
            corpus_samples(&path, &classic_only, Positions::All, false)
                .unwrap()
                .len(),
            all.len()
        );
    }

    #[test]
    fn only_gaps_before_a_files_last_game_count_as_missing() {
        let games = |indices: &[u64]| -> Vec<CorpusGame> {
            indices
                .iter()
                .map(|&i| {
                    let mut g = game_by(Variant::Modern, |moves| moves.trailing_zeros());
                    g.index = i;
                    g
                })
                .collect()
        };
        // A complete file of 3 games under a limit of 10 lacks nothing.
        assert_eq!(missing_below(&games(&[0, 1, 2]), 0, 10), (3, 0));
        // Gaps before the last game count; games past the limit do not.
        assert_eq!(missing_below(&games(&[0, 3, 5, 12]), 0, 10), (10, 7));
        assert_eq!(missing_below(&games(&[4, 0, 2]), 0, 10), (5, 2));
        assert_eq!(missing_below(&games(&[]), 0, 10), (0, 0));
        // A chunk lacks nothing before its first index, only gaps after it.
        assert_eq!(missing_below(&games(&[5, 6, 8]), 5, 10), (9, 1));
        assert_eq!(missing_below(&games(&[50, 51]), 50, 10), (10, 0));
    }
}
