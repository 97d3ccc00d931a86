//! A game: its start position, the moves played, undo and redo.

use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::Move;
use std::fmt;

/// Why a move was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    IllegalMove,
    GameOver,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PlayError::IllegalMove => "illegal move",
            PlayError::GameOver => "game over",
        })
    }
}

impl std::error::Error for PlayError {}

/// A game record that can step back and forth.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    start: Position,
    /// `positions[i]` is the position after `moves[..i]`; never empty.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Undone moves, the next one to redo last.
    redo: Vec<Move>,
}

impl Game {
    pub fn new(variant: Variant, first: Color) -> Game {
        Game::from_position(Position::start(variant, first))
    }

    pub fn from_position(start: Position) -> Game {
        Game {
            start,
            positions: vec![start],
            moves: Vec::new(),
            redo: Vec::new(),
        }
    }

    pub fn start(&self) -> &Position {
        &self.start
    }

    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game always has a position")
    }

    pub fn variant(&self) -> Variant {
        self.start.variant
    }

    /// Every ply since the start, passes included.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Plays a legal move (a pass only when forced). Clears the redo list.
    pub fn play(&mut self, mv: Move) -> Result<(), PlayError> {
        let pos = *self.position();
        if pos.is_game_over() {
            return Err(PlayError::GameOver);
        }
        let next = pos.play(mv).ok_or(PlayError::IllegalMove)?;
        self.positions.push(next);
        self.moves.push(mv);
        self.redo.clear();
        Ok(())
    }

    /// Takes back `n` plies; does nothing and returns false when fewer were played.
    pub fn undo(&mut self, n: usize) -> bool {
        if n > self.moves.len() {
            return false;
        }
        for _ in 0..n {
            self.positions.pop();
            let mv = self.moves.pop().expect("checked length");
            self.redo.push(mv);
        }
        true
    }

    /// Replays `n` undone plies; does nothing and returns false when fewer are there.
    pub fn redo(&mut self, n: usize) -> bool {
        if n > self.redo.len() {
            return false;
        }
        for _ in 0..n {
            let mv = self.redo.pop().expect("checked length");
            let next = self
                .position()
                .play(mv)
                .expect("a redone move was legal before");
            self.positions.push(next);
            self.moves.push(mv);
        }
        true
    }
}
