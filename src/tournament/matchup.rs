//! The numbers of a two-engine match from the first engine's view (W/D/L,
//! pairs, disc margin) and its SPRT log-likelihood ratio.

use super::results::GameRecord;
use super::stats::{Pentanomial, Sprt, Wdl};
use super::types::Reason;
use std::collections::{BTreeMap, HashMap};

/// Numbers of a two-engine match, from the first engine's view.
#[derive(Clone, Debug, PartialEq)]
pub struct Matchup {
    pub first: String,
    pub second: String,
    pub wdl: Wdl,
    /// Pairs by the first engine's points (0, ½, 1, 1½, 2).
    pub pairs: Pentanomial,
    /// Average disc difference over games played to the end (`None` if none were).
    pub avg_margin: Option<f64>,
    pub played_out: usize,
}

impl Matchup {
    /// The games of `first` against `second` among `records`.
    ///
    /// Games of separate runs merged by `report` can share an index (see
    /// `dedup` in `report.rs`); they are told apart by their order: the k-th
    /// game with an index belongs to the k-th run, and a pair is the two
    /// games of one pair number in one run.
    pub fn from_records(first: &str, second: &str, records: &[GameRecord]) -> Matchup {
        let mut wdl = Wdl::default();
        let mut margin_sum = 0i64;
        let mut played_out = 0;
        let mut by_pair: BTreeMap<(usize, usize), Vec<f64>> = BTreeMap::new();
        let mut seen: HashMap<usize, usize> = HashMap::new();
        for r in records {
            let run = seen.entry(r.index).or_insert(0);
            let key = (*run, r.pair);
            *run += 1;
            let ours =
                (r.black == first && r.white == second) || (r.black == second && r.white == first);
            if !ours {
                continue;
            }
            let p = r.points_of(first).expect("first engine played");
            match p {
                x if x > 0.75 => wdl.wins += 1,
                x if x < 0.25 => wdl.losses += 1,
                _ => wdl.draws += 1,
            }
            if r.reason == Reason::Normal {
                margin_sum += r.margin_of(first) as i64;
                played_out += 1;
            }
            by_pair.entry(key).or_default().push(p);
        }
        let mut pairs = [0u32; 5];
        for pts in by_pair.values().filter(|v| v.len() == 2) {
            pairs[((pts[0] + pts[1]) * 2.0).round() as usize] += 1;
        }
        Matchup {
            first: first.to_string(),
            second: second.to_string(),
            wdl,
            pairs,
            avg_margin: (played_out > 0).then(|| margin_sum as f64 / played_out as f64),
            played_out,
        }
    }

    /// The SPRT's LLR: from pairs when there are complete pairs, else from
    /// games. When an outcome was never seen, every empty cell gets a
    /// pseudo-count of 1/2 (the Krichevsky-Trofimov prior): a one-sided run
    /// has zero sample variance, which `stats` reads as "no information", so
    /// a lopsided match would never stop; fishtest regularises likewise, with
    /// a smaller count that stops after a single pair.
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        // Doubling every count and giving empty cells 1 is the same sample
        // as counts + 1/2 in empty cells, with N doubled; the LLR scales with N.
        fn scaled<const K: usize>(c: [u32; K]) -> [u32; K] {
            c.map(|x| if x == 0 { 1 } else { x.saturating_mul(2) })
        }
        if self.pairs.iter().sum::<u32>() > 0 {
            if self.pairs.contains(&0) {
                sprt.llr_pairs(&scaled(self.pairs)) / 2.0
            } else {
                sprt.llr_pairs(&self.pairs)
            }
        } else {
            let w = self.wdl;
            let c = [w.wins, w.draws, w.losses];
            if c.iter().sum::<u32>() == 0 {
                0.0
            } else if c.contains(&0) {
                let [wins, draws, losses] = scaled(c);
                sprt.llr_wdl(&Wdl {
                    wins,
                    draws,
                    losses,
                }) / 2.0
            } else {
                sprt.llr_wdl(&w)
            }
        }
    }
}
