//! The text protocols: GTP (`gtp/`, documented in `protocol.md`) and
//! NBoard's (`nboard.rs`), two dialects over one [`Session`] and one loop
//! ([`driver`]). `options` is the one option table; `job` the work that runs
//! off the protocol thread; `lines` the loop without threads (the browser build).

pub mod book;
pub mod driver;
pub mod gtp;
pub mod job;
pub mod lines;
pub mod nboard;
pub mod options;
pub mod session;

use crate::engine::search::Engine;
use crate::rules::color::Variant;
use driver::{drive, read_lines, Event};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::mpsc;
use std::thread;

pub use gtp::command::Command;
pub use gtp::table::{CommandSpec, COMMANDS};
pub use options::{Options, OPTIONS};
pub use session::Session;

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

/// Runs the protocol until `quit` or end of input, then returns: GTP, or
/// NBoard when the first line is `nboard <version>`.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
) -> io::Result<()> {
    run_with(input, output, variant, Protocol::Gtp)
}

/// Runs `protocol` with the default options until `quit` or end of input
/// (each command read before them runs to its end and is answered), then
/// returns.
pub fn run_with<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
    protocol: Protocol,
) -> io::Result<()> {
    run_configured(input, output, variant, protocol, Options::default())
}

/// [`run_with`], starting from `options` (the command line's `--option`s)
/// instead of the defaults. A table the options ask for that cannot be
/// allocated is an error before anything is read.
pub fn run_configured<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
    protocol: Protocol,
    options: Options,
) -> io::Result<()> {
    let engine = Engine::try_new(options.settings()).map_err(io::Error::other)?;
    let (tx, rx) = mpsc::channel();
    let reader_tx = tx.clone();
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, reader_tx))?;
    if protocol == Protocol::Nboard {
        return drive(nboard::Nboard::new(output, options, engine), None, &rx, &tx);
    }
    // The first line with any text decides; blank ones are kept for GTP.
    let mut early = VecDeque::new();
    loop {
        let event = match rx.recv() {
            Ok(event) => event,
            Err(_) => return Ok(()),
        };
        let nboard = match &event {
            Event::Line(raw, _) => gtp::parse::preprocess(raw).map(|line| nboard::is_hello(&line)),
            _ => Some(false),
        };
        early.push_back(event);
        match nboard {
            None => continue,
            Some(true) => {
                return drive(
                    nboard::Nboard::new(output, options, engine),
                    Some(early),
                    &rx,
                    &tx,
                )
            }
            Some(false) => {
                let gtp = gtp::Gtp::new(Session::with_options(variant, options, engine), output);
                return drive(gtp, Some(early), &rx, &tx);
            }
        }
    }
}
