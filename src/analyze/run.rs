//! `mollett analyze`: every move of every game reviewed, in order, shard by
//! shard, each written to `--out` as it is done so that Ctrl-C and
//! `--resume` lose nothing already analysed.

use super::progress::Progress;
use super::record::{read_analysis, read_analysis_from, AnalysisFile, MoveRecord, RunSettings};
use super::sources::{file_kind, read_games, FileKind, ReviewGame};
use crate::engine::review::{review_move_after, ReviewDepth};
use crate::engine::search::{Engine, Settings};
use crate::files::Writer;
use crate::rules::color::{Color, Variant};
use crate::rules::moveline::moves_text;
use crate::rules::square::Move;
use std::collections::{BTreeMap, HashMap};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

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

/// Where each game's reviews go as soon as the game is done (stdout), in
/// game order whatever the threads: `given` first, once, with the records
/// read from analysis files; then `game` with each reviewed game's records
/// (all of them, those `--resume` found included), the games before it
/// already handed over. A game cut short (Ctrl-C) is handed over at the
/// end with the moves it has. An `Err` (a closed stdout) ends the run.
pub trait Output: Send {
    fn given(&mut self, records: &[MoveRecord]) -> Result<(), String>;
    fn game(&mut self, game: &ReviewGame, records: &[MoveRecord]) -> Result<(), String>;
}

/// Reads every file, then reviews the shard's games (Ctrl-C, through
/// `stop`, ends the run after the last whole move), each game handed to
/// `output` as it is done.
pub fn run(
    cfg: &AnalyzeConfig,
    stop: &AtomicBool,
    output: &mut dyn Output,
) -> Result<Analysis, String> {
    let mut games: Vec<ReviewGame> = Vec::new();
    let mut given: Vec<MoveRecord> = Vec::new();
    for f in &cfg.files {
        let before = (games.len(), given.len());
        match kind_of(f)? {
            FileKind::Analysis => given.extend(read_analysis(f)?.records),
            kind => games.extend(read_games(f, kind, cfg.variant)?),
        }
        if (games.len(), given.len()) == before {
            let empty = std::fs::metadata(f).is_ok_and(|m| m.len() == 0);
            return Err(format!(
                "{}: {}; give a file of games",
                f.display(),
                if empty { "is empty" } else { "holds no games" }
            ));
        }
    }
    let (k, n) = cfg.shard;
    let games: Vec<ReviewGame> = games
        .into_iter()
        .enumerate()
        .filter(|(i, _)| i % n == k - 1)
        .map(|(_, g)| g)
        .collect();
    let settings = RunSettings::new(cfg.variant, &cfg.depth, cfg.hash_mb);
    let mut writer = None;
    let mut done: Vec<MoveRecord> = Vec::new();
    if let Some(out) = &cfg.out {
        let mut w = Writer::lock(out)?;
        let bytes = w.read()?;
        if bytes.is_empty() {
            w.append(&(settings.to_json() + "\n"))?;
        } else {
            if !cfg.resume {
                return Err(format!(
                    "{} exists; pass --resume to continue it, or remove it",
                    out.display()
                ));
            }
            let file = read_analysis_from(out, &bytes[..])?;
            check_resumed(out, &file, &settings, &games)?;
            done = file.records;
            w.truncate(file.whole_len)?;
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

    output.given(&given)?;
    let progress = Mutex::new(Progress::new(cfg.progress, games.len(), to_do));
    let sink = Mutex::new(Sink {
        writer,
        output,
        games: &games,
        next: 0,
        waiting: BTreeMap::new(),
        error: None,
    });
    let next_game = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let results: Mutex<Vec<Option<Vec<MoveRecord>>>> = Mutex::new(vec![None; games.len()]);
    // `--threads N`: N games at once, one search thread each, so that each
    // move's review is the one a single thread makes (a search of several
    // threads varies from run to run).
    let workers = cfg.threads.clamp(1, games.len().max(1));
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| {
                let mut engine: Option<(Variant, Engine)> = None;
                loop {
                    let gi = next_game.fetch_add(1, Ordering::SeqCst);
                    if gi >= games.len() || failed.load(Ordering::SeqCst) {
                        return;
                    }
                    let g = &games[gi];
                    let variant = g.start.variant;
                    if engine.as_ref().is_none_or(|(v, _)| *v != variant) {
                        let base = Settings {
                            threads: 1,
                            hash_mb: cfg.hash_mb,
                            ..Settings::default()
                        };
                        match Engine::try_new(cfg.depth.settings(variant, base)) {
                            Ok(e) => engine = Some((variant, e)),
                            Err(e) => {
                                sink.lock().expect("sink").fail(e);
                                failed.store(true, Ordering::SeqCst);
                                return;
                            }
                        }
                    }
                    let (_, eng) = engine.as_mut().expect("made above");
                    let (records, whole) = review_game(g, eng, cfg.depth, &done, stop, |record| {
                        progress.lock().expect("progress").moved(gi);
                        sink.lock().expect("sink").add(gi, record);
                    });
                    {
                        let mut sink = sink.lock().expect("sink");
                        sink.finish(gi, records.clone(), whole);
                        if sink.error.is_some() {
                            failed.store(true, Ordering::SeqCst);
                        }
                    }
                    progress.lock().expect("progress").game_done();
                    results.lock().expect("results")[gi] = Some(records);
                    if !whole {
                        return;
                    }
                }
            });
        }
    });
    let mut sink = sink.into_inner().expect("sink");
    // Reviews held back for order behind a game cut short are written
    // now, whole lines: `--resume` finds them by game and ply.
    sink.flush_all();
    if let Some(e) = sink.error {
        return Err(e);
    }
    if let Some(w) = sink.writer.take() {
        in_order(w, &games)?;
    }
    progress.into_inner().expect("progress").finish();
    let mut records = given;
    let mut interrupted = false;
    for (g, r) in games.iter().zip(results.into_inner().expect("results")) {
        match r {
            Some(r) => {
                interrupted |= r.len() < reviewable(g);
                records.extend(r);
            }
            None => interrupted = true,
        }
    }
    Ok(Analysis {
        games,
        records,
        interrupted,
    })
}

