//! The text protocols: GTP version 2 framing with Othello commands (see
//! `protocol.md`), and NBoard's protocol (`nboard.rs`).
//!
//! Three threads: a reader turns input lines into events, a worker runs
//! searches (and perft, bench), and the protocol loop between them owns the
//! dialect's state and writes every answer, strictly in input order. The
//! loop is shared by both dialects through the [`Dialect`] trait.

pub mod command;
pub mod job;
pub mod nboard;
pub mod options;
pub mod parse;
pub mod response;
pub mod session;

use crate::engine::search::Engine;
use crate::rules::color::Variant;
use job::{Job, JobOutput};
use parse::Request;
use response::Responder;
use session::{Action, Session};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::thread;

pub use command::{Command, CommandSpec, COMMANDS};
pub use options::{Options, OPTIONS};

/// A text protocol: the one Mollett speaks, and the one the match runner
/// speaks to an engine process.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Protocol {
    /// GTP. Mollett itself switches to NBoard when the first line is
    /// `nboard <version>`.
    #[default]
    Gtp,
    /// NBoard from the first line.
    Nboard,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s.to_ascii_lowercase().as_str() {
            "gtp" => Ok(Protocol::Gtp),
            "nboard" => Ok(Protocol::Nboard),
            _ => Err(format!("unknown protocol '{s}' (gtp or nboard)")),
        }
    }
}

/// What the protocol loop waits for.
enum Event {
    /// A raw line (without its line feed), and whether it was cut at `MAX_LINE`.
    Line(Vec<u8>, bool),
    /// End of input (or a read error).
    Eof,
    /// The worker finished; it hands the searcher back.
    Done(Box<Engine>, JobOutput),
    /// The worker panicked; the searcher is lost.
    Failed,
}

/// What a line read while a job runs does to the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interrupt {
    /// Nothing: the line waits its turn.
    None,
    /// Stop the job (it answers with what it has), then the line waits its turn.
    Stop,
    /// Stop the job and end the session at once (see [`Dialect::quit_during_job`]).
    Quit,
}

/// What the loop does after executing a request.
pub(crate) enum Step<P> {
    Continue,
    Quit,
    /// Run a job on the worker; its output goes to [`Dialect::finish`] with `P`.
    Start(Job, P),
}

/// A line protocol run by [`drive`]: it parses lines, executes them (writing
/// its own answers) and turns job outputs into answers.
pub(crate) trait Dialect {
    type Request;
    /// What a started job's answer needs.
    type Pending;
    /// One raw input line; `None` for a line that gets no answer at all.
    fn parse(&mut self, raw: &[u8], overlong: bool) -> Option<Self::Request>;
    /// What reading `request` while a job runs does to the job.
    fn interrupt(&self, request: &Self::Request) -> Interrupt;
    fn execute(&mut self, request: Self::Request) -> io::Result<Step<Self::Pending>>;
    /// Answers a job: its output, or why there is none.
    fn finish(
        &mut self,
        pending: Self::Pending,
        output: Result<JobOutput, &'static str>,
    ) -> io::Result<()>;
    /// A quitting request read while a job runs: answer what must be answered.
    fn quit_during_job(
        &mut self,
        pending: Self::Pending,
        queued: VecDeque<Self::Request>,
        quit: Self::Request,
    ) -> io::Result<()>;
    /// Hands the searcher to a job.
    fn take_engine(&mut self) -> Engine;
    /// Gets it back (`None`: the job lost it).
    fn restore_engine(&mut self, engine: Option<Engine>);
}

/// The GTP dialect: typed commands from the table, executed by the session.
struct Gtp<W: Write> {
    session: Session,
    out: Responder<W>,
}

impl<W: Write> Dialect for Gtp<W> {
    type Request = Request;
    type Pending = (Option<String>, session::Pending);

    fn parse(&mut self, raw: &[u8], overlong: bool) -> Option<Request> {
        parse::request(raw, overlong)
    }

    fn interrupt(&self, request: &Request) -> Interrupt {
        match request.command {
            Ok(Command::Stop) => Interrupt::Stop,
            Ok(Command::Quit) => Interrupt::Quit,
            _ => Interrupt::None,
        }
    }

    fn execute(&mut self, request: Request) -> io::Result<Step<Self::Pending>> {
        let command = match request.command {
            Ok(command) => command,
            Err(message) => {
                self.out.answer(request.id.as_deref(), &Err(message))?;
                return Ok(Step::Continue);
            }
        };
        log::debug!("command {command:?}");
        let session = &mut self.session;
        let action = panic::catch_unwind(AssertUnwindSafe(|| session.execute(command)))
            .unwrap_or_else(|_| Action::Answer(Err("internal error".into())));
        Ok(match action {
            Action::Answer(answer) => {
                self.out.answer(request.id.as_deref(), &answer)?;
                Step::Continue
            }
            Action::Quit => {
                self.out.answer(request.id.as_deref(), &Ok(String::new()))?;
                Step::Quit
            }
            Action::Start(job, pending) => Step::Start(job, (request.id, pending)),
        })
    }

    fn finish(
        &mut self,
        (id, pending): Self::Pending,
        output: Result<JobOutput, &'static str>,
    ) -> io::Result<()> {
        let answer = match output {
            Ok(output) => self.session.finish(pending, output),
            Err(message) => Err(message.to_string()),
        };
        self.out.answer(id.as_deref(), &answer)
    }

