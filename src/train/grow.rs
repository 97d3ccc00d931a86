//! `mollett selfplay --corpus`: whole games into a corpus file that grows
//! across runs, shards and machines, one writer at a time, resumable after
//! a kill without losing or repeating a game.

use super::corpus::{self, CorpusGame, Header};
use super::selfplay::{engine, play_game, SelfplayConfig};
use crate::engine::eval::{EvalKind, Evaluator};
use crate::files::Writer;
use crate::rules::color::Color;
use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What a corpus run did.
#[derive(Clone, Copy, Debug, Default)]
pub struct CorpusStats {
    /// Games already in the file when the run started (this shard's).
    pub present: usize,
    /// Games this run added.
    pub added: usize,
    /// Games of this shard still missing (stopped early).
    pub missing: usize,
}

/// The header a corpus run writes: everything that decides its games
/// (with `--wthor`, which games and plies start them instead of the
/// random plies).
pub fn corpus_header(cfg: &SelfplayConfig, eval: &str, bench: u64) -> Result<Header, String> {
    if !cfg.openings.is_empty() {
        return Err("--corpus plays from the start position; --openings is not supported".into());
    }
    if cfg.min_empties != 0 || cfg.max_record_empties != 60 {
        return Err(
            "--corpus records whole games; --min-empties and --max-record-empties do not apply"
                .into(),
        );
    }
    let mut fields = vec![("depth", cfg.depth.to_string())];
    match &cfg.wthor {
        Some(w) => fields.extend(w.header_fields()),
        None => fields.push(("random_plies", cfg.random_plies.to_string())),
    }
    fields.extend([
        ("random_prob", cfg.random_prob.to_string()),
        ("eval", eval.to_string()),
        ("seed", cfg.seed.to_string()),
        ("bench", bench.to_string()),
    ]);
    Ok(Header::new(cfg.variant, cfg.exact_empties, &fields))
}

/// Plays this shard's games `0..cfg.games` that `file` (locked by the caller) does not hold yet, on
/// `threads` threads, appending one line per finished game. A new file gets
/// `header`; an existing one must have the same header (else the games would
/// not be the ones its seed names), and a torn last line left by a kill is
/// cut off first. `make_eval` gives each thread its evaluator; `stop` ends the
/// run between games. Every game is written whole by one `write`, so a
/// killed run loses at most the games in flight, and a rerun plays them.
pub fn run_corpus(
    cfg: &SelfplayConfig,
    header: &Header,
    make_eval: &(dyn Fn() -> Result<Box<dyn Evaluator>, String> + Sync),
    mut file: Writer,
    threads: usize,
    stop: &AtomicBool,
) -> Result<CorpusStats, String> {
    let (si, sn) = cfg.shard;
    if si == 0 || si > sn {
        return Err("--shard i/n needs 1 <= i <= n".into());
    }
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    let path = file.path().to_path_buf();
    let shown = path.display();
    let mut done = HashSet::new();
    let bytes = file.read()?;
    if bytes.is_empty() {
        file.append(&format!("{}\n", header.to_line()))?;
    } else {
        let c = corpus::parse(&bytes).map_err(|e| format!("{shown}: {e}"))?;
        if c.header != *header {
            return Err(format!(
                "{shown} was made with other settings:\n  file: {}\n  this run: {}\nwrite to a new file",
                c.header.to_line(),
                header.to_line()
            ));
        }
        for s in &c.skipped {
            eprintln!("selfplay: {shown}: {s} (skipped)");
        }
        file.truncate(c.complete_len)?;
        done.extend(c.games.iter().map(|g| g.index as usize));
    }
    let mine: Vec<usize> = (0..cfg.games).filter(|k| k % sn == si - 1).collect();
    let todo: Vec<usize> = mine.iter().copied().filter(|k| !done.contains(k)).collect();
    let mut stats = CorpusStats {
        present: mine.len() - todo.len(),
        ..CorpusStats::default()
    };
    if cfg.progress {
        eprintln!(
            "selfplay: {shown}: {} of this shard's {} games present, {} to play on {threads} threads",
            stats.present,
            mine.len(),
            todo.len()
        );
    }
    let next = AtomicUsize::new(0);
    let start = Instant::now();
    let (tx, rx) = mpsc::channel::<Result<String, String>>();
    let written = std::thread::scope(|scope| -> Result<(), String> {
        for _ in 0..threads.min(todo.len().max(1)) {
            let tx = tx.clone();
            let (next, todo) = (&next, &todo);
            scope.spawn(move || {
                let evaluator = match make_eval() {
                    Ok(e) => e,
                    Err(e) => return drop(tx.send(Err(e))),
                };
                let mut engine = engine(cfg);
                engine.set_evaluator(evaluator);
                loop {
                    let late = cfg.max_time.is_some_and(|t| start.elapsed() >= t);
                    if stop.load(Ordering::Relaxed) || late {
                        return;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&k) = todo.get(i) else { return };
                    let (moves, end) = play_game(cfg, &mut engine, k, &mut |_| {});
                    let moves = moves.expect("corpus games start from the start position");
                    let record = CorpusGame {
                        index: k as u64,
                        moves: moves
                            .into_iter()
                            .filter_map(|(mv, random)| mv.square().map(|sq| (sq, random)))
                            .collect(),
                        result: end.discs_of(Color::Black).count_ones() as i32
                            - end.discs_of(Color::White).count_ones() as i32,
                    };
                    if tx.send(Ok(record.to_line() + "\n")).is_err() {
                        return;
                    }
                }
            });
        }
        drop(tx);
        let mut last_report = Instant::now();
        for line in rx {
            file.append(&line?)?;
            stats.added += 1;
            if cfg.progress && last_report.elapsed() >= Duration::from_secs(10) {
                last_report = Instant::now();
                let secs = start.elapsed().as_secs_f64();
                eprintln!(
                    "selfplay: {}/{} games, {:.0} s, {:.2} games/s",
                    stats.added,
                    todo.len(),
                    secs,
                    stats.added as f64 / secs.max(1e-9)
                );
            }
        }
        Ok(())
    });
    if let Err(e) = written {
        stop.store(true, Ordering::Relaxed);
        return Err(e);
    }
    stats.missing = todo.len() - stats.added;
    Ok(stats)
}

