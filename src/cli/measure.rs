//! `perft`, `bench` and `solve`: the measuring subcommands, whose results
//! print themselves.

use super::parsers::parse_eval;
use clap::Args;
use mollett::engine::eval::EvalKind;
use mollett::engine::search::Progress;
use mollett::engine::suite::{solve_all, SolveRow};
use mollett::rules::obf::Problem;
use mollett::rules::Variant;
use mollett::{perft, Color, Position};
use std::fmt;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// One depth's count and the time it took.
pub struct PerftRow {
    depth: u32,
    nodes: u64,
    secs: f64,
}

impl fmt::Display for PerftRow {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let (d, n, secs) = (self.depth, self.nodes, self.secs);
        let mnps = n as f64 / secs.max(1e-9) / 1e6;
        write!(f, "perft {d:2} {n:>14} {secs:9.3} s {mnps:>8.1} Mn/s")
    }
}

/// Perft from the start of `variant` at each depth from 1 to `depth` (perft
/// 0 is its one row, the position itself), each counted when it is asked for.
pub fn perft_rows(variant: Variant, depth: u32) -> impl Iterator<Item = PerftRow> {
    let pos = Position::start(variant, Color::Black);
    (depth.min(1)..=depth).map(move |d| {
        let t = Instant::now();
        let nodes = perft(&pos, d);
        PerftRow {
            depth: d,
            nodes,
            secs: t.elapsed().as_secs_f64(),
        }
    })
}

/// The bench's signature line: `N nodes M nps`.
pub struct BenchLine {
    nodes: u64,
    nps: u64,
}

impl fmt::Display for BenchLine {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} nodes {} nps", self.nodes, self.nps)
    }
}

/// Searches the bench positions with `eval`.
pub fn bench(eval: &EvalKind) -> BenchLine {
    let (nodes, nps) = mollett::engine::bench::run_with(eval);
    BenchLine { nodes, nps }
}

/// `mollett solve`.
#[derive(Args)]
pub struct SolveArgs {
    file: PathBuf,
    /// Search threads (1 to 256, as the threads option).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// Only problems A to B (numbers as in the file: `fforum-40-59.obf` starts at 40).
    #[arg(long, value_parser = parse_ids)]
    ids: Option<RangeInclusive<usize>>,
    /// Transposition table size in megabytes (1 to 65536, as the hash option); without it,
    /// each problem's by its empties: 128 MB to 27, 1024 MB from 28 (at most half the memory available).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: Option<u64>,
    /// Evaluation that orders moves at many empties: learned (the fastest solves), handcrafted, or a weight file.
    #[arg(long, default_value = "learned", value_parser = parse_eval)]
    eval: EvalKind,
    /// Seconds between `working` lines on stderr while one step of a solve is still at work (0: none).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(0..=86400))]
    heartbeat: u64,
}

impl SolveArgs {
    /// Solves the problems of `--ids`, printing the header, a row as each is
    /// solved (progress on stderr, so a long solve shows it is alive) and
    /// the totals last; exits with status 1 when a score or move is wrong.
    pub fn run(self) -> Result<(), String> {
        let problems = mollett::rules::obf::read(&self.file)?;
        let ids = self.ids.unwrap_or(0..=usize::MAX);
        if !problems.iter().any(|p| ids.contains(&p.id)) {
            let (lo, hi) = (
                problems.iter().map(|p| p.id).min(),
                problems.iter().map(|p| p.id).max(),
            );
            return Err(match (lo, hi) {
                (Some(lo), Some(hi)) => format!(
                    "{}: no problem with an id in --ids {}-{}; the file holds {} problem(s), #{lo} to #{hi}",
                    self.file.display(),
                    ids.start(),
                    ids.end(),
                    problems.len()
                ),
                _ => format!("{}: the file holds no problems", self.file.display()),
            });
        }
        println!("{}", SolveRow::HEADER);
        let (threads, hash) = (self.threads as usize, self.hash.map(|h| h as usize));
        let live = |p: &Problem, s: &Progress| eprintln!("#{} {}", p.id, s);
        let heartbeat = self.heartbeat;
        let totals = solve_all(
            &problems,
            ids,
            threads,
            hash,
            &self.eval,
            &mut |row| println!("{row}"),
            Some(&live),
            (heartbeat > 0).then(|| Duration::from_secs(heartbeat)),
        )?;
        println!("{totals}");
        if totals.wrong > 0 {
            std::process::exit(1);
        }
        Ok(())
    }
}

/// `A-B` or `A`: problem numbers.
fn parse_ids(r: &str) -> Result<RangeInclusive<usize>, String> {
    let (a, b) = r.split_once('-').unwrap_or((r, r));
    let parse = |x: &str| {
        x.trim()
            .parse::<usize>()
            .map_err(|_| format!("expected A-B, got '{r}'"))
    };
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("expected A-B with A <= B, got '{r}'"));
    }
    Ok(a..=b)
}
