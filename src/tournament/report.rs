//! The final report: W/D/L, score, Elo, LOS, discs, pairs, SPRT for a match;
//! a cross table and maximum-likelihood ratings for a tournament.

use super::matchup::Matchup;
use super::results::GameRecord;
use super::stats::{ml_ratings, Sprt, Verdict, Wdl};
use super::types::Reason;
use std::collections::{BTreeMap, HashMap};
use std::fmt;

/// Everything the report prints.
#[derive(Clone, Debug)]
pub struct Report {
    /// Engines in order of first appearance (by game index).
    pub engines: Vec<String>,
    pub games: usize,
    /// Records read more than once (the same line twice: kept once).
    pub duplicates: usize,
    /// Games that share their index with a different game: games of
    /// separate runs, each counted.
    pub separate: usize,
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

/// Sorts by game index, keeping the given order within an index, and drops
/// each record equal to an earlier one: the same line read twice (a file
/// given twice, or with a copy of itself that a resumed run extended).
/// Every field counts, the times to the millisecond included. Records that
/// share an index but differ are games of separate runs (two matches, or one
/// match played twice), and all are kept. Returns the number dropped.
pub fn dedup(records: &mut Vec<GameRecord>) -> usize {
    records.sort_by_key(|r| r.index);
    let before = records.len();
    let mut kept: Vec<GameRecord> = Vec::with_capacity(before);
    let mut group = 0;
    for r in records.drain(..) {
        if kept.last().is_none_or(|last| last.index != r.index) {
            group = kept.len();
        }
        if !kept[group..].contains(&r) {
            kept.push(r);
        }
    }
    *records = kept;
    before - records.len()
}

/// In records sorted by index, the games whose index an earlier, different
/// game has: games of a second (third, ...) run.
fn separate_runs(records: &[GameRecord]) -> usize {
    records
        .windows(2)
        .filter(|w| w[0].index == w[1].index)
        .count()
}

impl Report {
    pub fn build(records: &[GameRecord], sprt: Option<Sprt>) -> Report {
        let mut records = records.to_vec();
        let duplicates = dedup(&mut records);
        let separate = separate_runs(&records);
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
            separate,
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

/// An Elo figure as every report and progress line prints it: signed, one
/// decimal; infinite (a 0% or 100% score) as `+inf` or `-inf`; a value that
/// rounds to zero as `0.0`, never `-0.0`.
pub fn elo_text(x: f64) -> String {
    if x.is_nan() {
        "?".into()
    } else if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        match format!("{x:+.1}") {
            z if z == "+0.0" || z == "-0.0" => "0.0".into(),
            s => s,
        }
    }
}

/// An Elo difference with its 95% interval, `(elo, low, high)` as
/// [`Wdl::elo`] gives it: `+58.5 [-123.5, +284.5]`. The one format of this
/// figure, in the report and in the runner's progress lines.
pub fn elo_with_interval((e, lo, hi): (f64, f64, f64)) -> String {
    format!("{} [{}, {}]", elo_text(e), elo_text(lo), elo_text(hi))
}

/// `1 pair`, `2 pairs`.
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// One `label: value` line of the report (a bare value when the label is
/// empty); `id` names it on the report page.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    pub id: &'static str,
    pub label: String,
    pub value: String,
}

impl Figure {
    fn new(id: &'static str, label: impl Into<String>, value: impl Into<String>) -> Figure {
        Figure {
            id,
            label: label.into(),
            value: value.into(),
        }
    }
}

impl fmt::Display for Figure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.label.is_empty() {
            writeln!(f, "{}", self.value)
        } else {
            writeln!(f, "{}: {}", self.label, self.value)
        }
    }
}

