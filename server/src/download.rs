//! A room's games as files to download: the transcript and a GGF record
//! (the library's GGF writer), for the game going on and every one before
//! it in the room.

use crate::room::{GameView, Reason};
use mollett::rules::ggf::{clock_text, today};
use mollett::rules::moveline::moves_text;
use mollett::{Color, GgfGame, Move, Variant};

/// Moves run together, passes left out: `f5d6c3`.
pub fn transcript(g: &GameView) -> String {
    let placed: Vec<Move> = g
        .game
        .moves()
        .iter()
        .copied()
        .filter(|m| *m != Move::Pass)
        .collect();
    moves_text(&placed)
}

/// The game as one GGF line. `PB`/`PW` are the seats' names (`black` and
/// `white`/`red` without one). `RE` is black's disc margin (empties to
/// nobody); a game lost by resignation, on time or by leaving is
/// `+64.000:r` / `-64.000:t` (GGS's suffixes; leaving counts as resigning)
/// from black's side, a draw by agreement `+0.000:s` (GGS's "mutual
/// score"); `?` while the game goes on, and no `RE` for an aborted game.
/// GGF knows only Othello: the library's writer gives a classic game the
/// tag `VA[classic]` (ours, which its reader and `mollett analyze` read);
/// readers that ignore it would misread the empty start board.
pub fn ggf(v: &GameView) -> String {
    let mut g = GgfGame::new(*v.game.start());
    g.place = Some("Mollett rooms".into());
    g.date = Some(today());
    let second = if v.variant == Variant::Classic {
        "red"
    } else {
        "white"
    };
    g.black = Some(v.names[0].as_deref().map_or("black".into(), tag_text));
    g.white = Some(v.names[1].as_deref().map_or(second.into(), tag_text));
    g.result = match v.result {
        None => Some("?".into()),
        Some(r) => match r.reason {
            Reason::End => Some(format!("{:+}.000", r.discs[0] as i32 - r.discs[1] as i32)),
            Reason::Agreement => Some("+0.000:s".into()),
            Reason::Aborted => None,
            // A game lost by resignation, time or leaving counts as lost by 64.
            Reason::Resign | Reason::Time | Reason::Left => {
                let margin = if r.winner == Some(Color::Black) {
                    64
                } else {
                    -64
                };
                let tag = if r.reason == Reason::Time { "t" } else { "r" };
                Some(format!("{margin:+}.000:{tag}"))
            }
        },
    };
    g.time_control = v.clock.map(|c| clock_text(c.initial_ms as f64 / 1000.0));
    for &mv in v.game.moves() {
        g.push(mv, None, None);
    }
    g.to_string()
}

/// A name as a GGF tag's value: the brackets that would end the tag, and
/// the escape character, become harmless look-alikes.
fn tag_text(name: &str) -> String {
    name.chars()
        .map(|c| match c {
            '[' => '(',
            ']' => ')',
            '\\' => '/',
            c => c,
        })
        .collect()
}
