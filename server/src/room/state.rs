//! The room's state: its seats, its game and the earlier ones, and what it
//! reports; the requests are in `handle`, the events' effects in `apply`.

use super::clock::{Clock, Millis, CLAIM_AFTER};
use crate::event::{ClockSpec, Event, RoomSpec};
use mollett::rooms::wire::{Reason, Status, NAME_MAX};
use mollett::{Color, Game, Move, Position};

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub winner: Option<Color>,
    /// Discs on the board at the end, by colour index.
    pub discs: [u32; 2],
    pub reason: Reason,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Room {
    pub spec: RoomSpec,
    /// 1, then 2 after a rematch, ...
    pub game_no: u32,
    /// Seat tokens by colour index for the current game (a rematch swaps them).
    pub seats: [Option<String>; 2],
    pub game: Game,
    /// A pending undo request, by the colour that asked.
    pub undo: Option<Color>,
    /// Takebacks asked this game, by colour index (limited to [`UNDO_ASKS`](super::UNDO_ASKS)).
    pub undo_asks: [u32; 2],
    /// The last accepted takeback of this game: who asked and the plies
    /// that went, until the next move.
    pub takeback: Option<(Color, Vec<Move>)>,
    /// Rematch offers by colour index.
    pub rematch: [bool; 2],
    pub clock: Option<Clock>,
    pub result: Option<Outcome>,
    /// The seats' names by colour index (they follow the seats through a
    /// rematch's swap), and the changes made this game.
    pub names: [Option<String>; 2],
    pub name_changes: [u32; 2],
    /// A pending draw offer, by the colour that made it; offers this game.
    pub draw: Option<Color>,
    pub draw_offers: [u32; 2],
    /// A pending transfer link by colour index: its token and when asked;
    /// links asked this game.
    pub transfers: [Option<(String, Millis)>; 2],
    pub transfer_asks: [u32; 2],
    /// The room's earlier games (before each rematch), oldest first.
    pub past: Vec<PastGame>,
    /// Since when each taken seat has had no connection (`None`: online,
    /// or free). Presence, not stored: the hub keeps it up to date.
    pub away_since: [Option<Millis>; 2],
    /// How long a seat is away before the other may claim the game (ms).
    pub claim_after: Millis,
}

/// A game the room played before a rematch, kept for its downloads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PastGame {
    pub game: Game,
    pub result: Option<Outcome>,
    pub names: [Option<String>; 2],
}

/// One game of a room, current or past, for the downloads.
pub struct GameView<'a> {
    pub variant: mollett::Variant,
    pub clock: Option<ClockSpec>,
    pub game: &'a Game,
    /// `None` while the game goes on.
    pub result: Option<Outcome>,
    pub names: &'a [Option<String>; 2],
}

impl Room {
    /// A room with both seats free and no move played.
    pub fn new(spec: RoomSpec) -> Room {
        Room {
            game_no: 1,
            seats: [None, None],
            game: Game::new(spec.variant, Color::Black),
            undo: None,
            undo_asks: [0; 2],
            takeback: None,
            rematch: [false; 2],
            clock: spec.clock.map(Clock::new),
            result: None,
            names: [None, None],
            name_changes: [0; 2],
            draw: None,
            draw_offers: [0; 2],
            transfers: [None, None],
            transfer_asks: [0; 2],
            past: Vec::new(),
            away_since: [None, None],
            claim_after: CLAIM_AFTER,
            spec,
        }
    }

    /// Game `n` of the room (1 the first), if it has begun.
    pub fn game_view(&self, n: u32) -> Option<GameView<'_>> {
        let view = |game, result, names| GameView {
            variant: self.spec.variant,
            clock: self.spec.clock,
            game,
            result,
            names,
        };
        if n == self.game_no {
            return Some(view(&self.game, self.result, &self.names));
        }
        let past = self.past.get((n as usize).checked_sub(1)?)?;
        Some(view(&past.game, past.result, &past.names))
    }

    /// Rebuilds a room from its stored events.
    pub fn replay<'a>(spec: RoomSpec, events: impl IntoIterator<Item = &'a Event>) -> Room {
        let mut room = Room::new(spec);
        for e in events {
            room.apply(e);
        }
        room
    }

    pub fn status(&self) -> Status {
        if self.result.is_some() {
            Status::Over
        } else if self.seats.iter().any(Option::is_none) {
            Status::Waiting
        } else {
            Status::Playing
        }
    }

    pub fn to_move(&self) -> Color {
        self.game.position().side
    }

    /// The colour whose seat `token` holds, if any.
    pub fn seat_of(&self, token: Option<&str>) -> Option<Color> {
        let token = token?;
        [Color::Black, Color::White]
            .into_iter()
            .find(|c| self.seats[c.index()].as_deref() == Some(token))
    }
}

/// A name as it is kept: trimmed, `None` when empty; `None` returned
/// (refused) when longer than [`NAME_MAX`] characters or holding a control
/// character (a line break or an escape would let one name draw over the
/// page) or a bidirectional control: the embeddings, overrides and
/// isolates (U+202A-U+202E, U+2066-U+2069), whose U+202E turned the page's
/// own seat labels around, and the invisible marks U+200E, U+200F and
/// U+061C, which no name needs (right-to-left letters need none of them).
pub fn checked_name(name: &str) -> Option<Option<String>> {
    let name = name.trim();
    let bidi = |c: char| {
        matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
            || matches!(c, '\u{200E}' | '\u{200F}' | '\u{061C}')
    };
    if name.chars().count() > NAME_MAX || name.chars().any(|c| c.is_control() || bidi(c)) {
        return None;
    }
    Some((!name.is_empty()).then(|| name.to_string()))
}

/// Discs of each colour on the board, by colour index (empties belong to nobody).
pub fn discs(pos: &Position) -> [u32; 2] {
    [Color::Black, Color::White].map(|c| pos.discs_of(c).count_ones())
}
