//! The protocol as a user sees it: exact answers for every command, framing,
//! malformed input, pipelining, `stop` and `quit`.

mod common;

use common::{answers, ask, ask_unhurried, legal_after, run, run_bytes, Live};
use mollett::Variant;
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const START_LEGAL: [&str; 4] = ["d3", "c4", "f5", "e6"];

/// White (O) to move must pass: black a1, white b1; black can take c1.
fn white_must_pass() -> String {
    format!("setboard XO{} O\n", "-".repeat(62))
}

/// `0`, `0.00`, or a signed integer or two-decimal number: `+18`, `-4`, `+1.25`.
fn is_score(s: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
    let Some(d) = s.strip_prefix('+').or(s.strip_prefix('-')) else {
        return s == "0" || s == "0.00";
    };
    match d.split_once('.') {
        None => digits(d) && d != "0",
        Some((i, f)) => digits(i) && f.len() == 2 && digits(f) && d != "0.00",
    }
}

#[test]
fn framing_ids_comments_blank_lines_tabs_cr() {
    let out = run("5 protocol_version\n7 foo\n# only a comment\n\n   \n\t1\tname\t# trailing\r\nname\r\n12 play c4\nplay\n3 clear_board\n");
    assert_eq!(
        out,
        "=5 2\n\n?7 unknown command\n\n=1 Mollett\n\n= Mollett\n\n=12\n\n? syntax error, expected: play [<colour>] <move>\n\n=3\n\n"
    );
}

#[test]
fn control_characters_are_removed() {
    assert_eq!(run("na\x00m\x07e\x7f\n"), "= Mollett\n\n");
    // A line of control characters only is blank: no answer.
    assert_eq!(run("\x01\x02\r\nname\n"), "= Mollett\n\n");
}

#[test]
fn core_commands() {
    let a = ask("protocol_version\nname\nversion\nknown_command play\nknown_command foo\nknown_command list_games\nboardsize 8\nboardsize 19\nkomi 6.5\nkomi -1\nkomi x\nlist_games\nset_game Othello\nset_game reversi\nset_game Go\nstop\n");
    assert_eq!(
        a,
        [
            "= 2",
            "= Mollett",
            &format!("= {}", env!("CARGO_PKG_VERSION")),
            "= true",
            "= false",
            "= true",
            "=",
            "? unacceptable size",
            "=",
            "=",
            "? syntax error, expected: komi <komi>",
            "= Othello",
            "=",
            "=",
            "? unsupported game",
            "=",
        ]
    );
}

#[test]
fn list_commands_known_command_and_help_agree() {
    let a = ask("list_commands\nhelp\n");
    let names: Vec<&str> = a[0].trim_start_matches("= ").lines().collect();
    assert!(names.contains(&"list_games"), "Quarry needs list_games");
    for required in [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "genmove",
    ] {
        assert!(names.contains(&required), "{required} missing");
    }
    let help: Vec<&str> = a[1].trim_start_matches("= ").lines().collect();
    assert_eq!(help.len(), names.len());
    let script: String = names
        .iter()
        .map(|n| format!("known_command {n}\nhelp {n}\n"))
        .collect();
    let b = ask(&script);
    for (i, name) in names.iter().enumerate() {
        assert_eq!(b[2 * i], "= true");
        assert!(
            b[2 * i + 1].starts_with(&format!("= {name}")),
            "{}",
            b[2 * i + 1]
        );
        assert_eq!(help[i], b[2 * i + 1].trim_start_matches("= "));
    }
    assert_eq!(ask("help nothing\n"), ["? unknown command"]);
}

#[test]
fn legal_moves_at_the_start() {
    assert_eq!(ask("legal\n"), ["= d3 c4 f5 e6"]);
    assert_eq!(
        answers(&run_bytes(Variant::Classic, b"legal\n")),
        ["= d4 e4 d5 e5"]
    );
    assert_eq!(ask("newgame classic\nlegal\n")[1], "= d4 e4 d5 e5");
    // White first in modern: white brackets black's e4 and d5.
    assert_eq!(ask("newgame modern white\nlegal\n")[1], "= e3 f4 c5 d6");
}

#[test]
fn play_discs_history() {
    let a = ask("play c4\ndiscs\nhistory\nplay white C3\nplay b D3\nhistory\n");
    assert_eq!(
        a,
        ["=", "= black 4 white 1", "= c4", "=", "=", "= c4 c3 d3"]
    );
}

#[test]
fn classic_placements_and_supplies() {
    let a = ask("newgame classic\ndiscs\nplay d4\nplay red e4\nplay d5\nplay r e5\ndiscs\nlegal\nshowboard\n");
    assert_eq!(a[1], "= black 0 red 0 supply 32 32");
    assert_eq!(&a[2..6], ["=", "=", "=", "="]);
    assert_eq!(a[6], "= black 2 red 2 supply 30 30");
    // Parallel columns: black d4 d5, red e4 e5.
    assert_eq!(a[7], "= f3 f4 f5 f6");
    assert!(
        a[8].ends_with("\nblack to move\nblack 2 red 2 supply 30 30"),
        "{}",
        a[8]
    );
    // Colours answer in the variant's own names; white is accepted for red.
    assert_eq!(
        ask("newgame classic white\nshowboard\n")[1].lines().nth(10),
        Some("red to move")
    );
}

