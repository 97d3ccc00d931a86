//! The text protocol (GTP version 2 framing, Othello commands): see `protocol.md`.
//!
//! Three threads: a reader turns input lines into events, a worker runs
//! searches (and perft, bench), and the protocol loop between them owns the
//! session and writes every answer, strictly in input order.

pub mod command;
pub mod options;
pub mod parse;
pub mod response;
pub mod session;

use crate::color::Variant;
use crate::search::Engine;
use parse::{Request, MAX_LINE};
use response::Responder;
use session::{Action, Job, JobOutput, Pending, Session};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Sender};
use std::sync::Arc;
use std::thread;

pub use command::{Command, CommandSpec, COMMANDS};
pub use options::{Options, OPTIONS};

/// What the protocol loop waits for.
enum Event {
    /// A raw line (without its line feed), and whether it was cut at `MAX_LINE`.
    Line(Vec<u8>, bool),
    /// End of input (or a read error).
    Eof,
    /// The worker finished; it hands the searcher back.
    Done(Engine, JobOutput),
    /// The worker panicked; the searcher is lost.
    Failed,
}

/// The command whose job is running on the worker.
struct Running {
    id: Option<String>,
    pending: Pending,
    stop: Arc<AtomicBool>,
}

/// Runs the protocol until `quit` or end of input, then returns. After a
/// `quit` during a search the search thread is told to stop but not waited
/// for: the caller should exit the process.
///
/// At end of input the running search is stopped; it and the commands read
/// before the end are answered (searches return their best move so far at
/// once), then `run` returns.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, reader_tx))?;
    let mut out = Responder::new(output);
    let mut session = Session::new(variant);
    let mut queue: VecDeque<Request> = VecDeque::new();
    let mut running: Option<Running> = None;
    let mut eof = false;
    loop {
        while running.is_none() {
            let Some(request) = queue.pop_front() else {
                break;
            };
            let command = match request.command {
                Ok(command) => command,
                Err(message) => {
                    out.answer(request.id.as_deref(), &Err(message))?;
                    continue;
                }
            };
            log::debug!("command {command:?}");
            let action = panic::catch_unwind(AssertUnwindSafe(|| session.execute(command)))
                .unwrap_or_else(|_| Action::Answer(Err("internal error".into())));
            match action {
                Action::Answer(answer) => out.answer(request.id.as_deref(), &answer)?,
                Action::Quit => {
                    out.answer(request.id.as_deref(), &Ok(String::new()))?;
                    return Ok(());
                }
                Action::Start(job, pending) => {
                    let stop = Arc::new(AtomicBool::new(eof));
                    match spawn_job(session.take_engine(), job, stop.clone(), tx.clone()) {
                        Ok(()) => {
                            running = Some(Running {
                                id: request.id,
                                pending,
                                stop,
                            })
                        }
                        Err(e) => {
                            log::error!("cannot start the worker: {e}");
                            session.restore_engine(None);
                            out.answer(request.id.as_deref(), &Err("cannot start search".into()))?;
                        }
                    }
                }
            }
        }
        if eof && running.is_none() {
            return Ok(());
        }
        let event = match rx.recv() {
            Ok(event) => event,
            Err(_) => return Ok(()), // unreachable: `tx` is alive
        };
        match event {
            Event::Line(raw, overlong) => {
                let Some(request) = parse::request(&raw, overlong) else {
                    continue;
                };
                if let Some(run) = &running {
                    match request.command {
                        Ok(Command::Stop) => run.stop.store(true, Ordering::SeqCst),
                        Ok(Command::Quit) => {
                            run.stop.store(true, Ordering::SeqCst);
                            // One answer per command, in order, even now.
                            let interrupted = Err("interrupted by quit".to_string());
                            out.answer(run.id.as_deref(), &interrupted)?;
                            for r in &queue {
                                out.answer(r.id.as_deref(), &interrupted)?;
                            }
                            out.answer(request.id.as_deref(), &Ok(String::new()))?;
                            return Ok(());
                        }
                        _ => {}
                    }
                }
                queue.push_back(request);
            }
            Event::Eof => {
                eof = true;
                if let Some(run) = &running {
                    run.stop.store(true, Ordering::SeqCst);
                }
            }
            Event::Done(engine, output) => {
                session.restore_engine(Some(engine));
                if let Some(run) = running.take() {
                    let answer = session.finish(run.pending, output);
                    out.answer(run.id.as_deref(), &answer)?;
                }
            }
            Event::Failed => {
                session.restore_engine(None);
                if let Some(run) = running.take() {
                    out.answer(run.id.as_deref(), &Err("internal error".into()))?;
                }
            }
        }
    }
}

fn spawn_job(engine: Engine, job: Job, stop: Arc<AtomicBool>, tx: Sender<Event>) -> io::Result<()> {
    thread::Builder::new()
        .name("search".into())
        .stack_size(64 << 20)
        .spawn(move || {
            let mut engine = engine;
            let output = panic::catch_unwind(AssertUnwindSafe(|| job.run(&mut engine, &stop)));
            let _ = tx.send(match output {
                Ok(output) => Event::Done(engine, output),
                Err(_) => Event::Failed,
            });
        })?;
    Ok(())
}

/// The reader thread: lines as bytes (invalid UTF-8 must not end the input),
/// each cut at `MAX_LINE` bytes so a huge line cannot exhaust memory.
fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>) {
    loop {
        match read_line(&mut input) {
            Ok(Some((line, overlong))) => {
                if tx.send(Event::Line(line, overlong)).is_err() {
                    return;
                }
            }
            Ok(None) => break,
            Err(e) => {
                log::error!("reading input: {e}");
                break;
            }
        }
    }
    let _ = tx.send(Event::Eof);
}

/// One line without its line feed, at most `MAX_LINE` bytes of it kept;
/// the flag says more were dropped. `None` at end of input.
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<(Vec<u8>, bool)>> {
    let mut line = Vec::new();
    let mut overlong = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            return Ok(any.then_some((line, overlong)));
        }
        any = true;
        let newline = buf.iter().position(|&b| b == b'\n');
        let chunk = &buf[..newline.unwrap_or(buf.len())];
        let room = MAX_LINE - line.len();
        if chunk.len() > room {
            overlong = true;
        }
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let used = newline.map_or(buf.len(), |i| i + 1);
        input.consume(used);
        if newline.is_some() {
            return Ok(Some((line, overlong)));
        }
    }
}
