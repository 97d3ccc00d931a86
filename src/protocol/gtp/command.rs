//! The typed GTP commands, as the parser produces them.

pub use crate::engine::timeman::KgsTime;
use crate::rules::color::{Color, Variant};
use crate::rules::square::Move;

/// One parsed command line (without its id).
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Help(Option<String>),
    Quit,
    Boardsize(u64),
    Komi(f64),
    ClearBoard,
    NewGame {
        variant: Option<Variant>,
        first: Option<Color>,
    },
    SetGame(String),
    ListGames,
    Play {
        color: Option<Color>,
        mv: Move,
    },
    Genmove(Option<Color>),
    RegGenmove(Option<Color>),
    LastValue,
    Legal,
    Discs,
    History,
    Undo(u64),
    Redo(u64),
    FinalScore,
    SetBoard {
        board: String,
        side: String,
        supply: Option<[u64; 2]>,
    },
    ShowBoard,
    Position,
    Solve,
    /// `hint [n] [pv]`.
    Hint {
        n: u64,
        pv: bool,
    },
    /// `review MOVE [DEPTH [EXACT]]`.
    Review {
        mv: Move,
        depth: Option<u64>,
        exact: Option<u64>,
    },
    TimeSettings {
        main: f64,
        byo_time: f64,
        byo_stones: u32,
    },
    KgsTimeSettings(KgsTime),
    TimeLeft {
        color: Color,
        time: f64,
        stones: u32,
    },
    SetOption {
        name: String,
        value: String,
    },
    GetOption(String),
    Options,
    Perft(u64),
    Bench,
    Stop,
    GoguiGameId,
    GoguiBoard,
    GoguiBoardSize,
    GoguiLegalMoves,
    GoguiSideToMove,
    GoguiFinalResult,
    GoguiAnalyzeCommands,
}