#[test]
fn wrong_colour() {
    assert_eq!(
        ask("play white d3\ngenmove white\nreg_genmove w\nhistory\n"),
        ["? wrong colour", "? wrong colour", "? wrong colour", "="]
    );
}

#[test]
fn colour_not_on_move_when_the_side_on_move_must_pass() {
    let setup = white_must_pass();
    assert_eq!(legal_after(&setup), ["pass"]);
    let a = ask(&format!(
        "{setup}play black c1\nhistory\ndiscs\nlegal\nfinal_score\n"
    ));
    assert_eq!(
        &a[1..],
        ["=", "= pass c1", "= black 3 white 0", "=", "= B+3"]
    );
    // The explicit pass is fine too, and a move for white is not.
    assert_eq!(
        ask(&format!(
            "{setup}play c1\nplay black pass\nplay white pass\nhistory\n"
        ))[1..],
        ["? illegal move", "? illegal move", "=", "= pass"]
    );
    // genmove for the other colour records the pass (c1 is forced).
    assert_eq!(
        ask(&format!("{setup}genmove black\nhistory\n"))[1..],
        ["= c1", "= pass c1"]
    );
    assert_eq!(
        ask(&format!("{setup}genmove\nhistory\n"))[1..],
        ["= pass", "= pass"]
    );
    assert_eq!(
        ask(&format!("{setup}reg_genmove b\nreg_genmove\nhistory\n"))[1..],
        ["= c1", "= pass", "="]
    );
}

#[test]
fn game_over_answers() {
    let over = format!("{}play black c1\n", white_must_pass());
    let a = ask(&format!("{over}play d1\nplay white d1\ngenmove\nreg_genmove\ngenmove white\nplay white pass\nplay black pass\nplay pass\nhistory\nsolve\nhint 2\nlegal\nfinal_score\nset_option scoring empties\nfinal_score\n"));
    // Controllers ask for moves and send passes after the end (gogui-twogtp):
    // genmove answers pass and a pass is accepted, and neither changes the game.
    assert_eq!(
        &a[2..],
        [
            "? game over",
            "? game over",
            "= pass",
            "= pass",
            "= pass",
            "=",
            "=",
            "=",
            "= pass c1",
            "? game over",
            "? game over",
            "=",
            "= B+3",
            "=",
            "= B+64"
        ]
    );
    assert_eq!(ask("final_score\n"), ["? game not over"]);
    // White wins: W+; a draw: 0.
    assert_eq!(
        ask(&format!("setboard OX{} X\nfinal_score\n", "-".repeat(62)))[1],
        "? game not over"
    );
    assert_eq!(
        ask(&format!("setboard OO{} X\nfinal_score\n", "-".repeat(62)))[1],
        "= W+2"
    );
    assert_eq!(
        ask(&format!("setboard X{}O X\nfinal_score\n", "-".repeat(62)))[1],
        "= 0"
    );
}

#[test]
fn undo_and_redo() {
    let a = ask("play c4\nplay c3\nundo\nhistory\nundo 2\nundo\nlegal\nredo 2\nhistory\nredo\nundo 0\nundo x\n");
    assert_eq!(
        a,
        [
            "=",
            "=",
            "=",
            "= c4",
            "? cannot undo",
            "=",
            "= d3 c4 f5 e6",
            "=",
            "= c4 c3",
            "? cannot redo",
            "=",
            "? syntax error, expected: undo [n]"
        ]
    );
    // A new move drops the redo list.
    assert_eq!(ask("play c4\nundo\nplay d3\nredo\n")[3], "? cannot redo");
}

#[test]
fn showboard_draws_the_position() {
    let a = ask("showboard\n");
    assert_eq!(
        a[0],
        "=\n  a b c d e f g h\n1 . . . . . . . .\n2 . . . . . . . .\n3 . . . * . . . .\n4 . . * O X . . .\n5 . . . X O * . .\n6 . . . . * . . .\n7 . . . . . . . .\n8 . . . . . . . .\nblack to move\nblack 2 white 2"
    );
    let pass = ask(&format!("{}showboard\n", white_must_pass()));
    assert!(
        pass[1].starts_with("=\n  a b c d e f g h\n1 X O . . . . . .\n"),
        "{}",
        pass[1]
    );
    assert!(pass[1].ends_with("\nwhite to move, must pass\nblack 1 white 1"));
}

/// `position`'s board: rows 1 to 8, files a to h, `-` for empty.
fn board_with(discs: &[(&str, char)]) -> String {
    let mut b = vec!['-'; 64];
    for (sq, c) in discs {
        let (f, r) = (sq.as_bytes()[0] - b'a', sq.as_bytes()[1] - b'1');
        b[usize::from(r) * 8 + usize::from(f)] = *c;
    }
    b.into_iter().collect()
}

