//! The final report: W/D/L, score, Elo, LOS, discs, pairs, SPRT for a match;
//! a cross table and maximum-likelihood ratings for a tournament.

use super::record::GameRecord;
use super::types::Reason;
use crate::tournament::stats::{ml_ratings, Pentanomial, Sprt, Verdict, Wdl};
use std::collections::BTreeMap;
use std::fmt;

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
    pub fn from_records(first: &str, second: &str, records: &[GameRecord]) -> Matchup {
        let mut wdl = Wdl::default();
        let mut margin_sum = 0i64;
        let mut played_out = 0;
        let mut by_pair: BTreeMap<usize, Vec<f64>> = BTreeMap::new();
        for r in records {
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
            by_pair.entry(r.pair).or_default().push(p);
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

/// Everything the report prints.
#[derive(Clone, Debug)]
pub struct Report {
    /// Engines in order of first appearance (by game index).
    pub engines: Vec<String>,
    pub games: usize,
    /// Game indices that appeared more than once (kept once).
    pub duplicates: usize,
    /// `points[i][j]`: points engine i took from j; `played[i][j]` games.
    pub points: Vec<Vec<f64>>,
    pub played: Vec<Vec<f64>>,
    pub wdl: Vec<Wdl>,
    /// Maximum-likelihood Elo, mean 0.
    pub ratings: Vec<f64>,
    /// Losses by fault: (engine, reason) -> count.
    pub faults: BTreeMap<(String, Reason), u32>,
    /// Average seconds per game used by each engine.
    pub avg_time: Vec<f64>,
    pub matchup: Option<Matchup>,
    pub sprt: Option<(Sprt, f64, Verdict)>,
    /// Set by the runner: why it stopped before the end of the list.
    pub stopped: Option<String>,
}

/// Sorts by game index and drops repeated indices; returns the number dropped.
pub fn dedup(records: &mut Vec<GameRecord>) -> usize {
    records.sort_by_key(|r| r.index);
    let before = records.len();
    records.dedup_by_key(|r| r.index);
    before - records.len()
}

impl Report {
    pub fn build(records: &[GameRecord], sprt: Option<Sprt>) -> Report {
        let mut records = records.to_vec();
        let duplicates = dedup(&mut records);
        let mut engines: Vec<String> = Vec::new();
        for r in &records {
            for e in [&r.black, &r.white] {
                if !engines.contains(e) {
                    engines.push(e.clone());
                }
            }
        }
        let n = engines.len();
        let idx = |e: &str| engines.iter().position(|x| x == e).expect("known engine");
        let mut points = vec![vec![0.0; n]; n];
        let mut played = vec![vec![0.0; n]; n];
        let mut wdl = vec![Wdl::default(); n];
        let mut time = vec![0.0; n];
        let mut faults = BTreeMap::new();
        for r in &records {
            let (b, w) = (idx(&r.black), idx(&r.white));
            let pb = r.outcome.black_points();
            points[b][w] += pb;
            points[w][b] += 1.0 - pb;
            played[b][w] += 1.0;
            played[w][b] += 1.0;
            for (i, p) in [(b, pb), (w, 1.0 - pb)] {
                match p {
                    x if x > 0.75 => wdl[i].wins += 1,
                    x if x < 0.25 => wdl[i].losses += 1,
                    _ => wdl[i].draws += 1,
                }
            }
            time[b] += r.time[0];
            time[w] += r.time[1];
            if r.reason != Reason::Normal {
                if let Some(l) = r.loser() {
                    *faults.entry((l.to_string(), r.reason)).or_insert(0) += 1;
                }
            }
        }
        let avg_time = (0..n)
            .map(|i| time[i] / (wdl[i].games().max(1) as f64))
            .collect();
        let ratings = if n >= 2 {
            ml_ratings(&points, &played)
        } else {
            vec![0.0; n]
        };
        let matchup = (n == 2).then(|| Matchup::from_records(&engines[0], &engines[1], &records));
        let sprt = match (&matchup, sprt) {
            (Some(m), Some(t)) => {
                let llr = m.llr(&t);
                Some((t, llr, t.verdict(llr)))
            }
            _ => None,
        };
        Report {
            engines,
            games: records.len(),
            duplicates,
            points,
            played,
            wdl,
            ratings,
            faults,
            avg_time,
            matchup,
            sprt,
            stopped: None,
        }
    }
}

fn signed(x: f64) -> String {
    // elo_from_score clamps a 0% or 100% score to about ±3600.
    if x.is_infinite() || x.abs() >= 3000.0 {
        if x > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{x:+.1}")
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Games: {}", self.games)?;
        if self.duplicates > 0 {
            writeln!(f, "Duplicate games ignored: {}", self.duplicates)?;
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "Stopped early: {why}")?;
        }
        if let Some(m) = &self.matchup {
            let w = &m.wdl;
            writeln!(f, "{} vs {}", m.first, m.second)?;
            writeln!(
                f,
                "W-D-L: {}-{}-{} ({} wins, {} draws, {} losses for {})",
                w.wins, w.draws, w.losses, w.wins, w.draws, w.losses, m.first
            )?;
            writeln!(f, "Score: {:.1}%", 100.0 * w.score())?;
            let (e, lo, hi) = w.elo();
            writeln!(
                f,
                "Elo: {} [{}, {}] (95%)",
                signed(e),
                signed(lo),
                signed(hi)
            )?;
            writeln!(f, "LOS: {:.1}%", 100.0 * w.los())?;
            match m.avg_margin {
                Some(a) => writeln!(
                    f,
                    "Disc difference: {a:+.2} per game ({} games played out)",
                    m.played_out
                )?,
                None => writeln!(f, "Disc difference: - (no game played out)")?,
            }
            let p = m.pairs;
            writeln!(
                f,
                "Pairs (0, 1/2, 1, 3/2, 2 points): {} {} {} {} {} ({} pairs)",
                p[0],
                p[1],
                p[2],
                p[3],
                p[4],
                p.iter().sum::<u32>()
            )?;
        } else if self.engines.len() > 2 {
            writeln!(f, "Cross table (points / games, row against column):")?;
            let width = self
                .engines
                .iter()
                .map(|e| e.len())
                .max()
                .unwrap_or(4)
                .max(6);
            write!(f, "{:width$}", "")?;
            for e in &self.engines {
                write!(f, " {e:>width$}")?;
            }
            writeln!(f)?;
            for (i, e) in self.engines.iter().enumerate() {
                write!(f, "{e:width$}")?;
                for j in 0..self.engines.len() {
                    let cell = if i == j {
                        "-".to_string()
                    } else if self.played[i][j] == 0.0 {
                        ".".to_string()
                    } else {
                        format!("{}/{}", self.points[i][j], self.played[i][j])
                    };
                    write!(f, " {cell:>width$}")?;
                }
                writeln!(f)?;
            }
        }
        if self.engines.len() >= 2 {
            writeln!(f, "Ratings (maximum likelihood, mean 0):")?;
            let mut order: Vec<usize> = (0..self.engines.len()).collect();
            order.sort_by(|&a, &b| self.ratings[b].total_cmp(&self.ratings[a]));
            for (rank, &i) in order.iter().enumerate() {
                let w = &self.wdl[i];
                writeln!(
                    f,
                    "{:3}. {:<20} {:>7} {:>5} games {}-{}-{} {:5.1}%  {:.2} s/game",
                    rank + 1,
                    self.engines[i],
                    signed(self.ratings[i]),
                    w.games(),
                    w.wins,
                    w.draws,
                    w.losses,
                    100.0 * w.score(),
                    self.avg_time[i]
                )?;
            }
        }
        if self.faults.is_empty() {
            writeln!(f, "Faults: none")?;
        } else {
            let list: Vec<String> = self
                .faults
                .iter()
                .map(|((e, r), n)| format!("{e} {} {n}", r.name()))
                .collect();
            writeln!(f, "Faults (losses): {}", list.join(", "))?;
        }
        if let Some((t, llr, v)) = &self.sprt {
            let (lo, hi) = t.bounds();
            let verdict = match v {
                Verdict::AcceptH1 => "H1 accepted",
                Verdict::AcceptH0 => "H0 accepted",
                Verdict::Continue => "continue",
            };
            writeln!(
                f,
                "SPRT elo0={} elo1={} alpha={} beta={}: LLR {llr:.2} [{lo:.2}, {hi:.2}] {verdict}",
                t.elo0, t.elo1, t.alpha, t.beta
            )?;
        }
        Ok(())
    }
}

/// The report of result files merged as one long run.
pub fn merge_files(files: &[std::path::PathBuf], sprt: Option<Sprt>) -> Result<Report, String> {
    let mut records = Vec::new();
    for f in files {
        records.extend(super::record::read_results(f)?);
    }
    Ok(Report::build(&records, sprt))
}

/// The words after `--sprt` as a test: none when there are none.
pub fn optional_sprt(words: &[String]) -> Result<Option<Sprt>, String> {
    if words.is_empty() {
        Ok(None)
    } else {
        parse_sprt(words).map(Some)
    }
}

/// Parses `elo0=A elo1=B [alpha=X] [beta=Y]` (the words after `--sprt`).
pub fn parse_sprt(words: &[String]) -> Result<Sprt, String> {
    let mut t = Sprt::new(f64::NAN, f64::NAN);
    for w in words.iter().flat_map(|w| w.split_whitespace()) {
        let (k, v) = w
            .split_once('=')
            .ok_or_else(|| format!("--sprt: expected key=value, got '{w}'"))?;
        let x: f64 = v.parse().map_err(|_| format!("--sprt: bad number '{v}'"))?;
        match k {
            "elo0" => t.elo0 = x,
            "elo1" => t.elo1 = x,
            "alpha" => t.alpha = x,
            "beta" => t.beta = x,
            _ => {
                return Err(format!(
                    "--sprt: unknown key '{k}' (elo0, elo1, alpha, beta)"
                ))
            }
        }
    }
    if t.elo0.is_nan() || t.elo1.is_nan() || t.elo1 <= t.elo0 {
        return Err("--sprt needs elo0=A elo1=B with A < B".into());
    }
    if !(0.0 < t.alpha && t.alpha < 0.5 && 0.0 < t.beta && t.beta < 0.5) {
        return Err("--sprt: alpha and beta must be between 0 and 0.5".into());
    }
    Ok(t)
}
