//! The game session every dialect drives (GTP and NBoard alike): the game,
//! the searcher, the options and the clocks, the limits of a move, and the
//! guard that keeps an illegal move out of the game.

use super::book::{self, Hit};
use super::options::Options;
use crate::engine::search::{Engine, Limits};
use crate::engine::timeman::{self, Clock, Clocks};
use crate::rng::Rng;
use crate::rules::color::{Color, Variant};
use crate::rules::game::Game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::time::Duration;

/// A search score as both dialects print it: rounded to hundredths of a
/// disc, never `-0`.
pub fn hundredths(score: f64) -> f64 {
    let s = (score * 100.0).round() / 100.0;
    if s == 0.0 {
        0.0
    } else {
        s
    }
}

/// What a dialect acts on, apart from its own framing.
pub struct Session {
    game: Game,
    /// `None` only while a job has it on the worker thread.
    engine: Option<Engine>,
    options: Options,
    clocks: Clocks,
    /// Draws among near-best book moves (`book_randomness`), seeded by `seed`.
    book_rng: Rng,
}

impl Session {
    /// A session at the start of `variant`, black to move, no clock.
    pub fn new(variant: Variant) -> Session {
        let options = Options::default();
        let engine = Engine::new(options.settings());
        Session::with_options(variant, options, engine)
    }

    /// [`Session::new`] with `options` and a searcher made for them.
    pub fn with_options(variant: Variant, options: Options, engine: Engine) -> Session {
        Session::from_game(Game::new(variant, Color::Black), options, engine)
    }

    pub fn from_game(game: Game, options: Options, engine: Engine) -> Session {
        Session {
            game,
            engine: Some(engine),
            book_rng: Rng::new(options.seed),
            options,
            clocks: Clocks::default(),
        }
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    pub fn variant(&self) -> Variant {
        self.game.variant()
    }

    pub fn position(&self) -> Position {
        *self.game.position()
    }

    /// Starts `game`: the searcher forgets the old one and the clocks restart.
    pub fn new_game(&mut self, game: Game) {
        self.game = game;
        self.engine().clear();
        self.clocks.reset();
    }

    /// Replaces the game as a GUI resends it (same game, so the searcher's
    /// table and the clocks stay).
    pub fn replace_game(&mut self, game: Game) {
        self.game = game;
    }

    /// Plays `mv` (after a pass when `pass_first`) on a copy, keeping it only
    /// if all was legal: an illegal move never reaches the game.
    pub fn commit(&mut self, pass_first: bool, mv: Move) -> Result<(), String> {
        let mut game = self.game.clone();
        if pass_first {
            game.play(Move::Pass).map_err(|e| e.to_string())?;
        }
        game.play(mv).map_err(|e| e.to_string())?;
        self.game = game;
        Ok(())
    }

    /// Takes back `n` moves; false (and nothing changes) when there are fewer.
    pub fn undo(&mut self, n: usize) -> bool {
        self.game.undo(n)
    }

    /// Replays `n` taken-back moves; false (and nothing changes) when there are fewer.
    pub fn redo(&mut self, n: usize) -> bool {
        self.game.redo(n)
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Sets an option (checked first: a refused value changes nothing) and
    /// reconfigures the searcher when the settings changed. A table that
    /// cannot be allocated refuses the value and keeps the old table.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), String> {
        let old = self.options.clone();
        let before = self.options.settings();
        self.options.set(name, value)?;
        if self.options.seed != old.seed {
            self.book_rng = Rng::new(self.options.seed);
        }
        let after = self.options.settings();
        if before != after {
            if let Err(e) = self.engine().try_configure(after) {
                self.options = old;
                return Err(e);
            }
        }
        Ok(())
    }

    /// The book's moves for `pos`, best first: empty when the `book` option
    /// is off, there is no book (`book_file`) or the book does not hold
    /// the position. One binary search, no search.
    pub fn book_hits(&self, pos: &Position) -> Vec<Hit> {
        match self.options.book_file.book(pos.variant) {
            Some(b) if self.options.book => b.lookup(pos),
            _ => Vec::new(),
        }
    }

    /// The book move to play in `pos` (the best, or one within
    /// `book_randomness` discs of it), if the book has one.
    pub fn book_move(&mut self, pos: &Position) -> Option<Hit> {
        let hits = self.book_hits(pos);
        book::choose(&hits, self.options.book_randomness, &mut self.book_rng)
    }

    pub fn clocks_mut(&mut self) -> &mut Clocks {
        &mut self.clocks
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

    /// Limits from the options alone: depth, nodes and move time. The one
    /// owner of a move's limits: GTP and NBoard both start from these.
    pub fn option_limits(&self) -> Limits {
        let nonzero = |v: u64| (v > 0).then_some(v);
        Limits {
            depth: nonzero(self.options.depth).map(|d| d as u32),
            nodes: nonzero(self.options.nodes),
            soft_time: None,
            hard_time: nonzero(self.options.movetime).map(Duration::from_millis),
            exact: false,
            multi_pv: 1,
            window: None,
            keep: None,
            heartbeat: None,
        }
    }

    /// Limits for a game move: the options, with the side's clock (when it
    /// gives an allocation) deciding the time instead of `movetime`.
    pub fn move_limits(&self, pos: &Position) -> Limits {
        let mut limits = self.option_limits();
        if let Some(clock) = self.clocks.side(pos.side.index()) {
            self.limit_by_clock(&mut limits, pos, clock);
        }
        limits
    }

    /// Bounds `limits` by the time `clock` allocates to a move in `pos`,
    /// keeping the latency margin of the options.
    pub fn limit_by_clock(&self, limits: &mut Limits, pos: &Position, clock: &Clock) {
        let margin = Duration::from_millis(self.options.margin);
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
}

/// The search's move if it is legal in `pos`; otherwise (a search bug) the
/// first legal move, so the engine never plays an illegal one.
pub fn checked_move(pos: &Position, mv: Move) -> Move {
    if pos.play(mv).is_some() {
        return mv;
    }
    log::error!("search returned illegal move {mv} in {}", pos.to_obf());
    pos.legal_moves().first().copied().unwrap_or(Move::Pass)
}
