//! Runs a match or tournament: the deterministic game list, shards, resume,
//! worker threads with their own engine processes, the result files,
//! progress on stderr and the SPRT stop.

use super::client::{EngineProcess, EngineSpec, TimeFormat};
use super::openings::{classic_placements, Opening};
use crate::rng::Rng;
use super::record::{parse_results, GameRecord};
use super::referee::{play_game, Played, RefereeLimits};
use super::report::{elo_with_interval, Matchup, Report};
use super::types::{Reason, TimeControl};
use crate::files::Writer;
use crate::protocol::Protocol;
use crate::rules::color::{Color, Variant};
use crate::rules::ggf::ggf_game;
use crate::rules::position::Position;
use crate::tournament::stats::{Sprt, Verdict};
use std::collections::{HashSet, VecDeque};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

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

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct Config {
    pub engines: Vec<EngineSpec>,
    pub format: Format,
    pub variant: Variant,
    /// The clock of engines whose spec sets none.
    pub tc: TimeControl,
    pub limits: RefereeLimits,
    /// From a file; empty means the start position (modern) or random
    /// centre placements (classic).
    pub openings: Vec<Opening>,
    pub concurrency: usize,
    pub out: Option<PathBuf>,
    pub resume: bool,
    /// `(i, n)`, 1-based: run the pairs whose number is `i - 1` modulo `n`.
    pub shard: (usize, usize),
    /// Shuffles the openings' order (and seeds classic placements).
    pub seed: Option<u64>,
    pub sprt: Option<Sprt>,
    /// Print a progress line per game on stderr.
    pub progress: bool,
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
fn pair_count(format: Format, engines: usize) -> usize {
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

/// Settings that are accepted but quietly defeat themselves, for one engine
/// playing with clock `tc`: warnings to print at the start of a run.
///
/// - A clock under one second (per game, or per move) for a GTP engine that
///   gets whole seconds (no `time=frac`): times are rounded down, so the
///   engine is told it has 0 s, and Mollett then moves at once.
/// - A clock for GRhino (`gtp-rhino`): it ignores GTP clocks and plays at the
///   pace of its level, yet the runner holds it to the clock.
pub fn clock_warnings(spec: &EngineSpec, tc: TimeControl) -> Vec<String> {
    let clock = match tc {
        TimeControl::None => return Vec::new(),
        TimeControl::Fischer { base, inc } if inc > 0.0 => {
            format!("{base} s per game + {inc} s per move")
        }
        TimeControl::Fischer { base, .. } => format!("{base} s per game"),
        TimeControl::PerMove(st) => format!("{st} s per move"),
    };
    let rhino = spec.cmd.split_whitespace().find(|w| {
        std::path::Path::new(w)
            .file_name()
            .is_some_and(|f| f.to_string_lossy().to_lowercase().contains("gtp-rhino"))
    });
    if let Some(program) = rhino {
        return vec![format!(
            "engine '{}' looks like GRhino ({program}), which ignores GTP clocks: it plays at the pace of its level whatever the clock ({clock}), and is still held to it, so a slow level loses on time; give it tc=none in its --engine (its level, -l N, sets its strength)",
            spec.name
        )];
    }
    let short = match tc {
        TimeControl::Fischer { base, .. } => base < 1.0,
        TimeControl::PerMove(st) => st < 1.0,
        TimeControl::None => false,
    };
    if short && spec.proto == Protocol::Gtp && spec.time == TimeFormat::Int {
        return vec![format!(
            "engine '{}' has a clock under one second ({clock}), but GTP times go to it in whole seconds, rounded down: it is told 0 s, and an engine that believes it (Mollett) moves at once; add time=frac to its --engine if it reads fractions of a second, as Mollett does",
            spec.name
        )];
    }
    Vec::new()
}

impl Config {
    /// [`clock_warnings`] for every engine of the run.
    pub fn warnings(&self) -> Vec<String> {
        self.engines
            .iter()
            .flat_map(|e| clock_warnings(e, e.tc.unwrap_or(self.tc)))
            .collect()
    }
}

/// Makes engine names unique (`mollett`, `mollett-2`): they identify engines in result lines.
pub fn unique_names(specs: &mut [EngineSpec]) {
    let mut seen: Vec<String> = Vec::new();
    for s in specs.iter_mut() {
        let base = s.name.clone();
        let mut k = 2;
        while seen.contains(&s.name) {
            s.name = format!("{base}-{k}");
            k += 1;
        }
        seen.push(s.name.clone());
    }
}

/// What a run did.
pub struct RunSummary {
    /// Every game of this run's slice, earlier runs' (resumed) included.
    pub records: Vec<GameRecord>,
    pub report: Report,
    /// Games the list (this shard) holds.
    pub planned: usize,
    /// Stopped by Ctrl-C (or SIGTERM, SIGHUP) before the list was played.
    pub interrupted: bool,
}

/// Starts each engine once to check it can play this run, then stops it.
fn preflight(cfg: &Config, abort: &Arc<AtomicBool>) -> Result<(), String> {
    let boards = cfg.openings.iter().any(|o| matches!(o, Opening::Board(_)));
    for spec in &cfg.engines {
        if cfg.variant == Variant::Classic && spec.proto == Protocol::Nboard {
            return Err(format!(
                "{}: NBoard engines play modern rules only; classic games need a GTP engine that accepts 'newgame classic'",
                spec.name
            ));
        }
        let mut e = EngineProcess::start(spec, cfg.limits.hang, abort.clone())
            .map_err(|e| format!("{}: {e}", spec.name))?;
        if spec.proto == Protocol::Gtp {
            if cfg.variant == Variant::Classic {
                let hang = e.hang;
                match e.gtp("newgame classic", hang) {
                    Ok(Ok(_)) => {}
                    Ok(Err(m)) => {
                        return Err(format!(
                            "{}: does not play classic rules ('newgame classic' answered '? {m}'); classic games need engines that accept it",
                            spec.name
                        ))
                    }
                    Err(err) => return Err(format!("{}: {err}", spec.name)),
                }
            }
            if boards {
                let hang = e.hang;
                let known = matches!(e.gtp("known_command setboard", hang), Ok(Ok(ref t)) if t.trim() == "true");
                if !known {
                    return Err(format!(
                        "{}: the openings include boards, but the engine has no 'setboard'; use move-sequence openings",
                        spec.name
                    ));
                }
            }
        }
        e.quit();
    }
    Ok(())
}

/// A game lost before it began: an engine would not start.
fn not_started(start: Position, side: Color, detail: String) -> Played {
    Played {
        start,
        moves: Vec::new(),
        book: 0,
        times: Vec::new(),
        last: start,
        winner: Some(side.other()),
        reason: Reason::Crash,
        fault: Some(side),
        detail,
        used: [0.0; 2],
    }
}

/// Runs the games of `cfg` not yet in its result file. `abort` (Ctrl-C)
/// stops at once, dropping unfinished games; the report covers what finished.
pub fn run(cfg: &Config, abort: Arc<AtomicBool>) -> Result<RunSummary, String> {
    if cfg.engines.len() < 2 {
        return Err("need at least two engines".into());
    }
    if cfg.shard.0 == 0 || cfg.shard.0 > cfg.shard.1 {
        return Err("--shard i/n needs 1 <= i <= n".into());
    }
    let pairs = pair_count(cfg.format, cfg.engines.len());
    let mut openings = cfg.openings.clone();
    if let Some(seed) = cfg.seed {
        Rng::new(seed).shuffle(&mut openings);
    }
    if openings.is_empty() && cfg.variant == Variant::Classic {
        // Each pair gets its own random arrangement of the four centre discs.
        openings = classic_placements(pairs.max(1), cfg.seed.unwrap_or(0));
    }
    let (si, sn) = cfg.shard;
    let jobs: Vec<ScheduledGame> = schedule(cfg.format, cfg.engines.len(), openings.len())
        .into_iter()
        .filter(|j| j.pair % sn == si - 1)
        .collect();
    let planned = jobs.len();

    // The result file (and its GGF twin) has one writer: the lock is taken
    // before anything is read, played or written, and held to the end.
    let mut records = Vec::new();
    let mut files: Option<(Writer, Option<Writer>)> = None;
    if let Some(out) = &cfg.out {
        let results = Writer::lock(out)?;
        let bytes = results.read()?;
        if !bytes.is_empty() {
            if !cfg.resume {
                return Err(format!(
                    "{} exists; pass --resume to continue it, or remove it",
                    out.display()
                ));
            }
            let names: Vec<&str> = cfg.engines.iter().map(|e| e.name.as_str()).collect();
            let file = parse_results(out, &bytes)?;
            for r in file.records {
                match jobs.iter().find(|j| j.index == r.index) {
                    Some(j) if names[j.black] == r.black && names[j.white] == r.white => {
                        records.push(r)
                    }
                    _ => {
                        return Err(format!(
                            "{}: game {} ({} vs {}) is not in this run's list; resume with the same engines, games and shard",
                            out.display(),
                            r.index,
                            r.black,
                            r.white
                        ))
                    }
                }
            }
            // A torn last line's game is played again, on a fresh line.
            results.truncate(file.whole_len)?;
        }
        let ggf = if cfg.variant == Variant::Modern {
            // Reconciled (and replaced by a rename) before its lock is
            // taken: the result file's lock already keeps other runs out.
            if !records.is_empty() {
                reconcile_ggf(cfg, out, &records)?;
            }
            Some(Writer::lock(&ggf_path(out))?)
        } else {
            None
        };
        files = Some((results, ggf));
    }
    let done: HashSet<usize> = records.iter().map(|r| r.index).collect();
    let pending: VecDeque<ScheduledGame> = jobs
        .iter()
        .filter(|j| !done.contains(&j.index))
        .copied()
        .collect();
    if !pending.is_empty() {
        preflight(cfg, &abort)?;
    }

    let stop = Arc::new(AtomicBool::new(false));
    let mut stopped = None;
    if let Some(why) = sprt_stop(cfg, &records) {
        stop.store(true, Ordering::SeqCst);
        stopped = Some(why);
    }
    let total_pending = pending.len();
    let queue = Arc::new(Mutex::new(pending));
    let openings = Arc::new(openings);
    let (tx, rx) = channel::<(ScheduledGame, Played)>();
    let mut workers = Vec::new();
    for _ in 0..cfg.concurrency.max(1).min(total_pending.max(1)) {
        let (queue, stop, abort, tx, openings) = (
            queue.clone(),
            stop.clone(),
            abort.clone(),
            tx.clone(),
            openings.clone(),
        );
        let cfg = cfg.clone();
        workers.push(std::thread::spawn(move || {
            worker(&cfg, &queue, &openings, &stop, &abort, &tx)
        }));
    }
    drop(tx);

    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let started = Instant::now();
    let mut finished = 0usize;
    for (job, played) in rx {
        let standard = !matches!(job.opening.map(|o| &openings[o]), Some(Opening::Board(_)));
        let rec = GameRecord::from_played(
            job.index,
            job.pair,
            [&names[job.black], &names[job.white]],
            job.opening,
            standard,
            &played,
        );
        if !played.detail.is_empty() {
            eprintln!(
                "game {}: {} ({})",
                job.index,
                played.detail,
                played.reason.name()
            );
        }
        if let Some((results, ggf)) = files.as_mut() {
            results.append(&(rec.to_line() + "\n"))?;
            if let Some(ggf) = ggf {
                ggf.append(&(ggf_line(cfg, &rec, &played.start, &played.times) + "\n"))?;
            }
        }
        records.push(rec);
        finished += 1;
        if cfg.progress {
            progress(&names, &records, planned, finished, total_pending, started);
        }
        if stopped.is_none() {
            if let Some(why) = sprt_stop(cfg, &records) {
                stop.store(true, Ordering::SeqCst);
                stopped = Some(why);
            }
        }
    }
    for w in workers {
        let _ = w.join();
    }
    let interrupted = abort.load(Ordering::SeqCst);
    if interrupted {
        stopped = Some(format!(
            "interrupted after {} of {planned} games",
            records.len()
        ));
    }
    let mut report = Report::build(&records, cfg.sprt);
    report.stopped = stopped;
    Ok(RunSummary {
        records,
        report,
        planned,
        interrupted,
    })
}

/// `FILE.ggf` beside the result file `FILE`.
fn ggf_path(out: &std::path::Path) -> PathBuf {
    let mut path = out.to_path_buf().into_os_string();
    path.push(".ggf");
    PathBuf::from(path)
}

/// A game's GGF record: the result as black's margin (64 for a forfeit), the
/// clock as `TI`, `times` per ply when known.
fn ggf_line(cfg: &Config, rec: &GameRecord, start: &Position, times: &[f64]) -> String {
    let margin = match (rec.reason, rec.outcome) {
        (Reason::Normal, _) => rec.discs[0] as i32 - rec.discs[1] as i32,
        (_, super::record::Outcome::BlackWins) => 64,
        _ => -64,
    };
    let clock = match cfg.tc {
        TimeControl::Fischer { base, .. } => Some(base),
        _ => None,
    };
    ggf_game(
        start,
        &rec.moves,
        times,
        &rec.black,
        &rec.white,
        Some(margin),
        clock,
    )
}

/// The result file is the record of truth, and the GGF file is written after
/// it: a kill between the two appends leaves a game without its GGF record.
/// On resume, keep one GGF record per finished game (matched by players,
/// start and moves) and write the missing ones from the result lines (without
/// per-move times, which only the GGF kept); records of no finished game are
/// dropped. The file is replaced in one rename.
fn reconcile_ggf(
    cfg: &Config,
    out: &std::path::Path,
    records: &[GameRecord],
) -> Result<(), String> {
    let path = ggf_path(out);
    let bytes = match std::fs::metadata(&path) {
        Ok(_) => crate::rules::text::read_bytes(&path)?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let (whole, torn) = crate::files::whole_lines(&bytes);
    if !torn.trim_ascii().is_empty() {
        log::warn!("{}", crate::files::torn_message(&path, torn));
    }
    let text = String::from_utf8_lossy(whole).into_owned();
    type Key = (String, String, Position, Vec<crate::rules::square::Move>);
    let mut kept: Vec<(Key, String)> = Vec::new();
    for line in text.lines() {
        let Ok(g) = crate::rules::ggf::GgfGame::parse(line) else {
            continue; // not a game record
        };
        let key = (
            g.black.clone().unwrap_or_default(),
            g.white.clone().unwrap_or_default(),
            g.start,
            g.moves.iter().map(|m| m.mv).collect(),
        );
        kept.push((key, line.to_string()));
    }
    let mut rewritten = String::new();
    let mut written = 0;
    for rec in records {
        let start = rec
            .start
            .unwrap_or_else(|| Position::start(rec.variant, Color::Black));
        let key = (
            rec.black.clone(),
            rec.white.clone(),
            start,
            rec.moves.clone(),
        );
        let line = match kept.iter().position(|(k, _)| *k == key) {
            Some(i) => kept.swap_remove(i).1,
            None => {
                written += 1;
                ggf_line(cfg, rec, &start, &[])
            }
        };
        rewritten.push_str(&line);
        rewritten.push('\n');
    }
    if written == 0 && kept.is_empty() && torn.is_empty() {
        return Ok(());
    }
    if written > 0 {
        eprintln!(
            "{}: {written} game(s) had no GGF record (a kill between the two writes): written from the result lines",
            path.display()
        );
    }
    crate::files::replace(&path, rewritten.as_bytes())
}

/// `Some(why)` when the SPRT has reached a bound.
fn sprt_stop(cfg: &Config, records: &[GameRecord]) -> Option<String> {
    let t = cfg.sprt?;
    if cfg.engines.len() != 2 {
        return None;
    }
    let m = Matchup::from_records(&cfg.engines[0].name, &cfg.engines[1].name, records);
    let llr = m.llr(&t);
    match t.verdict(llr) {
        Verdict::Continue => None,
        v => Some(format!(
            "SPRT {} after {} games (LLR {llr:.2})",
            if v == Verdict::AcceptH1 {
                "accepted H1"
            } else {
                "accepted H0"
            },
            m.wdl.games()
        )),
    }
}

fn progress(
    names: &[String],
    records: &[GameRecord],
    planned: usize,
    finished: usize,
    pending: usize,
    started: Instant,
) {
    let (first, second) = match names {
        [a, b] => (Some(a), Some(b)),
        _ => (None, None),
    };
    let eta = started.elapsed().as_secs_f64() / finished as f64 * (pending - finished) as f64;
    let eta = Duration::from_secs(eta as u64);
    let mut line = format!("[{}/{planned}]", records.len());
    if let (Some(a), Some(b)) = (first, second) {
        let m = Matchup::from_records(a, b, records);
        let w = m.wdl;
        // The report's figure, printed the report's way.
        line.push_str(&format!(
            " {a} vs {b}: {}-{}-{} score {:.1}% Elo {}",
            w.wins,
            w.draws,
            w.losses,
            100.0 * w.score(),
            elo_with_interval(w.elo())
        ));
    }
    line.push_str(&format!(
        " ETA {}m{:02}s",
        eta.as_secs() / 60,
        eta.as_secs() % 60
    ));
    eprintln!("{line}");
}

/// One worker: takes games off the queue and plays them with its own processes.
fn worker(
    cfg: &Config,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    openings: &[Opening],
    stop: &AtomicBool,
    abort: &Arc<AtomicBool>,
    tx: &std::sync::mpsc::Sender<(ScheduledGame, Played)>,
) {
    let mut procs: Vec<Option<EngineProcess>> = cfg.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::SeqCst) || abort.load(Ordering::SeqCst) {
            break;
        }
        let Some(job) = queue.lock().expect("queue lock").pop_front() else {
            break;
        };
        let opening = job.opening.map(|o| &openings[o]);
        let no_moves = Opening::Moves(Vec::new());
        let (start, standard, moves) = opening.unwrap_or(&no_moves).setup(cfg.variant);
        let mut failed = None;
        for (side, e) in [(Color::Black, job.black), (Color::White, job.white)] {
            if procs[e].is_none() {
                match EngineProcess::start(&cfg.engines[e], cfg.limits.hang, abort.clone()) {
                    Ok(p) => procs[e] = Some(p),
                    Err(err) => {
                        failed = Some(not_started(
                            start,
                            side,
                            format!("{}: {err}", cfg.engines[e].name),
                        ));
                        break;
                    }
                }
            }
        }
        if abort.load(Ordering::SeqCst) {
            break;
        }
        let played = match failed {
            Some(p) => p,
            None => {
                let tcs = [job.black, job.white].map(|e| cfg.engines[e].tc.unwrap_or(cfg.tc));
                let (lo, hi) = (job.black.min(job.white), job.black.max(job.white));
                let (left, right) = procs.split_at_mut(hi);
                let (a, b) = (left[lo].as_mut().unwrap(), right[0].as_mut().unwrap());
                let engines = if job.black < job.white {
                    [a, b]
                } else {
                    [b, a]
                };
                match play_game(engines, start, standard, moves, tcs, cfg.limits) {
                    Ok(p) => p,
                    Err(_) => break, // aborted
                }
            }
        };
        if abort.load(Ordering::SeqCst) && played.reason != Reason::Normal {
            // A stop signal can reach the engines too (a scheduler signals
            // the whole job): a forfeit now is the stop's doing, not the
            // engine's. Drop the game; --resume plays it again.
            break;
        }
        if let Some(side) = played.fault {
            // Killed now (Drop), started afresh for its next game.
            let e = if side == Color::Black {
                job.black
            } else {
                job.white
            };
            procs[e] = None;
        }
        if tx.send((job, played)).is_err() {
            break;
        }
    }
    for p in procs.into_iter().flatten() {
        p.quit();
    }
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
