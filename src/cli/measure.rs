//! `perft`, `bench` and `solve`: the measuring subcommands, whose results
//! print themselves.

use super::parsers::parse_eval;
use clap::Args;
use mollett::engine::bench::{midgame_run, MidgameRun};
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
fn bench(eval: &EvalKind) -> BenchLine {
    let (nodes, nps) = mollett::engine::bench::run_with(eval);
    BenchLine { nodes, nps }
}

/// `mollett bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Static evaluation: learned (the signature), handcrafted, or a weight file.
    #[arg(long, default_value = "learned", value_parser = parse_eval)]
    eval: EvalKind,
    /// Time to a fixed depth instead of the signature: ten WTHOR positions at
    /// 36-44 empties, each searched to --depth on each of --threads in turn
    /// (a fresh table each time), --repeat times; prints each position's
    /// median seconds and nodes per thread count, then the totals.
    #[arg(long)]
    midgame: bool,
    /// With --midgame: the thread counts to compare, the first the baseline (1 to 256 each).
    #[arg(long, value_delimiter = ',', default_value = "1,2", requires = "midgame",
          value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: Vec<u64>,
    /// With --midgame: the midgame depth searched (1 to 30).
    #[arg(long, default_value_t = 14, requires = "midgame",
          value_parser = clap::value_parser!(u32).range(1..=30))]
    depth: u32,
    /// With --midgame: searches of each position on each thread count (1 to 100).
    #[arg(long, default_value_t = 3, requires = "midgame",
          value_parser = clap::value_parser!(u64).range(1..=100))]
    repeat: u64,
    /// With --midgame: transposition table size in megabytes (1 to 65536).
    #[arg(long, default_value_t = 64, requires = "midgame",
          value_parser = clap::value_parser!(u64).range(1..=65536))]
    hash: u64,
}

impl BenchArgs {
    /// Prints the signature line, or with `--midgame` the time-to-depth table.
    pub fn run(self) -> Result<(), String> {
        if !self.midgame {
            println!("{}", bench(&self.eval));
            return Ok(());
        }
        let threads: Vec<usize> = self.threads.iter().map(|&t| t as usize).collect();
        let positions: Vec<Position> = mollett::engine::bench::MIDGAME_POSITIONS
            .iter()
            .map(|s| {
                let (board, side) = s.split_once(' ').expect("board and side");
                Position::from_obf(board, side, Variant::Modern, None).expect("a bench position")
            })
            .collect();
        // runs[p][t]: every search of position p on threads[t].
        let mut runs = vec![vec![Vec::new(); threads.len()]; positions.len()];
        for r in 0..self.repeat {
            eprintln!("run {}/{}", r + 1, self.repeat);
            // Alternating thread counts position by position, so that a
            // change of load on a shared machine falls on all of them.
            for (p, pos) in positions.iter().enumerate() {
                for (t, &n) in threads.iter().enumerate() {
                    let run = midgame_run(pos, &self.eval, n, self.depth, self.hash as usize);
                    eprintln!(
                        "#{} threads {n} {} {:+.2} {} nodes {:.3} s",
                        p + 1,
                        run.best,
                        run.score,
                        run.nodes,
                        run.secs
                    );
                    runs[p][t].push(run);
                }
            }
        }
        println!(
            "midgame depth {}, {} MB, medians of {} run(s): nodes, seconds, speed-up; CPU \
             seconds of the main thread + the helpers, and the speed-up they give where each \
             thread has a core of its own; threads {}",
            self.depth,
            self.hash,
            self.repeat,
            threads
                .iter()
                .map(|t| t.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
        let mut total = vec![Median::default(); threads.len()];
        let cell = |n: usize, m: &Median, base: &Median| {
            let mut c = format!("  t{n} {:>11} {:7.3} s", m.nodes, m.secs);
            if n > 1 {
                c += &format!(
                    " {:5.2}x cpu {:.3}+{:.3} own cores {:5.2}x",
                    base.secs / m.secs.max(1e-9),
                    m.main_cpu,
                    m.helper_cpu,
                    base.own_core_secs / m.own_core_secs.max(1e-9)
                );
            } else {
                c += &format!(" cpu {:.3}", m.main_cpu);
            }
            c
        };
        for (p, pos) in positions.iter().enumerate() {
            let mut line = format!("#{:<2} {:2} empties", p + 1, pos.empty_count());
            let base = Median::of(&runs[p][0]);
            for (t, &n) in threads.iter().enumerate() {
                let m = Median::of(&runs[p][t]);
                total[t].add(&m);
                line += &cell(n, &m, &base);
            }
            println!("{line}");
        }
        let mut line = "total          ".to_string();
        for (t, &n) in threads.iter().enumerate() {
            line += &cell(n, &total[t], &total[0]);
        }
        println!("{line}");
        Ok(())
    }
}

/// A position's medians over its runs on one thread count, each taken on
/// its own (or their sums, over the positions).
#[derive(Clone, Default)]
struct Median {
    nodes: u64,
    secs: f64,
    main_cpu: f64,
    helper_cpu: f64,
    own_core_secs: f64,
}

impl Median {
    fn of(runs: &[MidgameRun]) -> Median {
        let median = |f: &dyn Fn(&MidgameRun) -> f64| {
            let mut v: Vec<f64> = runs.iter().map(f).collect();
            v.sort_by(f64::total_cmp);
            v[v.len() / 2]
        };
        Median {
            nodes: median(&|r| r.nodes as f64) as u64,
            secs: median(&|r| r.secs),
            main_cpu: median(&|r| r.main_cpu),
            helper_cpu: median(&|r| r.helper_cpu),
            own_core_secs: median(&|r| r.own_core_secs),
        }
    }

    fn add(&mut self, m: &Median) {
        self.nodes += m.nodes;
        self.secs += m.secs;
        self.main_cpu += m.main_cpu;
        self.helper_cpu += m.helper_cpu;
        self.own_core_secs += m.own_core_secs;
    }
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
