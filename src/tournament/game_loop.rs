//! The runner's game threads: each loops taking games off the shared queue
//! and playing them with engine processes of its own; and the preflight that starts
//! every engine once before a run.

use super::client::EngineProcess;
use super::config::Config;
use super::openings::Opening;
use super::referee::{play_game, Played};
use super::schedule::ScheduledGame;
use super::types::Reason;
use crate::protocol::Protocol;
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};

/// Starts each engine once to check it can play this run, then stops it.
pub(super) fn preflight(cfg: &Config, abort: &Arc<AtomicBool>) -> Result<(), String> {
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
        evals: Vec::new(),
        last: start,
        winner: Some(side.other()),
        reason: Reason::Crash,
        fault: Some(side),
        detail,
        used: [0.0; 2],
    }
}

/// One game thread: takes games off the queue and plays them with its own processes.
pub(super) fn game_loop(
    cfg: &Config,
    queue: &Mutex<VecDeque<ScheduledGame>>,
    openings: &[Opening],
    stop: &AtomicBool,
    abort: &Arc<AtomicBool>,
    tx: &Sender<(ScheduledGame, Played)>,
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