#[test]
fn position_answers_in_one_line_for_programs() {
    let start = board_with(&[("d4", 'O'), ("e4", 'X'), ("d5", 'X'), ("e5", 'O')]);
    let a = ask("position
list_commands
help position
");
    assert_eq!(
        a[0],
        format!("= board {start} side black status play discs 2 2 legal d3 c4 f5 e6")
    );
    assert!(
        a[1].lines()
            .any(|l| l.trim_start_matches("= ") == "position"),
        "{}",
        a[1]
    );
    assert!(a[2].starts_with("= position - "), "{}", a[2]);
    // After f5 black has f5, e5 turned: 4 to 1, white to move.
    let after = ask("play f5
position
");
    let board = board_with(&[
        ("d4", 'O'),
        ("e4", 'X'),
        ("d5", 'X'),
        ("e5", 'X'),
        ("f5", 'X'),
    ]);
    assert_eq!(
        after[1],
        format!("= board {board} side white status play discs 4 1 legal f4 d6 f6")
    );
    // White must pass; then black's c1 takes b1 and the game is over.
    let pass = ask(&format!(
        "{}position
play pass
play c1
position
",
        white_must_pass()
    ));
    assert_eq!(
        pass[1],
        format!(
            "= board {} side white status pass discs 1 1 legal pass",
            board_with(&[("a1", 'X'), ("b1", 'O')])
        )
    );
    assert_eq!(
        pass[4],
        format!(
            "= board {} side - status over discs 3 0 legal",
            board_with(&[("a1", 'X'), ("b1", 'X'), ("c1", 'X')])
        )
    );
    // Classic: the supplies, in the variant's colour names.
    let c = ask("newgame classic
position
play d4
play red e4
play d5
play r e5
position
position extra
");
    assert_eq!(
        c[1],
        format!(
            "= board {} side black status play discs 0 0 supply 32 32 legal d4 e4 d5 e5",
            "-".repeat(64)
        )
    );
    let parallel = board_with(&[("d4", 'X'), ("e4", 'O'), ("d5", 'X'), ("e5", 'O')]);
    assert_eq!(
        c[6],
        format!(
            "= board {parallel} side black status play discs 2 2 supply 30 30 legal f3 f4 f5 f6"
        )
    );
    assert_eq!(c[7], "? syntax error, expected: position");
}

#[test]
fn setboard_and_its_errors() {
    let board = "-".repeat(27) + "OX------XO" + &"-".repeat(27);
    let a = ask(&format!("setboard {board} X\nlegal\nhistory\ndiscs\n"));
    assert_eq!(a, ["=", "= d3 c4 f5 e6", "=", "= black 2 white 2"]);
    let bad = [
        format!("setboard {} X", "-".repeat(63)),
        format!("setboard {}Z X", "-".repeat(63)),
        format!("setboard {board} Y"),
        format!("setboard {board} X 30 30"),
        format!("setboard {board}"),
        "setboard".to_string(),
    ];
    for line in bad {
        let a = ask(&format!("play c4\n{line}\nhistory\n"));
        assert!(a[1].starts_with('?'), "{line}: {}", a[1]);
        assert_eq!(a[2], "= c4", "{line} changed the game");
    }
    // Classic: supplies given, or derived; they must add up with the discs.
    let classic = |rest: &str| {
        answers(&run_bytes(
            Variant::Classic,
            format!("setboard {board} X{rest}\ndiscs\n").as_bytes(),
        ))
    };
    assert_eq!(classic(" 30 30"), ["=", "= black 2 red 2 supply 30 30"]);
    assert_eq!(classic(""), ["=", "= black 2 red 2 supply 30 30"]);
    assert_eq!(
        classic(" 31 30")[0],
        "? supplies and discs on the board must add up to 64"
    );
    assert_eq!(classic(" 33 29")[0], "? supplies must be 0 to 32");
}

/// Every kind of bad line gets `?` and changes neither board nor history.
#[test]
fn malformed_lines_change_nothing() {
    let setup = b"play c4\nplay c3\nundo\n".to_vec();
    let probe = b"showboard\nhistory\ndiscs\nget_option depth\n";
    let mut long = b"play ".to_vec();
    long.extend(std::iter::repeat_n(b'd', 5000));
    long.push(b'\n');
    let bad: Vec<Vec<u8>> = vec![
        b"foo\n".to_vec(),
        b"3 frobnicate d3\n".to_vec(),
        b"play\n".to_vec(),
        b"play z9\n".to_vec(),
        b"play a1\n".to_vec(),
        b"play d3 d3\n".to_vec(),
        b"play black\n".to_vec(),
        b"play purple d3\n".to_vec(),
        b"play white d3\n".to_vec(),
        b"genmove purple\n".to_vec(),
        b"undo 5\n".to_vec(),
        b"undo x\n".to_vec(),
        b"redo 2\n".to_vec(),
        b"newgame chess\n".to_vec(),
        b"newgame modern black extra\n".to_vec(),
        b"boardsize 10\n".to_vec(),
        b"boardsize\n".to_vec(),
        b"known_command\n".to_vec(),
        b"set_option depth 99\n".to_vec(),
        b"set_option depth\n".to_vec(),
        b"set_option colour red\n".to_vec(),
        b"setboard xx X\n".to_vec(),
        b"time_left green 10 0\n".to_vec(),
        b"time_settings 1 2\n".to_vec(),
        b"kgs-time_settings sometimes\n".to_vec(),
        b"hint 0\n".to_vec(),
        b"perft 61\n".to_vec(),
        b"perft -1\n".to_vec(),
        b"final_score\n".to_vec(),
        b"set_game Chess\n".to_vec(),
        long,
        b"\x00\xff\xfe\x80garbage\n".to_vec(),
        b"play \xc3\x28\n".to_vec(),
        "pl\u{e4}y d3\n".as_bytes().to_vec(),
        b"9\n".to_vec(),
    ];
    let mut reference = setup.clone();
    reference.extend_from_slice(probe);
    let expected = answers(&run_bytes(Variant::Modern, &reference))[3..].to_vec();
    assert_eq!(expected[1], "= c4");
    for line in bad {
        let mut input = setup.clone();
        input.extend_from_slice(&line);
        input.extend_from_slice(probe);
        let a = answers(&run_bytes(Variant::Modern, &input));
        assert_eq!(a.len(), 8, "{:?}: {a:?}", String::from_utf8_lossy(&line));
        assert!(
            a[3].starts_with('?'),
            "{:?} got {}",
            String::from_utf8_lossy(&line),
            a[3]
        );
        assert!(!a[3].contains('\n'));
        assert_eq!(
            a[4..],
            expected[..],
            "{:?} changed the session",
            String::from_utf8_lossy(&line)
        );
    }
}

#[test]
fn errors_carry_the_id() {
    let mut long = b"42 play ".to_vec();
    long.extend(std::iter::repeat_n(b'x', 5000));
    long.extend_from_slice(b"\n8 play \xff\n9 play a1\n");
    assert_eq!(
        answers(&run_bytes(Variant::Modern, &long)),
        [
            "?42 line too long (more than 4096 bytes)",
            "?8 invalid UTF-8",
            "?9 illegal move"
        ]
    );
}

#[test]
fn genmove_plays_a_legal_move_and_reg_genmove_does_not() {
    let a = ask("set_option movetime 50\nreg_genmove\nhistory\ngenmove black\nhistory\n");
    let reg = a[1].trim_start_matches("= ");
    assert!(START_LEGAL.contains(&reg), "{reg}");
    assert_eq!(a[2], "=");
    let mv = a[3].trim_start_matches("= ");
    assert!(START_LEGAL.contains(&mv), "{mv}");
    assert_eq!(a[4], format!("= {mv}"));
}

#[test]
fn solve_and_hint_formats() {
    // Two empties (a1 b1), black to move: small enough to solve at once.
    let board = format!("--OOOOOXOOXXXXXX{}", "X".repeat(48));
    let live = Live::new(Variant::Modern);
    live.send(&format!(
        "setboard {board} X\nlegal\nsolve\nhint 3\nhistory\n"
    ));
    let a = live.wait(5, Duration::from_secs(10));
    assert_eq!(a[0], "=");
    let legal: Vec<&str> = a[1].trim_start_matches("= ").split(' ').collect();
    let solve: Vec<&str> = a[2].trim_start_matches("= ").split(' ').collect();
    assert_eq!(solve.len(), 2, "{}", a[2]);
    assert!(legal.contains(&solve[0]), "{}", a[2]);
    assert!(is_score(solve[1]), "{}", a[2]);
    let hints: Vec<&str> = a[3].trim_start_matches("= ").lines().collect();
    assert!(!hints.is_empty() && hints.len() <= 3);
    for h in &hints {
        let (mv, score) = h.split_once(' ').unwrap();
        assert!(legal.contains(&mv) && is_score(score), "{h}");
    }
    assert_eq!(a[4], "=", "solve and hint must not play");
    live.close(Duration::from_secs(5));
}

/// A whole game driven the way Quarry drives it: `genmove <colour>` for each
/// side in turn, never a pass; a side with no move is skipped.
#[test]
fn a_whole_game_without_passes_sent() {
    let live = Live::new(Variant::Modern);
    live.send("list_games\nset_game Othello\nboardsize 8\nclear_board\nset_option movetime 20\ntime_settings 4 0 0\n");
    let mut count = 6;
    assert!(live
        .wait(count, Duration::from_secs(5))
        .iter()
        .all(|a| a.starts_with('=')));
    let ask_live = |line: &str, count: &mut usize| -> String {
        live.send(line);
        *count += 1;
        live.wait(*count, Duration::from_secs(10)).pop().unwrap()
    };
    let mut colour = "black";
    let other = |c: &str| if c == "black" { "white" } else { "black" };
    let (mut plies, mut skipped) = (0, 0);
    loop {
        let legal = ask_live("legal\n", &mut count);
        if legal == "=" {
            break;
        }
        if legal == "= pass" {
            colour = other(colour);
            skipped += 1;
        }
        let mv = ask_live(&format!("genmove {colour}\n"), &mut count);
        let mv = mv
            .strip_prefix("= ")
            .unwrap_or_else(|| panic!("genmove {colour}: {mv}"));
        assert_ne!(mv, "pass");
        // The rules core agrees that the move was legal.
        assert_eq!(ask_live("undo\n", &mut count), "=");
        assert_eq!(ask_live(&format!("play {colour} {mv}\n"), &mut count), "=");
        plies += 1;
        colour = other(colour);
        assert!(plies <= 60);
    }
    let score = ask_live("final_score\n", &mut count);
    assert!(
        score == "= 0" || score.starts_with("= B+") || score.starts_with("= W+"),
        "{score}"
    );
    let history = ask_live("history\n", &mut count);
    let moves: Vec<&str> = history.trim_start_matches("= ").split(' ').collect();
    assert_eq!(moves.iter().filter(|m| **m != "pass").count(), plies);
    assert_eq!(moves.iter().filter(|m| **m == "pass").count(), skipped);
    live.close(Duration::from_secs(5));
}

#[test]
fn options_round_trip_and_rejection() {
    let a = ask("set_option depth 5\nget_option depth\nset_option depth 61\nget_option depth\nset_option scoring EMPTIES\nget_option scoring\nset_option randomness 2.5\nget_option randomness\nset_option nope 1\nget_option nope\nset_option threads 0\nset_option movetime -5\noptions\n");
    assert_eq!(
        &a[..12],
        [
            "=",
            "= 5",
            "? value out of range: depth takes 0..60",
            "= 5",
            "=",
            "= empties",
            "=",
            "= 2.5",
            "? unknown option: nope",
            "? unknown option: nope",
            "? value out of range: threads takes 1..256",
            "? invalid value: movetime takes an integer",
        ]
    );
    let listing: Vec<&str> = a[12].trim_start_matches("= ").lines().collect();
    for name in [
        "threads",
        "hash",
        "depth",
        "movetime",
        "nodes",
        "scoring",
        "randomness",
        "seed",
        "endgame",
        "margin",
    ] {
        assert!(
            listing.iter().any(|l| l.starts_with(&format!("{name} "))),
            "{name} not listed"
        );
    }
    assert!(listing.contains(
        &"depth 5 default 0 range 0..60 deepest midgame iteration per move (0: no limit)"
    ));
}

#[test]
fn time_commands_never_fail() {
    let a = ask("time_settings 300 0 0\ntime_settings 0 30 0\ntime_settings 600 30 5\ntime_left black 120 0\ntime_left white 25.5 3\ntime_left b 0 0\nkgs-time_settings none\nkgs-time_settings absolute 60\nkgs-time_settings byoyomi 60 10 5\nkgs-time_settings canadian 60 30 10\ntime_left red 59 0\ngenmove\n");
    assert!(a[..11].iter().all(|x| x == "="), "{a:?}");
    assert!(START_LEGAL.contains(&a[11].trim_start_matches("= ")));
}

#[test]
fn perft_and_bench() {
    // After c4: a quarter of the 56, as the four openings are symmetric.
    assert_eq!(
        ask("perft 0\nperft 1\nperft 3\nplay c4\nperft 2\n"),
        ["= 1", "= 4", "= 56", "=", "= 14"]
    );
    assert_eq!(
        answers(&run_bytes(Variant::Classic, b"perft 3\nperft 5\n")),
        ["= 24", "= 96"]
    );
    let b = ask("bench\n");
    let words: Vec<&str> = b[0].trim_start_matches("= ").split(' ').collect();
    assert_eq!(words.len(), 4, "{}", b[0]);
    assert!(
        words[0].parse::<u64>().is_ok()
            && words[1] == "nodes"
            && words[2].parse::<u64>().is_ok()
            && words[3] == "nps"
    );
}

#[test]
fn newgame_and_clear_board() {
    let a = ask("play c4\nnewgame\nhistory\nnewgame classic red\nlegal\nplay e4\ndiscs\nclear_board\nshowboard\nnewgame modern\ndiscs\n");
    assert_eq!(
        &a[..7],
        [
            "=",
            "=",
            "=",
            "=",
            "= d4 e4 d5 e5",
            "=",
            "= black 0 red 1 supply 32 31"
        ]
    );
    assert!(
        a[8].ends_with("\nblack to move\nblack 0 red 0 supply 32 32"),
        "{}",
        a[8]
    );
    assert_eq!(a[10], "= black 2 white 2");
}

/// GUIs write several commands before reading: answers come in order, and
/// commands arriving during a search wait for it.
#[test]
fn pipelined_commands_are_answered_in_order() {
    let live = Live::new(Variant::Modern);
    live.send(
        "1 set_option movetime 200\n2 genmove\n3 history\n4 legal\n5 name\n6 bogus\n7 discs\n",
    );
    let a = live.wait(7, Duration::from_secs(10));
    let ids: Vec<&str> = a
        .iter()
        .map(|x| x[1..].split(' ').next().unwrap())
        .collect();
    assert_eq!(ids, ["1", "2", "3", "4", "5", "6", "7"]);
    let mv = a[1].strip_prefix("=2 ").unwrap();
    assert!(START_LEGAL.contains(&mv));
    assert_eq!(a[2], format!("=3 {mv}"));
    assert_eq!(a[4], "=5 Mollett");
    assert_eq!(a[5], "?6 unknown command");
    assert_eq!(a[6], "=7 black 4 white 1");
    live.close(Duration::from_secs(5));
}

#[test]
fn stop_answers_the_best_move_so_far() {
    let live = Live::new(Variant::Modern);
    live.send("set_option movetime 0\nset_option depth 0\nset_option nodes 0\nset_option endgame 0\ngenmove\n");
    std::thread::sleep(Duration::from_millis(150));
    let t = Instant::now();
    live.send("showboard\n10 stop\n");
    let a = live.wait(7, Duration::from_secs(5));
    assert!(
        t.elapsed() < Duration::from_secs(3),
        "stop took {:?}",
        t.elapsed()
    );
    let mv = a[4].trim_start_matches("= ");
    assert!(START_LEGAL.contains(&mv), "{mv}");
    assert!(
        a[5].contains("white to move"),
        "showboard came after the search"
    );
    assert_eq!(a[6], "=10");
    live.close(Duration::from_secs(5));
}

/// FFO #1 (14 empties): g8 wins by 18 with the empties counted.
const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X";

#[test]
fn end_of_input_lets_every_command_run_to_its_end() {
    // A piped script: the input ends long before the solve does.
    let a = ask(&format!(
        "setboard {FFO_1}\nset_option scoring empties\nsolve\nhistory\n"
    ));
    assert_eq!(a, ["=", "=", "= g8 +18", "="]);
}

/// Runs the binary, keeping stdin open, and waits for it to exit by itself.
fn run_binary_until_exit(input: &str, close_stdin: bool) -> (String, Duration) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    if close_stdin {
        drop(stdin);
    } else {
        std::mem::forget(stdin);
    }
    let start = Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            break;
        }
        if start.elapsed() > Duration::from_secs(10) {
            child.kill().unwrap();
            panic!("the engine did not exit");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let elapsed = start.elapsed();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    (out, elapsed)
}

#[test]
fn quit_answers_the_commands_before_it_then_exits() {
    let (out, _) = run_binary_until_exit("1 name\n2 quit\n3 name\n", false);
    assert_eq!(out, "=1 Mollett\n\n=2\n\n");
    // The search before quit gets its real answer, not an interruption.
    let (out, _) = run_binary_until_exit(
        &format!("setboard {FFO_1}\nset_option scoring empties\n5 solve\n6 name\n7 quit\n8 name\n"),
        false,
    );
    assert_eq!(answers(&out), ["=", "=", "=5 g8 +18", "=6 Mollett", "=7"]);
}

/// perft 14 takes hours: these only pass if the job is really interrupted.
#[test]
fn stop_interrupts_a_long_perft_and_quit_then_exits() {
    let (out, elapsed) = run_binary_until_exit("1 perft 14\n2 name\n3 stop\n4 quit\n", false);
    assert!(
        elapsed < Duration::from_secs(3),
        "stop and quit took {elapsed:?}"
    );
    assert_eq!(out, "?1 perft stopped\n\n=2 Mollett\n\n=3\n\n=4\n\n");
    let live = Live::new(Variant::Modern);
    live.send("1 perft 14\n2 name\n");
    std::thread::sleep(Duration::from_millis(100));
    live.send("3 stop\n");
    let a = live.wait(3, Duration::from_secs(3));
    assert_eq!(a, ["?1 perft stopped", "=2 Mollett", "=3"]);
    live.close(Duration::from_secs(3));
}

#[test]
fn binary_exits_at_end_of_input_after_answering() {
    let (out, elapsed) = run_binary_until_exit(
        "set_option movetime 200\nset_option depth 0\ngenmove\n",
        true,
    );
    assert!(elapsed < Duration::from_secs(3));
    let a = answers(&out);
    assert!(
        START_LEGAL.contains(&a[2].trim_start_matches("= ")),
        "{out}"
    );
}

/// A GUI that dies takes the engine with it, even mid-search with input open.
#[test]
fn the_engine_exits_when_nobody_reads_its_answers() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the engine");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"perft 14\n").unwrap();
    stdin.flush().unwrap();
    std::thread::sleep(Duration::from_millis(200));
    drop(child.stdout.take());
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > Duration::from_secs(5) {
            child.kill().unwrap();
            panic!("the engine outlived its reader");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    drop(stdin);
}

/// `set_option eval` swaps the static evaluation: the same fixed-depth
/// searches score the start differently, and switching back restores them.
/// Two depths, since two evaluations can meet on one score (the seventh
/// weight set and the handcrafted one both read d3 +1.20 at depth 4).
#[test]
fn the_eval_option_switches_the_evaluation() {
    let hints = "set_option depth 4\nhint 1\nset_option depth 6\nhint 1\n";
    // Without the book, which would answer the start without a search.
    let script = format!(
        "set_option book off\nset_option movetime 0\n{hints}set_option eval handcrafted\n{hints}set_option eval learned\n{hints}"
    );
    let a = ask_unhurried(&script);
    assert_eq!(a.len(), 16, "{a:?}");
    let (learned, handcrafted, again) = ((&a[3], &a[5]), (&a[8], &a[10]), (&a[13], &a[15]));
    assert!(
        learned.0.starts_with("= ") && learned.1.starts_with("= "),
        "{a:?}"
    );
    assert_ne!(
        learned, handcrafted,
        "learned and handcrafted give the same hints: {a:?}"
    );
    assert_eq!(learned, again);
    // Not accepted: the name is neither an evaluation nor a file.
    let a = ask_unhurried("set_option eval neural\nget_option eval\n");
    assert!(a[0].starts_with('?'), "{}", a[0]);
    assert_eq!(a[1], "= learned");
    // Nor a weight file with one bit flipped in its weights: its checksum
    // covers the whole file.
    let good = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/src/engine/eval/weights-d0b77ce974ee.bin"
    ))
    .unwrap();
    let dir = common::TestDir::new("flip");
    let flipped = dir.join("flipped.bin");
    let mut bytes = good.clone();
    bytes[good.len() / 2] ^= 0x10;
    std::fs::write(&flipped, &bytes).unwrap();
    let intact = dir.join("intact.bin");
    std::fs::write(&intact, &good).unwrap();
    let a = ask_unhurried(&format!(
        "set_option eval {}\nget_option eval\nset_option eval {}\nget_option eval\n",
        flipped.display(),
        intact.display()
    ));
    assert!(
        a[0].starts_with('?')
            && a[0].contains(&flipped.display().to_string())
            && a[0].contains("do not match its checksum"),
        "{}",
        a[0]
    );
    assert_eq!(a[1], "= learned");
    assert_eq!(a[2], "=");
    assert_eq!(a[3], format!("= {}", intact.display()));
}

