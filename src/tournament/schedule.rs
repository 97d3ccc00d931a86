//! The deterministic game list: who plays whom, in pairs with colours
//! swapped, with which opening, and the shard of it one process plays.

use super::openings::{classic_placements, Opening};
use crate::rng::Rng;
use crate::rules::color::Variant;

/// Who plays whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Two engines, `games` games in pairs with colours swapped.
    Match { games: usize },
    /// Every engine against every other, `rounds` pairs per pairing.
    RoundRobin { rounds: usize },
    /// The first engine against each other, `rounds` pairs per pairing.
    Gauntlet { rounds: usize },
}

/// One game of the list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScheduledGame {
    pub index: usize,
    pub pair: usize,
    pub black: usize,
    pub white: usize,
    /// Index into the run's openings.
    pub opening: Option<usize>,
}

/// Number of game pairs in the full list.
pub(super) fn pair_count(format: Format, engines: usize) -> usize {
    match format {
        Format::Match { games } => games.div_ceil(2),
        Format::RoundRobin { rounds } => rounds * engines * engines.saturating_sub(1) / 2,
        Format::Gauntlet { rounds } => rounds * engines.saturating_sub(1),
    }
}

/// The full deterministic game list: pair `p` is games `2p` and `2p + 1`,
/// the same opening with colours swapped.
pub fn schedule(format: Format, engines: usize, openings: usize) -> Vec<ScheduledGame> {
    let pairings: Vec<(usize, usize)> = match format {
        Format::Match { .. } => vec![(0, 1)],
        Format::RoundRobin { .. } => (0..engines)
            .flat_map(|i| (i + 1..engines).map(move |j| (i, j)))
            .collect(),
        Format::Gauntlet { .. } => (1..engines).map(|j| (0, j)).collect(),
    };
    let games = match format {
        Format::Match { games } => games,
        _ => 2 * pair_count(format, engines),
    };
    let mut jobs = Vec::new();
    for p in 0..pair_count(format, engines) {
        let (a, b) = pairings[p % pairings.len()];
        let opening = (openings > 0).then(|| p % openings);
        for (k, (black, white)) in [(a, b), (b, a)].into_iter().enumerate() {
            let index = 2 * p + k;
            if index < games {
                jobs.push(ScheduledGame {
                    index,
                    pair: p,
                    black,
                    white,
                    opening,
                });
            }
        }
    }
    jobs
}

/// The run's openings in play order: `openings` shuffled by `seed`; with
/// none, the start position (modern) or a random arrangement of the four
/// centre discs for each of `pairs` pairs (classic).
pub(super) fn run_openings(
    openings: &[Opening],
    variant: Variant,
    seed: Option<u64>,
    pairs: usize,
) -> Vec<Opening> {
    let mut openings = openings.to_vec();
    if let Some(seed) = seed {
        Rng::new(seed).shuffle(&mut openings);
    }
    if openings.is_empty() && variant == Variant::Classic {
        // Each pair gets its own random arrangement of the four centre discs.
        openings = classic_placements(pairs.max(1), seed.unwrap_or(0));
    }
    openings
}

/// The games of shard `(i, n)` (1-based): those whose pair is `i - 1` modulo `n`.
pub(super) fn shard_games(
    format: Format,
    engines: usize,
    openings: usize,
    (si, sn): (usize, usize),
) -> Vec<ScheduledGame> {
    schedule(format, engines, openings)
        .into_iter()
        .filter(|j| j.pair % sn == si - 1)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schedules_keep_pairs_together() {
        let m = schedule(Format::Match { games: 5 }, 2, 2);
        assert_eq!(m.len(), 5);
        assert_eq!(
            (m[0].black, m[0].white, m[0].pair, m[0].opening),
            (0, 1, 0, Some(0))
        );
        assert_eq!(
            (m[1].black, m[1].white, m[1].pair, m[1].opening),
            (1, 0, 0, Some(0))
        );
        assert_eq!((m[2].pair, m[2].opening), (1, Some(1)));
        assert_eq!((m[4].pair, m[4].opening), (2, Some(0)));
        let rr = schedule(Format::RoundRobin { rounds: 2 }, 3, 0);
        assert_eq!(rr.len(), 12);
        let g = schedule(Format::Gauntlet { rounds: 1 }, 4, 0);
        assert_eq!(g.len(), 6);
        assert!(g.iter().all(|j| j.black == 0 || j.white == 0));
        for (i, j) in rr.iter().enumerate() {
            assert_eq!(j.index, i);
            assert_eq!(j.pair, i / 2);
        }
    }
}