/// The moves of `g` that are reviewed (not passes).
fn reviewable(g: &ReviewGame) -> usize {
    g.moves.iter().filter(|&&m| m != Move::Pass).count()
}

/// The reviews of `g`'s moves, in order: those in `done` as they are, the
/// others made with `eng` and handed to `each` as they are made. `false`
/// when `stop` cut the game short.
fn review_game(
    g: &ReviewGame,
    eng: &mut Engine,
    depth: ReviewDepth,
    done: &HashMap<(String, usize), MoveRecord>,
    stop: &AtomicBool,
    mut each: impl FnMut(&MoveRecord),
) -> (Vec<MoveRecord>, bool) {
    let variant = g.start.variant;
    let mut records = Vec::new();
    let plies = g.plies();
    let is_done = |i: usize| done.get(&(g.id.clone(), i + 1));
    // The last ply still to review.
    let last = (0..plies.len()).rfind(|&i| plies[i].1 != Move::Pass && is_done(i).is_none());
    // One table for the whole game, cleared at its start: each review
    // starts from the table the one before left, so it searches positions
    // the previous ply searched already (a move's estimate then depends on
    // the game's plies before it, never on the thread count, the order of
    // games or where a run was cut and resumed; exact values not at all).
    eng.clear();
    for (i, &(pos, mv)) in plies.iter().enumerate() {
        if mv == Move::Pass {
            continue;
        }
        let ply = i + 1;
        let done = is_done(i);
        if let Some(r) = done {
            records.push(r.clone());
            // A ply done before a ply still to review is reviewed again,
            // its record kept: the table must be the one an unbroken run
            // leaves to the next.
            if last.is_none_or(|l| l <= i) {
                continue;
            }
        }
        if stop.load(Ordering::Relaxed) {
            return (records, false);
        }
        let review = review_move_after(eng, &pos, mv, depth, stop);
        if done.is_some() {
            continue;
        }
        if stop.load(Ordering::Relaxed) {
            // Cut short: not a review to keep.
            return (records, false);
        }
        let player = match pos.side {
            Color::Black => &g.black,
            Color::White => &g.white,
        };
        let mut record = MoveRecord::new(
            &g.id,
            ply,
            player,
            pos.side,
            variant,
            pos.empty_count(),
            moves_text(&g.moves[..=i]),
            &depth,
            &review,
        );
        record.event = g.event.clone();
        each(&record);
        records.push(record);
    }
    (records, true)
}

/// Refuses to resume `file` (the `--out` file `out`) unless its settings
/// are this run's and each game it holds is a game of this run with the
/// same moves.
fn check_resumed(
    out: &Path,
    file: &AnalysisFile,
    now: &RunSettings,
    games: &[ReviewGame],
) -> Result<(), String> {
    let shown = out.display();
    let Some(was) = &file.settings else {
        return Err(format!(
            "{shown}: has no settings line (an older mollett's file?), so its values cannot be trusted to match; analyse into a new file"
        ));
    };
    let differ = was.differences(now);
    if !differ.is_empty() {
        return Err(format!(
            "{shown}: was made with other settings: {}; resume with the same, or give a new --out",
            differ.join(", ")
        ));
    }
    let by_id: HashMap<&str, &ReviewGame> = games.iter().map(|g| (g.id.as_str(), g)).collect();
    for r in &file.records {
        let Some(g) = by_id.get(r.game.as_str()) else {
            return Err(format!(
                "{shown}: game {} is not in this run's list; resume with the same files and shard",
                r.game
            ));
        };
        let line = (r.ply <= g.moves.len()).then(|| moves_text(&g.moves[..r.ply]));
        if line.as_deref() != Some(r.line.as_str()) {
            return Err(format!(
                "{shown}: game {} holds other moves than the ones reviewed at its ply {} ({}); resume with the same files, or give a new --out",
                r.game, r.ply, r.line
            ));
        }
    }
    Ok(())
}

