//! Runs a match or tournament: the result files and resume, the workers'
//! finished games recorded as they come, progress on stderr and the SPRT stop.

use super::config::Config;
use super::game_loop::{game_loop, preflight};
use super::matchup::Matchup;
use super::openings::Opening;
use super::referee::Played;
use super::report::{elo_with_interval, Report};
use super::results::{parse_results, GameRecord};
use super::results_ggf::{ggf_path, ggf_record, reconcile_ggf};
use super::schedule::{pair_count, run_openings, shard_games, ScheduledGame};
use super::stats::Verdict;
use super::types::TimeControl;
use crate::files::Writer;
use crate::rules::color::Variant;
use crate::rules::ggf::GgfGame;
use std::collections::{HashSet, VecDeque};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// What a run did.
pub struct RunSummary {
    /// Every game of this run's slice, earlier runs' (resumed) included.
    pub records: Vec<GameRecord>,
    pub report: Report,
    /// Games the list (this shard) holds.
    pub planned: usize,
    /// Stopped by Ctrl-C (or SIGTERM, SIGHUP) before the list was played.
    pub interrupted: bool,
    /// The GGF records of this run's modern games when there is no `--out`
    /// (whose `FILE.ggf` holds them otherwise): the report page's times.
    pub ggf: Vec<GgfGame>,
}

/// Runs the games of `cfg` not yet in its result file. `abort` (Ctrl-C)
/// stops at once, dropping unfinished games; the report covers what finished.
pub fn run(cfg: &Config, abort: Arc<AtomicBool>) -> Result<RunSummary, String> {
    check(cfg)?;
    let pairs = pair_count(cfg.format, cfg.engines.len());
    let openings = run_openings(&cfg.openings, cfg.variant, cfg.seed, pairs);
    let jobs = shard_games(cfg.format, cfg.engines.len(), openings.len(), cfg.shard);
    let planned = jobs.len();
    let (mut records, mut output) = match &cfg.out {
        Some(out) => {
            let (records, output) = Output::open(cfg, out, &jobs)?;
            (records, Some(output))
        }
        None => (Vec::new(), None),
    };
    let done: HashSet<usize> = records.iter().map(|r| r.index).collect();
    let pending: VecDeque<ScheduledGame> = jobs
        .iter()
        .filter(|j| !done.contains(&j.index))
        .copied()
        .collect();
    if !pending.is_empty() {
        preflight(cfg, &abort)?;
    }

    let mut stopped = sprt_stop(cfg, &records);
    let stop = Arc::new(AtomicBool::new(stopped.is_some()));
    let total_pending = pending.len();
    let openings = Arc::new(openings);
    let (rx, workers) = start_workers(cfg, pending, &openings, &stop, &abort);

    let names: Vec<String> = cfg.engines.iter().map(|e| e.name.clone()).collect();
    let started = Instant::now();
    let mut finished = 0usize;
    let mut ggf = Vec::new();
    for (job, played) in rx {
        let rec = record_of(&names, &openings, &job, &played);
        if let Some(output) = output.as_mut() {
            output.append(cfg.tc, &rec, &played)?;
        } else if rec.variant == Variant::Modern {
            ggf.push(ggf_record(
                cfg.tc,
                &rec,
                &played.start,
                &played.times,
                &played.evals,
            ));
        }
        records.push(rec);
        finished += 1;
        if cfg.progress {
            progress(&names, &records, planned, finished, total_pending, started);
        }
        if stopped.is_none() {
            if let Some(why) = sprt_stop(cfg, &records) {
                stop.store(true, Ordering::SeqCst);
                // The progress lines stop here: say why where they are read
                // (the verdict itself is in the report on stdout).
                if cfg.progress {
                    eprintln!("{why}: no more games start; the report follows on stdout");
                }
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
        ggf,
    })
}

/// Refuses a run that cannot start: fewer than two engines, a bad shard.
fn check(cfg: &Config) -> Result<(), String> {
    if cfg.engines.len() < 2 {
        return Err("need at least two engines".into());
    }
    if cfg.shard.0 == 0 || cfg.shard.0 > cfg.shard.1 {
        return Err("--shard i/n needs 1 <= i <= n".into());
    }
    Ok(())
}

/// The result file and, for modern games, its GGF twin: one writer each,
/// held from before anything is read, played or written to the end.
struct Output {
    results: Writer,
    ggf: Option<Writer>,
}

impl Output {
    /// Locks `out`, reads the games it already holds (they must be games of
    /// this run's list: `--resume` with the same engines, games and shard)
    /// and cuts a torn last line; then reconciles and locks the GGF twin.
    fn open(
        cfg: &Config,
        out: &Path,
        jobs: &[ScheduledGame],
    ) -> Result<(Vec<GameRecord>, Output), String> {
        let mut records = Vec::new();
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
            let file = parse_results(out, &bytes[..])?;
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
                reconcile_ggf(cfg.tc, out, &records)?;
            }
            Some(Writer::lock(&ggf_path(out))?)
        } else {
            None
        };
        Ok((records, Output { results, ggf }))
    }

    /// Appends a finished game: its result line, then its GGF record.
    fn append(&mut self, tc: TimeControl, rec: &GameRecord, played: &Played) -> Result<(), String> {
        self.results.append(&(rec.to_line() + "\n"))?;
        if let Some(ggf) = &mut self.ggf {
            let line = ggf_record(tc, rec, &played.start, &played.times, &played.evals);
            ggf.append(&format!("{line}\n"))?;
        }
        Ok(())
    }
}

/// Starts the workers (no more than the games to play) on the queue of
/// `pending` games; their finished games arrive on the returned channel,
/// which closes when the last worker ends.
fn start_workers(
    cfg: &Config,
    pending: VecDeque<ScheduledGame>,
    openings: &Arc<Vec<Opening>>,
    stop: &Arc<AtomicBool>,
    abort: &Arc<AtomicBool>,
) -> (Receiver<(ScheduledGame, Played)>, Vec<JoinHandle<()>>) {
    let total_pending = pending.len();
    let queue = Arc::new(Mutex::new(pending));
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
            game_loop(&cfg, &queue, &openings, &stop, &abort, &tx)
        }));
    }
    (rx, workers)
}

/// The record of a finished game, its fault (if any) told on stderr.
fn record_of(
    names: &[String],
    openings: &[Opening],
    job: &ScheduledGame,
    played: &Played,
) -> GameRecord {
    let standard = !matches!(job.opening.map(|o| &openings[o]), Some(Opening::Board(_)));
    let rec = GameRecord::from_played(
        job.index,
        job.pair,
        [&names[job.black], &names[job.white]],
        job.opening,
        standard,
        played,
    );
    if !played.detail.is_empty() {
        eprintln!(
            "game {}: {} ({})",
            job.index,
            played.detail,
            played.reason.name()
        );
    }
    rec
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
