//! The protocol loop without threads (`protocol::lines`, what the browser
//! build runs in its Web Worker) answers a session exactly as the threaded
//! loop the binary runs does: searches, hints, errors, both rule sets.

use mollett::protocol::lines::Lines;
use mollett::protocol::{run, Options};
use mollett::Variant;
use std::io::Cursor;

const SESSION: &[&str] = &[
    "name",
    "newgame",
    "play f5",
    "set_option level 4",
    "genmove white",
    "hint 3",
    "set_option book off",
    "hint 64",
    "showboard",
    "play z9",
    "7 play a1",
    "undo 2",
    "legal",
    "set_option threads 2",
    "setboard --XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X",
    "solve",
    "newgame classic",
    "play d4",
    "play red e4",
    "discs",
    "genmove",
    "history",
    "",
    "# a comment",
    "quit",
    "name",
];

#[test]
fn the_loop_without_threads_answers_as_the_threaded_one() {
    let input = SESSION.join("\n") + "\n";
    let mut threaded = Vec::new();
    run(
        Cursor::new(input.into_bytes()),
        &mut threaded,
        Variant::Modern,
    )
    .unwrap();

    let mut out = Vec::new();
    let mut quit_at = None;
    {
        let mut lines = Lines::new(Variant::Modern, Options::default(), &mut out).unwrap();
        for (i, line) in SESSION.iter().enumerate() {
            if lines.line(line.as_bytes(), &|_| {}).unwrap() && quit_at.is_none() {
                quit_at = Some(i);
            }
        }
    }
    let threaded = String::from_utf8(threaded).unwrap();
    let unthreaded = String::from_utf8(out).unwrap();
    assert_eq!(unthreaded, threaded);
    assert_eq!(quit_at, Some(SESSION.len() - 2), "quit ends the session");
    // The answers are real ones, not two empty streams.
    assert!(threaded.contains("= Mollett\n\n"));
    assert!(threaded.contains("?7 illegal move"));
    assert!(threaded.contains("= g8 +18"));
    assert!(threaded.contains("= black 1 red 1 supply 31 31"));
}

#[test]
fn a_search_reports_each_iteration_while_it_runs() {
    let mut out = Vec::new();
    let seen = std::sync::Mutex::new(Vec::new());
    let mut lines = Lines::new(Variant::Modern, Options::default(), &mut out).unwrap();
    for line in ["set_option book off", "set_option level 5", "play f5"] {
        lines.line(line.as_bytes(), &|_| {}).unwrap();
    }
    lines
        .line(b"genmove white", &|p| {
            seen.lock().unwrap().push(p.to_string())
        })
        .unwrap();
    drop(lines);
    let seen = seen.into_inner().unwrap();
    let depths: Vec<&str> = seen
        .iter()
        .filter_map(|s| s.strip_prefix("depth "))
        .map(|s| s.split(' ').next().unwrap())
        .collect();
    assert_eq!(depths, ["1", "2", "3", "4", "5"], "{seen:?}");
    let answer = String::from_utf8(out).unwrap();
    let last = answer.trim_end().rsplit("= ").next().unwrap().to_string();
    assert!(
        seen.last().unwrap().contains(&format!("pv {last}")),
        "the move played is the last iteration's first: {last} {seen:?}"
    );
}
