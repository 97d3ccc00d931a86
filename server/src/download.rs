//! A room's game as files to download: the transcript and a GGF record
//! (the library's GGF writer).

use crate::event::Reason;
use crate::room::{Room, Status};
use mollett::rules::ggf::{clock_text, today};
use mollett::rules::moveline::moves_text;
use mollett::{Color, GgfGame, Move, Variant};

/// Moves run together, passes left out: `f5d6c3`.
pub fn transcript(room: &Room) -> String {
    let placed: Vec<Move> = room
        .game
        .moves()
        .iter()
        .copied()
        .filter(|m| *m != Move::Pass)
        .collect();
    moves_text(&placed)
}

/// The game as one GGF line. `RE` is black's disc margin (empties to
/// nobody); a game lost by resignation or on time is `+64.000:r` / `-64.000:t`
/// (GGS's suffixes) from black's side; `?` while the game goes on. GGF knows only Othello, so a classic
/// game carries the tag `VA[classic]` (ours): readers that ignore it would
/// misread the empty start board.
pub fn ggf(room: &Room) -> String {
    let mut g = GgfGame::new(*room.game.start());
    g.place = Some("Mollett rooms".into());
    g.date = Some(today());
    g.black = Some("black".into());
    g.white = Some(
        if room.spec.variant == Variant::Classic {
            "red"
        } else {
            "white"
        }
        .into(),
    );
    g.result = Some(match (room.status(), room.result) {
        (Status::Over, Some(r)) => match r.reason {
            Reason::End => format!("{:+}.000", r.discs[0] as i32 - r.discs[1] as i32),
            // A game lost by resignation or time counts as lost by 64.
            Reason::Resign | Reason::Time => {
                let margin = if r.winner == Some(Color::Black) {
                    64
                } else {
                    -64
                };
                let tag = if r.reason == Reason::Resign { "r" } else { "t" };
                format!("{margin:+}.000:{tag}")
            }
        },
        _ => "?".into(),
    });
    g.time_control = room
        .spec
        .clock
        .map(|c| clock_text(c.initial_ms as f64 / 1000.0));
    if room.spec.variant == Variant::Classic {
        g.other.push(("VA".into(), "classic".into()));
    }
    for &mv in room.game.moves() {
        g.push(mv, None, None);
    }
    g.to_string()
}
