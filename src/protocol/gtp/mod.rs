//! The GTP dialect: GTP version 2 framing with Othello commands (see
//! `protocol.md`). `command` holds the typed commands, `args` their argument
//! parsers, `table` the one table that names them, `parse` turns raw lines
//! into requests and `response` frames answers; this file executes commands
//! on the [`Session`].

pub mod args;
pub mod command;
pub mod parse;
mod pending;
pub mod response;
pub mod table;
mod text;

use super::driver::{Dialect, Interrupt, Step};
use super::job::{Job, JobOutput};
use super::session::{checked_move, Session};
use crate::engine::review::ReviewDepth;
use crate::engine::search::{Engine, Limits, Scoring};
use crate::engine::timeman::{check_secs, Clock};
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::position::{Position, CLASSIC_SUPPLY};
use crate::rules::square::Move;
use command::Command;
use parse::Request;
use pending::{Action, Pending, PendingKind};
use response::Responder;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};
use table::{lookup, COMMANDS};
use text::{help, join, score_text, GOGUI_ANALYZE};

/// The GTP dialect's state: the session and the answer writer.
pub struct Gtp<W: Write> {
    session: Session,
    out: Responder<W>,
    /// `last_value`'s answer: the value of the move the last `genmove` or
    /// `reg_genmove` chose, as `hint` writes scores; `None` when that move
    /// was forced or there was none.
    last_value: Option<String>,
}

type Answer = Result<String, String>;

fn ok() -> Answer {
    Ok(String::new())
}

fn err<T>(message: &str) -> Result<T, String> {
    Err(message.to_string())
}

impl<W: Write> Gtp<W> {
    pub fn new(session: Session, out: W) -> Gtp<W> {
        Gtp {
            session,
            out: Responder::new(out),
            last_value: None,
        }
    }

    fn variant(&self) -> Variant {
        self.session.variant()
    }

    fn position(&self) -> Position {
        self.session.position()
    }

    fn run_command(&mut self, command: Command) -> Action {
        use Command::*;
        let answer = match command {
            ProtocolVersion => Ok("2".into()),
            Name => Ok("Mollett".into()),
            Version => Ok(env!("CARGO_PKG_VERSION").into()),
            KnownCommand(name) => Ok(lookup(&name).is_some().to_string()),
            ListCommands => Ok(COMMANDS
                .iter()
                .map(|c| c.name)
                .collect::<Vec<_>>()
                .join("\n")),
            Help(name) => help(name.as_deref()),
            Quit => return Action::Quit,
            Boardsize(8) => ok(),
            Boardsize(_) => err("unacceptable size"),
            Komi(_) => ok(),
            ClearBoard => {
                self.session
                    .new_game(Game::new(self.variant(), Color::Black));
                ok()
            }
            NewGame { variant, first } => {
                let variant = variant.unwrap_or(self.variant());
                self.session
                    .new_game(Game::new(variant, first.unwrap_or(Color::Black)));
                ok()
            }
            SetGame(name) => {
                if name.eq_ignore_ascii_case("othello") || name.eq_ignore_ascii_case("reversi") {
                    ok()
                } else {
                    err("unsupported game")
                }
            }
            ListGames => Ok("Othello".into()),
            Play { color, mv } => self.play(color, mv),
            Genmove(color) => return self.genmove(color, true),
            RegGenmove(color) => return self.genmove(color, false),
            LastValue => self
                .last_value
                .clone()
                .ok_or_else(|| "no value".to_string()),
            Legal => Ok(join(&self.position().legal_moves())),
            Discs => Ok(self.discs()),
            History => Ok(join(self.session.game().moves())),
            Undo(n) => {
                if usize::try_from(n).is_ok_and(|n| self.session.undo(n)) {
                    ok()
                } else {
                    err("cannot undo")
                }
            }
            Redo(n) => {
                if usize::try_from(n).is_ok_and(|n| self.session.redo(n)) {
                    ok()
                } else {
                    err("cannot redo")
                }
            }
            FinalScore => self.final_score(),
            SetBoard {
                board,
                side,
                supply,
            } => self.setboard(&board, &side, supply),
            ShowBoard => Ok(self.showboard()),
            Position => Ok(text::position(&self.position(), self.variant())),
            Solve => return self.solve(),
            Hint { n, pv } => return self.hint(n, pv),
            Review { mv, depth, exact } => return self.review(mv, depth, exact),
            TimeSettings {
                main,
                byo_time,
                byo_stones,
            } => self.set_time_control(main, byo_time, byo_stones),
            KgsTimeSettings(kgs) => Clock::from_kgs(kgs).map(|control| {
                self.session.clocks_mut().set_control(control);
                String::new()
            }),
            TimeLeft {
                color,
                time,
                stones,
            } => self.time_left(color, time, stones),
            SetOption { name, value } => self.set_option(&name, &value),
            GetOption(name) => self.session.options().get(&name),
            Options => Ok(self.session.options().to_string()),
            Perft(depth) => {
                if depth > 60 {
                    err("depth must be 0 to 60")
                } else {
                    let job = Job::Perft {
                        pos: self.position(),
                        depth: depth as u32,
                    };
                    return Action::Start(job, Pending::new(PendingKind::Perft));
                }
            }
            Bench => return Action::Start(Job::Bench, Pending::new(PendingKind::Bench)),
            // Stop while no search runs: nothing to do.
            Stop => ok(),
            GoguiGameId => Ok("Othello".into()),
            GoguiBoard => Ok(self.gogui_board()),
            GoguiBoardSize => Ok("8".into()),
            GoguiLegalMoves => Ok(self
                .position()
                .legal_moves()
                .iter()
                .map(|m| match m {
                    Move::Pass => "pass".to_string(),
                    Move::Place(sq) => sq.to_string().to_uppercase(),
                })
                .collect::<Vec<_>>()
                .join(" ")),
            GoguiSideToMove => Ok(match self.position().side {
                Color::Black => "black".into(),
                Color::White => "white".into(),
            }),
            GoguiFinalResult => Ok(match self.final_score() {
                Ok(score) if score == "0" => "Draw".into(),
                Ok(score) => score,
                Err(_) => "unknown".into(),
            }),
            GoguiAnalyzeCommands => Ok(GOGUI_ANALYZE.into()),
        };
        Action::Answer(answer)
    }

