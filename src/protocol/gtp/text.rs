//! How GTP answers show boards, discs and scores.

use super::table::{lookup, COMMANDS};
use crate::protocol::session::hundredths;
use crate::rules::color::{Color, Variant};
use crate::rules::position::Position;
use crate::rules::square::{Move, Square};

/// GoGui's analysis menu: `type/label/command` per line.
pub const GOGUI_ANALYZE: &str = "string/Best moves (hint 4)/hint 4\nstring/Solve exactly/solve";

/// Exact scores as signed integers (`+18`, `-4`, `0`), others with two decimals (`+1.25`, `0.00`).
pub fn score_text(score: f64, exact: bool) -> String {
    if exact {
        let s = score.round() as i64;
        if s == 0 {
            "0".into()
        } else {
            format!("{s:+}")
        }
    } else {
        let s = hundredths(score);
        if s == 0.0 {
            "0.00".into()
        } else {
            format!("{s:+.2}")
        }
    }
}

pub fn join(moves: &[Move]) -> String {
    moves
        .iter()
        .map(Move::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// `black 2 white 2`, with the supplies in classic.
pub fn discs(pos: &Position, v: Variant) -> String {
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

/// GoGui draws the first row at the top and numbers rows from the
/// bottom, like Go; so row 8 comes first and GoGui's coordinates are
/// Othello's (its drawing is the usual diagram upside down).
pub fn gogui_board(pos: &Position) -> String {
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

/// The board as `showboard` draws it (legal moves as `*`), the side to
/// move and the discs.
pub fn showboard(pos: &Position, v: Variant) -> String {
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
    s += &discs(pos, v);
    s
}

/// `position`: the position in one line for programs (the page reads
/// it), where `showboard` draws it for people: `board <64 of X O -, a1 b1
/// … h8> side <colour or - when over> status <play, pass or over> discs
/// <black> <second> [supply <black> <second>] legal <moves as legal answers>`.
pub fn position(pos: &Position, v: Variant) -> String {
    let (black, white) = (pos.discs_of(Color::Black), pos.discs_of(Color::White));
    let board: String = (0..8)
        .flat_map(|row| (0..8).map(move |col| Square::from_coords(col, row).bit()))
        .map(|bit| {
            if black & bit != 0 {
                'X'
            } else if white & bit != 0 {
                'O'
            } else {
                '-'
            }
        })
        .collect();
    let over = pos.is_game_over();
    let side = if over { "-" } else { pos.side.name(v) };
    let status = if over {
        "over"
    } else if pos.must_pass() {
        "pass"
    } else {
        "play"
    };
    let mut s = format!(
        "board {board} side {side} status {status} discs {} {}",
        black.count_ones(),
        white.count_ones()
    );
    if v == Variant::Classic {
        s += &format!(" supply {} {}", pos.supply[0], pos.supply[1]);
    }
    s += " legal";
    for m in pos.legal_moves() {
        s += &format!(" {m}");
    }
    s
}

/// `finalscore`: `B+12`, `W+3` or `0`, under the scoring rule.
pub fn final_score(pos: &Position, empties_to_winner: bool) -> Result<String, String> {
    if !pos.is_game_over() {
        return Err("game not over".into());
    }
    let own = pos.final_score(empties_to_winner);
    let black = if pos.side == Color::Black { own } else { -own };
    Ok(match black {
        0 => "0".into(),
        d if d > 0 => format!("B+{d}"),
        d => format!("W+{}", -d),
    })
}

/// `help` and `help <command>`: the command table's synopses.
pub fn help(name: Option<&str>) -> Result<String, String> {
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
}
