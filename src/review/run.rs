//! `mollett analyze`: every move of every game reviewed, in order, shard by
//! shard, each written to `--out` as it is done so that Ctrl-C and
//! `--resume` lose nothing already analysed.

use super::games::{file_kind, read_games, FileKind, ReviewGame};
use super::record::{read_analysis, read_analysis_from, MoveRecord};
use crate::engine::review::{review_move, ReviewDepth};
use crate::engine::search::{Engine, Settings};
use crate::files::Writer;
use crate::rules::moveline::moves_text;
use crate::rules::square::Move;
use std::collections::{HashMap, HashSet};
use std::io::Read;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// What to analyse and how.
pub struct AnalyzeConfig {
    pub files: Vec<PathBuf>,
    /// The rule set of transcripts (other files say theirs).
    pub variant: crate::rules::color::Variant,
    pub depth: ReviewDepth,
    pub threads: usize,
    pub hash_mb: usize,
    /// `(i, n)`: the games whose index (over all files, in order, from 0)
    /// is `i - 1` modulo `n`.
    pub shard: (usize, usize),
    pub out: Option<PathBuf>,
    pub resume: bool,
    pub progress: bool,
}

/// What a run found: every reviewed move, in game and ply order.
pub struct Analysis {
    /// The games reviewed (not those only read back from analysis files).
    pub games: Vec<ReviewGame>,
    pub records: Vec<MoveRecord>,
    /// Stopped before the end (Ctrl-C): `--resume` goes on.
    pub interrupted: bool,
}

/// The kind of `path`, from its name and first bytes.
fn kind_of(path: &std::path::Path) -> Result<FileKind, String> {
    crate::files::regular_input(path)?;
    let mut head = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(file_kind(path, &String::from_utf8_lossy(&head)))
}

/// Reads every file, then reviews the shard's games (Ctrl-C, through
/// `stop`, ends the run after the last whole move).
pub fn run(cfg: &AnalyzeConfig, stop: &AtomicBool) -> Result<Analysis, String> {
    let mut games: Vec<ReviewGame> = Vec::new();
    let mut given: Vec<MoveRecord> = Vec::new();
    for f in &cfg.files {
        match kind_of(f)? {
            FileKind::Analysis => given.extend(read_analysis(f)?.0),
            kind => games.extend(read_games(f, kind, cfg.variant)?),
        }
    }
    let (k, n) = cfg.shard;
    let games: Vec<ReviewGame> = games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, g)| g)
        .collect();
    let mut writer = None;
    let mut done: Vec<MoveRecord> = Vec::new();
    if let Some(out) = &cfg.out {
        let w = Writer::lock(out)?;
        let bytes = w.read()?;
        if !bytes.is_empty() {
            if !cfg.resume {
                return Err(format!(
                    "{} exists; pass --resume to continue it, or remove it",
                    out.display()
                ));
            }
            let (records, whole_len) = read_analysis_from(out, &bytes[..])?;
            let ids: HashSet<&str> = games.iter().map(|g| g.id.as_str()).collect();
            if let Some(r) = records.iter().find(|r| !ids.contains(r.game.as_str())) {
                return Err(format!(
                    "{}: game {} is not in this run's list; resume with the same files and shard",
                    out.display(),
                    r.game
                ));
            }
            done = records;
            w.truncate(whole_len)?;
        }
        writer = Some(w);
    }
    let done: HashMap<(String, usize), MoveRecord> = done
        .into_iter()
        .map(|r| ((r.game.clone(), r.ply), r))
        .collect();
    let to_do: usize = games
        .iter()
        .map(|g| {
            g.moves
                .iter()
                .enumerate()
                .filter(|&(i, &m)| m != Move::Pass && !done.contains_key(&(g.id.clone(), i + 1)))
                .count()
        })
        .sum();

    let mut engine: Option<(crate::rules::color::Variant, Engine)> = None;
    let mut records = given;
    let mut progress = Progress::new(cfg.progress, games.len(), to_do);
    let mut interrupted = false;
    'games: for (gi, g) in games.iter().enumerate() {
        let variant = g.start.variant;
        if engine.as_ref().is_none_or(|(v, _)| *v != variant) {
            let base = Settings {
                threads: cfg.threads,
                hash_mb: cfg.hash_mb,
                ..Settings::default()
            };
            engine = Some((variant, Engine::try_new(cfg.depth.settings(variant, base))?));
        }
        let (_, eng) = engine.as_mut().expect("made above");
        for (i, (pos, mv)) in g.plies().into_iter().enumerate() {
            if mv == Move::Pass {
                continue;
            }
            let ply = i + 1;
            if let Some(r) = done.get(&(g.id.clone(), ply)) {
                records.push(r.clone());
                continue;
            }
            if stop.load(Ordering::Relaxed) {
                interrupted = true;
                break 'games;
            }
            let review = review_move(eng, &pos, mv, cfg.depth, stop);
            if stop.load(Ordering::Relaxed) {
                // Cut short: not a review to keep.
                interrupted = true;
                break 'games;
            }
            let player = match pos.side {
                crate::rules::color::Color::Black => &g.black,
                crate::rules::color::Color::White => &g.white,
            };
            let record = MoveRecord::new(
                &g.id,
                ply,
                player,
                pos.side,
                variant,
                pos.empty_count(),
                moves_text(&g.moves[..=i]),
                &review,
            );
            if let Some(w) = writer.as_mut() {
                w.append(&(record.to_json() + "\n"))?;
            }
            records.push(record);
            progress.moved(gi);
        }
        progress.game_done(gi + 1);
    }
    progress.finish();
    Ok(Analysis {
        games,
        records,
        interrupted,
    })
}