impl Report {
    /// The lines before the cross table and ratings: the games, and a
    /// match's numbers. The text report and the page print these, so their
    /// figures cannot differ.
    pub fn head_figures(&self) -> Vec<Figure> {
        let mut out = vec![Figure::new("games", "Games", self.games.to_string())];
        if self.duplicates > 0 {
            out.push(Figure::new(
                "duplicates",
                "Duplicate games ignored",
                self.duplicates.to_string(),
            ));
        }
        if self.separate > 0 {
            out.push(Figure::new(
                "separate",
                "Games of separate runs",
                format!(
                    "{} share an index with a different game (each counted)",
                    self.separate
                ),
            ));
        }
        if let Some(why) = &self.stopped {
            out.push(Figure::new("stopped", "Stopped early", why.clone()));
        }
        if let Some(m) = &self.matchup {
            let w = &m.wdl;
            out.push(Figure::new(
                "engines",
                "",
                format!("{} vs {}", m.first, m.second),
            ));
            out.push(Figure::new(
                "wdl",
                "W-D-L",
                format!(
                    "{}-{}-{} ({}, {}, {} for {})",
                    w.wins,
                    w.draws,
                    w.losses,
                    count(w.wins, "win", "wins"),
                    count(w.draws, "draw", "draws"),
                    count(w.losses, "loss", "losses"),
                    m.first
                ),
            ));
            out.push(Figure::new(
                "score",
                "Score",
                format!("{:.1}%", 100.0 * w.score()),
            ));
            out.push(Figure::new(
                "elo",
                "Elo",
                format!("{} (95%)", elo_with_interval(w.elo())),
            ));
            out.push(Figure::new(
                "los",
                "LOS",
                format!("{:.1}%", 100.0 * w.los()),
            ));
            out.push(Figure::new(
                "discs",
                "Disc difference",
                match m.avg_margin {
                    Some(a) => format!(
                        "{a:+.2} per game ({} played out)",
                        count(m.played_out as u64, "game", "games")
                    ),
                    None => "- (no game played out)".to_string(),
                },
            ));
            let p = m.pairs;
            out.push(Figure::new(
                "pairs",
                "Pairs (0, 1/2, 1, 3/2, 2 points)",
                format!(
                    "{} {} {} {} {} ({})",
                    p[0],
                    p[1],
                    p[2],
                    p[3],
                    p[4],
                    count(p.iter().sum::<u32>(), "pair", "pairs")
                ),
            ));
        }
        out
    }

    /// The lines after the ratings: faults, and the SPRT's verdict.
    pub fn tail_figures(&self) -> Vec<Figure> {
        let mut out = Vec::new();
        if self.faults.is_empty() {
            out.push(Figure::new("faults", "Faults", "none"));
        } else {
            let list: Vec<String> = self
                .faults
                .iter()
                .map(|((e, r), n)| format!("{e} {} {n}", r.name()))
                .collect();
            out.push(Figure::new("faults", "Faults (losses)", list.join(", ")));
        }
        if let Some((t, llr, v)) = &self.sprt {
            let (lo, hi) = t.bounds();
            out.push(Figure::new(
                "sprt",
                format!(
                    "SPRT elo0={} elo1={} alpha={} beta={}",
                    t.elo0, t.elo1, t.alpha, t.beta
                ),
                format!("LLR {llr:.2} [{lo:.2}, {hi:.2}] {}", verdict_text(*v)),
            ));
        }
        out
    }

    /// Engines by rating, best first (the ratings' order in the report).
    pub fn rating_order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.engines.len()).collect();
        order.sort_by(|&a, &b| self.ratings[b].total_cmp(&self.ratings[a]));
        order
    }

    /// A cross table cell, row `i` against column `j`: `-` on the diagonal,
    /// `.` for engines that did not meet, else `points/games`.
    pub fn cross_cell(&self, i: usize, j: usize) -> String {
        if i == j {
            "-".to_string()
        } else if self.played[i][j] == 0.0 {
            ".".to_string()
        } else {
            format!("{}/{}", self.points[i][j], self.played[i][j])
        }
    }
}

/// The SPRT's verdict as the report words it.
pub fn verdict_text(v: Verdict) -> &'static str {
    match v {
        Verdict::AcceptH1 => "H1 accepted",
        Verdict::AcceptH0 => "H0 accepted",
        Verdict::Continue => "continue",
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for figure in self.head_figures() {
            write!(f, "{figure}")?;
        }
        if self.matchup.is_none() && self.engines.len() > 2 {
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
                    write!(f, " {:>width$}", self.cross_cell(i, j))?;
                }
                writeln!(f)?;
            }
        }
        if self.engines.len() >= 2 {
            writeln!(f, "{}:", self.ratings_heading())?;
            for (rank, &i) in self.rating_order().iter().enumerate() {
                let w = &self.wdl[i];
                writeln!(
                    f,
                    "{:3}. {:<20} {:>7} {:>5} {:<5} {}-{}-{} {:5.1}%  {:.2} s/game",
                    rank + 1,
                    self.engines[i],
                    elo_text(self.ratings[i]),
                    w.games(),
                    if w.games() == 1 { "game" } else { "games" },
                    w.wins,
                    w.draws,
                    w.losses,
                    100.0 * w.score(),
                    self.avg_time[i]
                )?;
            }
        }
        for figure in self.tail_figures() {
            write!(f, "{figure}")?;
        }
        Ok(())
    }
}

