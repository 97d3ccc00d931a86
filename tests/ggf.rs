//! GGF records written by hand from the format's description (`protocol.md`, "GGF"):
//! read, replayed, and written back unchanged.

use mollett::rules::ggf::{parse_all, GgfGame};
use mollett::{Color, Move};

/// The standard start, as `BO` writes it.
const START: &str = "8 ---------------------------O*------*O--------------------------- *";

fn round_trip(text: &str) -> GgfGame {
    let g = GgfGame::parse(text).unwrap_or_else(|e| panic!("{e}: {text}"));
    let again = GgfGame::parse(&g.to_string()).expect("written record reads back");
    assert_eq!(again, g, "round trip of {text}");
    g.to_game().unwrap_or_else(|e| panic!("{e}: {text}"));
    g
}

#[test]
fn a_server_record_with_ratings_evals_and_times() {
    // GGS order (TI before RE), lower-case moves, `/eval/time` on every move.
    let text = format!(
        "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[kitty]PW[saio]RB[2197.73]RW[2642.30]\
         TI[05:00//02:00]TY[8]RE[-20.000]BO[{START}]B[f5/0.00/1.2]W[d6/-0.50/3.4]B[c3/1.00/0.5]\
         W[d3//2]B[c4/0.25/]W[f4];)"
    );
    let g = round_trip(&text);
    assert_eq!(g.black.as_deref(), Some("kitty"));
    assert_eq!(g.white_rating.as_deref(), Some("2642.30"));
    assert_eq!(g.black_margin(), Some(-20.0));
    assert_eq!(g.main_time(), Some(300.0));
    assert_eq!(g.moves.len(), 6);
    assert_eq!(g.moves[1].eval, Some(-0.5));
    assert_eq!((g.moves[3].eval, g.moves[3].time), (None, Some(2.0)));
    assert_eq!((g.moves[4].eval, g.moves[4].time), (Some(0.25), None));
    assert_eq!(g.time_used(Color::Black), 1.2 + 0.5);
    assert_eq!(g.time_used(Color::White), 3.4 + 2.0);
    let game = g.to_game().unwrap();
    assert_eq!(game.moves().len(), 6);
    assert_eq!(game.position().side, Color::Black);
}

#[test]
fn canonical_text_is_written_back_unchanged() {
    let text = format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[{START}]\
         B[F5]W[F6]B[D3]W[C5];)"
    );
    let g = round_trip(&text);
    assert_eq!(g.to_string(), text);
}

#[test]
fn a_non_standard_start_and_a_pass() {
    // White a1, black b1, black to move: black must pass, white takes c1
    // (flipping b1) and the game is over, 3-0 for white.
    let board = format!("8 O*{} *", "-".repeat(62));
    let text = format!(
        "(;GM[Othello]PC[hand]DT[2024-01-01]PB[x]PW[y]RE[-3.000]TY[8]BO[{board}]B[PA]W[C1//0.1];)"
    );
    let g = round_trip(&text);
    assert_eq!(g.to_string(), text);
    assert_eq!(g.start.side, Color::Black);
    assert_eq!(g.moves[0].mv, Move::Pass);
    let game = g.to_game().unwrap();
    let end = game.position();
    assert!(end.is_game_over());
    assert_eq!(end.discs_of(Color::White).count_ones(), 3);
    assert_eq!(end.discs_of(Color::Black), 0);
}

#[test]
fn a_forced_pass_left_out_is_replayed() {
    let board = format!("8 O*{} *", "-".repeat(62));
    let g = GgfGame::parse(&format!("(;GM[Othello]TY[8]BO[{board}]W[c1];)")).unwrap();
    assert_eq!(g.moves.len(), 1);
    let game = g.to_game().unwrap();
    assert_eq!(game.moves(), &[Move::Pass, "c1".parse().unwrap()]);
}

#[test]
fn several_games_per_file_with_unknown_tags_kept() {
    let one = format!("(;GM[Othello]PB[a]PW[b]TY[8]BO[{START}]KM[0]B[F5]W[D6];)");
    let two = format!("(;GM[Othello]PB[c]PW[d]RE[+2.000]TY[8]BO[{START}]B[E6]W[F4]B[E3];)");
    let file = format!("{one}\n{two}\n");
    let games = parse_all(&file).unwrap();
    assert_eq!(games.len(), 2);
    assert_eq!(games[0].other, vec![("KM".to_string(), "0".to_string())]);
    assert_eq!(games[0].to_string(), one);
    assert_eq!(games[1].to_string(), two);
    assert_eq!(games[1].to_game().unwrap().moves().len(), 3);
    assert!(
        GgfGame::parse(&file).is_err(),
        "parse wants exactly one game"
    );
}

#[test]
fn bad_records_are_refused() {
    for bad in [
        "(;GM[Go]TY[8]BO[8 x];)".to_string(),
        format!("(;GM[Othello]TY[10]BO[{START}];)"),
        "(;GM[Othello]TY[8]BO[8 ---- *];)".to_string(),
        format!("(;GM[Othello]TY[8]BO[{START}]B[Z9];)"),
        format!("(;GM[Othello]TY[8]BO[{START}]B[F5]"),
    ] {
        assert!(GgfGame::parse(&bad).is_err(), "{bad}");
    }
    // Well formed, but an illegal move: read, then refused on replay.
    let g = GgfGame::parse(&format!("(;GM[Othello]TY[8]BO[{START}]B[A1];)")).unwrap();
    assert!(g.to_game().is_err());
    // A move by the colour not on move when it need not pass.
    let g = GgfGame::parse(&format!("(;GM[Othello]TY[8]BO[{START}]W[F5];)")).unwrap();
    assert!(g.to_game().is_err());
}

/// A classic game (the rooms' records): an empty start board, `VA[classic]`
/// after `BO`, four free placements in the centre; read, replayed in the
/// classic rules and written back unchanged. `VA` before `BO` reads the same;
/// a variant we do not know is refused.
#[test]
fn a_classic_game_carries_its_variant() {
    let empty = format!("8 {} *", "-".repeat(64));
    let text = format!(
        "(;GM[Othello]PC[Mollett rooms]PB[black]PW[red]RE[?]TY[8]BO[{empty}]VA[classic]\
         B[D4]W[E4]B[E5]W[D5]B[F4];)"
    );
    let g = round_trip(&text);
    assert_eq!(g.to_string(), text);
    assert_eq!(
        g.start,
        mollett::Position::start(mollett::Variant::Classic, Color::Black)
    );
    assert!(g.other.is_empty(), "{:?}", g.other);
    let game = g.to_game().unwrap();
    assert_eq!(game.moves().len(), 5);
    assert_eq!(game.position().variant, mollett::Variant::Classic);
    let before = GgfGame::parse(&text.replace(
        &format!("TY[8]BO[{empty}]VA[classic]"),
        &format!("VA[classic]TY[8]BO[{empty}]"),
    ))
    .unwrap();
    assert_eq!(before, g);
    // Without the tag the empty board is a modern position: the first
    // placement is illegal there, as any reader that ignores `VA` finds.
    let modern = GgfGame::parse(&text.replace("VA[classic]", "")).unwrap();
    assert!(modern.to_game().is_err());
    assert!(GgfGame::parse(&text.replace("VA[classic]", "VA[hex]")).is_err());
}
