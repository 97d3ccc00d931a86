//! NBoard protocol version 2 (the NBoard GUI's engine protocol): see the
//! "NBoard dialect" section of `protocol.md`.
//!
//! The dialect keeps the game the GUI sent (`set game`, then `move`), runs
//! `go`, `hint` and `analyze` as jobs on the shared protocol loop, and writes
//! one line per message, flushed at once. `ping` stops a running job; the job
//! still answers (the GUI drops answers older than its latest ping), then
//! `pong` follows, so answers keep the order of the commands.

use super::driver::{Dialect, Interrupt, Step};
use super::job::{Job, JobOutput};
use super::options::Options;
use super::session::{checked_move, Session};
use crate::clock::Instant;
use crate::engine::search::{Engine, Limits, Progress, Stage};
use crate::engine::timeman::{check_secs, Clock};
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::ggf::{move_text, GgfGame, GgfMove};
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::io::{self, Write};

mod parse;
mod text;

pub use parse::{is_hello, parse_line, NbCommand};
use text::{depth_text, eval_text, pv_text, searched_line};

/// Midgame depth of `go` and `hint` until `set depth` says otherwise, when
/// the command line left `depth` and `movetime` at their defaults.
pub const DEFAULT_DEPTH: u32 = 12;

/// What a job's answer needs.
pub enum NbPending {
    Go {
        pos: Position,
        started: Instant,
    },
    /// `pass_first`: the searched position is the one after the side to move's forced pass.
    Hint {
        pos: Position,
        n: usize,
        pass_first: bool,
        started: Instant,
    },
    /// Per searched position: moves made before it, and whether it was searched after a pass.
    Analyze {
        plies: Vec<(usize, bool)>,
        started: Instant,
    },
}

/// The NBoard dialect's state: the session (whose options hold the depth
/// `set depth` gives, as GTP's `set_option depth` does), the GUI's game
/// record, the output.
pub struct Nboard<W: Write> {
    out: W,
    /// The game as the GUI sent it, with the moves added by `move`; the
    /// session's game is its replay.
    record: GgfGame,
    session: Session,
}

impl<W: Write> Nboard<W> {
    pub fn new(out: W, mut options: Options, engine: Engine) -> Nboard<W> {
        let start = Position::start(Variant::Modern, Color::Black);
        let defaults = Options::default();
        if (options.depth, options.movetime) == (defaults.depth, defaults.movetime) {
            // NBoard thinks in depths: until `set depth`, DEFAULT_DEPTH.
            options.depth = DEFAULT_DEPTH as u64;
            options.movetime = 0;
        }
        Nboard {
            out,
            record: GgfGame::new(start),
            session: Session::from_game(Game::from_position(start), options, engine),
        }
    }

    /// `set depth n`: the `depth` option, with no move time, so that the
    /// depth decides (the clock of `go` still bounds it).
    fn set_depth(&mut self, depth: u32) -> io::Result<()> {
        let set = self
            .session
            .set_option("depth", &depth.to_string())
            .and_then(|()| self.session.set_option("movetime", "0"));
        match set {
            Ok(()) => Ok(()),
            Err(e) => self.say(&format!("status ignored: set depth {depth}: {e}")),
        }
    }

