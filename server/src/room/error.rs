//! Why a request is refused, and the per-game caps that refuse one.

/// Why a request was refused; nothing changed. Each is one wire error code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RoomError {
    /// A spectator, or a connection without the seat's token, tried to act.
    NoSeat,
    NotYourTurn,
    /// The game has not started: a seat is still free.
    Waiting,
    IllegalMove,
    /// The client's `ply` is not the number of plies played.
    Stale,
    GameOver,
    NotOver,
    NoUndo,
    /// A seat has asked [`UNDO_ASKS`] takebacks this game (or offered
    /// [`DRAW_OFFERS`] draws, renamed itself [`NAME_CHANGES`] times, asked
    /// [`TRANSFER_ASKS`] transfer links), or offered a rematch already:
    /// nothing more is stored for it.
    TooMany,
    /// A name too long, with control characters, or the one it has.
    BadName,
    /// No draw offer to answer, or one already made.
    NoDraw,
    /// Both sides have placed a disc: the game can only be resigned.
    NoAbort,
    /// The other seat is online, or not offline long enough.
    NoClaim,
}

/// Takebacks a seat may ask for in one game: each ask and answer is stored,
/// so an ask/decline loop must end (lichess limits takeback offers too).
pub const UNDO_ASKS: u32 = 20;

/// Draw offers a seat may make in one game (stored like undo asks).
pub const DRAW_OFFERS: u32 = 3;

/// Name changes a seat may make in one game.
pub const NAME_CHANGES: u32 = 10;

/// Transfer links a seat may ask for in one game.
pub const TRANSFER_ASKS: u32 = 10;

impl RoomError {
    /// The wire code (rooms protocol, `error.code`).
    pub fn code(self) -> &'static str {
        match self {
            RoomError::NoSeat => "no-seat",
            RoomError::NotYourTurn | RoomError::Waiting => "not-your-turn",
            RoomError::IllegalMove => "illegal-move",
            RoomError::Stale => "stale",
            RoomError::GameOver => "game-over",
            RoomError::NotOver => "not-over",
            RoomError::NoUndo => "no-undo",
            RoomError::TooMany => "too-many",
            RoomError::BadName => "bad-name",
            RoomError::NoDraw => "no-draw",
            RoomError::NoAbort => "no-abort",
            RoomError::NoClaim => "no-claim",
        }
    }

    /// Words for the person who sent it.
    pub fn message(self) -> &'static str {
        match self {
            RoomError::NoSeat => "you do not hold a seat in this room",
            RoomError::NotYourTurn => "it is not your turn",
            RoomError::Waiting => "the game starts when both seats are taken",
            RoomError::IllegalMove => "that move is not legal here",
            RoomError::Stale => "your board is out of date; the state has been sent again",
            RoomError::GameOver => "the game is over",
            RoomError::NotOver => "a rematch can be offered when the game is over",
            RoomError::NoUndo => {
                "no move of yours to take back, no request to answer, or one is already asked"
            }
            RoomError::TooMany => {
                "already asked as often as a game allows (a seat's 20 takebacks, 3 draw offers, \
                 10 names, 10 transfer links, one rematch offer)"
            }
            RoomError::BadName => {
                "a name has at most 24 characters, no control characters, and is not the one you have"
            }
            RoomError::NoDraw => "no draw offer to answer, or yours is already made",
            RoomError::NoAbort => "both sides have moved: the game can be resigned, not aborted",
            RoomError::NoClaim => {
                "the other seat is online, or has not been offline long enough to claim the game"
            }
        }
    }
}
