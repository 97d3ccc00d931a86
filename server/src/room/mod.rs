//! One room's game as a pure state machine: no I/O, no clock reading.
//!
//! A request is checked by [`Room::handle`] (or [`Room::join`],
//! [`Room::flag`]), which returns the [`Event`] it would cause or a
//! [`RoomError`] and changes nothing. The caller stores the event and then
//! [`Room::apply`]s it; replaying a room's stored events through `apply`
//! rebuilds it exactly, which is how a restarted server gets its rooms back.
//! The moves are checked by the `mollett` rules core, never here.

mod apply;
mod clock;
mod error;
mod handle;
mod state;
mod timeouts;

pub use clock::{Clock, Millis, CLAIM_AFTER, TRANSFER_VALID};
pub use error::{RoomError, DRAW_OFFERS, NAME_CHANGES, TRANSFER_ASKS, UNDO_ASKS};
pub use handle::{Command, Joined};
pub use mollett::rooms::wire::{Reason, Status, NAME_MAX};
pub use state::{checked_name, discs, GameView, Outcome, PastGame, Room};
