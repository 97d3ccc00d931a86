//! What a GTP command leaves for the protocol loop: an answer, the end, or
//! a job whose output answers it later.

use crate::clock::Instant;
use crate::protocol::job::Job;
use crate::rules::position::Position;

/// What the protocol loop should do after a command.
pub enum Action {
    /// Write this answer.
    Answer(Result<String, String>),
    /// Answer `=` and return.
    Quit,
    /// Run `job` on the worker thread; its output goes to `Dialect::finish`.
    Start(Job, Pending),
}

/// A command waiting for its job's output.
pub struct Pending {
    pub kind: PendingKind,
    pub started: Instant,
}

pub enum PendingKind {
    /// `pos` is the searched position: after the pass when `pass_first`.
    Genmove {
        pass_first: bool,
        pos: Position,
    },
    RegGenmove {
        pos: Position,
    },
    Solve {
        pos: Position,
    },
    Hint {
        pos: Position,
        n: usize,
        pv: bool,
    },
    Review,
    Perft,
    Bench,
}

impl Pending {
    pub fn new(kind: PendingKind) -> Pending {
        Pending {
            kind,
            started: Instant::now(),
        }
    }
}
