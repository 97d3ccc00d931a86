//! The report page's data: the figures after each game, scores by opening and colour, discs, times, values.

use super::matchup::Matchup;
use super::results::GameRecord;
use super::stats::Sprt;
use super::types::Reason;
use crate::rules::color::Color;
use crate::rules::ggf::GgfGame;
use std::collections::BTreeMap;

/// The most points a curve over the games gets: each is a [`Matchup`] of
/// the games so far, so a long run is sampled rather than recounted per game.
const MAX_STEPS: usize = 400;

/// The first engine's Elo with its interval after `games` games.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloPoint {
    pub games: usize,
    pub elo: f64,
    pub low: f64,
    pub high: f64,
    /// The SPRT's LLR then, with `--sprt`.
    pub llr: Option<f64>,
}

/// Points and games of one side in one group of games.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    pub points: f64,
    pub games: u32,
}

impl Tally {
    fn add(&mut self, points: f64) {
        self.points += points;
        self.games += 1;
    }

    /// Points per game, `None` for no games.
    pub fn score(&self) -> Option<f64> {
        (self.games > 0).then(|| self.points / self.games as f64)
    }
}

/// A group's tallies when the (first / black) side played black and white.
#[derive(Clone, Debug, PartialEq)]
pub struct ColourScore {
    pub label: String,
    pub black: Tally,
    pub white: Tally,
}

/// One engine's points: (ply or game index, value).
#[derive(Clone, Debug, PartialEq)]
pub struct Curve {
    pub label: String,
    /// The engine's index in the report, which picks its colour.
    pub engine: usize,
    pub points: Vec<(f64, f64)>,
}

/// Everything the page plots, from the records (deduplicated, by index)
/// and the GGF records of the games (per-move times and values).
#[derive(Clone, Debug, Default)]
pub struct Series {
    /// Whose view the scores, discs and values take: the match's first
    /// engine, or black (`None`) for three or more engines.
    pub view: Option<String>,
    pub elo: Vec<EloPoint>,
    pub by_opening: Vec<ColourScore>,
    pub by_colour: Vec<ColourScore>,
    /// Disc differences of the games played out.
    pub margins: Vec<i32>,
    /// Seconds per move against the ply, per engine (GGF records).
    pub move_times: Vec<Curve>,
    /// Seconds per game against the game's index, per engine.
    pub game_times: Vec<Curve>,
    /// Each game's values against the ply, one curve per game and engine
    /// that gave them, in the view's terms.
    pub evals: Vec<Curve>,
    /// Games with a GGF record (per-move times known).
    pub with_details: usize,
}

/// The games after which a curve over the games gets a point: every game
/// up to [`MAX_STEPS`], else evenly spaced, the last always.
fn steps(n: usize) -> Vec<usize> {
    let every = n.div_ceil(MAX_STEPS).max(1);
    let mut out: Vec<usize> = (1..=n).filter(|k| k % every == 0).collect();
    if out.last() != Some(&n) && n > 0 {
        out.push(n);
    }
    out
}

impl Series {
    /// `records` deduplicated and sorted as the report has them, `engines`
    /// in the report's order; `details[i]` is record i's GGF game.
    pub fn build(
        records: &[GameRecord],
        engines: &[String],
        details: &[Option<&GgfGame>],
        sprt: Option<Sprt>,
    ) -> Series {
        let engine = |name: &str| engines.iter().position(|e| e == name).unwrap_or(0);
        let view = (engines.len() == 2).then(|| engines[0].clone());
        // Points of the view's side (first engine, or black) and whether it was black.
        let side = |r: &GameRecord| -> Option<(f64, bool)> {
            match &view {
                Some(first) => r.points_of(first).map(|p| (p, r.black == *first)),
                None => Some((r.outcome.black_points(), true)),
            }
        };
        let mut s = Series {
            view: view.clone(),
            ..Series::default()
        };
        if let [first, second] = engines {
            for k in steps(records.len()) {
                let m = Matchup::from_records(first, second, &records[..k]);
                let (elo, low, high) = m.wdl.elo();
                s.elo.push(EloPoint {
                    games: k,
                    elo,
                    low,
                    high,
                    llr: sprt.map(|t| m.llr(&t)),
                });
            }
        }
        let mut openings: BTreeMap<Option<usize>, ColourScore> = BTreeMap::new();
        for r in records {
            let Some((p, black)) = side(r) else { continue };
            let o = openings.entry(r.opening).or_insert_with(|| ColourScore {
                label: r.opening.map_or("start".into(), |o| format!("#{o}")),
                black: Tally::default(),
                white: Tally::default(),
            });
            if black {
                o.black.add(p);
            } else {
                o.white.add(p);
            }
        }
        s.by_opening = openings.into_values().collect();
        s.by_colour = engines
            .iter()
            .map(|e| {
                let mut c = ColourScore {
                    label: e.clone(),
                    black: Tally::default(),
                    white: Tally::default(),
                };
                for r in records {
                    match r.points_of(e) {
                        Some(p) if r.black == *e => c.black.add(p),
                        Some(p) => c.white.add(p),
                        None => {}
                    }
                }
                c
            })
            .collect();
        s.margins = records
            .iter()
            .filter(|r| r.reason == Reason::Normal)
            .map(|r| match &view {
                Some(first) => r.margin_of(first),
                None => r.discs[0] as i32 - r.discs[1] as i32,
            })
            .collect();
        let mut move_times: Vec<Vec<(f64, f64)>> = vec![Vec::new(); engines.len()];
        let mut game_times: Vec<Vec<(f64, f64)>> = vec![Vec::new(); engines.len()];
        for (r, d) in records.iter().zip(details) {
            let players = [engine(&r.black), engine(&r.white)];
            for (c, &e) in players.iter().enumerate() {
                game_times[e].push((r.index as f64, r.time[c]));
            }
            let Some(g) = d else { continue };
            s.with_details += 1;
            let mut values: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
            for (i, m) in g.moves.iter().enumerate().skip(r.book) {
                let c = m.color.index();
                let ply = (i + 1) as f64;
                if let Some(t) = m.time {
                    move_times[players[c]].push((ply, t));
                }
                if let Some(v) = m.eval {
                    // The mover's view, turned to the view's side.
                    let mover_is_view = match &view {
                        Some(first) => engines[players[c]] == *first,
                        None => m.color == Color::Black,
                    };
                    values[c].push((ply, if mover_is_view { v } else { -v }));
                }
            }
            for (c, v) in values.into_iter().enumerate() {
                if !v.is_empty() {
                    s.evals.push(Curve {
                        label: format!("game {}: {}", r.index, engines[players[c]]),
                        engine: players[c],
                        points: v,
                    });
                }
            }
        }
        let curves = |all: Vec<Vec<(f64, f64)>>| -> Vec<Curve> {
            all.into_iter()
                .enumerate()
                .filter(|(_, p)| !p.is_empty())
                .map(|(e, points)| Curve {
                    label: engines[e].clone(),
                    engine: e,
                    points,
                })
                .collect()
        };
        s.move_times = curves(move_times);
        s.game_times = curves(game_times);
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_end_at_the_last_game() {
        assert_eq!(steps(0), Vec::<usize>::new());
        assert_eq!(steps(3), [1, 2, 3]);
        let long = steps(1001);
        assert!(long.len() <= MAX_STEPS + 1 && long.last() == Some(&1001));
    }
}
