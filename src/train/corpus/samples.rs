//! The training samples a corpus gives.

use super::file::Corpus;
use super::game::CorpusGame;
use crate::train::sample::Sample;

/// Which of a corpus game's positions become training samples.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Positions {
    /// Every position with a move.
    All,
    /// Without the game's first [`CorpusGame::spoiled_plies`] positions,
    /// whose label carries a later random move's loss.
    Clean,
}

/// The training samples of a corpus: every position with a move (classic's
/// free placements left out; with [`Positions::Clean`], the spoiled ones
/// too), labelled with the game's final disc difference from its side to
/// move; exact from the header's `exact` empties down.
pub fn samples(corpus: &Corpus, positions: Positions) -> Vec<Sample> {
    let mut out = Vec::new();
    // By index, so that the samples do not depend on the order in which
    // the threads of a run happened to finish their games.
    let mut games: Vec<&CorpusGame> = corpus.games.iter().collect();
    games.sort_by_key(|g| g.index);
    for g in games {
        let spoiled = match positions {
            Positions::All => 0,
            Positions::Clean => g.spoiled_plies(),
        };
        let mut ply = 0;
        let _ = g.replay(corpus.header.variant, |pos, _| {
            ply += 1;
            if pos.in_classic_opening() || ply <= spoiled {
                return;
            }
            let exact = pos.empty_count() <= corpus.header.exact;
            out.push(Sample::of_game(*pos, g.result, exact));
        });
    }
    out
}
