//! What a search tells while it runs: each completed step ([`Stage`]) as a
//! [`Progress`], and what a long step is at work on ([`Working`]).

use crate::rules::square::Move;
use std::time::Duration;

/// Which step of a search a [`Progress`] reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// A completed midgame iteration (`depth` plies).
    Midgame,
    /// The selective pass before the solve: a search to the end with
    /// ProbCut (`depth` is the empties; `score` an estimate).
    Selective,
    /// The win/loss/draw solve before an exact one (`score` is its bound).
    WinLossDraw,
    /// The exact solve.
    Exact,
    /// Not a completed step: a step still at work, told every
    /// `Limits::heartbeat` of a long one so that a user sees the search
    /// is alive; [`Progress::working`] says what it is at.
    Working,
}

impl Stage {
    /// The word that starts the step's progress and log lines.
    pub fn name(self) -> &'static str {
        match self {
            Stage::Midgame => "depth",
            Stage::Selective => "selective",
            Stage::WinLossDraw => "wld",
            Stage::Exact => "exact",
            Stage::Working => "working",
        }
    }
}

/// What a [`Stage::Working`] report is at work on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Working {
    /// The step: a midgame iteration ([`Stage::Midgame`], to `depth`
    /// plies), the selective pass, or a win/loss/draw or exact solve pass.
    pub step: Stage,
    /// The pass's window in discs (a midgame one rounded outwards).
    pub window: (i32, i32),
    /// The root move being searched (from 1) and how many there are.
    pub root: (usize, usize),
}

/// A completed step of a search, as a GUI (or `mollett solve`) shows
/// thinking live.
#[derive(Clone, Debug)]
pub struct Progress {
    pub stage: Stage,
    pub depth: u32,
    /// Score of the best move, in discs.
    pub score: f64,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    pub time: Duration,
    /// For [`Stage::Working`]: the step at work; `None` for completed steps.
    pub working: Option<Working>,
}

impl std::fmt::Display for Progress {
    /// `depth 12 +3.50 nodes 123456 0.42 s pv d3 c5 f6`, `selective 24
    /// +2.00 ...` for the selective pass, `wld`/`exact` for the solves
    /// (`wld` gives the sign of the result: +1, +0 or -1).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.stage.name())?;
        match self.stage {
            Stage::Midgame | Stage::Selective => write!(f, " {} {:+.2}", self.depth, self.score)?,
            // Not `f64::signum`, which reads a draw (0.0) as +1.
            Stage::WinLossDraw => write!(
                f,
                " {:+}",
                (self.score > 0.0) as i32 - (self.score < 0.0) as i32
            )?,
            Stage::Exact => write!(f, " {:+.0}", self.score)?,
            Stage::Working => {
                if let Some(w) = self.working {
                    write!(f, " {}", w.step.name())?;
                    if matches!(w.step, Stage::Midgame | Stage::Selective) {
                        write!(f, " {}", self.depth)?;
                    }
                    write!(
                        f,
                        " window {:+}..{:+} move {}/{}",
                        w.window.0, w.window.1, w.root.0, w.root.1
                    )?;
                }
            }
        }
        let pv: Vec<String> = self.pv.iter().map(Move::to_string).collect();
        write!(
            f,
            " nodes {} {:.2} s pv {}",
            self.nodes,
            self.time.as_secs_f64(),
            pv.join(" ")
        )
    }
}
