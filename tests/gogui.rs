//! GoGui's generic-game (rules) commands and its analysis menu.

mod common;

use common::ask;

/// The answer text of the last command of a script (after `= `).
fn last(script: &str) -> String {
    let a = ask(script);
    let answer = a.last().expect("an answer").clone();
    assert!(answer.starts_with('='), "{answer}");
    answer[1..].trim_start_matches(' ').to_string()
}

#[test]
fn the_rules_commands_describe_the_game() {
    assert_eq!(last("gogui-rules_game_id\n"), "Othello");
    assert_eq!(last("gogui-rules_board_size\n"), "8");
    assert_eq!(last("gogui-rules_side_to_move\n"), "black");
    assert_eq!(last("gogui-rules_final_result\n"), "unknown");
    // Row 8 first: GoGui draws the first row at the top and calls it row 8.
    assert_eq!(
        last("gogui-rules_board\n"),
        "........\n........\n........\n...XO...\n...OX...\n........\n........\n........"
    );
    assert_eq!(last("gogui-rules_legal_moves\n"), "D3 C4 F5 E6");
    // After f5 (f5 is row 5 from the bottom in GoGui too): white's moves.
    assert_eq!(last("play b F5\ngogui-rules_legal_moves\n"), "F4 D6 F6");
    assert_eq!(last("play b F5\ngogui-rules_side_to_move\n"), "white");
    assert_eq!(
        last("play b F5\ngogui-rules_board\n"),
        "........\n........\n........\n...XXX..\n...OX...\n........\n........\n........"
    );
}

#[test]
fn passes_and_the_end_of_the_game() {
    // White a1, black b1, black to move: only a pass.
    let board = format!("O*{}", "-".repeat(62));
    let setup = format!("setboard {board} X\n");
    assert_eq!(last(&format!("{setup}gogui-rules_legal_moves\n")), "pass");
    let over = format!("{setup}play b pass\nplay w c1\n");
    assert_eq!(last(&format!("{over}gogui-rules_legal_moves\n")), "");
    assert_eq!(last(&format!("{over}gogui-rules_final_result\n")), "W+3");
    let draw = format!("setboard {}{} X\n", "X".repeat(32), "O".repeat(32));
    assert_eq!(last(&format!("{draw}gogui-rules_final_result\n")), "Draw");
}

#[test]
fn the_analysis_menu_and_the_command_table() {
    let menu = last("gogui-analyze_commands\n");
    let entries: Vec<&str> = menu.lines().collect();
    assert!(entries.iter().any(|e| e.ends_with("/hint 4")), "{menu}");
    assert!(entries.iter().any(|e| e.ends_with("/solve")), "{menu}");
    for e in &entries {
        assert_eq!(e.split('/').count(), 3, "type/label/command: {e}");
    }
    let listed = last("list_commands\n");
    for name in [
        "gogui-rules_game_id",
        "gogui-rules_board",
        "gogui-rules_board_size",
        "gogui-rules_legal_moves",
        "gogui-rules_side_to_move",
        "gogui-rules_final_result",
        "gogui-analyze_commands",
    ] {
        assert!(listed.lines().any(|l| l == name), "{name} not listed");
        assert_eq!(last(&format!("known_command {name}\n")), "true");
        assert!(last(&format!("help {name}\n")).starts_with(name));
    }
}
