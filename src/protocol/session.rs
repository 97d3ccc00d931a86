//! The session: the game, the searcher, the options and the clocks, and
//! what each command does to them. Commands validate fully before they
//! change anything, so a `?` answer always leaves the session as it was.

use super::command::{lookup, Command, KgsTime, COMMANDS};
use super::job::{Job, JobOutput};
use super::options::Options;
use crate::engine::search::{Engine, Limits, Scoring};
use crate::engine::timeman::{self, Clock};
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::position::{Position, CLASSIC_SUPPLY};
use crate::rules::square::{Move, Square};
use std::time::{Duration, Instant};

/// What the protocol loop should do after a command.
pub enum Action {
    /// Write this answer.
    Answer(Result<String, String>),
    /// Answer `=` and return.
    Quit,
    /// Run `job` on the worker thread; its output goes to `Session::finish`.
    Start(Job, Pending),
}

/// A command waiting for its job's output.
pub struct Pending {
    kind: PendingKind,
    started: Instant,
}

enum PendingKind {
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
    },
    Perft,
    Bench,
}

impl Pending {
    fn new(kind: PendingKind) -> Pending {
        Pending {
            kind,
            started: Instant::now(),
        }
    }
}

/// Everything the protocol acts on.
pub struct Session {
    game: Game,
    /// `None` only while a job has it on the worker thread.
    engine: Option<Engine>,
    options: Options,
    /// The time control from `time_settings`; `None`: no clock.
    time_control: Option<Clock>,
    /// Each side's clock, indexed by `Color::index()`.
    clocks: [Option<Clock>; 2],
}

type Answer = Result<String, String>;

fn ok() -> Answer {
    Ok(String::new())
}

fn err<T>(message: &str) -> Result<T, String> {
    Err(message.to_string())
}

