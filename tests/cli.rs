//! The command line refuses values it cannot use, at once, with one clear
//! line and a non-zero exit, using the same ranges as the protocol.

#[path = "common/tmp.rs"]
mod tmp;
use mollett::rules::moveline::moves_text;
use mollett::{Color, Move, Position, Variant};
use std::io::Write;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};
use tmp::TestPath;

fn mollett(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

/// A file in a fresh temporary folder of its own, removed when it drops.
fn temp(test: &str, name: &str, contents: &[u8]) -> TestPath {
    let path = TestPath::new(&format!("cli-{test}"), name);
    std::fs::write(&*path, contents).unwrap();
    path
}

/// Refused: exit status 2 and one line on stderr that contains `what`.
fn assert_refused(args: &[&str], what: &str) {
    let t = Instant::now();
    let out = mollett(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    // Progress may come first; the error itself is one line.
    let errors = err.lines().filter(|l| l.starts_with("mollett:")).count();
    assert_eq!(errors, 1, "{args:?}: one error line: {err}");
    assert!(!err.contains("For more information"), "{args:?}: {err}");
    assert!(
        t.elapsed() < Duration::from_secs(10),
        "{args:?} took {:?}",
        t.elapsed()
    );
}

const FFO_1: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18;";

#[test]
fn perft_takes_the_protocols_depths() {
    assert_refused(&["perft", "61"], "61");
    let out = mollett(&["perft", "0"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let row: Vec<&str> = text.split_whitespace().collect();
    assert_eq!(&row[..3], ["perft", "0", "1"], "{text}");
}

#[test]
fn bench_midgame_times_each_position_on_each_thread_count() {
    assert_refused(&["bench", "--midgame", "--threads", "1,0"], "threads");
    assert_refused(&["bench", "--midgame", "--depth", "0"], "depth");
    assert_refused(&["bench", "--midgame", "--repeat", "0"], "repeat");
    assert_refused(&["bench", "--depth", "4"], "--midgame");
    let args = [
        "bench",
        "--midgame",
        "--threads",
        "1,2",
        "--depth",
        "4",
        "--repeat",
        "1",
    ];
    let out = mollett(&args);
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{text}");
    let rows: Vec<&str> = text.lines().filter(|l| l.starts_with('#')).collect();
    assert_eq!(rows.len(), 10, "{text}");
    for (row, empties) in rows.iter().zip([36, 37, 38, 39, 40, 41, 42, 43, 44, 40]) {
        assert!(row.contains(&format!(" {empties} empties")), "{row}");
        let t2 = row.split(" t2 ").nth(1).unwrap_or_default();
        assert!(row.contains(" t1 ") && t2.contains("x cpu "), "{row}");
    }
    let total = text.lines().last().unwrap();
    assert!(
        total.starts_with("total") && total.contains(" t2 "),
        "{text}"
    );
}

#[test]
fn solve_refuses_what_it_cannot_use() {
    let file = temp("solve", "one.obf", FFO_1.as_bytes());
    let f = file.to_str().unwrap();
    assert_refused(&["solve", f, "--threads", "0"], "threads");
    assert_refused(&["solve", f, "--hash", "0"], "hash");
    assert_refused(&["solve", f, "--ids", "5-3"], "A <= B");
    let empty = temp("solve", "empty.obf", b"");
    assert_refused(&["solve", empty.to_str().unwrap()], "no problems");
    // A byte-order mark (Windows editors) is not part of the board.
    let bom = temp("solve", "bom.obf", format!("\u{feff}{FFO_1}\n").as_bytes());
    let out = mollett(&["solve", bom.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(" g8 ") && text.contains("+18"), "{text}");
}

#[test]
fn train_and_probcut_refuse_to_fit_nothing() {
    let empty = temp("train", "empty.txt", b"");
    let weights = empty.with_file_name("w.bin");
    let (e, w) = (empty.to_str().unwrap(), weights.to_str().unwrap());
    assert_refused(&["train", e, "--out", w], "no positions");
    assert!(!weights.exists(), "a weight file was written");
    let ffo = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ffo/fforum-40-59.obf"
    );
    assert_refused(
        &["probcut", ffo, "--positions", "5", "--max-depth", "4"],
        "too few",
    );
}

#[test]
fn wthor_files_test_train_and_start_self_play_but_never_the_held_out_year() {
    let wthor = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/wthor");
    let held_out = format!("{wthor}/WTH_2018.wtb");
    // The held-out year's exact positions at 24 empties: one per game that
    // reaches them (2,429 games, one ends earlier).
    let out = mollett(&[
        "evaltest",
        &held_out,
        "--eval",
        "zero",
        "--exact-only",
        "--min-empties",
        "24",
        "--max-empties",
        "24",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("modern   24-24       2428"), "{text}");
    let weights = temp("wthor", "w.bin", b"");
    let w = weights.to_str().unwrap();
    assert_refused(&["train", &held_out, "--out", w], "held-out");
    let games = weights.with_file_name("x.games");
    let g = games.to_str().unwrap();
    assert_refused(
        &["selfplay", "--wthor", &held_out, "--corpus", g],
        "held-out",
    );
    assert_refused(
        &[
            "selfplay",
            "--variant",
            "classic",
            "--wthor",
            wthor,
            "--corpus",
            g,
        ],
        "modern",
    );
    let mut bad = std::fs::read(format!("{wthor}/WTH_1977.wtb")).unwrap();
    bad[16 + 68 * 3 + 8] = 11; // game 4 opens on a1
    let bad = temp("wthor", "bad.wtb", &bad);
    assert_refused(
        &["evaltest", bad.to_str().unwrap()],
        "bad.wtb: game 4: move 1 (a1) is illegal",
    );
}

/// A whole legal game as a result line (first legal move each ply).
fn result_line(game: usize) -> String {
    let mut pos = Position::start(Variant::Modern, Color::Black);
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let mv = pos.legal_moves()[0];
        moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    let b = pos.discs_of(Color::Black).count_ones();
    let w = pos.discs_of(Color::White).count_ones();
    let result = match b.cmp(&w) {
        std::cmp::Ordering::Greater => "1-0",
        std::cmp::Ordering::Less => "0-1",
        std::cmp::Ordering::Equal => "1/2-1/2",
    };
    assert!(!moves.contains(&Move::Pass) || moves.len() > 1);
    format!(
        "game={game} pair={} black=a white=b variant=modern opening=0 start=startpos book=0 moves={} discs={b}-{w} result={result} reason=normal time=1.000/1.000",
        game / 2,
        moves_text(&moves)
    )
}

#[test]
fn report_refuses_a_file_that_is_not_results() {
    let obf = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/ffo/fforum-40-59.obf"
    );
    assert_refused(&["report", obf], "not a result file");
}

#[test]
fn report_ends_quietly_when_its_reader_goes() {
    let lines: String = (0..400).map(|g| result_line(g) + "\n").collect();
    let file = temp("report", "games.txt", lines.as_bytes());
    // The reader closes before the report is written, as `| head -1` can.
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["report", file.to_str().unwrap()])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{err}");
    assert_ne!(out.status.code(), Some(101), "{err}");
    // With a reader it prints the report.
    let out = mollett(&["report", file.to_str().unwrap()]);
    assert!(out.status.success());
    let mut sink = std::io::sink();
    sink.write_all(&out.stdout).unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("400"));
}

/// GUIs that never send set_option (NBoard, Quarry) set options on the
/// command line, with the option table's names and ranges.
#[test]
fn options_on_the_command_line() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(["--option", "threads=2", "--option", "hash=256"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"get_option threads\nget_option hash\nget_option depth\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= 2\n\n= 256\n\n= 0\n\n"
    );
    assert_refused(&["--option", "hash=0"], "hash takes 1..65536");
    assert_refused(&["--option", "nonsense=1"], "unknown option");
    assert_refused(&["--option", "threads"], "NAME=VALUE");
}

/// A long solve shows it is alive: each step (midgame iterations, the
/// win/loss/draw solve, the exact solve) goes to stderr as it completes,
/// while stdout keeps the table.
#[test]
fn solve_prints_its_progress_on_stderr() {
    let file = temp("progress", "one.obf", FFO_1.as_bytes());
    let out = mollett(&["solve", file.to_str().unwrap()]);
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    let steps: Vec<&str> = err
        .lines()
        .filter(|l| l.starts_with("#1 "))
        .map(|l| l.split_whitespace().nth(1).unwrap())
        .collect();
    assert!(steps.first() == Some(&"depth"), "{err}");
    assert_eq!(steps.last(), Some(&"exact"), "{err}");
    assert!(err.contains("#1 exact +18 nodes"), "{err}");
    let table = String::from_utf8_lossy(&out.stdout);
    assert!(
        !table.contains("exact +18"),
        "progress stays off stdout: {table}"
    );
}

/// A newcomer's first `openings` runs: impossible values are refused with
/// their range, and every flag says what it does.
#[test]
fn openings_refuses_what_it_cannot_use() {
    assert_refused(&["openings", "--plies", "70"], "1..=50");
    assert_refused(&["openings", "--plies", "0"], "1..=50");
    assert_refused(&["openings", "--max-eval", "-1"], "0..=64");
    assert_refused(&["openings", "--count", "0"], "count");
    // Nothing within 0 discs at an odd depth: an error, not an empty success.
    assert_refused(
        &[
            "openings",
            "--plies",
            "1",
            "--max-eval",
            "0",
            "--depth",
            "1",
        ],
        "no opening",
    );
    let help = String::from_utf8(mollett(&["openings", "--help"]).stdout).unwrap();
    for flag in [
        "--plies",
        "--count",
        "--max-eval",
        "--depth",
        "--seed",
        "--out",
    ] {
        let line = help
            .lines()
            .find(|l| l.trim_start().starts_with(flag))
            .unwrap();
        let text = line.split_once('>').map_or("", |(_, t)| t.trim());
        assert!(text.len() > 10, "{flag} has no help: {line}");
    }
}

#[test]
fn solve_says_which_ids_a_file_holds() {
    assert_refused(
        &["solve", "tests/data/ffo/fforum-40-59.obf", "--ids", "1-5"],
        "#40 to #59",
    );
}

/// Random positions of modern games at `empties` empties (a fixed seed).
fn random_positions(count: usize, empties: u32) -> Vec<Position> {
    let mut seed = 12345u64;
    let mut next = |n: usize| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    };
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(Variant::Modern, Color::Black);
        while pos.empty_count() > empties && !pos.is_game_over() {
            let moves = pos.legal_moves();
            pos = pos.play(moves[next(moves.len())]).unwrap();
        }
        if !pos.is_game_over() && pos.empty_count() == empties {
            out.push(pos);
        }
    }
    out
}

