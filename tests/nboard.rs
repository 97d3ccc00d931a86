//! The NBoard dialect, from the protocol's description (`protocol.md`, "The NBoard dialect"): the
//! GUI's lines in, the engine's lines checked for form, order and legality.

mod common;

use common::Live;
use mollett::{GgfGame, Move, Position, Variant};
use std::thread;
use std::time::{Duration, Instant};

const START: &str = "8 ---------------------------O*------*O--------------------------- *";
const LONG: Duration = Duration::from_secs(5);

/// A live NBoard session and how many of its output lines have been read.
struct Gui {
    live: Live,
    seen: usize,
}

impl Gui {
    fn new() -> Gui {
        let mut gui = Gui {
            live: Live::new(Variant::Modern),
            seen: 0,
        };
        gui.send("nboard 2");
        assert_eq!(gui.until("set myname", LONG), ["set myname Mollett"]);
        gui
    }

    /// A GUI session with the book off, for tests of the search: the book
    /// would answer the first moves at once.
    fn searching() -> Gui {
        let gui = Gui::new();
        gui.send("set book off");
        gui
    }

    fn send(&self, line: &str) {
        self.live.send(&format!("{line}\n"));
    }

    /// The new lines up to and including the first one starting with `prefix`.
    fn until(&mut self, prefix: &str, timeout: Duration) -> Vec<String> {
        let start = Instant::now();
        loop {
            let out = self.live.output();
            let lines: Vec<String> = out.lines().map(str::to_string).collect();
            if let Some(i) = lines[self.seen..]
                .iter()
                .position(|l| l.starts_with(prefix))
            {
                let got = lines[self.seen..=self.seen + i].to_vec();
                self.seen += i + 1;
                return got;
            }
            assert!(
                start.elapsed() < timeout,
                "no line starting {prefix:?} within {timeout:?}; output:\n{out}"
            );
            thread::sleep(Duration::from_millis(2));
        }
    }

    fn close(self) -> String {
        self.live.close(LONG)
    }
}

/// The position at the end of a GGF game.
fn end_of(ggf: &str) -> Position {
    *GgfGame::parse(ggf).unwrap().to_game().unwrap().position()
}

/// The move of a `=== MOVE[/eval[/time]]` line.
fn answered_move(line: &str) -> Move {
    let rest = line.strip_prefix("=== ").expect("a === line");
    rest.split('/').next().unwrap().parse().expect("a move")
}

fn assert_legal(pos: &Position, mv: Move) {
    assert!(
        pos.play(mv).is_some(),
        "{mv} is not legal in {}",
        pos.to_obf()
    );
}

#[test]
fn hello_ping_go_learn_and_unknown_lines() {
    let game = format!(
        "(;GM[Othello]PC[NBoard]DT[2014-02-21]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[{START}]B[F5]W[F6]B[D3]W[C5];)"
    );
    // A search, not the book (which holds this opening since it grew).
    let mut gui = Gui::searching();
    gui.send(&format!("set game {game}"));
    gui.send("set depth 4");
    gui.send("ping 1");
    gui.send("go");
    assert_eq!(gui.until("pong", LONG), ["pong 1"]);
    let lines = gui.until("===", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("nodestats ")),
        "{lines:?}"
    );
    let last = lines.last().unwrap();
    assert_legal(&end_of(&game), answered_move(last));
    // `=== MOVE/eval/time`: upper-case move, numbers after.
    let parts: Vec<&str> = last[4..].split('/').collect();
    assert_eq!(parts.len(), 3, "{last}");
    assert_eq!(parts[0], parts[0].to_uppercase());
    parts[1].parse::<f64>().unwrap();
    parts[2].parse::<f64>().unwrap();
    gui.send("learn");
    assert_eq!(gui.until("learned", LONG).last().unwrap(), "learned");
    gui.send("frobnicate the board");
    gui.send("set flavour vanilla");
    gui.send("ping 2");
    let lines = gui.until("pong", LONG);
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert!(
        lines[..2].iter().all(|l| l.starts_with("status ")),
        "{lines:?}"
    );
    gui.send("quit");
    gui.close();
}

#[test]
fn go_does_not_play_its_move_and_move_does() {
    let mut gui = Gui::new();
    gui.send(&format!("set game (;GM[Othello]TY[8]BO[{START}];)"));
    gui.send("set depth 3");
    gui.send("move F5");
    gui.send("go");
    let after_f5 = Position::start(Variant::Modern, mollett::Color::Black)
        .play("f5".parse().unwrap())
        .unwrap();
    let first = answered_move(gui.until("===", LONG).last().unwrap());
    assert_legal(&after_f5, first);
    // Asked again without a `move`: still white to move in the same position.
    gui.send("go");
    assert_legal(
        &after_f5,
        answered_move(gui.until("===", LONG).last().unwrap()),
    );
    // The GUI plays the move (with eval and time), then black is asked.
    gui.send(&format!("move {first}/-0.50/1.25"));
    gui.send("go");
    let pos = after_f5.play(first).unwrap();
    assert_legal(&pos, answered_move(gui.until("===", LONG).last().unwrap()));
    // An illegal move changes nothing and says so.
    gui.send("move A1");
    gui.send("ping 3");
    let lines = gui.until("pong 3", LONG);
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("status move A1 ignored")),
        "{lines:?}"
    );
    gui.send("go");
    assert_legal(&pos, answered_move(gui.until("===", LONG).last().unwrap()));
    gui.close();
}