    /// Writes one line and flushes it.
    fn say(&mut self, line: &str) -> io::Result<()> {
        log::debug!("nboard > {line}");
        self.out.write_all(line.as_bytes())?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn position(&self) -> Position {
        self.session.position()
    }

    /// `move`: plays on the stored game (a forced pass the GUI left out is inserted).
    fn play(&mut self, mv: Move, eval: Option<f64>, time: Option<f64>) -> io::Result<()> {
        if let Some(Err(e)) = time.map(check_secs) {
            return self.say(&format!("status move {} ignored: {e}", move_text(mv)));
        }
        let mut game = self.session.game().clone();
        let mut record = self.record.clone();
        let pos = *game.position();
        if mv != Move::Pass && pos.must_pass() && pos.pass().play(mv).is_some() {
            let _ = game.play(Move::Pass);
            record.moves.push(GgfMove {
                color: pos.side,
                mv: Move::Pass,
                eval: None,
                time: None,
            });
        }
        let color = game.position().side;
        match game.play(mv) {
            Ok(()) => {
                record.moves.push(GgfMove {
                    color,
                    mv,
                    eval,
                    time,
                });
                self.session.replace_game(game);
                self.record = record;
                Ok(())
            }
            Err(e) => self.say(&format!("status move {} ignored: {e}", move_text(mv))),
        }
    }

    fn set_game(&mut self, text: &str) -> io::Result<()> {
        let read = GgfGame::parse(text)
            .and_then(|r| r.to_game().map(|g| (r, g)))
            .map_err(|e| e.to_string())
            .and_then(|(r, g)| {
                // Clocks are checked here, once, so no search sees an unusable one.
                let times = r
                    .main_time()
                    .into_iter()
                    .chain(r.moves.iter().filter_map(|m| m.time));
                times.map(check_secs).collect::<Result<Vec<_>, _>>()?;
                Ok((r, g))
            });
        match read {
            Ok((record, game)) => {
                self.record = record;
                self.session.replace_game(game);
                Ok(())
            }
            Err(e) => self.say(&format!("status game ignored: {e}")),
        }
    }

    /// The limits of the options (depth, nodes, move time), as GTP's.
    fn depth_limits(&self) -> Limits {
        self.session.option_limits()
    }

    /// `go`: a forced answer at once, else a search bound by depth and by the
    /// clock in the record (`TI` minus the times of the side's moves).
    fn go(&mut self) -> io::Result<Step<NbPending>> {
        let pos = self.position();
        let legal = pos.legal_moves();
        if legal.len() <= 1 {
            // A pass (also when the game is over: nothing else exists) or the only move.
            let mv = legal.first().copied().unwrap_or(Move::Pass);
            self.say(&format!("=== {}", move_text(mv)))?;
            return Ok(Step::Continue);
        }
        if let Some(hit) = self.session.book_move(&pos) {
            self.say(&format!(
                "=== {}/{}/0.0",
                move_text(hit.mv),
                eval_text(hit.value)
            ))?;
            return Ok(Step::Continue);
        }
        let mut limits = self.depth_limits();
        if let Some(main) = self.record.main_time() {
            let clock = Clock::absolute((main - self.record.time_used(pos.side)).max(0.0));
            self.session.limit_by_clock(&mut limits, &pos, &clock);
        }
        self.say("status thinking")?;
        let pending = NbPending::Go {
            pos,
            started: Instant::now(),
        };
        Ok(Step::Start(Job::Search { pos, limits }, pending))
    }

    /// `hint n`: the n best moves, by depth only (not bound by the clock).
    fn hint(&mut self, n: usize) -> io::Result<Step<NbPending>> {
        let pos = self.position();
        if pos.is_game_over() {
            self.say("status game over")?;
            return Ok(Step::Continue);
        }
        let hits = self.session.book_hits(&pos);
        if !hits.is_empty() {
            // NBoard's book line: `book <pv> <eval> <games> <depth>`.
            for h in hits.iter().take(n) {
                let depth = if h.exact() {
                    "100%".to_string()
                } else {
                    h.depth.to_string()
                };
                let line = format!(
                    "book {} {} {} {depth}",
                    move_text(h.mv),
                    eval_text(h.value),
                    h.games
                );
                self.say(&line)?;
            }
            return Ok(Step::Continue);
        }
        let pass_first = pos.must_pass();
        let searched = if pass_first { pos.pass() } else { pos };
        let n = if pass_first { 1 } else { n };
        let limits = Limits {
            multi_pv: n,
            ..self.depth_limits()
        };
        self.say("status thinking")?;
        let pending = NbPending::Hint {
            pos,
            n,
            pass_first,
            started: Instant::now(),
        };
        Ok(Step::Start(
            Job::Search {
                pos: searched,
                limits,
            },
            pending,
        ))
    }

    /// `analyze`: every position of the game, the last first (the solver's
    /// table then helps the earlier ones).
    fn analyze(&mut self) -> io::Result<Step<NbPending>> {
        let mut positions = Vec::new();
        let game = self.session.game();
        let mut pos = *game.start();
        positions.push(pos);
        for &mv in game.moves() {
            pos = pos.play(mv).unwrap_or(pos);
            positions.push(pos);
        }
        let mut searched = Vec::new();
        let mut plies = Vec::new();
        for (made, pos) in positions.into_iter().enumerate().rev() {
            let pass_first = pos.must_pass();
            searched.push(if pass_first { pos.pass() } else { pos });
            plies.push((made, pass_first));
        }
        self.say("status analyzing")?;
        let job = Job::Analyze {
            positions: searched,
            limits: self.depth_limits(),
        };
        let pending = NbPending::Analyze {
            plies,
            started: Instant::now(),
        };
        Ok(Step::Start(job, pending))
    }

    fn nodestats(&mut self, nodes: u64, started: Instant) -> io::Result<()> {
        let secs = started.elapsed().as_secs_f64();
        self.say(&format!("nodestats {nodes} {secs:.2}"))
    }
}

impl<W: Write> Dialect for Nboard<W> {
    type Request = NbCommand;
    type Pending = NbPending;

