//! The protocol loop without threads, for the browser build: a Web Worker
//! feeds it one line at a time, and each line's job (a search, perft,
//! bench) runs to its end before the call returns. GTP only; the answers
//! are the threaded loop's ([`super::driver`]), byte for byte.

use super::driver::{Dialect, Step};
use super::gtp::Gtp;
use super::options::Options;
use super::session::Session;
use crate::engine::search::{Engine, Progress};
use crate::rules::color::Variant;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use std::sync::atomic::AtomicBool;

/// One GTP session read line by line.
pub struct Lines<W: Write> {
    gtp: Gtp<W>,
    quit: bool,
}

impl<W: Write> Lines<W> {
    /// A session of `variant` with `options`, answering into `out`. A table
    /// the options ask for that cannot be allocated is an error.
    pub fn new(variant: Variant, options: Options, out: W) -> io::Result<Lines<W>> {
        let engine = Engine::try_new(options.settings()).map_err(io::Error::other)?;
        Ok(Lines {
            gtp: Gtp::new(Session::with_options(variant, options, engine), out),
            quit: false,
        })
    }

    /// Reads one raw line (without its line feed) and writes its answer;
    /// a search tells `progress` of each completed iteration meanwhile.
    /// Returns whether the session has ended (`quit`): later lines get no
    /// answer.
    pub fn line(&mut self, raw: &[u8], progress: &(dyn Fn(&Progress) + Sync)) -> io::Result<bool> {
        if self.quit {
            return Ok(true);
        }
        let overlong = raw.len() > super::driver::MAX_LINE;
        let raw = &raw[..raw.len().min(super::driver::MAX_LINE)];
        let Some(request) = self.gtp.parse(raw, overlong) else {
            return Ok(false);
        };
        match self.gtp.execute(request)? {
            Step::Continue => {}
            Step::Quit => self.quit = true,
            Step::Start(job, pending) => {
                // Nothing can set it: the page stops a search by ending the
                // Worker (docs/web.md).
                let stop = AtomicBool::new(false);
                let mut engine = self.gtp.take_engine();
                let output =
                    panic::catch_unwind(AssertUnwindSafe(|| job.run(&mut engine, &stop, progress)));
                match output {
                    Ok(output) => {
                        self.gtp.restore_engine(Some(engine));
                        self.gtp.finish(pending, Ok(output))?;
                    }
                    Err(_) => {
                        self.gtp.restore_engine(None);
                        self.gtp.finish(pending, Err("internal error"))?;
                    }
                }
            }
        }
        Ok(self.quit)
    }
}
