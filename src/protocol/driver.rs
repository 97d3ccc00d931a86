//! The protocol loop both dialects share. Three threads: a reader turns
//! input lines into events, a worker runs jobs (searches, perft, bench), and
//! the loop between them owns the dialect's state and writes every answer,
//! strictly in input order.

use super::job::{Job, JobOutput};
use crate::engine::search::{Engine, Progress};
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;
use std::thread;

/// Longest line (in bytes, without its line feed) that is read as a command.
pub const MAX_LINE: usize = 4096;

/// What the protocol loop waits for.
pub(crate) enum Event {
    /// A raw line (without its line feed), and whether it was cut at `MAX_LINE`.
    Line(Vec<u8>, bool),
    /// End of input (or a read error).
    Eof,
    /// The worker finished; it hands the searcher back.
    Done(Box<Engine>, JobOutput),
    /// The worker panicked; the searcher is lost.
    Failed,
    /// The running search completed an iteration.
    Progress(Progress),
}

/// What a line read while a job runs does to the job.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Interrupt {
    /// Nothing: the line waits its turn (`quit` too: what came before it
    /// runs to its normal end first).
    None,
    /// Stop the job (it answers with what it has), then the line waits its turn.
    Stop,
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
    /// The running job's search completed an iteration: a dialect that
    /// shows thinking live writes it (GTP does not: its stdout carries
    /// answers only).
    fn progress(&mut self, _pending: &Self::Pending, _progress: &Progress) -> io::Result<()> {
        Ok(())
    }
    /// Hands the searcher to a job.
    fn take_engine(&mut self) -> Engine;
    /// Gets it back (`None`: the job lost it).
    fn restore_engine(&mut self, engine: Option<Engine>);
}

/// The protocol loop: `early` events first, then the channel's.
pub(crate) fn drive<D: Dialect>(
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
                    let stop = Arc::new(AtomicBool::new(false));
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
                    if dialect.interrupt(&request) == Interrupt::Stop {
                        run.stop.store(true, Ordering::SeqCst);
                    }
                }
                queue.push_back(request);
            }
            // Whatever was read before the end still runs to its normal end.
            Event::Eof => eof = true,
            Event::Done(engine, output) => {
                dialect.restore_engine(Some(*engine));
                if let Some(run) = running.take() {
                    dialect.finish(run.pending, Ok(output))?;
                }
            }
            Event::Progress(p) => {
                if let Some(run) = &running {
                    dialect.progress(&run.pending, &p)?;
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
            let progress = |p: &Progress| {
                let _ = tx.send(Event::Progress(p.clone()));
            };
            let output =
                panic::catch_unwind(AssertUnwindSafe(|| job.run(&mut engine, &stop, &progress)));
            let _ = tx.send(match output {
                Ok(output) => Event::Done(Box::new(engine), output),
                Err(_) => Event::Failed,
            });
        })?;
    Ok(())
}

/// The reader thread: lines as bytes (invalid UTF-8 must not end the input),
/// each cut at `MAX_LINE` bytes so a huge line cannot exhaust memory.
pub(crate) fn read_lines<R: BufRead>(mut input: R, tx: Sender<Event>) {
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
    Ok(
        crate::files::read_bounded_line(input, MAX_LINE)?
            .map(|l| (l.kept, l.len > MAX_LINE as u64)),
    )
}