#[test]
fn ping_stops_a_long_search_and_pong_comes_after_its_answer() {
    let mut gui = Gui::searching();
    // No clock in the record and a deep depth: `go` would think for minutes.
    gui.send(&format!(
        "set game (;GM[Othello]TY[8]BO[{START}]B[F5]W[D6];)"
    ));
    gui.send("set depth 40");
    gui.send("ping 1");
    gui.send("go");
    gui.until("status thinking", LONG);
    thread::sleep(Duration::from_millis(200));
    let t = Instant::now();
    gui.send("ping 2");
    let lines = gui.until("pong 2", Duration::from_secs(3));
    assert!(
        t.elapsed() < Duration::from_secs(2),
        "ping took {:?}",
        t.elapsed()
    );
    let answer = lines
        .iter()
        .position(|l| l.starts_with("=== "))
        .expect("the search answers");
    assert!(answer < lines.len() - 1, "{lines:?}");
    let pos = end_of(&format!("(;GM[Othello]TY[8]BO[{START}]B[F5]W[D6];)"));
    assert_legal(&pos, answered_move(&lines[answer]));
    // The same for a hint: its search lines come before the pong.
    gui.send("hint 4");
    gui.until("status thinking", LONG);
    gui.send("ping 3");
    let lines = gui.until("pong 3", Duration::from_secs(3));
    // The answer is the last four search lines (live ones may come first),
    // four different moves, before nodestats and the pong.
    let searches: Vec<_> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert!(searches.len() >= 4, "{lines:?}");
    let firsts: std::collections::HashSet<&str> = searches[searches.len() - 4..]
        .iter()
        .map(|l| {
            l.split_whitespace()
                .nth(1)
                .unwrap()
                .split('-')
                .next()
                .unwrap()
        })
        .collect();
    assert_eq!(firsts.len(), 4, "{lines:?}");
    // Pings back to back with nothing running answer at once, in order.
    gui.send("ping 4");
    gui.send("ping 5");
    assert_eq!(gui.until("pong 5", LONG), ["pong 4", "pong 5"]);
    gui.close();
}

#[test]
fn the_clock_in_the_record_bounds_go() {
    // White has used 29.5 s of 30: half a second left.
    let game = format!("(;GM[Othello]TI[00:30]TY[8]BO[{START}]B[F5//1]W[D6//29.5]B[C3//1];)");
    let mut gui = Gui::new();
    gui.send(&format!("set game {game}"));
    gui.send("set depth 40");
    let t = Instant::now();
    gui.send("go");
    let mv = answered_move(gui.until("===", LONG).last().unwrap());
    assert!(
        t.elapsed() < Duration::from_millis(1500),
        "took {:?}",
        t.elapsed()
    );
    assert_legal(&end_of(&game), mv);
    gui.close();
}

#[test]
fn a_pass_only_position_answers_pa() {
    // A non-standard start: white a1, black b1, black to move must pass.
    let board = format!("8 O*{} *", "-".repeat(62));
    let mut gui = Gui::new();
    gui.send(&format!(
        "set game (;GM[Othello]PB[x]PW[y]TY[8]BO[{board}];)"
    ));
    gui.send("set depth 6");
    gui.send("ping 1");
    gui.send("go");
    let lines = gui.until("===", LONG);
    assert_eq!(lines, ["pong 1", "=== PA"]);
    // A hint for the same position: the pass, then white's reply.
    gui.send("hint 3");
    let lines = gui.until("search", LONG);
    let words: Vec<&str> = lines.last().unwrap().split(' ').collect();
    assert_eq!(words[1], "PA-C1", "{lines:?}");
    // Black's view: the game ends 0-3.
    assert_eq!(words[2].parse::<f64>().unwrap(), -3.0);
    assert_eq!(words[3], "0");
    // After the pass, white's only move.
    gui.send("move PA");
    gui.send("go");
    assert_eq!(gui.until("===", LONG).last().unwrap(), "=== C1");
    gui.close();
}