/// `level N` is depth N, exact from 2N empties, no move time; a bad level changes nothing.
#[test]
fn level_sets_depth_and_endgame() {
    let a = ask("set_option level 3\nget_option depth\nget_option endgame\nget_option movetime\nset_option level 99\nget_option level\ngenmove\n");
    assert_eq!(
        &a[..6],
        [
            "=",
            "= 3",
            "= 6",
            "= 0",
            "? value out of range: level takes 0..60",
            "= 3"
        ]
    );
    assert!(
        START_LEGAL.contains(&a[6].trim_start_matches("= ")),
        "{a:?}"
    );
}

/// Clock values beyond any real clock are refused when given (they used to
/// be accepted and make every later genmove fail); nothing changes.
#[test]
fn unusable_clock_values_are_refused_and_change_nothing() {
    let bad = [
        "time_settings 0 1e300 1",
        "kgs-time_settings byoyomi 1 1e300 5",
        "kgs-time_settings absolute 1e20",
        "time_settings 1e20 0 0",
        "time_left black 1e20 0",
        // Below the range: the same answer as above it.
        "time_left black -5 0",
        "time_settings -1 0 0",
        "kgs-time_settings canadian 60 -30 5",
    ];
    let script: String = bad.iter().map(|l| format!("{l}\n")).collect();
    let a = ask(&format!("set_option movetime 50\n{script}genmove\n"));
    let n = bad.len();
    for (line, answer) in bad.iter().zip(&a[1..=n]) {
        assert_eq!(answer, "? time must be 0 to 1000000 seconds", "{line}");
    }
    assert!(
        START_LEGAL.contains(&a[n + 1].trim_start_matches("= ")),
        "{a:?}"
    );
}