    /// The position a colour's move is made from: the current one, or the one
    /// after the side on move's forced pass when `color` is the other side.
    fn resolve(&self, color: Option<Color>) -> Result<(bool, Position), String> {
        let pos = self.position();
        if pos.is_game_over() {
            return err("game over");
        }
        match color {
            Some(c) if c != pos.side => {
                if pos.must_pass() {
                    Ok((true, pos.pass()))
                } else {
                    err("wrong colour")
                }
            }
            _ => Ok((false, pos)),
        }
    }

    fn play(&mut self, color: Option<Color>, mv: Move) -> Answer {
        // Controllers (gogui-twogtp) pass for a side with nothing left to do:
        // at game over a pass is accepted and changes nothing.
        if mv == Move::Pass && self.position().is_game_over() {
            return ok();
        }
        let (pass_first, _) = self.resolve(color)?;
        self.commit(pass_first, mv).map(|_| String::new())
    }

    fn genmove(&mut self, color: Option<Color>, play: bool) -> Action {
        self.last_value = None;
        // At game over there is nothing to play but a pass, which changes nothing.
        if self.position().is_game_over() {
            return Action::Answer(Ok(Move::Pass.to_string()));
        }
        let (pass_first, pos) = match self.resolve(color) {
            Ok(r) => r,
            Err(e) => return Action::Answer(Err(e)),
        };
        let legal = pos.legal_moves();
        if legal.len() == 1 {
            // Forced: no search, no time spent.
            let answer = if play {
                self.commit(pass_first, legal[0])
            } else {
                Ok(legal[0].to_string())
            };
            return Action::Answer(answer);
        }
        if let Some(hit) = self.session.book_move(&pos) {
            // From the book: no search, no time spent.
            self.last_value = Some(format!("{} book", score_text(hit.value, hit.exact())));
            let answer = if play {
                self.commit(pass_first, hit.mv)
            } else {
                Ok(hit.mv.to_string())
            };
            return Action::Answer(answer);
        }
        let limits = self.session.move_limits(&pos);
        let kind = if play {
            PendingKind::Genmove { pass_first, pos }
        } else {
            PendingKind::RegGenmove { pos }
        };
        Action::Start(Job::Search { pos, limits }, Pending::new(kind))
    }