#[test]
fn hint_in_the_endgame_is_an_exact_solve() {
    // Rows 1-6 black, row 7 white, row 8 empty, black to move: 8 empties.
    let board = format!("8 {}{}{} *", "*".repeat(48), "O".repeat(8), "-".repeat(8));
    let game = format!("(;GM[Othello]TY[8]BO[{board}];)");
    let pos = end_of(&game);
    let mut gui = Gui::new();
    gui.send(&format!("set game {game}"));
    gui.send("set depth 2");
    gui.send("hint 2");
    let lines = gui.until("nodestats", LONG);
    // The answer: the search lines of the exact solve (live lines of the
    // midgame iterations before it carry their depth).
    let searches: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("search ") && l.ends_with(" 100%"))
        .collect();
    assert_eq!(searches.len(), 2, "{lines:?}");
    let mut evals = Vec::new();
    for s in &searches {
        let words: Vec<&str> = s.split(' ').collect();
        assert_eq!(words.len(), 5, "{s}");
        assert!(!words[1].contains(' '));
        let first: Move = words[1].split('-').next().unwrap().parse().unwrap();
        assert_legal(&pos, first);
        evals.push(words[2].parse::<f64>().unwrap());
        assert_eq!(&words[3..], ["0", "100%"], "{s}");
    }
    assert!(evals[0] >= evals[1], "best first: {evals:?}");
    assert_eq!(evals[0].fract(), 0.0, "exact scores are whole discs");
    gui.close();
}

#[test]
fn set_game_from_a_non_standard_start_with_moves() {
    // Only the centre and a black disc on c3; white to move first.
    let board = format!(
        "8 {}{}{}{}{} O",
        "-".repeat(18),
        "*",
        "-".repeat(8),
        "O*------*O",
        "-".repeat(27)
    );
    let game = format!("(;GM[Othello]PC[hand]TY[8]BO[{board}]W[F4];)");
    let pos = end_of(&game);
    assert_eq!(pos.side, mollett::Color::Black);
    let mut gui = Gui::new();
    gui.send(&format!("set game {game}"));
    gui.send("set depth 3");
    gui.send("go");
    assert_legal(&pos, answered_move(gui.until("===", LONG).last().unwrap()));
    // A record that does not read is refused with a status; the game stays.
    gui.send("set game (;GM[Othello]TY[8]BO[8 nonsense];)");
    gui.send("go");
    let lines = gui.until("===", LONG);
    assert!(
        lines.iter().any(|l| l.starts_with("status game ignored")),
        "{lines:?}"
    );
    assert_legal(&pos, answered_move(lines.last().unwrap()));
    gui.close();
}

#[test]
fn analyze_reports_every_position_last_first() {
    let game = format!("(;GM[Othello]TY[8]BO[{START}]B[F5]W[D6]B[C3];)");
    let mut gui = Gui::new();
    gui.send(&format!("set game {game}"));
    gui.send("set depth 2");
    gui.send("analyze");
    let lines = gui.until("nodestats", LONG);
    let made: Vec<usize> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("analysis "))
        .map(|rest| {
            let (n, eval) = rest.split_once(' ').unwrap();
            eval.parse::<f64>().unwrap();
            n.parse().unwrap()
        })
        .collect();
    assert_eq!(made, [3, 2, 1, 0]);
    gui.close();
}

#[test]
fn the_protocol_flag_and_quit() {
    let mut out = Vec::new();
    mollett::protocol::run_with(
        std::io::Cursor::new(b"ping 9\nquit\nping 10\n".to_vec()),
        &mut out,
        Variant::Modern,
        mollett::protocol::Protocol::Nboard,
    )
    .unwrap();
    assert_eq!(String::from_utf8(out).unwrap(), "pong 9\n");
}

/// Clocks that no computer could keep are refused when they are given: the
/// game or move is ignored with a status line, and the engine plays on.
#[test]
fn unusable_clocks_are_refused_when_given() {
    let mut gui = Gui::new();
    gui.send("set depth 2");
    for bad in ["TI[1e300]", "TI[-5]"] {
        gui.send(&format!(
            "set game (;GM[Othello]{bad}TY[8]BO[{START}]B[F5];)"
        ));
        let status = gui.until("status", LONG);
        assert!(
            status
                .last()
                .unwrap()
                .contains("game ignored: time must be"),
            "{status:?}"
        );
    }
    let game = format!("(;GM[Othello]TI[00:30]TY[8]BO[{START}]B[F5//-1e300];)");
    gui.send(&format!("set game {game}"));
    assert!(gui
        .until("status", LONG)
        .last()
        .unwrap()
        .contains("game ignored"));
    gui.send("move F5/0/-1e300");
    let status = gui.until("status", LONG);
    assert!(
        status
            .last()
            .unwrap()
            .contains("move F5 ignored: time must be"),
        "{status:?}"
    );
    // The stored game is still the start, and go answers a legal first move.
    gui.send("go");
    let start = Position::start(Variant::Modern, mollett::Color::Black);
    assert_legal(
        &start,
        answered_move(gui.until("===", LONG).last().unwrap()),
    );
    gui.close();
}