impl Session {
    pub fn new(variant: Variant) -> Session {
        let options = Options::default();
        Session {
            game: Game::new(variant, Color::Black),
            engine: Some(Engine::new(options.settings())),
            options,
            time_control: None,
            clocks: [None, None],
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Hands the searcher to a job.
    pub fn take_engine(&mut self) -> Engine {
        let settings = self.options.settings();
        self.engine.take().unwrap_or_else(|| Engine::new(settings))
    }

    /// Gets the searcher back from a job (`None`: the job lost it; make a new one).
    pub fn restore_engine(&mut self, engine: Option<Engine>) {
        self.engine = Some(engine.unwrap_or_else(|| Engine::new(self.options.settings())));
    }

    fn engine(&mut self) -> &mut Engine {
        let settings = self.options.settings();
        self.engine.get_or_insert_with(|| Engine::new(settings))
    }

    fn variant(&self) -> Variant {
        self.game.variant()
    }

    fn position(&self) -> Position {
        *self.game.position()
    }

    pub fn execute(&mut self, command: Command) -> Action {
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
                self.new_game(Game::new(self.variant(), Color::Black));
                ok()
            }
            NewGame { variant, first } => {
                let variant = variant.unwrap_or(self.variant());
                self.new_game(Game::new(variant, first.unwrap_or(Color::Black)));
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
            Legal => Ok(join(&self.position().legal_moves())),
            Discs => Ok(self.discs()),
            History => Ok(join(self.game.moves())),
            Undo(n) => {
                if usize::try_from(n).is_ok_and(|n| self.game.undo(n)) {
                    ok()
                } else {
                    err("cannot undo")
                }
            }
            Redo(n) => {
                if usize::try_from(n).is_ok_and(|n| self.game.redo(n)) {
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
            Solve => return self.solve(),
            Hint(n) => return self.hint(n),
            TimeSettings {
                main,
                byo_time,
                byo_stones,
            } => {
                self.set_time_control(main, byo_time, byo_stones);
                ok()
            }
            KgsTimeSettings(kgs) => {
                match kgs {
                    KgsTime::None => {
                        self.time_control = None;
                        self.clocks = [None, None];
                    }
                    KgsTime::Absolute { main } => self.set_time_control(main, 0.0, 0),
                    // A clock has one period: count each byo-yomi period as
                    // one stone in `period` seconds.
                    KgsTime::Byoyomi { main, period, .. } => self.set_time_control(main, period, 1),
                    KgsTime::Canadian {
                        main,
                        period,
                        stones,
                    } => self.set_time_control(main, period, stones),
                }
                ok()
            }
            TimeLeft {
                color,
                time,
                stones,
            } => {
                self.time_left(color, time, stones);
                ok()
            }
            SetOption { name, value } => self.set_option(&name, &value),
            GetOption(name) => self.options.get(&name),
            Options => Ok(self.options.to_string()),
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

    fn new_game(&mut self, game: Game) {
        self.game = game;
        self.engine().clear();
        self.clocks = [self.time_control; 2];
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
        let (pass_first, _) = self.resolve(color)?;
        self.commit(pass_first, mv).map(|_| String::new())
    }

    fn genmove(&mut self, color: Option<Color>, play: bool) -> Action {
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
        let limits = self.move_limits(&pos);
        let kind = if play {
            PendingKind::Genmove { pass_first, pos }
        } else {
            PendingKind::RegGenmove { pos }
        };
        Action::Start(Job::Search { pos, limits }, Pending::new(kind))
    }

    /// Plays `mv` (after a pass when `pass_first`) on a copy, keeping it only if all was legal.
    fn commit(&mut self, pass_first: bool, mv: Move) -> Answer {
        let mut game = self.game.clone();
        if pass_first {
            game.play(Move::Pass).map_err(|e| e.to_string())?;
        }
        game.play(mv).map_err(|e| e.to_string())?;
        self.game = game;
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

    fn hint(&mut self, n: u64) -> Action {
        let pos = self.position();
        if n == 0 {
            return Action::Answer(err("hint count must be at least 1"));
        }
        if pos.is_game_over() {
            return Action::Answer(err("game over"));
        }
        let n = n.min(64) as usize;
        let limits = Limits {
            multi_pv: n,
            ..self.option_limits()
        };
        Action::Start(
            Job::Search { pos, limits },
            Pending::new(PendingKind::Hint { pos, n }),
        )
    }

    /// Limits from the options alone: depth, nodes and move time.
    fn option_limits(&self) -> Limits {
        let nonzero = |v: u64| (v > 0).then_some(v);
        Limits {
            depth: nonzero(self.options.depth()).map(|d| d as u32),
            nodes: nonzero(self.options.nodes()),
            soft_time: None,
            hard_time: nonzero(self.options.movetime_ms()).map(Duration::from_millis),
            exact: false,
            multi_pv: 1,
        }
    }

    /// Limits for a game move: the options, with the side's clock (when it
    /// gives an allocation) deciding the time instead of `movetime`.
    fn move_limits(&self, pos: &Position) -> Limits {
        let mut limits = self.option_limits();
        if let Some(clock) = &self.clocks[pos.side.index()] {
            let margin = Duration::from_millis(self.options.margin_ms());
            if let Some(t) = timeman::allocate(
                clock,
                pos.empty_count(),
                margin,
                &self.options.time_params(),
            ) {
                limits.soft_time = Some(t.soft);
                limits.hard_time = Some(t.hard);
            }
        }
        limits
    }

    /// Turns a job's output into the answer of the command that started it.
    pub fn finish(&mut self, pending: Pending, output: JobOutput) -> Answer {
        let elapsed = pending.started.elapsed();
        match (pending.kind, output) {
            (PendingKind::Genmove { pass_first, pos }, JobOutput::Search(r)) => {
                let mv = checked_move(&pos, r.best);
                if let Some(clock) = &mut self.clocks[pos.side.index()] {
                    spend(clock, elapsed.as_secs_f64());
                }
                self.commit(pass_first, mv)
            }
            (PendingKind::RegGenmove { pos }, JobOutput::Search(r)) => {
                Ok(checked_move(&pos, r.best).to_string())
            }
            (PendingKind::Solve { pos }, JobOutput::Search(r)) => Ok(format!(
                "{} {}",
                checked_move(&pos, r.best),
                score_text(r.score, r.exact)
            )),
            (PendingKind::Hint { pos, n }, JobOutput::Search(r)) => {
                let mut lines: Vec<String> = r
                    .lines
                    .iter()
                    .filter(|l| pos.play(l.mv).is_some())
                    .take(n)
                    .map(|l| format!("{} {}", l.mv, score_text(l.score, r.exact)))
                    .collect();
                if lines.is_empty() {
                    lines.push(format!(
                        "{} {}",
                        checked_move(&pos, r.best),
                        score_text(r.score, r.exact)
                    ));
                }
                Ok(lines.join("\n"))
            }
            (PendingKind::Perft, JobOutput::Perft(Some(n))) => Ok(n.to_string()),
            (PendingKind::Perft, JobOutput::Perft(None)) => err("perft stopped"),
            (PendingKind::Bench, JobOutput::Bench(nodes, nps)) => {
                Ok(format!("{nodes} nodes {nps} nps"))
            }
            _ => err("internal error"),
        }
    }

    fn discs(&self) -> String {
        let pos = self.position();
        let v = self.variant();
        let count = |c: Color| pos.discs_of(c).count_ones();
        let mut s = format!(
            "{} {} {} {}",
            Color::Black.name(v),
            count(Color::Black),
            Color::White.name(v),
            count(Color::White)
        );
        if v == Variant::Classic {
            s += &format!(" supply {} {}", pos.supply[0], pos.supply[1]);
        }
        s
    }

    fn final_score(&self) -> Answer {
        let pos = self.position();
        if !pos.is_game_over() {
            return err("game not over");
        }
        let own = pos.final_score(self.options.scoring() == Scoring::EmptiesToWinner);
        let black = if pos.side == Color::Black { own } else { -own };
        Ok(match black {
            0 => "0".into(),
            d if d > 0 => format!("B+{d}"),
            d => format!("W+{}", -d),
        })
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
        self.new_game(Game::from_position(pos));
        ok()
    }

    /// GoGui draws the first row at the top and numbers rows from the
    /// bottom, like Go; so row 8 comes first and GoGui's coordinates are
    /// Othello's (its drawing is the usual diagram upside down).
    fn gogui_board(&self) -> String {
        let pos = self.position();
        let (black, white) = (pos.discs_of(Color::Black), pos.discs_of(Color::White));
        (0..8)
            .rev()
            .map(|row| {
                (0..8)
                    .map(|col| {
                        let bit = Square::from_coords(col, row).bit();
                        if black & bit != 0 {
                            'X'
                        } else if white & bit != 0 {
                            'O'
                        } else {
                            '.'
                        }
                    })
                    .collect::<String>()
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn showboard(&self) -> String {
        let pos = self.position();
        let v = self.variant();
        let (black, white, legal) = (
            pos.discs_of(Color::Black),
            pos.discs_of(Color::White),
            pos.moves(),
        );
        let mut s = String::from("\n  a b c d e f g h");
        for row in 0..8 {
            s += &format!("\n{}", row + 1);
            for col in 0..8 {
                let bit = Square::from_coords(col, row).bit();
                s.push(' ');
                s.push(if black & bit != 0 {
                    'X'
                } else if white & bit != 0 {
                    'O'
                } else if legal & bit != 0 {
                    '*'
                } else {
                    '.'
                });
            }
        }
        s.push('\n');
        if pos.is_game_over() {
            s += "game over";
        } else if pos.must_pass() {
            s += &format!("{} to move, must pass", pos.side.name(v));
        } else {
            s += &format!("{} to move", pos.side.name(v));
        }
        s.push('\n');
        s += &self.discs();
        s
    }

    fn set_option(&mut self, name: &str, value: &str) -> Answer {
        let before = self.options.settings();
        self.options.set(name, value)?;
        let after = self.options.settings();
        if format!("{before:?}") != format!("{after:?}") {
            self.engine().configure(after);
        }
        ok()
    }

    /// GTP: byo-yomi time > 0 with 0 stones means no limit (as does 0 0 0).
    fn set_time_control(&mut self, main: f64, byo_time: f64, byo_stones: u32) {
        let unlimited = byo_stones == 0 && (byo_time > 0.0 || main == 0.0);
        self.time_control = (!unlimited).then_some(Clock {
            main_left: main,
            byo_time,
            byo_stones,
            stones_left: 0,
            period_left: 0.0,
        });
        self.clocks = [self.time_control; 2];
    }

    fn time_left(&mut self, color: Color, time: f64, stones: u32) {
        let mut clock = self.clocks[color.index()]
            .or(self.time_control)
            .unwrap_or_default();
        if stones == 0 {
            clock.main_left = time;
            clock.stones_left = 0;
            clock.period_left = 0.0;
        } else {
            clock.main_left = 0.0;
            clock.stones_left = stones;
            clock.period_left = time;
            if clock.byo_stones == 0 {
                // No time_settings came first: assume this period is typical.
                clock.byo_stones = stones;
                clock.byo_time = time;
            }
        }
        self.clocks[color.index()] = Some(clock);
    }
}

/// GoGui's analysis menu: `type/label/command` per line.
const GOGUI_ANALYZE: &str = "string/Best moves (hint 4)/hint 4\nstring/Solve exactly/solve";

/// The search's move if it is legal in `pos`; otherwise (a search bug) the first legal move.
fn checked_move(pos: &Position, mv: Move) -> Move {
    if pos.play(mv).is_some() {
        return mv;
    }
    log::error!("search returned illegal move {mv} in {}", pos.to_obf());
    pos.legal_moves().first().copied().unwrap_or(Move::Pass)
}

/// Deducts `secs` from a clock as a local estimate until `time_left` corrects it.
fn spend(clock: &mut Clock, secs: f64) {
    let mut secs = secs;
    if clock.stones_left == 0 {
        clock.main_left -= secs;
        if clock.main_left >= 0.0 || clock.byo_time <= 0.0 {
            clock.main_left = clock.main_left.max(0.0);
            return;
        }
        // Main time ran out during this move: the rest came from a period.
        secs = -clock.main_left;
        clock.main_left = 0.0;
        clock.stones_left = clock.byo_stones.max(1);
        clock.period_left = clock.byo_time;
    }
    clock.period_left = (clock.period_left - secs).max(0.0);
    clock.stones_left -= 1;
    if clock.stones_left == 0 {
        clock.stones_left = clock.byo_stones.max(1);
        clock.period_left = clock.byo_time;
    }
}

/// Exact scores as signed integers (`+18`, `-4`, `0`), others with two decimals (`+1.25`, `0.00`).
fn score_text(score: f64, exact: bool) -> String {
    if exact {
        let s = score.round() as i64;
        if s == 0 {
            "0".into()
        } else {
            format!("{s:+}")
        }
    } else {
        let s = (score * 100.0).round() / 100.0;
        if s == 0.0 {
            "0.00".into()
        } else {
            format!("{s:+.2}")
        }
    }
}

fn join(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn help(name: Option<&str>) -> Answer {
    match name {
        Some(name) => lookup(name)
            .map(|c| format!("{} - {}", c.usage(), c.help))
            .ok_or_else(|| "unknown command".into()),
        None => Ok(COMMANDS
            .iter()
            .map(|c| format!("{} - {}", c.usage(), c.help))
            .collect::<Vec<_>>()
            .join("\n")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores() {
        assert_eq!(score_text(18.0, true), "+18");
        assert_eq!(score_text(-4.0, true), "-4");
        assert_eq!(score_text(-0.0, true), "0");
        assert_eq!(score_text(1.25, false), "+1.25");
        assert_eq!(score_text(-0.001, false), "0.00");
        assert_eq!(score_text(-0.5, false), "-0.50");
    }

    #[test]
    fn clock_spending() {
        let mut c = Clock {
            main_left: 10.0,
            byo_time: 30.0,
            byo_stones: 5,
            ..Clock::default()
        };
        spend(&mut c, 4.0);
        assert_eq!((c.main_left, c.stones_left), (6.0, 0));
        spend(&mut c, 8.0);
        assert_eq!((c.main_left, c.stones_left, c.period_left), (0.0, 4, 28.0));
        for _ in 0..4 {
            spend(&mut c, 1.0);
        }
        assert_eq!((c.stones_left, c.period_left), (5, 30.0));
        let mut absolute = Clock {
            main_left: 1.0,
            ..Clock::default()
        };
        spend(&mut absolute, 2.0);
        assert_eq!(absolute.main_left, 0.0);
    }
}