/// `hint` takes 1 to 64 moves (protocol.md); more is refused, not cut.
#[test]
fn hint_counts_beyond_64_are_refused() {
    let a = ask("set_option depth 2\nhint 65\nhint 100000\nhint 0\nhint 64\n");
    assert_eq!(a[1], "? hint count must be 1 to 64");
    assert_eq!(a[2], "? hint count must be 1 to 64");
    assert_eq!(a[3], "? hint count must be 1 to 64");
    assert!(a[4].starts_with("= "), "{a:?}");
    // All four opening moves, one a line.
    assert_eq!(a[4].lines().count(), 4, "{a:?}");
}

/// A weight file that is a FIFO would block the whole loop on open: it is
/// refused at once, and the loop goes on.
#[test]
fn an_eval_path_that_is_no_regular_file_is_refused() {
    let dir = common::TestDir::new("fifo");
    let fifo = dir.join("weights.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid C string for the duration of the call.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let t = Instant::now();
    let a = ask(&format!(
        "set_option eval {}\nname\nget_option eval\n",
        fifo.display()
    ));
    assert!(t.elapsed() < Duration::from_secs(3));
    assert_eq!(
        a[0],
        format!(
            "? invalid value: eval: {}: not a regular file",
            fifo.display()
        )
    );
    assert_eq!(a[1..], ["= Mollett", "= learned"]);
}

/// A table larger than the memory available is refused when set, and the old
/// one kept (it aborted the process). The engine runs as a process whose
/// address space is capped at 4 GiB (`RLIMIT_AS`), so the option's largest
/// table (65536 MB) is more than it can have on any machine: refused because
/// the system has less available (`MemAvailable`), or, on a machine with
/// 64 GiB free, because the allocation itself fails.
#[test]
fn a_hash_size_the_machine_cannot_hold_is_refused() {
    use std::os::unix::process::CommandExt;
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_mollett"));
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null());
    // SAFETY: setrlimit is async-signal-safe and touches only the child.
    unsafe {
        cmd.pre_exec(|| {
            let cap = 4 << 30;
            let limit = libc::rlimit {
                rlim_cur: cap,
                rlim_max: cap,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().expect("start the engine");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"set_option hash 65536\nget_option hash\nset_option hash 32\nget_option hash\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{:?}", out.status);
    let a = answers(&String::from_utf8(out.stdout).unwrap());
    assert!(
        a[0].starts_with("? a 65536 MB table needs more than the ")
            || a[0] == "? cannot allocate a 65536 MB table",
        "{}",
        a[0]
    );
    assert_eq!(a[1..], ["= 16", "=", "= 32"]);
}

/// `last_value` (our GTP extension, read by the match runner): the value of
/// the move the last genmove or reg_genmove chose, for its mover, as `solve`
/// and `hint` write scores; none before any move and none once a genmove had
/// nothing to choose.
#[test]
fn last_value_is_the_value_of_the_last_chosen_move() {
    let mut script = String::from("last_value\nset_option depth 1\n");
    script.push_str(&"genmove\n".repeat(48));
    script.push_str("set_option depth 8\nsolve\nreg_genmove\nlast_value\ngenmove\nlast_value\n");
    script.push_str(&"genmove\n".repeat(20));
    script.push_str(
        "last_value\nnewgame\ngenmove\nlast_value\nset_option book off\ngenmove\nlast_value\n",
    );
    let a = ask(&script);
    assert_eq!(a[0], "? no value");
    let solve: Vec<&str> = a[51].trim_start_matches("= ").split(' ').collect();
    // At 12 empties the search is exact: the chosen move's value is solve's.
    assert_eq!(a[52], format!("= {}", solve[0]));
    assert_eq!(a[53], format!("= {}", solve[1]));
    assert_eq!(a[54], format!("= {}", solve[0]));
    assert_eq!(a[55], format!("= {}", solve[1]));
    // Twenty more genmoves end the game; the last ones answer pass.
    assert_eq!(a[75], "= pass");
    assert_eq!(a[76], "? no value");
    // The book's move is marked as the book's; a searched opening move has two decimals.
    let book: Vec<&str> = a[79].trim_start_matches("= ").split(' ').collect();
    assert!(
        book.len() == 2 && is_score(book[0]) && book[1] == "book",
        "{}",
        a[79]
    );
    let searched = a[82].trim_start_matches("= ");
    assert!(is_score(searched) && searched.contains('.'), "{searched}");
}

/// `review`: a move's value, the best move's and the discs it loses, as
/// `mollett analyze` gives them. FFO #40 (20 empties, empties to the
/// winner) gives a2 +38 and c7 +36 in its problem file.
#[test]
fn review_gives_the_loss_of_a_move_against_the_best() {
    let a = ask_unhurried(
        "setboard O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X\n\
         review c7\nreview a2 10 20\nreview b8\nreview pass\nreview c7 0\nreview c7 10 31\n\
         review\nhistory\n",
    );
    let (head, rest) = a[1].split_once(" pv ").expect("a line after pv");
    assert_eq!(head, "= c7 +36 a2 +38 2.00 inaccuracy exact");
    let (line, values) = rest.split_once(" values ").expect("values after the line");
    assert!(
        line.starts_with("a2 "),
        "the line starts with the best move: {line}"
    );
    // FFO #40's file: a2 +38, c7 +36; every legal move valued, best first.
    assert!(values.starts_with("a2 +38 "), "{values}");
    assert!(values.contains(" c7 +36"), "{values}");
    let values: Vec<&str> = values.split(' ').collect();
    assert_eq!(values.len() % 2, 0, "move-value pairs");
    assert!(values.len() / 2 >= 2, "{values:?}");
    // A move more than 8 discs below the best has a bound: `<=+30` or lower.
    for v in values.iter().skip(1).step_by(2) {
        match v.strip_prefix("<=") {
            Some(b) => assert!(b.parse::<i32>().unwrap() <= 30, "{values:?}"),
            None => assert!(v.parse::<i32>().unwrap() >= 30, "{values:?}"),
        }
    }
    assert!(
        a[2].starts_with("= a2 +38 a2 +38 0.00 best exact pv a2"),
        "{}",
        a[2]
    );
    assert_eq!(a[3], "? illegal move");
    assert_eq!(a[4], "? illegal move");
    assert_eq!(a[5], "? review depth must be 1 to 30");
    assert_eq!(a[6], "? review exact must be 0 to 30");
    assert!(a[7].starts_with("? syntax error"), "{}", a[7]);
    // Nothing was played.
    assert_eq!(a[8], "=");
}

/// `hint n pv` (protocol.md): each of the n moves goes on with its own
/// line, the move first, every line playable from the position; the moves
/// and their scores are `hint n`'s.
#[test]
fn hint_with_pv_gives_each_move_its_line() {
    let setup = "set_option book off\nset_option threads 1\nset_option movetime 0\nset_option depth 6\nplay f5\nplay d6\n";
    let with = ask(&format!("{setup}hint 3 pv\nhint pv\nhint 3 px\n"));
    let plain = ask(&format!("{setup}hint 3\n"));
    let lines: Vec<&str> = with[6].trim_start_matches("= ").lines().collect();
    assert_eq!(lines.len(), 3, "{with:?}");
    let mut scored = Vec::new();
    for l in &lines {
        let (head, pv) = l.split_once(" pv ").unwrap_or_else(|| panic!("no pv: {l}"));
        let (mv, score) = head.split_once(' ').unwrap();
        assert!(is_score(score), "{l}");
        let pv: Vec<&str> = pv.split(' ').collect();
        assert_eq!(pv[0], mv, "{l}");
        assert!(
            pv.len() >= 2,
            "a depth-6 search expects more than its first move: {l}"
        );
        // The line is legal from the position: every play is accepted.
        let plays: String = pv.iter().map(|m| format!("play {m}\n")).collect();
        let a = ask(&format!("play f5\nplay d6\n{plays}"));
        assert!(a.iter().all(|x| x == "="), "{l}: {a:?}");
        scored.push(head.to_string());
    }
    let plain: Vec<&str> = plain[6].trim_start_matches("= ").lines().collect();
    assert_eq!(plain, scored, "pv changes no move or score");
    // `hint pv` alone is one line; another word after n is refused.
    assert_eq!(with[7].lines().count(), 1, "{with:?}");
    assert!(with[7].contains(" pv "), "{with:?}");
    assert!(with[8].starts_with('?'), "{with:?}");
}
