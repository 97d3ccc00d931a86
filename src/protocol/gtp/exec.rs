//! The GTP dialect's state and its commands' execution on the `Session`,
//! all but the searches (`searches`).

use super::command::Command;
use super::parse::{self, Request};
use super::pending::{Action, Pending, PendingKind};
use super::response::Responder;
use super::table::{lookup, COMMANDS};
use super::text::{self, help, join, GOGUI_ANALYZE};
use crate::engine::search::{Engine, Scoring};
use crate::engine::timeman::{check_secs, Clock};
use crate::protocol::driver::{Dialect, Interrupt, Step};
use crate::protocol::job::{Job, JobOutput};
use crate::protocol::session::Session;
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::position::{Position, CLASSIC_SUPPLY};
use crate::rules::square::Move;
use std::io::{self, Write};
use std::panic::{self, AssertUnwindSafe};

/// The GTP dialect's state: the session and the answer writer.
pub struct Gtp<W: Write> {
    pub(super) session: Session,
    pub(super) out: Responder<W>,
    /// `last_value`'s answer: the value of the move the last `genmove` or
    /// `reg_genmove` chose, as `hint` writes scores; `None` when that move
    /// was forced or there was none.
    pub(super) last_value: Option<String>,
}

pub(super) type Answer = Result<String, String>;

pub(super) fn ok() -> Answer {
    Ok(String::new())
}

pub(super) fn err<T>(message: &str) -> Result<T, String> {
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

    pub(super) fn variant(&self) -> Variant {
        self.session.variant()
    }

    pub(super) fn position(&self) -> Position {
        self.session.position()
    }

    pub(super) fn run_command(&mut self, command: Command) -> Action {
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
    pub(super) fn resolve(&self, color: Option<Color>) -> Result<(bool, Position), String> {
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

    /// Plays `mv` (after a pass when `pass_first`); answers the move.
    pub(super) fn commit(&mut self, pass_first: bool, mv: Move) -> Answer {
        self.session.commit(pass_first, mv)?;
        Ok(mv.to_string())
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
