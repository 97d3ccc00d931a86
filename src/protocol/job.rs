//! Work that runs off the protocol thread (searches, perft, bench), so
//! `stop`, `ping` and `quit` stay responsive.

use crate::engine::review::{review_move, MoveReview, ReviewDepth};
use crate::engine::search::{Engine, Limits, Progress, SearchResult};
use crate::rules::position::Position;
use crate::rules::square::Move;
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
    /// One move reviewed ([`review_move`]), under the review's settings;
    /// the engine's own come back after it.
    Review {
        pos: Position,
        mv: Move,
        depth: ReviewDepth,
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
    Review(Option<MoveReview>),
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
            Job::Review { pos, mv, depth } => {
                let own = engine.settings.clone();
                engine.configure(depth.settings(pos.variant, own.clone()));
                let review = review_move(engine, &pos, mv, depth, stop);
                engine.configure(own);
                JobOutput::Review((!stop.load(Ordering::Relaxed)).then_some(review))
            }
            Job::Perft { pos, depth } => {
                JobOutput::Perft(crate::rules::perft::perft_stoppable(&pos, depth, stop))
            }
            Job::Bench => {
                let (nodes, nps) = crate::engine::bench::run_with(&engine.settings.eval);
                JobOutput::Bench(nodes, nps)
            }
        }
    }
}