    /// Plays `mv` (after a pass when `pass_first`); answers the move.
    fn commit(&mut self, pass_first: bool, mv: Move) -> Answer {
        self.session.commit(pass_first, mv)?;
        Ok(mv.to_string())
    }

    fn solve(&mut self) -> Action {
        let pos = self.position();
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        let limits = Limits {
            exact: true,
            multi_pv: 1,
            ..Limits::default()
        };
        Action::Start(
            Job::Search { pos, limits },
            Pending::new(PendingKind::Solve { pos }),
        )
    }

    /// `review`: `mv` in the position on the board, as `mollett analyze`
    /// reviews it (docs/analyze.md), at `depth` (default 14, 1 to 30) and
    /// exact from `exact` empties (default 22, 0 to 30).
    fn review(&mut self, mv: Move, depth: Option<u64>, exact: Option<u64>) -> Action {
        let pos = self.position();
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        if mv == Move::Pass || pos.play(mv).is_none() {
            return Action::Answer(err("illegal move"));
        }
        let depth = depth.unwrap_or(14);
        let exact = exact.unwrap_or(22);
        if !(1..=30).contains(&depth) {
            return Action::Answer(err("review depth must be 1 to 30"));
        }
        if exact > 30 {
            return Action::Answer(err("review exact must be 0 to 30"));
        }
        let depth = ReviewDepth {
            depth: depth as u32,
            exact_from: exact as u32,
        };
        Action::Start(
            Job::Review { pos, mv, depth },
            Pending::new(PendingKind::Review),
        )
    }

    fn hint(&mut self, n: u64, pv: bool) -> Action {
        let pos = self.position();
        if !(1..=64).contains(&n) {
            return Action::Answer(err("hint count must be 1 to 64"));
        }
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        let n = n as usize;
        let hits = self.session.book_hits(&pos);
        if !hits.is_empty() {
            let lines: Vec<String> = hits
                .iter()
                .take(n)
                .map(|h| {
                    let line = format!("{} {} book", h.mv, score_text(h.value, h.exact()));
                    if pv {
                        format!("{line} pv {}", h.mv)
                    } else {
                        line
                    }
                })
                .collect();
            return Action::Answer(Ok(lines.join("\n")));
        }
        let limits = Limits {
            multi_pv: n,
            ..self.session.option_limits()
        };
        Action::Start(
            Job::Search { pos, limits },
            Pending::new(PendingKind::Hint { pos, n, pv }),
        )
    }

    /// Turns a job's output into the answer of the command that started it.
    fn answer_job(&mut self, pending: Pending, output: JobOutput) -> Answer {
        let elapsed = pending.started.elapsed();
        match (pending.kind, output) {
            (PendingKind::Genmove { pass_first, pos }, JobOutput::Search(r)) => {
                let mv = checked_move(&pos, r.best);
                self.last_value = Some(score_text(r.score, r.exact));
                if let Some(clock) = self.session.clocks_mut().side_mut(pos.side.index()) {
                    clock.spend(elapsed.as_secs_f64());
                }
                self.commit(pass_first, mv)
            }
            (PendingKind::RegGenmove { pos }, JobOutput::Search(r)) => {
                self.last_value = Some(score_text(r.score, r.exact));
                Ok(checked_move(&pos, r.best).to_string())
            }
            (PendingKind::Solve { pos }, JobOutput::Search(r)) => Ok(format!(
                "{} {}",
                checked_move(&pos, r.best),
                score_text(r.score, r.exact)
            )),
            (PendingKind::Hint { pos, n, pv }, JobOutput::Search(r)) => {
                let mut lines: Vec<String> = r
                    .lines
                    .iter()
                    .filter(|l| pos.play(l.mv).is_some())
                    .take(n)
                    .map(|l| {
                        let mut line = format!("{} {}", l.mv, score_text(l.score, r.exact));
                        if pv {
                            line.push_str(" pv");
                            for mv in &l.pv {
                                line.push_str(&format!(" {mv}"));
                            }
                        }
                        line
                    })
                    .collect();
                if lines.is_empty() {
                    let best = checked_move(&pos, r.best);
                    let mut line = format!("{best} {}", score_text(r.score, r.exact));
                    if pv {
                        line.push_str(&format!(" pv {best}"));
                    }
                    lines.push(line);
                }
                Ok(lines.join("\n"))
            }
            (PendingKind::Review, JobOutput::Review(Some(r))) => {
                let mut answer = format!(
                    "{} {} {} {} {:.2} {}{} pv",
                    r.played,
                    score_text(r.value, r.exact),
                    r.best_move,
                    score_text(r.best_value, r.exact),
                    r.loss,
                    r.class.name(),
                    if r.exact { " exact" } else { "" }
                );
                for mv in &r.pv {
                    answer.push_str(&format!(" {mv}"));
                }
                answer.push_str(" values");
                for (mv, value) in &r.moves {
                    answer.push_str(&format!(" {mv} {}", score_text(*value, r.exact)));
                }
                Ok(answer)
            }
            (PendingKind::Review, JobOutput::Review(None)) => err("review stopped"),
            (PendingKind::Perft, JobOutput::Perft(Some(n))) => Ok(n.to_string()),
            (PendingKind::Perft, JobOutput::Perft(None)) => err("perft stopped"),
            (PendingKind::Bench, JobOutput::Bench(nodes, nps)) => {
                Ok(format!("{nodes} nodes {nps} nps"))
            }
            _ => err("internal error"),
        }
    }