    fn parse(&mut self, raw: &[u8], overlong: bool) -> Option<NbCommand> {
        let text = String::from_utf8_lossy(raw);
        let text = text.trim();
        if text.is_empty() {
            return None;
        }
        log::debug!("nboard < {text}");
        if overlong {
            return Some(NbCommand::Unknown("(a line too long)".into()));
        }
        Some(parse_line(text))
    }

    fn interrupt(&self, request: &NbCommand) -> Interrupt {
        match request {
            NbCommand::Ping(_) => Interrupt::Stop,
            _ => Interrupt::None,
        }
    }

    fn execute(&mut self, request: NbCommand) -> io::Result<Step<NbPending>> {
        match request {
            NbCommand::Hello(version) => {
                self.say("set myname Mollett")?;
                if version.trim() != "2" {
                    self.say(&format!(
                        "status protocol version {version} asked; speaking version 2"
                    ))?;
                }
            }
            NbCommand::SetDepth(d) => self.set_depth(d)?,
            NbCommand::SetOption { name, value } => {
                if let Err(e) = self.session.set_option(&name, &value) {
                    self.say(&format!("status ignored: set {name} {value}: {e}"))?;
                }
            }
            // The searcher scores a draw as 0 whatever the contempt.
            NbCommand::SetContempt(_) => {}
            NbCommand::SetGame(text) => self.set_game(&text)?,
            NbCommand::Move { mv, eval, time } => self.play(mv, eval, time)?,
            NbCommand::Hint(n) => return self.hint(n),
            NbCommand::Go => return self.go(),
            NbCommand::Ping(n) => self.say(&format!("pong {n}"))?,
            NbCommand::Learn => self.say("learned")?,
            NbCommand::Analyze => return self.analyze(),
            NbCommand::Quit => return Ok(Step::Quit),
            NbCommand::Unknown(line) => self.say(&format!("status ignored: {line}"))?,
        }
        Ok(Step::Continue)
    }