/// NBoard shows thinking live: each completed iteration of `go` and `hint`
/// sends a `search` line (depth, eval, principal variation) before the answer.
#[test]
fn go_and_hint_report_each_iteration_as_it_completes() {
    let mut gui = Gui::searching();
    gui.send("set depth 6");
    gui.send("go");
    let lines = gui.until("===", LONG);
    let depths: Vec<u32> = lines
        .iter()
        .filter(|l| l.starts_with("search "))
        .map(|l| l.split_whitespace().nth(4).unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5, 6], "{lines:?}");
    let start = Position::start(Variant::Modern, mollett::Color::Black);
    for l in lines.iter().filter(|l| l.starts_with("search ")) {
        let pv = l.split_whitespace().nth(1).unwrap();
        let first: Move = pv.split('-').next().unwrap().parse().unwrap();
        assert_legal(&start, first);
    }
    gui.send("hint 1");
    let lines = gui.until("nodestats", LONG);
    let live = lines.iter().filter(|l| l.starts_with("search ")).count();
    assert!(live > 6, "one line per iteration and the answer: {lines:?}");
    gui.close();
}

/// Each live line is what that iteration found: a line no longer than its
/// depth (not the table's long line from an earlier, deeper search), and an
/// exact `go` ends with its solve's line under `100%`.
#[test]
fn live_lines_show_this_search_not_the_tables_last_one() {
    let mut gui = Gui::searching();
    gui.send("set depth 9");
    gui.send("go");
    gui.until("===", LONG * 4);
    gui.send("set depth 4");
    gui.send("go");
    let lines = gui.until("===", LONG);
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert_eq!(searches.len(), 4, "{lines:?}");
    for l in searches {
        let words: Vec<&str> = l.split_whitespace().collect();
        let depth: usize = words[4].parse().unwrap();
        let placed = words[1].split('-').filter(|m| *m != "PA").count();
        assert!(placed <= depth, "a {depth}-ply line of {placed} moves: {l}");
    }
    // 8 empties: solved exactly; the last live line says so.
    let board = format!("8 {}{}{} *", "*".repeat(48), "O".repeat(8), "-".repeat(8));
    gui.send(&format!("set game (;GM[Othello]TY[8]BO[{board}];)"));
    gui.send("go");
    let lines = gui.until("===", LONG);
    let last = lines
        .iter()
        .rev()
        .find(|l| l.starts_with("search "))
        .unwrap();
    assert!(last.ends_with(" 0 100%"), "{lines:?}");
    gui.close();
}

/// The depths of the live `search` lines of a `go`, in order.
fn go_depths(gui: &mut Gui) -> Vec<u32> {
    gui.send("go");
    gui.until("===", LONG * 6)
        .iter()
        .filter(|l| l.starts_with("search "))
        .filter_map(|l| l.split_whitespace().nth(4)?.parse().ok())
        .collect()
}

/// NBoard's `set depth` is the session's depth option, the one GTP sets:
/// `go` searches to it (with no clock in the record), and so does a level.
#[test]
fn set_depth_12_then_go_searches_to_depth_12() {
    let mut gui = Gui::searching();
    gui.send("set depth 12");
    assert_eq!(go_depths(&mut gui), (1..=12).collect::<Vec<_>>());
    // A level means in NBoard what it means in GTP: depth N, no move time.
    gui.send("set level 5");
    assert_eq!(go_depths(&mut gui), (1..=5).collect::<Vec<_>>());
    gui.close();
}

/// GTP's `set_option` and NBoard's `set` share one option path: every
/// option of the table takes the same values and refuses the same ones,
/// with the same words, in both dialects.
#[test]
fn every_option_is_set_alike_through_both_dialects() {
    use mollett::protocol::OPTIONS;
    let mut gui = Gui::new();
    for o in OPTIONS.iter().filter(|o| o.name != "depth") {
        let gtp = common::ask(&format!(
            "set_option {} x!\nset_option {} {}\n",
            o.name,
            o.name,
            o.default_text()
        ));
        let refused = gtp[0]
            .strip_prefix("? ")
            .unwrap_or_else(|| panic!("{}: {gtp:?}", o.name));
        assert_eq!(gtp[1], "=", "{}: the default is accepted", o.name);
        gui.send(&format!("set {} x!", o.name));
        gui.send(&format!("set {} {}", o.name, o.default_text()));
        gui.send("ping 1");
        let lines = gui.until("pong 1", LONG);
        assert_eq!(
            lines,
            [
                format!("status ignored: set {} x!: {refused}", o.name),
                "pong 1".to_string()
            ],
            "{}",
            o.name
        );
    }
    gui.close();
}