    fn final_score(&self) -> Answer {
        let empties_to_winner = self.session.options().scoring == Scoring::EmptiesToWinner;
        text::final_score(&self.position(), empties_to_winner)
    }

    fn setboard(&mut self, board: &str, side: &str, supply: Option<[u64; 2]>) -> Answer {
        let variant = self.variant();
        let supply = match (variant, supply) {
            (_, None) => None,
            (Variant::Modern, Some(_)) => return err("supplies apply to classic only"),
            (Variant::Classic, Some(s)) => {
                if s.iter().any(|&n| n > CLASSIC_SUPPLY as u64) {
                    return err("supplies must be 0 to 32");
                }
                Some([s[0] as u8, s[1] as u8])
            }
        };
        let pos = Position::from_obf(board, side, variant, supply).map_err(|e| e.to_string())?;
        self.session.new_game(Game::from_position(pos));
        ok()
    }

    fn discs(&self) -> String {
        text::discs(&self.position(), self.variant())
    }

    fn gogui_board(&self) -> String {
        text::gogui_board(&self.position())
    }

    fn showboard(&self) -> String {
        text::showboard(&self.position(), self.variant())
    }

    fn set_option(&mut self, name: &str, value: &str) -> Answer {
        self.session.set_option(name, value)?;
        ok()
    }

    /// Times above `MAX_CLOCK_SECS` are refused, changing nothing.
    fn set_time_control(&mut self, main: f64, byo_time: f64, byo_stones: u32) -> Answer {
        let control = Clock::checked(main, byo_time, byo_stones)?;
        self.session.clocks_mut().set_control(control);
        ok()
    }

    fn time_left(&mut self, color: Color, time: f64, stones: u32) -> Answer {
        check_secs(time)?;
        let clocks = self.session.clocks_mut();
        clocks.set_left(color.index(), time, stones);
        ok()
    }
}

impl<W: Write> Dialect for Gtp<W> {
    type Request = Request;
    type Pending = (Option<String>, Pending);

    fn parse(&mut self, raw: &[u8], overlong: bool) -> Option<Request> {
        parse::request(raw, overlong)
    }

    fn interrupt(&self, request: &Request) -> Interrupt {
        match request.command {
            Ok(Command::Stop) => Interrupt::Stop,
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
        let action = panic::catch_unwind(AssertUnwindSafe(|| self.run_command(command)))
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
            Ok(output) => self.answer_job(pending, output),
            Err(message) => Err(message.to_string()),
        };
        self.out.answer(id.as_deref(), &answer)
    }

    fn take_engine(&mut self) -> Engine {
        self.session.take_engine()
    }

    fn restore_engine(&mut self, engine: Option<Engine>) {
        self.session.restore_engine(engine)
    }
}