    fn finish(
        &mut self,
        pending: NbPending,
        output: Result<JobOutput, &'static str>,
    ) -> io::Result<()> {
        let output = match output {
            Ok(output) => output,
            Err(message) => {
                self.say(&format!("status {message}"))?;
                if let NbPending::Go { pos, .. } = pending {
                    // The GUI waits for a move: give a legal one.
                    let mv = pos.legal_moves().first().copied().unwrap_or(Move::Pass);
                    self.say(&format!("=== {}", move_text(mv)))?;
                }
                return Ok(());
            }
        };
        match (pending, output) {
            (NbPending::Go { pos, started }, JobOutput::Search(r)) => {
                let mv = checked_move(&pos, r.best);
                self.nodestats(r.nodes, started)?;
                let secs = started.elapsed().as_secs_f64();
                self.say(&format!(
                    "=== {}/{}/{secs:.1}",
                    move_text(mv),
                    eval_text(r.score)
                ))?;
                self.say("status waiting")
            }
            (
                NbPending::Hint {
                    pos,
                    n,
                    pass_first,
                    started,
                },
                JobOutput::Search(r),
            ) => {
                let depth = depth_text(&r);
                if pass_first {
                    let mut pv = vec![Move::Pass];
                    pv.extend(&r.pv);
                    self.say(&format!(
                        "search {} {} 0 {depth}",
                        pv_text(&pv),
                        eval_text(-r.score)
                    ))?;
                } else {
                    let lines: Vec<_> = r
                        .lines
                        .iter()
                        .filter(|l| pos.play(l.mv).is_some())
                        .take(n)
                        .cloned()
                        .collect();
                    for l in lines {
                        let pv = if l.mv == r.best && !r.pv.is_empty() {
                            pv_text(&r.pv)
                        } else {
                            move_text(l.mv)
                        };
                        self.say(&format!("search {pv} {} 0 {depth}", eval_text(l.score)))?;
                    }
                }
                self.nodestats(r.nodes, started)?;
                self.say("status waiting")
            }
            (NbPending::Analyze { plies, started }, JobOutput::Analysis(results)) => {
                let mut nodes = 0;
                for (&(made, pass_first), r) in plies.iter().zip(&results) {
                    let score = if pass_first { -r.score } else { r.score };
                    self.say(&format!("analysis {made} {}", eval_text(score)))?;
                    nodes += r.nodes;
                }
                self.nodestats(nodes, started)?;
                self.say("status waiting")
            }
            _ => self.say("status internal error"),
        }
    }

    /// NBoard shows thinking live: a `search` line per completed iteration
    /// of `go` and `hint` (the best line so far), before the final answer.
    ///
    /// Each line says what this step found: a midgame iteration's line cut
    /// to its depth (the table may hold a longer one from an earlier
    /// search) under that depth, and the exact solve's under `100%`.
    fn progress(&mut self, pending: &NbPending, p: &Progress) -> io::Result<()> {
        let (line, depth) = match p.stage {
            Stage::Midgame | Stage::Selective => {
                (searched_line(&p.pv, p.depth), p.depth.to_string())
            }
            // `go`'s answer is its move alone: show the solve's line first.
            // `hint` answers with the solve's lines themselves.
            Stage::Exact if matches!(pending, NbPending::Go { .. }) => {
                (&p.pv[..], "100%".to_string())
            }
            Stage::Exact => return Ok(()),
            // A bound, or a step still at work: nothing to show yet.
            Stage::WinLossDraw | Stage::Working => return Ok(()),
        };
        let (pv, score) = match pending {
            NbPending::Go { .. } => (pv_text(line), p.score),
            NbPending::Hint {
                pass_first: true, ..
            } => {
                let mut pv = vec![Move::Pass];
                pv.extend(line);
                (pv_text(&pv), -p.score)
            }
            NbPending::Hint { .. } => (pv_text(line), p.score),
            NbPending::Analyze { .. } => return Ok(()),
        };
        self.say(&format!("search {pv} {} 0 {depth}", eval_text(score)))
    }

    fn take_engine(&mut self) -> Engine {
        self.session.take_engine()
    }

    fn restore_engine(&mut self, engine: Option<Engine>) {
        self.session.restore_engine(engine)
    }
}