/// The solve table writes scores as the protocol does: `0`, never `+0`.
#[test]
fn solve_writes_a_draw_as_0() {
    let text: String = random_positions(150, 4)
        .iter()
        .map(|p| format!("{};\n", p.to_obf()))
        .collect();
    let file = temp("draw", "draws.obf", text.as_bytes());
    let out = mollett(&["solve", file.to_str().unwrap()]);
    let table = String::from_utf8(out.stdout).unwrap();
    let scores: Vec<&str> = table
        .lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .map(|l| l.split_whitespace().nth(3).unwrap())
        .collect();
    assert_eq!(scores.len(), 150, "{table}");
    assert!(scores.contains(&"0"), "a draw among 150 positions: {table}");
    assert!(!scores.iter().any(|s| *s == "+0" || *s == "-0"), "{table}");
}

#[test]
fn train_fits_either_layout_and_evaltest_reads_what_it_wrote() {
    let wthor = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus/wthor/WTH_1977.wtb");
    let dir = temp("layout", "unused", b"");
    assert_refused(
        &["train", wthor, "--layout", "v9", "--out", "w.bin"],
        "no layout 'v9' (layouts: v1, v2, o1, v3, v4)",
    );
    assert_refused(
        &["train", wthor, "--min-empties", "20", "--max-empties", "10"],
        "--min-empties 20 is above --max-empties 10",
    );
    // A tournament game's only exact label is at 24 empties.
    assert_refused(
        &[
            "train",
            wthor,
            "--exact-only",
            "--min-empties",
            "10",
            "--max-empties",
            "12",
        ],
        "no positions to train on among the chosen empties",
    );
    let mut errors = Vec::new();
    for layout in ["v1", "v2", "v3", "v4"] {
        let weights = dir.with_file_name(format!("{layout}.bin"));
        let w = weights.to_str().unwrap();
        let out = mollett(&[
            "train", wthor, "--layout", layout, "--stages", "2", "--epochs", "8", "--out", w,
        ]);
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{layout}: {err}");
        assert!(err.contains(&format!("({layout} layout)")), "{err}");
        // The file names its layout: evaltest reads it without being told.
        let out = mollett(&["evaltest", wthor, "--eval", "zero", w]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{layout}: {text}");
        let row = text
            .lines()
            .find(|l| l.starts_with("modern"))
            .unwrap_or_else(|| panic!("{text}"));
        let mae: Vec<f64> = row
            .split_whitespace()
            .skip(3)
            .map(|x| x.parse().unwrap())
            .collect();
        // Fitted on these very games: far better than saying 0.
        assert!(mae[1] < 0.8 * mae[0], "{layout}: {row}");
        errors.push(mae[1]);
    }
    assert_ne!(errors[0], errors[1], "two layouts, two fits");
    assert_ne!(errors[1], errors[2], "the count tables change the fit");
    assert_ne!(errors[2], errors[3], "more count tables change it again");
}

/// The move-choice test set (`corpus/heldout/wthor2018-24.obf`, made by
/// scripts/move_values.py): every position at 24 empties scores each of its
/// legal moves once, with a full board's even score, and the solver agrees
/// with the file on the two positions it solves in a blink (wipe-outs).
#[test]
fn move_choice_positions_score_every_legal_move() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/heldout/wthor2018-24.obf"
    );
    let problems = mollett::rules::obf::read(std::path::Path::new(path)).unwrap();
    assert_eq!(problems.len(), 150);
    for p in &problems {
        assert_eq!(p.pos.empty_count(), 24, "#{}", p.id);
        let mut scored = 0u64;
        for &(mv, score) in &p.scores {
            let bit = mv.square().expect("a placement").bit();
            assert_eq!(scored & bit, 0, "#{}: {mv} twice", p.id);
            scored |= bit;
            assert!(
                score % 2 == 0 && score.abs() <= 64,
                "#{}: {mv} {score}",
                p.id
            );
        }
        assert_eq!(scored, p.pos.moves(), "#{}: not every legal move", p.id);
    }
    for id in ["4-4", "20-20"] {
        let out = mollett(&[
            "solve",
            path,
            "--ids",
            id,
            "--threads",
            "2",
            "--heartbeat",
            "0",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains(" 0 wrong"), "{text}");
    }
}