/// `mollett selfplay --corpus`: adds this shard's missing games to the
/// corpus file at `path` (see [`run_corpus`]), the header naming `eval` and
/// the bench signature of this binary.
pub fn grow_corpus(
    cfg: &SelfplayConfig,
    eval: &EvalKind,
    path: &Path,
    threads: usize,
    stop: &AtomicBool,
) -> Result<CorpusStats, String> {
    eval.try_evaluator()?;
    if super::corpus::is_chunk(path) {
        return Err(format!(
            "{}: is a sealed chunk and is never written; play into an open .games file \
             (corpus/open/SERIES.games) and seal it (`mollett corpus seal`)",
            path.display()
        ));
    }
    // The lock comes first: a second run on this file stops here, before
    // it reads (and would truncate) what the first is appending.
    let file = Writer::lock(path)?;
    let (bench, _) = crate::engine::bench::run();
    let header = corpus_header(cfg, &eval.to_string(), bench)?;
    run_corpus(cfg, &header, &|| eval.try_evaluator(), file, threads, stop)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::Handcrafted;
    use crate::rules::color::Variant;
    use crate::rules::square::Square;
    use crate::train::wthor::WthorStarts;
    use std::io::Write;
    use std::sync::Arc;

    #[test]
    fn a_corpus_run_resumes_after_a_kill_without_losing_or_repeating_a_game() {
        let tmp = tempfile::Builder::new()
            .prefix("mollett-corpus-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        let cfg = SelfplayConfig {
            variant: Variant::Classic,
            games: 6,
            depth: 2,
            exact_empties: 8,
            progress: false,
            hash_mb: 1,
            ..SelfplayConfig::default()
        };
        let header = corpus_header(&cfg, "handcrafted", 0).unwrap();
        let eval = || Ok(Box::new(Handcrafted::default()) as Box<dyn Evaluator>);
        let stop = AtomicBool::new(false);
        // One run on two threads, all at once.
        let whole = dir.join("whole.games");
        let s = run_corpus(
            &cfg,
            &header,
            &eval,
            Writer::lock(&whole).unwrap(),
            2,
            &stop,
        )
        .unwrap();
        assert_eq!((s.present, s.added, s.missing), (0, 6, 0));
        // Another in steps: 3 games, then a torn line as a kill leaves, then the rest.
        let steps = dir.join("steps.games");
        let few = SelfplayConfig {
            games: 3,
            ..cfg.clone()
        };
        run_corpus(
            &few,
            &header,
            &eval,
            Writer::lock(&steps).unwrap(),
            1,
            &stop,
        )
        .unwrap();
        let mut f = std::fs::OpenOptions::new()
            .append(true)
            .open(&steps)
            .unwrap();
        f.write_all(b"4 e4e3c5").unwrap();
        let s = run_corpus(
            &cfg,
            &header,
            &eval,
            Writer::lock(&steps).unwrap(),
            1,
            &stop,
        )
        .unwrap();
        assert_eq!((s.present, s.added), (3, 3));
        let read = |p: &Path| {
            let c = corpus::read(p).unwrap();
            assert!(c.skipped.is_empty(), "{:?}", c.skipped);
            let mut g = c.games;
            g.sort_by_key(|g| g.index);
            g
        };
        let (a, b) = (read(&whole), read(&steps));
        assert_eq!(a.len(), 6);
        assert_eq!(
            a, b,
            "the same games, whatever the threads and interruptions"
        );
        // A run made another way is refused rather than mixed in.
        let deeper = corpus_header(
            &SelfplayConfig {
                depth: 3,
                ..cfg.clone()
            },
            "handcrafted",
            0,
        )
        .unwrap();
        assert!(run_corpus(
            &cfg,
            &deeper,
            &eval,
            Writer::lock(&steps).unwrap(),
            1,
            &stop
        )
        .unwrap_err()
        .contains("other settings"));
    }

    #[test]
    fn wthor_started_games_resume_and_shard_to_the_same_games_from_tournament_prefixes() {
        let tmp = tempfile::Builder::new()
            .prefix("mollett-wthor-sp-")
            .tempdir()
            .unwrap();
        let dir = tmp.path().to_path_buf();
        let wthor = Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus/wthor");
        let files = [wthor.join("WTH_1977.wtb"), wthor.join("WTH_1978.wtb")];
        let starts = Arc::new(WthorStarts::load(&files, (8, 40)).unwrap());
        let cfg = SelfplayConfig {
            games: 6,
            depth: 2,
            exact_empties: 8,
            random_prob: 0.05,
            wthor: Some(starts.clone()),
            progress: false,
            hash_mb: 1,
            ..SelfplayConfig::default()
        };
        let header = corpus_header(&cfg, "handcrafted", 0).unwrap();
        assert_eq!(header.get("wthor"), Some("1977-1978"));
        assert_eq!(header.get("wthor_plies"), Some("8-40"));
        assert_eq!(header.get("random_plies"), None);
        let eval = || Ok(Box::new(Handcrafted::default()) as Box<dyn Evaluator>);
        let stop = AtomicBool::new(false);
        let whole = dir.join("whole.games");
        run_corpus(
            &cfg,
            &header,
            &eval,
            Writer::lock(&whole).unwrap(),
            2,
            &stop,
        )
        .unwrap();
        // Two shards into one file, the first interrupted after 2 games.
        let split = dir.join("split.games");
        let shard = |i, games| SelfplayConfig {
            shard: (i, 2),
            games,
            ..cfg.clone()
        };
        let run = |c: &SelfplayConfig| {
            run_corpus(c, &header, &eval, Writer::lock(&split).unwrap(), 1, &stop).unwrap()
        };
        run(&shard(1, 3));
        run(&shard(2, 6));
        run(&shard(1, 6));
        let read = |p: &Path| {
            let c = corpus::read(p).unwrap();
            assert!(c.skipped.is_empty(), "{:?}", c.skipped);
            let mut g = c.games;
            g.sort_by_key(|g| g.index);
            g
        };
        let games = read(&whole);
        assert_eq!(games.len(), 6);
        assert_eq!(games, read(&split));
        for g in &games {
            // Each game opens with at least 8 given moves of one tournament game.
            let given = g.moves.iter().take_while(|&&(_, given)| given).count();
            assert!(given >= 8, "{}", g.to_line());
            let moves: Vec<Square> = g.moves.iter().map(|&(sq, _)| sq).collect();
            assert!(
                starts
                    .games
                    .iter()
                    .any(|w| w.len() >= 8 && w[..8] == moves[..8]),
                "{}",
                g.to_line()
            );
        }
        // Other plies make other games: the header refuses to mix them.
        let other = SelfplayConfig {
            wthor: Some(Arc::new(WthorStarts::load(&files, (10, 20)).unwrap())),
            ..cfg.clone()
        };
        let other = corpus_header(&other, "handcrafted", 0).unwrap();
        assert!(
            run_corpus(&cfg, &other, &eval, Writer::lock(&whole).unwrap(), 1, &stop)
                .unwrap_err()
                .contains("other settings")
        );
    }
}