/// The progress line on stderr: games and moves done, the time a move
/// takes, and an estimate of the time left; at most every two seconds.
struct Progress {
    on: bool,
    games: usize,
    to_do: usize,
    done: usize,
    games_done: usize,
    start: Instant,
    last: Option<Instant>,
    tty: bool,
}

impl Progress {
    fn new(on: bool, games: usize, to_do: usize) -> Progress {
        use std::io::IsTerminal;
        Progress {
            on: on && to_do > 0,
            games,
            to_do,
            done: 0,
            games_done: 0,
            start: Instant::now(),
            last: None,
            tty: std::io::stderr().is_terminal(),
        }
    }

    fn moved(&mut self, _game: usize) {
        self.done += 1;
        self.show(false);
    }

    fn game_done(&mut self, games_done: usize) {
        self.games_done = games_done;
        self.show(false);
    }

    fn show(&mut self, last: bool) {
        if !self.on {
            return;
        }
        let now = Instant::now();
        if !last && self.last.is_some_and(|t| now - t < Duration::from_secs(2)) {
            return;
        }
        self.last = Some(now);
        let secs = self.start.elapsed().as_secs_f64();
        let per_move = if self.done > 0 {
            secs / self.done as f64
        } else {
            0.0
        };
        let left = per_move * (self.to_do - self.done) as f64;
        let width = 30;
        let filled = width * self.done / self.to_do.max(1);
        let bar: String = "#".repeat(filled) + &"-".repeat(width - filled);
        let line = format!(
            "analyze [{bar}] {}/{} games, {}/{} moves, {per_move:.2} s a move, about {} left",
            self.games_done,
            self.games,
            self.done,
            self.to_do,
            duration_text(left)
        );
        if self.tty {
            eprint!("\r{line}\x1b[K");
        } else {
            eprintln!("{line}");
        }
    }

    fn finish(&mut self) {
        if self.on {
            self.show(true);
            if self.tty {
                eprintln!();
            }
        }
    }
}

/// `1h 02m`, `4m 05s`, `12s`.
fn duration_text(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    if s >= 3600 {
        format!("{}h {:02}m", s / 3600, s / 60 % 60)
    } else if s >= 60 {
        format!("{}m {:02}s", s / 60, s % 60)
    } else {
        format!("{s}s")
    }
}