/// `mollett ARGS | head -0`: the reader is gone before anything is
/// printed (the pipe's read end is closed before the run starts). The run
/// ends as a Unix tool does (killed by SIGPIPE, or the same status, 141),
/// with no panic, message or backtrace.
fn ends_quietly_without_a_reader(args: &[&str]) {
    use std::os::fd::{FromRawFd, OwnedFd};
    use std::os::unix::process::ExitStatusExt;
    let mut fds = [0; 2];
    // SAFETY: two valid descriptors come back; the read end is closed at
    // once and the write end owned by the child's stdout.
    let write_end = unsafe {
        assert_eq!(libc::pipe(fds.as_mut_ptr()), 0);
        libc::close(fds[0]);
        OwnedFd::from_raw_fd(fds[1])
    };
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::from(write_end))
        .stderr(Stdio::piped())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        !err.contains("panicked") && !err.contains("Broken pipe"),
        "{args:?}: {err}"
    );
    let sigpipe = out.status.signal() == Some(libc::SIGPIPE) || out.status.code() == Some(141);
    assert!(sigpipe, "{args:?}: {:?} {err}", out.status);
}

#[test]
fn every_subcommand_ends_quietly_when_its_reader_goes() {
    let games = temp("pipe", "t.txt", b"f5d6c3d3c4f4f6\nf5f6e6f4\n");
    let t = games.to_str().unwrap();
    ends_quietly_without_a_reader(&["analyze", t, "--depth", "1", "--exact", "0", "--quiet"]);
    ends_quietly_without_a_reader(&["analyze", t, "--depth", "1", "--json", "--quiet"]);
    ends_quietly_without_a_reader(&["perft", "3"]);
    ends_quietly_without_a_reader(&["openings", "--count", "2", "--depth", "1"]);
    // A command that talks to engine processes keeps SIGPIPE ignored.
    let engine = format!(
        "name=a cmd={} init=set_option depth 1",
        env!("CARGO_BIN_EXE_mollett")
    );
    ends_quietly_without_a_reader(&[
        "match", "--engine", &engine, "--engine", &engine, "--games", "2", "--quiet",
    ]);
}
