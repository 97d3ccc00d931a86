//! Whole games through the protocol, engine against engine, refereed move by
//! move by the rules core, with a clock.

mod common;

use common::{history, play_game, score_text, Engine};
use mollett::Variant;

/// Two Mollett processes at different settings play both variants on a clock;
/// every answer is legal, nobody overruns, and both agree on the result.
#[test]
fn mollett_plays_itself_on_a_clock_in_both_variants() {
    let mut a = Engine::mollett("mollett-a");
    let mut b = Engine::mollett("mollett-b");
    b.ok("set_option depth 3");
    let games = [
        (Variant::Modern, &["f5", "d6"][..]),
        (Variant::Classic, &[][..]),
        (Variant::Classic, &["d4", "d5", "e4", "e5"][..]), // the parallel start
    ];
    for (i, (variant, opening)) in games.iter().enumerate() {
        let (black, second) = if i % 2 == 0 {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let outcome = play_game(black, second, *variant, 3.0, opening);
        let expected = score_text(outcome.black_margin);
        eprintln!(
            "{variant}: {} -> {expected} (max {:.2} s used)",
            history(&outcome.game),
            outcome.max_used
        );
        for e in [&mut a, &mut b] {
            assert_eq!(
                e.ok("final_score"),
                expected,
                "{} disagrees on the result",
                e.name
            );
            assert_eq!(e.ok("history"), history(&outcome.game));
            // After the end a controller may still ask: a pass, and nothing changes.
            assert_eq!(e.send("genmove black"), Ok("pass".to_string()));
            assert_eq!(e.ok("history"), history(&outcome.game));
        }
    }
}

/// Interoperates with GRhino, a peer GTP Othello engine (Debian package
/// `grhino`; `.ci/run` installs it). Modern rules only: GRhino knows no other.
#[test]
fn games_against_grhino() {
    let Some(program) = common::rhino() else {
        return;
    };
    let mut score = 0.0;
    for i in 0..2 {
        let mut mollett = Engine::mollett("mollett");
        let mut rhino = Engine::spawn("grhino", program, &["-l", "1"]);
        let (black, second) = if i == 0 {
            (&mut mollett, &mut rhino)
        } else {
            (&mut rhino, &mut mollett)
        };
        let outcome = play_game(black, second, Variant::Modern, 3.0, &[]);
        let margin = if i == 0 {
            outcome.black_margin
        } else {
            -outcome.black_margin
        };
        score += match margin.signum() {
            1 => 1.0,
            0 => 0.5,
            _ => 0.0,
        };
        eprintln!(
            "game {i}: mollett {} by {margin}: {}",
            if i == 0 { "black" } else { "white" },
            history(&outcome.game)
        );
        // GRhino agrees with the referee's result; it gives the empty squares
        // of a finished game to the winner (the tournament rule).
        let end = outcome.game.position();
        let sign = if end.side == mollett::Color::Black {
            1
        } else {
            -1
        };
        assert_eq!(
            rhino.ok("final_score").to_uppercase(),
            score_text(sign * end.final_score(true))
        );
    }
    eprintln!("mollett scored {score} of 2 against gtp-rhino -l 1");
}