/// Puts the records of the `--out` file `w` in game and ply order where
/// they are not: a run cut short with several threads writes the games
/// that wait behind an unfinished one, and its resume then appends the
/// rest of that game after them. Replaced whole (all or nothing), the
/// lines themselves unchanged; the settings line stays first.
fn in_order(w: Writer, games: &[ReviewGame]) -> Result<(), String> {
    let bytes = w.read()?;
    let text = String::from_utf8_lossy(&bytes);
    let mut lines: Vec<&str> = text.lines().collect();
    if lines.len() < 2 {
        return Ok(());
    }
    let index: HashMap<&str, usize> = games
        .iter()
        .enumerate()
        .map(|(i, g)| (g.id.as_str(), i))
        .collect();
    // A line that is no record of this run's games (none, after the
    // resume's checks) stays at the end.
    let key = |line: &str| {
        MoveRecord::parse(line)
            .ok()
            .and_then(|r| Some((*index.get(r.game.as_str())?, r.ply)))
            .unwrap_or((usize::MAX, 0))
    };
    let records = &mut lines[1..];
    if records.is_sorted_by_key(|l| key(l)) {
        return Ok(());
    }
    records.sort_by_cached_key(|l| key(l));
    let sorted: String = lines.iter().map(|l| format!("{l}\n")).collect();
    crate::files::replace(w.path(), sorted.as_bytes())
}

/// Where reviews go as they are made: the `--out` file a line at a time,
/// and each whole game to the [`Output`], both in game order (a game's
/// reviews wait until the games before it are whole), so that a run gives
/// the file and the stdout one thread gives.
struct Sink<'a> {
    writer: Option<Writer>,
    output: &'a mut dyn Output,
    games: &'a [ReviewGame],
    /// The first game not yet whole.
    next: usize,
    /// Games from `next` on: lines not yet in the file, the game's records
    /// once it is done, and whether it is whole.
    waiting: BTreeMap<usize, Waiting>,
    error: Option<String>,
}

#[derive(Default)]
struct Waiting {
    lines: String,
    records: Option<Vec<MoveRecord>>,
    whole: bool,
}

impl Sink<'_> {
    fn fail(&mut self, e: String) {
        self.error.get_or_insert(e);
    }

    fn add(&mut self, game: usize, record: &MoveRecord) {
        if self.writer.is_none() {
            return;
        }
        let line = record.to_json() + "\n";
        if game == self.next {
            self.write(&line);
        } else {
            self.waiting.entry(game).or_default().lines.push_str(&line);
        }
    }

    /// Game `game` is done with `records` (`whole`: to its end): the games
    /// from the first one not yet whole go out in order as far as they are
    /// whole.
    fn finish(&mut self, game: usize, records: Vec<MoveRecord>, whole: bool) {
        let w = self.waiting.entry(game).or_default();
        w.records = Some(records);
        w.whole = whole;
        while self.waiting.get(&self.next).is_some_and(|w| w.whole) {
            let w = self.waiting.remove(&self.next).expect("just seen");
            self.pass_on(self.next, w);
            self.next += 1;
            // The new first game's lines so far; later ones go straight out.
            if let Some(w) = self.waiting.get_mut(&self.next) {
                let pending = std::mem::take(&mut w.lines);
                self.write(&pending);
            }
        }
    }

    /// A game's lines not yet written, then its records to the output.
    fn pass_on(&mut self, game: usize, w: Waiting) {
        self.write(&w.lines);
        if let (Some(records), None) = (w.records, &self.error) {
            if let Err(e) = self.output.game(&self.games[game], &records) {
                self.fail(e);
            }
        }
    }

    /// At the end: what waits behind a game cut short, in order, whole
    /// lines (`--resume` finds them by game and ply).
    fn flush_all(&mut self) {
        let waiting = std::mem::take(&mut self.waiting);
        for (game, w) in waiting {
            self.pass_on(game, w);
        }
    }

    fn write(&mut self, text: &str) {
        if text.is_empty() || self.error.is_some() {
            return;
        }
        if let Some(w) = self.writer.as_mut() {
            if let Err(e) = w.append(text) {
                self.error = Some(e);
            }
        }
    }
}