    fn quit_during_job(
        &mut self,
        (id, _): Self::Pending,
        queued: VecDeque<Request>,
        quit: Request,
    ) -> io::Result<()> {
        // One answer per command, in order, even now.
        let interrupted = Err("interrupted by quit".to_string());
        self.out.answer(id.as_deref(), &interrupted)?;
        for r in &queued {
            self.out.answer(r.id.as_deref(), &interrupted)?;
        }
        self.out.answer(quit.id.as_deref(), &Ok(String::new()))
    }

    fn take_engine(&mut self) -> Engine {
        self.session.take_engine()
    }

    fn restore_engine(&mut self, engine: Option<Engine>) {
        self.session.restore_engine(engine)
    }
}

/// Runs the protocol until `quit` or end of input, then returns: GTP, or
/// NBoard when the first line is `nboard <version>`.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
) -> io::Result<()> {
    run_with(input, output, variant, Protocol::Gtp)
}

/// Runs `protocol` until `quit` or end of input, then returns. After a
/// `quit` during a search the search thread is told to stop but not waited
/// for: the caller should exit the process.
///
/// At end of input the running search is stopped; it and the commands read
/// before the end are answered (searches return their best move so far at
/// once), then `run` returns.
pub fn run_with<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
    protocol: Protocol,
) -> io::Result<()> {
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, reader_tx))?;
    if protocol == Protocol::Nboard {
        return drive(nboard::Nboard::new(output), None, &rx, &tx);
    }
    // The first line with any text decides; blank ones are kept for GTP.
    let mut early = VecDeque::new();
    loop {
        let event = match rx.recv() {
            Ok(event) => event,
            Err(_) => return Ok(()),
        };
        let nboard = match &event {
            Event::Line(raw, _) => parse::preprocess(raw).map(|line| nboard::is_hello(&line)),
            _ => Some(false),
        };
        early.push_back(event);
        match nboard {
            None => continue,
            Some(true) => return drive(nboard::Nboard::new(output), Some(early), &rx, &tx),
            Some(false) => {
                let gtp = Gtp {
                    session: Session::new(variant),
                    out: Responder::new(output),
                };
                return drive(gtp, Some(early), &rx, &tx);
            }
        }
    }
}

/// The protocol loop: `early` events first, then the channel's.
fn drive<D: Dialect>(
    mut dialect: D,
    early: Option<VecDeque<Event>>,
    rx: &Receiver<Event>,
    tx: &Sender<Event>,
) -> io::Result<()> {
    /// The job on the worker and what its answer needs.
    struct Running<P> {
        pending: P,
        stop: Arc<AtomicBool>,
    }
    let mut early = early.unwrap_or_default();
    let mut queue: VecDeque<D::Request> = VecDeque::new();
    let mut running: Option<Running<D::Pending>> = None;
    let mut eof = false;
    loop {
        while running.is_none() {
            let Some(request) = queue.pop_front() else {
                break;
            };
            match dialect.execute(request)? {
                Step::Continue => {}
                Step::Quit => return Ok(()),
                Step::Start(job, pending) => {
                    let stop = Arc::new(AtomicBool::new(eof));
                    match spawn_job(dialect.take_engine(), job, stop.clone(), tx.clone()) {
                        Ok(()) => running = Some(Running { pending, stop }),
                        Err(e) => {
                            log::error!("cannot start the worker: {e}");
                            dialect.restore_engine(None);
                            dialect.finish(pending, Err("cannot start search"))?;
                        }
                    }
                }
            }
        }
        if eof && running.is_none() {
            return Ok(());
        }
        let event = match early.pop_front() {
            Some(event) => event,
            None => match rx.recv() {
                Ok(event) => event,
                Err(_) => return Ok(()), // unreachable: `tx` is alive
            },
        };
        match event {
            Event::Line(raw, overlong) => {
                let Some(request) = dialect.parse(&raw, overlong) else {
                    continue;
                };
                if let Some(run) = &running {
                    match dialect.interrupt(&request) {
                        Interrupt::None => {}
                        Interrupt::Stop => run.stop.store(true, Ordering::SeqCst),
                        Interrupt::Quit => {
                            run.stop.store(true, Ordering::SeqCst);
                            let run = running.take().expect("a job runs");
                            let queued = std::mem::take(&mut queue);
                            dialect.quit_during_job(run.pending, queued, request)?;
                            return Ok(());
                        }
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
                dialect.restore_engine(Some(*engine));
                if let Some(run) = running.take() {
                    dialect.finish(run.pending, Ok(output))?;
                }
            }
            Event::Failed => {
                dialect.restore_engine(None);
                if let Some(run) = running.take() {
                    dialect.finish(run.pending, Err("internal error"))?;
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
                Ok(output) => Event::Done(Box::new(engine), output),
                Err(_) => Event::Failed,
            });
        })?;
    Ok(())
}

/// The reader thread: lines as bytes (invalid UTF-8 must not end the input),
/// each cut at `parse::MAX_LINE` bytes so a huge line cannot exhaust memory.
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
        let room = parse::MAX_LINE - line.len();
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