impl Report {
    /// The ratings' heading, which says that for a match they are not its Elo.
    pub fn ratings_heading(&self) -> &'static str {
        // Not the Elo above: another estimate (Bradley-Terry over all
        // games, with a prior that keeps a 0% or 100% score finite), and
        // for two engines each is half the gap.
        if self.matchup.is_some() {
            "Ratings (maximum likelihood over all games, mean 0, finite even at 100%; not the Elo above)"
        } else {
            "Ratings (maximum likelihood over all games, mean 0, finite even at 100%)"
        }
    }
}

/// The report of result files merged as one long run: shards of one run,
/// or separate runs. A record read twice counts once; games of separate runs
/// that share an index all count (see [`dedup`]), and a warning names the
/// files where that happened, so that a file of another run given by
/// mistake does not go unseen.
pub fn merge_files(files: &[std::path::PathBuf], sprt: Option<Sprt>) -> Result<Report, String> {
    read_files(files).map(|read| Report::build(&read.records, sprt))
}

/// Result files read for a report: every record (repeats included, as
/// [`Report::build`] takes them) and the lines skipped, named as warned.
#[derive(Debug, Default)]
pub struct ReadFiles {
    pub records: Vec<GameRecord>,
    pub skipped: Vec<String>,
}

/// Reads result files for [`merge_files`], warning of the games of
/// separate runs that share an index.
pub fn read_files(files: &[std::path::PathBuf]) -> Result<ReadFiles, String> {
    let mut skipped = Vec::new();
    let mut records: Vec<GameRecord> = Vec::new();
    let mut file_of: Vec<usize> = Vec::new();
    // For each index, the distinct records read so far (positions in `records`).
    let mut by_index: HashMap<usize, Vec<usize>> = HashMap::new();
    // (file of the first game with the index, file of a different one) -> games.
    let mut clashes: BTreeMap<(usize, usize), usize> = BTreeMap::new();
    for (i, f) in files.iter().enumerate() {
        let file = super::results::read_result_file(f)?;
        skipped.extend(file.skipped);
        for r in file.records {
            let same = by_index.entry(r.index).or_default();
            if !same.iter().any(|&k| records[k] == r) {
                if let Some(&k) = same.first() {
                    *clashes.entry((file_of[k], i)).or_default() += 1;
                }
                same.push(records.len());
            }
            // Repeats too: the report counts them as dropped.
            records.push(r);
            file_of.push(i);
        }
    }
    for ((a, b), n) in clashes {
        log::warn!(
            "{}: {} with the index of a different game in {}: results of separate runs, each game counted",
            files[b].display(),
            count(n as u64, "game", "games"),
            if a == b {
                "the same file".to_string()
            } else {
                files[a].display().to_string()
            }
        );
    }
    Ok(ReadFiles { records, skipped })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_figures_print_one_way() {
        assert_eq!(elo_text(f64::INFINITY), "+inf");
        assert_eq!(elo_text(f64::NEG_INFINITY), "-inf");
        assert_eq!(elo_text(-0.0), "0.0");
        assert_eq!(elo_text(-0.04), "0.0");
        assert_eq!(elo_text(0.04), "0.0");
        assert_eq!(elo_text(58.45), "+58.5");
        assert_eq!(elo_text(-123.48), "-123.5");
        assert_eq!(
            elo_with_interval((0.0, f64::NEG_INFINITY, 250.0)),
            "0.0 [-inf, +250.0]"
        );
        assert_eq!(count(1u32, "pair", "pairs"), "1 pair");
        assert_eq!(count(0u32, "pair", "pairs"), "0 pairs");
    }
}
