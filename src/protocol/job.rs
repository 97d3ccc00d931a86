//! Work that runs off the protocol thread (searches, perft, bench), so
//! `stop`, `ping` and `quit` stay responsive.

use crate::engine::search::{Engine, Limits, Progress, SearchResult};
use crate::rules::position::Position;
use std::sync::atomic::{AtomicBool, Ordering};

pub enum Job {
    Search {
        pos: Position,
        limits: Limits,
    },
    /// One search per position, in the order given; a stop skips the rest.
    Analyze {
        positions: Vec<Position>,
        limits: Limits,
    },
    Perft {
        pos: Position,
        depth: u32,
    },
    Bench,
}

pub enum JobOutput {
    Search(SearchResult),
    /// One result per position searched (fewer when stopped).
    Analysis(Vec<SearchResult>),
    /// `None` when stopped.
    Perft(Option<u64>),
    Bench(u64, u64),
}

impl Job {
    /// Runs the job; a search tells `progress` of each completed iteration.
    pub fn run(
        self,
        engine: &mut Engine,
        stop: &AtomicBool,
        progress: &(dyn Fn(&Progress) + Sync),
    ) -> JobOutput {
        match self {
            Job::Search { pos, limits } => {
                log::debug!("search {} {:?}", pos.to_obf(), limits);
                JobOutput::Search(engine.search_with_progress(&pos, &limits, stop, Some(progress)))
            }
            Job::Analyze { positions, limits } => {
                let mut results = Vec::with_capacity(positions.len());
                for pos in positions {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    results.push(engine.search(&pos, &limits, stop));
                }
                JobOutput::Analysis(results)
            }
            Job::Perft { pos, depth } => JobOutput::Perft(perft(&pos, depth, stop)),
            Job::Bench => {
                let (nodes, nps) = crate::engine::bench::run_with(&engine.settings.eval);
                JobOutput::Bench(nodes, nps)
            }
        }
    }
}

/// `crate::rules::perft`, but `stop` ends it (`None`) between subtrees of depth 6.
fn perft(pos: &Position, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if depth <= 6 {
        return Some(crate::rules::perft::perft(pos, depth));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Some(1);
    }
    let mut leaves = 0;
    for mv in moves {
        leaves += perft(&pos.play(mv)?, depth - 1, stop)?;
    }
    Some(leaves)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::{Color, Variant};

    #[test]
    fn stoppable_perft_agrees() {
        let never = AtomicBool::new(false);
        for variant in [Variant::Modern, Variant::Classic] {
            let pos = Position::start(variant, Color::Black);
            for depth in [0, 1, 7, 8] {
                assert_eq!(
                    perft(&pos, depth, &never),
                    Some(crate::rules::perft::perft(&pos, depth))
                );
            }
        }
        let stopped = AtomicBool::new(true);
        assert_eq!(
            perft(&Position::start(Variant::Modern, Color::Black), 9, &stopped),
            None
        );
    }
}
