//! Tournament games (WTHOR, `corpus/wthor/`) as training and test positions,
//! and as the starts of self-play games.
//!
//! A game gives every position with a move, labelled with the result as
//! played, except the one position at the file's depth (24 empties), which
//! carries the file's theoretical score and is marked exact: `evaltest
//! --exact-only --min-empties 24 --max-empties 24` measures on those alone.

use super::sample::Sample;
use crate::rules::square::Square;
use crate::rules::wthor::{self, WthorFile};
use std::path::{Path, PathBuf};

/// The year held out as a test set: `train` refuses it, self-play skips it.
pub const HELD_OUT_YEAR: u16 = 2018;

/// How the positions of a tournament game before the file's depth are labelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EarlyLabel {
    /// The game's result as played.
    Played,
    /// The theoretical result: perfect play from the file's depth (24
    /// empties) on, without the players' errors after it.
    Theoretical,
}

/// The samples of a WTHOR file: every position with a move, its label the
/// game's result (black minus white, empties to the winner) from the side
/// to move; the position at the file's depth gets the theoretical result
/// instead and is exact, and the positions before it get what `early` says.
pub fn samples(file: &WthorFile, early: EarlyLabel) -> Vec<Sample> {
    let mut out = Vec::new();
    for g in &file.games {
        g.replay(|pos, _| {
            let empties = pos.empty_count();
            let exact = empties == file.depth as u32;
            let theoretical =
                exact || (early == EarlyLabel::Theoretical && empties > file.depth as u32);
            let black = if theoretical {
                g.theoretical_result()
            } else {
                g.result()
            };
            out.push(Sample::of_game(*pos, black, exact));
        });
    }
    out
}

/// The samples of a `.wtb` file (see [`samples`]).
pub fn read_samples(path: &Path, early: EarlyLabel) -> Result<Vec<Sample>, String> {
    Ok(samples(&wthor::read(path)?, early))
}

/// `path`, or the `.wtb` files in it when it is a directory, in name order.
fn wtb_files(path: &Path) -> Result<Vec<PathBuf>, String> {
    if !path.is_dir() {
        return Ok(vec![path.to_path_buf()]);
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).map_err(|e| format!("{}: {e}", path.display()))? {
        let p = entry
            .map_err(|e| format!("{}: {e}", path.display()))?
            .path();
        if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")) {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(format!("{}: no .wtb files", path.display()));
    }
    Ok(files)
}

/// Self-play starts: the training years' games, each replayed to a ply
/// drawn from `plies`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WthorStarts {
    /// Every game's moves, files in name order, games in file order.
    pub games: Vec<Vec<Square>>,
    /// First and last year read.
    pub years: (u16, u16),
    /// FNV-1a of the games' moves: a corpus header names exactly these games.
    pub hash: u64,
    /// Plies of the game replayed, `lo..=hi` (fewer when the game is shorter).
    pub plies: (usize, usize),
}

impl WthorStarts {
    /// Reads the games of `paths` (files, or directories of `.wtb` files);
    /// a directory's held-out year is left out, a file of it is refused.
    pub fn load(paths: &[PathBuf], plies: (usize, usize)) -> Result<WthorStarts, String> {
        if plies.0 > plies.1 || plies.1 > 60 {
            return Err(format!(
                "--wthor-plies {}-{}: need lo <= hi <= 60",
                plies.0, plies.1
            ));
        }
        let mut games = Vec::new();
        let mut years = (u16::MAX, 0);
        for path in paths {
            for f in wtb_files(path)? {
                let file = wthor::read(&f)?;
                if file.year == HELD_OUT_YEAR {
                    if path.is_dir() {
                        continue;
                    }
                    return Err(held_out(&f));
                }
                years = (years.0.min(file.year), years.1.max(file.year));
                games.extend(file.games.into_iter().map(|g| g.moves().to_vec()));
            }
        }
        if games.is_empty() {
            return Err("--wthor: no games".into());
        }
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        for g in &games {
            for b in g.iter().map(|sq| sq.index() as u8).chain([64]) {
                hash = (hash ^ b as u64).wrapping_mul(0x100_0000_01b3);
            }
        }
        Ok(WthorStarts {
            games,
            years,
            hash,
            plies,
        })
    }

