//! `mollett match` with Mollett itself as an engine. These need the real
//! protocol layer and search (merged from the protocol and search branches);
//! on the `match` branch alone, where both are stubs, they fail.

mod common;

use common::*;
use mollett::tournament::Reason;
use std::path::Path;

/// Mollett at two depths, both variants, on a clock: every game played out.
#[test]
fn mollett_against_itself_at_two_settings() {
    let dir = tmpdir("mollett-self");
    for variant in ["modern", "classic"] {
        let out = dir.join(format!("{variant}.txt"));
        let (report, recs) = MatchSetup::new()
            .variant(variant)
            .engine(Spec::mollett("deep").key("init=set_option depth 4"))
            .engine(Spec::mollett("shallow").key("init=set_option depth 1"))
            .games(4)
            .args(&["--tc", "20+0.1", "--concurrency", "2"])
            .play(&out);
        assert_eq!(recs.len(), 4, "{report}");
        assert!(recs.iter().all(|r| r.reason == Reason::Normal), "{report}");
        let ggf = std::path::PathBuf::from(format!("{}.ggf", out.display()));
        assert_eq!(ggf.exists(), variant == "modern");
        if variant == "modern" {
            assert_values_end_at_the_result(&ggf);
        }
    }
}

/// Each GGF game holds the values Mollett gave its moves (`last_value`,
/// asked by the runner): both sides solve the endgame, so the last value,
/// turned to black's view, is the game's result.
fn assert_values_end_at_the_result(ggf: &Path) {
    let text = std::fs::read_to_string(ggf).unwrap();
    for line in text.lines() {
        let game = mollett::GgfGame::parse(line).unwrap();
        let valued: Vec<_> = game.moves.iter().filter(|m| m.eval.is_some()).collect();
        assert!(valued.len() >= 20, "few values: {line}");
        let last = valued.last().unwrap();
        let black = match last.color {
            mollett::Color::Black => last.eval.unwrap(),
            mollett::Color::White => -last.eval.unwrap(),
        };
        let result: f64 = game.result.as_deref().unwrap().parse().unwrap();
        assert_eq!(black, result, "{line}");
    }
}

/// SPRT stops early on a clearly lopsided pair: depth 6 against depth 1.
#[test]
fn sprt_stops_depth_6_against_depth_1() {
    let dir = tmpdir("mollett-sprt");
    let out = dir.join("games.txt");
    let run = MatchSetup::new()
        .engine(Spec::mollett("d6").key("init=set_option depth 6"))
        .engine(Spec::mollett("d1").key("init=set_option depth 1"))
        .games(400)
        .args(&["--concurrency", "2", "--seed", "1"])
        .args(&["--openings", &openings_file(&dir)])
        .out(&out)
        .args(&["--sprt", "elo0=0", "elo1=50"])
        .run();
    let report = String::from_utf8_lossy(&run.stdout);
    let progress = String::from_utf8_lossy(&run.stderr);
    assert!(run.status.success(), "{progress}");
    assert!(
        report.contains("Stopped early: SPRT accepted H1"),
        "{report}"
    );
    let n = results(&out).len();
    assert!(n < 400);
    // The progress lines end with the reason they end, before the report.
    assert!(
        progress.contains("SPRT accepted H1 after") && progress.contains("no more games start"),
        "{progress}"
    );
    assert!(!report.contains("no more games start"), "{report}");
}

/// Generated 8-ply openings, written to a file.
fn openings_file(dir: &Path) -> String {
    let text = mollett_ok(&["openings", "--plies", "8", "--count", "50", "--depth", "4"]);
    let path = dir.join("openings.txt");
    std::fs::write(&path, text).unwrap();
    path_str(&path).to_string()
}

/// Mollett against GRhino over the match runner.
#[test]
fn mollett_against_grhino() {
    if rhino().is_none() {
        return;
    }
    let dir = tmpdir("mollett-rhino");
    let out = dir.join("games.txt");
    let (report, recs) = MatchSetup::new()
        .engine(Spec::mollett("mollett"))
        .engine(Spec::rhino("rhino", 1))
        .games(2)
        .args(&["--tc", "3+0.05"])
        .play(&out);
    assert_eq!(recs.len(), 2, "{report}");
    assert!(recs.iter().all(|r| r.reason == Reason::Normal), "{report}");
}

/// Mollett against itself on a fast clock, told its time in milliseconds
/// (`time=frac`): it uses the clock and never overruns it.
#[test]
fn fractional_clocks_on_a_fast_time_control() {
    let dir = tmpdir("mollett-frac");
    let out = dir.join("games.txt");
    let (report, recs) = MatchSetup::new()
        .engine(Spec::mollett("a").key("time=frac"))
        .engine(Spec::mollett("b").key("time=frac"))
        .games(2)
        .args(&["--tc", "1+0.1", "--openings", &openings_file(&dir)])
        .play(&out);
    assert_eq!(recs.len(), 2, "{report}");
    for r in &recs {
        assert_eq!(r.reason, Reason::Normal, "{}", r.to_line());
        // Each side had 1 s plus 0.1 s a move, and spent a good part of it.
        for used in r.time {
            assert!(used > 0.5, "{}", r.to_line());
        }
    }
}

/// The screen of a weight set in play (docs/training.md, "Screening a set
/// in play"; BENCHMARKS.md, R) runs on the committed opening files: a
/// fixed-depth match without a clock, the `eval` file on one side, every
/// game played out from an opening of the file, colours swapped per pair.
#[test]
fn a_fixed_depth_screen_plays_from_the_committed_openings() {
    let dir = tmpdir("mollett-screen");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // A weight file, as `mollett train --out` writes it (the shipped set's bytes).
    let weights = root.join("src/engine/eval/weights-d0b77ce974ee.bin");
    for (variant, file, count) in [
        ("modern", "modern-2000.txt", 2000),
        ("classic", "classic-612.txt", 612),
    ] {
        let openings = root.join("corpus/openings").join(file);
        let lines = std::fs::read_to_string(&openings).unwrap();
        assert_eq!(lines.lines().count(), count, "{file}");
        let init = "init=set_option book off init=set_option movetime 0 init=set_option depth 2 init=set_option endgame 8";
        let cmd = format!("{} --variant {variant}", mollett_bin());
        let new = Spec::cmd("new", &cmd)
            .key(init)
            .key(&format!("init=set_option eval {}", weights.display()));
        let out = dir.join(format!("{variant}.txt"));
        let (report, recs) = MatchSetup::new()
            .variant(variant)
            .engine(new)
            .engine(Spec::cmd("old", &cmd).key(init))
            .games(4)
            .args(&["--tc", "none", "--openings", path_str(&openings)])
            .args(&["--seed", "61"])
            .play(&out);
        assert_eq!(recs.len(), 4, "{report}");
        assert!(recs.iter().all(|r| r.reason == Reason::Normal), "{report}");
        for pair in recs.chunks(2) {
            assert!(pair[0].opening.is_some_and(|o| o < count), "{report}");
            assert_eq!(pair[0].opening, pair[1].opening, "{report}");
            assert_eq!(pair[0].black, pair[1].white, "{report}");
        }
    }
}
