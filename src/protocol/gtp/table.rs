//! The one table that names the commands: `COMMANDS` drives the parser's
//! dispatch, `list_commands`, `known_command` and `help`, so the four cannot
//! drift apart.

use super::args;
use super::command::Command;
use nom::IResult;

/// One row of the command table.
pub struct CommandSpec {
    pub name: &'static str,
    /// Argument synopsis, as shown by `help` and in syntax errors.
    pub args: &'static str,
    pub help: &'static str,
    /// Parses the arguments: the rest of the line after the name (empty, or
    /// starting with a space). Must consume all of it.
    pub parse: fn(&str) -> IResult<&str, Command>,
}

impl CommandSpec {
    /// `name args`, without a trailing space when there are no arguments.
    pub fn usage(&self) -> String {
        if self.args.is_empty() {
            self.name.to_string()
        } else {
            format!("{} {}", self.name, self.args)
        }
    }
}

macro_rules! spec {
    ($name:literal, $args:literal, $help:literal, $parse:expr) => {
        CommandSpec {
            name: $name,
            args: $args,
            help: $help,
            parse: $parse,
        }
    };
}

/// Every command the engine knows, in the order `list_commands` gives them.
pub static COMMANDS: &[CommandSpec] = &[
    spec!("protocol_version", "", "the GTP version: 2", |i| {
        args::none(i, Command::ProtocolVersion)
    }),
    spec!("name", "", "the engine's name", |i| args::none(
        i,
        Command::Name
    )),
    spec!("version", "", "the engine's version", |i| args::none(
        i,
        Command::Version
    )),
    spec!(
        "known_command",
        "<command>",
        "true if the command is known, else false",
        args::known_command
    ),
    spec!("list_commands", "", "every command, one per line", |i| {
        args::none(i, Command::ListCommands)
    }),
    spec!(
        "help",
        "[command]",
        "usage and description of every command, or of one",
        args::help
    ),
    spec!(
        "quit",
        "",
        "answer, then exit at once (even during a search)",
        |i| args::none(i, Command::Quit)
    ),
    spec!(
        "boardsize",
        "<size>",
        "accepts 8 only; the game is unchanged",
        args::boardsize
    ),
    spec!("komi", "<komi>", "accepted and ignored", args::komi),
    spec!(
        "clear_board",
        "",
        "new game of the current variant, black first",
        |i| args::none(i, Command::ClearBoard)
    ),
    spec!(
        "newgame",
        "[modern|classic] [<colour>]",
        "new game of a variant (default: current), colour first (default: black)",
        args::newgame
    ),
    spec!(
        "set_game",
        "<game>",
        "accepts Othello or Reversi; the game is unchanged",
        args::set_game
    ),
    spec!("list_games", "", "the games played: Othello", |i| {
        args::none(i, Command::ListGames)
    }),
    spec!(
        "play",
        "[<colour>] <move>",
        "play a move (a colour not on move only when the side on move must pass)",
        args::play
    ),
    spec!(
        "genmove",
        "[<colour>]",
        "choose a move for the side on move and play it",
        |i| args::opt_color(i, Command::Genmove)
    ),
    spec!(
        "reg_genmove",
        "[<colour>]",
        "choose a move as genmove does, without playing it",
        |i| args::opt_color(i, Command::RegGenmove)
    ),
    spec!(
        "last_value",
        "",
        "the value of the last genmove's or reg_genmove's move, for its mover, in discs",
        |i| args::none(i, Command::LastValue)
    ),
    spec!(
        "legal",
        "",
        "legal moves of the side on move in a1..h8 order, or pass",
        |i| args::none(i, Command::Legal)
    ),
    spec!("discs", "", "disc counts (and supplies in classic)", |i| {
        args::none(i, Command::Discs)
    }),
    spec!(
        "history",
        "",
        "every ply since the start, passes included",
        |i| args::none(i, Command::History)
    ),
    spec!("undo", "[n]", "take back n plies (default 1)", |i| {
        args::opt_count(i, Command::Undo)
    }),
    spec!("redo", "[n]", "replay n undone plies (default 1)", |i| {
        args::opt_count(i, Command::Redo)
    }),
    spec!(
        "final_score",
        "",
        "result of a finished game: B+n, W+n or 0",
        |i| args::none(i, Command::FinalScore)
    ),
    spec!(
        "setboard",
        "<board> <side> [<black supply> <red supply>]",
        "start a game from an OBF board (64 of X O -) and side (X or O)",
        args::setboard
    ),
    spec!(
        "showboard",
        "",
        "the board, legal moves marked *, side on move and discs",
        |i| args::none(i, Command::ShowBoard)
    ),
    spec!(
        "position",
        "",
        "the position in one line for programs: board, side, status, discs, supplies, legal moves",
        |i| args::none(i, Command::Position)
    ),
    spec!(
        "review",
        "<move> [depth [exact]]",
        "the move's value, the best move and its value, the discs it loses and its class, for the side on move",
        args::review
    ),
    spec!(
        "solve",
        "",
        "best move and exact final disc difference for the side on move",
        |i| args::none(i, Command::Solve)
    ),
    spec!(
        "hint",
        "[n] [pv]",
        "up to n best moves with scores, one per line (default 1); pv adds each move's line",
        args::hint
    ),
    spec!(
        "time_settings",
        "<main> <byo-yomi time> <byo-yomi stones>",
        "set both clocks (seconds)",
        args::time_settings
    ),
    spec!(
        "kgs-time_settings",
        "none|absolute <main>|byoyomi <main> <period> <periods>|canadian <main> <time> <stones>",
        "set both clocks, KGS style (seconds)",
        args::kgs_time_settings
    ),
    spec!(
        "time_left",
        "<colour> <time> <stones>",
        "correct one side's clock (stones 0: main time)",
        args::time_left
    ),
    spec!(
        "set_option",
        "<name> <value>",
        "change an option (see options)",
        args::set_option
    ),
    spec!(
        "get_option",
        "<name>",
        "an option's value",
        args::get_option
    ),
    spec!(
        "options",
        "",
        "every option: name value default range description",
        |i| args::none(i, Command::Options)
    ),
    spec!(
        "perft",
        "<depth>",
        "leaves of the game tree below the current position",
        args::perft
    ),
    spec!(
        "bench",
        "",
        "the fixed search benchmark: N nodes M nps",
        |i| args::none(i, Command::Bench)
    ),
    spec!(
        "stop",
        "",
        "interrupt the running search, which answers its best move so far",
        |i| args::none(i, Command::Stop)
    ),
    spec!(
        "gogui-rules_game_id",
        "",
        "GoGui: the game played: Othello",
        |i| args::none(i, Command::GoguiGameId)
    ),
    spec!(
        "gogui-rules_board",
        "",
        "GoGui: the board as rows of X O ., row 8 first (GoGui draws row 1 at the bottom)",
        |i| args::none(i, Command::GoguiBoard)
    ),
    spec!(
        "gogui-rules_board_size",
        "",
        "GoGui: the board size: 8",
        |i| args::none(i, Command::GoguiBoardSize)
    ),
    spec!(
        "gogui-rules_legal_moves",
        "",
        "GoGui: legal moves in upper case, or pass; empty when the game is over",
        |i| args::none(i, Command::GoguiLegalMoves)
    ),
    spec!(
        "gogui-rules_side_to_move",
        "",
        "GoGui: black or white",
        |i| args::none(i, Command::GoguiSideToMove)
    ),
    spec!(
        "gogui-rules_final_result",
        "",
        "GoGui: B+n, W+n or Draw when the game is over, else unknown",
        |i| args::none(i, Command::GoguiFinalResult)
    ),
    spec!(
        "gogui-analyze_commands",
        "",
        "GoGui: the analysis menu (hint, solve)",
        |i| args::none(i, Command::GoguiAnalyzeCommands)
    ),
];

/// The table row for a command name (names are matched in any case).
pub fn lookup(name: &str) -> Option<&'static CommandSpec> {
    COMMANDS.iter().find(|c| c.name.eq_ignore_ascii_case(name))
}
