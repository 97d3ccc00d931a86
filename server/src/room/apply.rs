//! Applying a stored event to the room: replaying a room's events rebuilds it.

use super::clock::{Clock, Millis};
use super::state::{discs, Outcome, PastGame, Room};
use crate::event::Event;
use mollett::rooms::wire::{Reason, Status};
use mollett::{Color, Game, Move};

impl Room {
    /// Applies an event that [`Room::handle`], [`Room::join`] or
    /// [`Room::flag`] produced (now, or before a restart).
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Seat {
                color,
                ref token,
                at,
            } => {
                self.seats[color.index()] = Some(token.clone());
                self.start_clock_if_full(at);
            }
            Event::Move {
                square,
                at,
                left_ms,
            } => {
                // Checked when handled; a stored move that no longer plays
                // would be a corrupt database: it is skipped, not a panic.
                if self.game.play(Move::Place(square)).is_err() {
                    log::error!(
                        "room {}: stored move {square} is illegal; skipped",
                        self.spec.id
                    );
                    return;
                }
                let mover = self.game.position().side.other();
                self.undo = None;
                self.takeback = None;
                // A move by the side a draw was offered to declines it.
                if self.draw.is_some_and(|offerer| offerer != mover) {
                    self.draw = None;
                }
                self.set_clock(left_ms, at);
                self.after_ply();
            }
            Event::UndoAsk { by, .. } => {
                self.undo = Some(by);
                self.undo_asks[by.index()] += 1;
            }
            Event::UndoAnswer {
                accept,
                plies,
                at,
                left_ms,
            } => {
                let asker = self.undo.take();
                if accept {
                    let n = plies.map_or_else(|| self.last_placement_plies(), |n| n as usize);
                    let moves = self.game.moves();
                    let gone = moves[moves.len().saturating_sub(n)..].to_vec();
                    self.game.undo(n);
                    self.takeback = asker.map(|c| (c, gone));
                    self.draw = None;
                    self.set_clock(left_ms, at);
                }
            }
            Event::Resign { by, at, left_ms } => {
                self.set_clock(left_ms, at);
                self.finish(Some(by.other()), Reason::Resign);
            }
            Event::Flag { loser, .. } => {
                if let Some(clock) = &mut self.clock {
                    clock.left_ms[loser.index()] = 0;
                }
                self.finish(Some(loser.other()), Reason::Time);
            }
            Event::Rematch { by, at } => {
                self.rematch[by.index()] = true;
                if self.rematch == [true; 2] {
                    self.new_game(at);
                }
            }
            Event::Name {
                color, ref name, ..
            } => {
                self.names[color.index()] = name.clone();
                self.name_changes[color.index()] += 1;
            }
            Event::DrawOffer { by, .. } => {
                self.draw = Some(by);
                self.draw_offers[by.index()] += 1;
            }
            Event::DrawAnswer {
                accept,
                at,
                left_ms,
            } => {
                self.draw = None;
                if accept {
                    self.set_clock(left_ms, at);
                    self.finish(None, Reason::Agreement);
                }
            }
            Event::Abort { at, left_ms, .. } => {
                self.set_clock(left_ms, at);
                self.finish(None, Reason::Aborted);
            }
            Event::Claim { by, at, left_ms } => {
                self.set_clock(left_ms, at);
                self.finish(Some(by), Reason::Left);
            }
            Event::TransferAsk {
                color,
                ref token,
                at,
            } => {
                self.transfers[color.index()] = Some((token.clone(), at));
                self.transfer_asks[color.index()] += 1;
            }
            Event::Transfer {
                color, ref token, ..
            } => {
                self.seats[color.index()] = Some(token.clone());
                self.transfers[color.index()] = None;
            }
        }
    }

    fn set_clock(&mut self, left_ms: Option<[u64; 2]>, at: Millis) {
        if let (Some(clock), Some(left)) = (&mut self.clock, left_ms) {
            clock.left_ms = left;
            clock.since = Some(at);
        }
    }

    fn start_clock_if_full(&mut self, at: Millis) {
        if self.status() == Status::Playing {
            if let Some(clock) = &mut self.clock {
                clock.since = Some(at);
            }
        }
    }

    /// Plays the forced passes, and ends the game when neither side can move.
    fn after_ply(&mut self) {
        while self.game.position().must_pass() {
            // A forced pass is always legal; `must_pass` said so.
            let _ = self.game.play(Move::Pass);
        }
        if self.game.position().is_game_over() {
            let discs = discs(self.game.position());
            let winner = match discs[0].cmp(&discs[1]) {
                std::cmp::Ordering::Greater => Some(Color::Black),
                std::cmp::Ordering::Less => Some(Color::White),
                std::cmp::Ordering::Equal => None,
            };
            self.finish(winner, Reason::End);
        }
    }

    /// Ends the game; the clocks were brought up to date by the event.
    fn finish(&mut self, winner: Option<Color>, reason: Reason) {
        let discs = discs(self.game.position());
        if let Some(clock) = &mut self.clock {
            clock.since = None;
        }
        self.undo = None;
        self.draw = None;
        self.result = Some(Outcome {
            winner,
            discs,
            reason,
        });
    }

    /// A rematch: a new game, the seats' colours swapped, clocks reset.
    fn new_game(&mut self, at: Millis) {
        let game = std::mem::replace(&mut self.game, Game::new(self.spec.variant, Color::Black));
        self.past.push(PastGame {
            game,
            result: self.result,
            names: self.names.clone(),
        });
        self.game_no += 1;
        // Names, pending transfer links and presence follow the seat holders.
        self.seats.swap(0, 1);
        self.names.swap(0, 1);
        self.transfers.swap(0, 1);
        self.away_since.swap(0, 1);
        self.name_changes = [0; 2];
        self.draw = None;
        self.draw_offers = [0; 2];
        self.transfer_asks = [0; 2];
        self.undo = None;
        self.undo_asks = [0; 2];
        self.takeback = None;
        self.rematch = [false; 2];
        self.result = None;
        self.clock = self.spec.clock.map(Clock::new);
        self.start_clock_if_full(at);
    }
}