    /// Draws a game and the plies to replay of it.
    pub fn draw(&self, rng: &mut crate::rng::Rng) -> (&[Square], usize) {
        let g = &self.games[rng.below(self.games.len() as u64) as usize];
        let plies = self.plies.0 + rng.below((self.plies.1 - self.plies.0) as u64 + 1) as usize;
        (g, plies.min(g.len()))
    }

    /// What a corpus header records of them.
    pub fn header_fields(&self) -> Vec<(&'static str, String)> {
        vec![
            ("wthor", format!("{}-{}", self.years.0, self.years.1)),
            ("wthor_games", self.games.len().to_string()),
            ("wthor_hash", format!("{:016x}", self.hash)),
            ("wthor_plies", format!("{}-{}", self.plies.0, self.plies.1)),
        ]
    }
}

/// The error for a held-out file given to training.
pub fn held_out(path: &Path) -> String {
    format!(
        "{}: {HELD_OUT_YEAR} is the held-out test year; never train or play from it",
        path.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::Color;

    fn wthor_dir() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wthor")
    }

    #[test]
    fn every_game_of_the_repositorys_wthor_files_is_legal() {
        let mut games = 0;
        for f in wtb_files(&wthor_dir()).unwrap() {
            let file = wthor::read(&f).unwrap();
            assert_eq!(file.depth, 24, "{}", f.display());
            games += file.games.len();
        }
        assert_eq!(games, 124_326);
    }

    #[test]
    fn a_game_gives_one_exact_position_at_24_empties_labelled_from_its_side() {
        let file = wthor::read(&wthor_dir().join("WTH_2018.wtb")).unwrap();
        let s = samples(&file, EarlyLabel::Played);
        let exact: Vec<&Sample> = s.iter().filter(|s| s.exact).collect();
        assert!(exact.iter().all(|s| s.pos.empty_count() == 24));
        assert!(exact.len() > file.games.len() * 9 / 10);
        // The first game of 2018: black ends with 26 discs, 22 with perfect
        // play from 24 empties.
        let g = &file.games[0];
        assert_eq!((g.result(), g.theoretical_result()), (-12, -20));
        let n = g.moves().len();
        let first: Vec<&Sample> = s[..n].iter().collect();
        assert_eq!(first[0].score, -12.0, "black to move at the start");
        let at24 = first.iter().find(|s| s.exact).unwrap();
        let black_view = if at24.pos.side == Color::Black {
            1.0
        } else {
            -1.0
        };
        assert_eq!(at24.score * black_view, -20.0);
    }

    #[test]
    fn theoretical_labels_replace_the_played_result_before_24_empties_only() {
        let file = wthor::read(&wthor_dir().join("WTH_2018.wtb")).unwrap();
        let played = samples(&file, EarlyLabel::Played);
        let theory = samples(&file, EarlyLabel::Theoretical);
        assert_eq!(played.len(), theory.len());
        // The first game of 2018 (see above): -12 as played, -20 from 24 empties.
        let n = file.games[0].moves().len();
        let black = |s: &Sample| {
            if s.pos.side == Color::Black {
                s.score
            } else {
                -s.score
            }
        };
        for (p, t) in played[..n].iter().zip(&theory[..n]) {
            assert_eq!(p.pos, t.pos);
            assert_eq!(p.exact, t.exact);
            let e = p.pos.empty_count();
            if e >= 24 {
                assert_eq!(black(t), -20.0, "{e} empties");
            } else {
                assert_eq!((black(p), black(t)), (-12.0, -12.0), "{e} empties");
            }
        }
    }

    #[test]
    fn self_play_starts_leave_out_the_held_out_year() {
        let dir = wthor_dir();
        let refused = WthorStarts::load(&[dir.join("WTH_2018.wtb")], (8, 40)).unwrap_err();
        assert!(refused.contains("held-out"));
        let starts = WthorStarts::load(
            &[dir.join("WTH_1977.wtb"), dir.join("WTH_1978.wtb")],
            (8, 40),
        )
        .unwrap();
        assert_eq!((starts.games.len(), starts.years), (20, (1977, 1978)));
        let mut rng = crate::rng::Rng::new(5);
        for _ in 0..100 {
            let (g, plies) = starts.draw(&mut rng);
            assert!((8..=40).contains(&plies) || plies == g.len());
        }
    }
}
