//! `mollett match`, `tournament` and `report` with real processes: a fake GTP
//! engine (tests/data/fake_gtp.py) that misbehaves on request, and GRhino.

mod common;

use common::*;
use mollett::tournament::report::Report;
use mollett::tournament::results::{GameRecord, Outcome};
use mollett::tournament::stats::Sprt;
use mollett::tournament::Reason;
use std::collections::HashSet;
use std::path::Path;
use std::time::{Duration, Instant};

/// Plays `games` games of `bad` against a well-behaved fake and checks that
/// `bad` lost each with `reason`, and that the match completed.
fn fault_match(dir: &Path, tag: &str, bad: &str, extra: &[&str], reason: Reason) {
    let out = dir.join(format!("{tag}.txt"));
    let (report, recs) = MatchSetup::new()
        .engine(Spec::fake("bad", bad))
        .engine(Spec::fake("good", ""))
        .games(2)
        .args(extra)
        .play(&out);
    assert_eq!(recs.len(), 2, "{tag}: {report}");
    for r in &recs {
        assert_eq!(r.reason, reason, "{tag}: {}", r.to_line());
        assert_eq!(r.loser(), Some("bad"), "{tag}: {}", r.to_line());
    }
    assert!(
        report.contains(&format!("bad {} 2", reason.name())),
        "{report}"
    );
    assert!(report.contains("W-D-L: 0-0-2"), "{report}");
}

#[test]
fn each_fault_loses_with_its_reason_and_the_match_goes_on() {
    let dir = tmpdir("faults");
    // Misbehave at the third genmove since start-up: the engine is restarted
    // after each fault, so it faults in both games.
    let cases: Vec<(&str, &str, Vec<&str>, Reason)> = vec![
        ("crash", "--crash 3", vec![], Reason::Crash),
        ("illegal", "--illegal 3", vec![], Reason::Illegal),
        ("garbage", "--garbage 3", vec![], Reason::Malformed),
        // An endless line: capped, not read into memory without end.
        ("flood", "--flood 3", vec![], Reason::Malformed),
        ("hang", "--hang 3", vec!["--timeout", "2"], Reason::Timeout),
        ("clock", "--slow 3:1.5", vec!["--tc", "1+0"], Reason::Time),
        ("st", "--slow 2:0.8", vec!["--st", "0.3"], Reason::Time),
    ];
    std::thread::scope(|s| {
        for (tag, bad, extra, reason) in &cases {
            let dir = &dir;
            s.spawn(move || fault_match(dir, tag, bad, extra, *reason));
        }
    });
    // A slow engine within its clock and margin is not forfeited.
    let out = dir.join("ok.txt");
    let (_, recs) = MatchSetup::new()
        .engine(Spec::fake("slow", "--slow 0:0.02"))
        .engine(Spec::fake("good", "--upper --nopass"))
        .games(2)
        .args(&["--tc", "10+0.1"])
        .play(&out);
    assert!(recs.iter().all(|r| r.reason == Reason::Normal));
    assert!(recs.iter().all(|r| r.discs[0] + r.discs[1] > 4));
}

#[test]
fn against_grhino_with_clock_openings_and_ggf() {
    if rhino().is_none() {
        return;
    }
    let dir = tmpdir("rhino");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# two openings\nf5d6c3d3c4\nF5 F6 E6 F4   # spaced, upper case\n",
    )
    .unwrap();
    let out = dir.join("games.txt");
    let (report, recs) = MatchSetup::new()
        .engine(Spec::rhino("rhino", 1))
        .engine(Spec::fake("fake", "--nopass"))
        .games(4)
        .args(&["--tc", "20+0.5", "--openings", path_str(&openings)])
        .args(&["--concurrency", "2"])
        .play(&out);
    assert_eq!(recs.len(), 4, "{report}");
    for r in &recs {
        assert_eq!(r.reason, Reason::Normal, "{}", r.to_line());
        let opening = if r.pair == 0 {
            "f5d6c3d3c4"
        } else {
            "f5f6e6f4"
        };
        assert_eq!(r.opening, Some(r.pair));
        assert!(mollett::rules::moveline::moves_text(&r.moves).starts_with(opening));
        assert_eq!(r.book, opening.len() / 2);
        // The referee replays the game and agrees on the discs.
        let mut g = mollett::Game::new(mollett::Variant::Modern, mollett::Color::Black);
        for &m in &r.moves {
            g.play(m).unwrap();
        }
        assert!(g.position().is_game_over());
        let p = g.position();
        assert_eq!(
            r.discs,
            [
                p.discs_of(mollett::Color::Black).count_ones(),
                p.discs_of(mollett::Color::White).count_ones()
            ]
        );
    }
    let ggf = std::fs::read_to_string(format!("{}.ggf", out.display())).unwrap();
    assert_eq!(ggf.lines().count(), 4);
    for line in ggf.lines() {
        assert!(
            line.starts_with("(;GM[Othello]PC[Mollett match]DT["),
            "{line}"
        );
        assert!(line.contains("TI[00:20]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5]"), "{line}");
        assert!(line.ends_with(";)"));
        // The record reads back and replays to the disc margin in its `RE`.
        let g = mollett::GgfGame::parse(line).unwrap();
        let end = *g.to_game().unwrap().position();
        let margin = end.discs_of(mollett::Color::Black).count_ones() as f64
            - end.discs_of(mollett::Color::White).count_ones() as f64;
        if end.is_game_over() {
            assert_eq!(g.black_margin(), Some(margin), "{line}");
        }
    }
    assert!(report.contains("Games: 4"), "{report}");
}

#[test]
fn sprt_stops_a_lopsided_match_early() {
    if rhino().is_none() {
        return;
    }
    let dir = tmpdir("sprt");
    let out = dir.join("games.txt");
    let (report, recs) = MatchSetup::new()
        .engine(Spec::rhino("rhino", 3))
        .engine(Spec::fake("weak", "--nopass --upper"))
        .games(200)
        .args(&["--concurrency", "2"])
        .args(&["--sprt", "elo0=0", "elo1=50"])
        .play(&out);
    let n = recs.len();
    assert!(n < 60, "{n} games: {report}");
    assert!(
        report.contains("Stopped early: SPRT accepted H1"),
        "{report}"
    );
    assert!(report.contains("H1 accepted"), "{report}");
}

#[test]
fn tournament_cross_table_and_ratings() {
    if rhino().is_none() {
        return;
    }
    let dir = tmpdir("tournament");
    let out = dir.join("t.txt");
    let r1 = Spec::rhino("rhino1", 1);
    let r2 = Spec::rhino("rhino2", 2);
    let weak = Spec::fake("weak", "");
    let (report, recs) = MatchSetup::tournament()
        .engine(&r1)
        .engine(&r2)
        .engine(&weak)
        .args(&["--rounds", "1", "--concurrency", "2"])
        .play(&out);
    assert_eq!(recs.len(), 6);
    assert!(report.contains("Cross table"), "{report}");
    assert!(report.contains("Ratings (maximum likelihood"), "{report}");
    // The report of the file is the run's report.
    let again = mollett_ok(&["report", path_str(&out)]);
    assert_eq!(again, report);
    // Gauntlet: the first engine against each other only.
    let out = dir.join("g.txt");
    let (_, recs) = MatchSetup::tournament()
        .engine(&weak)
        .engine(&r1)
        .engine(&r2)
        .args(&["--gauntlet"])
        .play(&out);
    assert_eq!(recs.len(), 4);
    assert!(recs.iter().all(|r| r.black == "weak" || r.white == "weak"));
}

/// A match of `games` between engines that run for a while per game, so
/// the runner can be killed mid-match.
fn slow_match(games: usize, out: &Path) -> MatchSetup {
    MatchSetup::new()
        .engine(Spec::fake("a", "--slow 0:0.01"))
        .engine(Spec::fake("b", "--slow 0:0.01 --upper --nopass"))
        .games(games)
        .out(out)
        .quiet()
}

#[test]
fn killed_run_resumes_to_the_same_totals() {
    let dir = tmpdir("resume");
    let out = dir.join("games.txt");
    let run = slow_match(10, &out);
    let mut child = run
        .command()
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 3 {
        assert!(Instant::now() < deadline, "no games recorded");
        std::thread::sleep(Duration::from_millis(20));
    }
    child.kill().unwrap();
    child.wait().unwrap();
    let before = results(&out).len();
    assert!((3..10).contains(&before), "{before} games before the kill");
    // A kill between the result line and the GGF line loses the GGF record:
    // drop the last one as such a kill would.
    let ggf = dir.join("games.txt.ggf");
    let text = std::fs::read_to_string(&ggf).unwrap();
    let mut lines: Vec<&str> = text.lines().filter(|l| l.starts_with("(;")).collect();
    lines.truncate(before - 1);
    std::fs::write(
        &ggf,
        lines.iter().map(|l| format!("{l}\n")).collect::<String>(),
    )
    .unwrap();
    // Without --resume the file is not overwritten.
    let o = run.run();
    assert!(!o.status.success() && stderr(&o).contains("--resume"));
    let resumed = run.args(&["--resume"]);
    let report = resumed.ok();
    let recs = results(&out);
    let indices: HashSet<usize> = recs.iter().map(|r| r.index).collect();
    assert_eq!(recs.len(), 10, "{report}");
    assert_eq!(indices, (0..10).collect());
    assert!(report.contains("Games: 10"), "{report}");
    // Every finished game has exactly one GGF record, with its moves (the
    // fake engines play alike, so games repeat: compare as multisets).
    let games = mollett::rules::ggf::parse_all(&std::fs::read_to_string(&ggf).unwrap()).unwrap();
    let mut from_ggf: Vec<String> = games
        .iter()
        .map(|g| {
            format!(
                "{:?} {:?}",
                g.black,
                g.moves.iter().map(|m| m.mv).collect::<Vec<_>>()
            )
        })
        .collect();
    let mut from_results: Vec<String> = recs
        .iter()
        .map(|r| format!("{:?} {:?}", Some(&r.black), r.moves))
        .collect();
    from_ggf.sort();
    from_results.sort();
    assert_eq!(from_ggf, from_results, "GGF records after the resume");
    // Resuming a finished run plays nothing more.
    resumed.ok();
    assert_eq!(results(&out).len(), 10);
}

/// A result line without its timing, which differs from run to run.
fn untimed(r: &GameRecord) -> String {
    let l = r.to_line();
    l[..l.find(" time=").unwrap()].to_string()
}

#[test]
fn shards_merge_to_the_full_run() {
    let dir = tmpdir("shards");
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "f5\nf5d6\nf5f6\n").unwrap();
    let run = |file: &str, shard: &str| {
        let out = dir.join(file);
        MatchSetup::fakes(10)
            .args(&["--openings", path_str(&openings)])
            .out(&out)
            .args(&["--shard", shard])
            .quiet()
            .ok();
        out
    };
    let full = run("full.txt", "1/1");
    let s1 = run("s1.txt", "1/2");
    let s2 = run("s2.txt", "2/2");
    let r1 = results(&s1);
    let r2 = results(&s2);
    assert!(r1.iter().all(|r| r.pair % 2 == 0) && r2.iter().all(|r| r.pair % 2 == 1));
    let mut merged: Vec<String> = r1.iter().chain(&r2).map(untimed).collect();
    merged.sort();
    let mut whole: Vec<String> = results(&full).iter().map(untimed).collect();
    whole.sort();
    assert_eq!(merged, whole);
    let strip = |s: String| {
        s.lines()
            .filter(|l| !l.contains("s/game"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let rep_merged = mollett_ok(&["report", path_str(&s1), path_str(&s2)]);
    let rep_full = mollett_ok(&["report", path_str(&full)]);
    assert!(rep_full.contains("Games: 10"));
    assert_eq!(strip(rep_merged), strip(rep_full));
}

#[test]
fn classic_and_board_openings_refuse_engines_that_cannot_play_them() {
    let dir = tmpdir("refuse");
    let (a, b) = (Spec::fake("a", ""), Spec::fake("b", ""));
    let o = MatchSetup::new()
        .variant("classic")
        .engine(&a)
        .engine(&b)
        .run();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("newgame classic"), "{}", stderr(&o));
    let openings = dir.join("boards.txt");
    std::fs::write(
        &openings,
        "---------------------------O*------*O--------------------------- X\n",
    )
    .unwrap();
    let o = MatchSetup::new()
        .engine(&a)
        .engine(&b)
        .args(&["--openings", path_str(&openings)])
        .run();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("setboard"), "{}", stderr(&o));
    let o = MatchSetup::new()
        .engine(&a)
        .engine("cmd=/nonexistent/engine")
        .run();
    assert!(!o.status.success());
    assert!(stderr(&o).contains("cannot start"), "{}", stderr(&o));
}

/// One line of a hand-written result file.
fn line(
    game: usize,
    black: &str,
    white: &str,
    discs: (u32, u32),
    result: &str,
    reason: &str,
) -> String {
    // The result reader replays every game, so the line must be possible:
    // the game starts from a board with these discs (black's first, then
    // white's, in a1..h8 order); a full board is a finished game.
    let board: String = (0..64)
        .map(|i| match i {
            i if i < discs.0 => 'X',
            i if i < discs.0 + discs.1 => 'O',
            _ => '-',
        })
        .collect();
    format!(
        "game={game} pair={} black={black} white={white} variant=modern opening=- start={board}X book=0 moves=- discs={}-{} result={result} reason={reason} time=1.000/2.000",
        game / 2,
        discs.0,
        discs.1
    )
}

#[test]
fn report_statistics_equal_hand_computed_values() {
    // Six pairs; A's points per pair: 0, 1/2, 1, 3/2, 2, 2.
    // Games: A wins 6, draws 2, loses 4; one loss of B is on time.
    let lines = [
        line(0, "A", "B", (20, 44), "0-1", "normal"), // A -24
        line(1, "B", "A", (40, 24), "1-0", "normal"), // A -16
        line(2, "A", "B", (32, 32), "1/2-1/2", "normal"), // A 0
        line(3, "B", "A", (50, 14), "1-0", "normal"), // A -36
        line(4, "A", "B", (60, 4), "1-0", "normal"),  // A +56
        line(5, "B", "A", (34, 30), "1-0", "normal"), // A -4
        line(6, "A", "B", (33, 31), "1-0", "normal"), // A +2
        line(7, "B", "A", (32, 32), "1/2-1/2", "normal"), // A 0
        line(8, "A", "B", (42, 22), "1-0", "normal"), // A +20
        line(9, "B", "A", (12, 10), "0-1", "time"),   // forfeit: no margin counted
        line(10, "A", "B", (64, 0), "1-0", "normal"), // A +64
        line(11, "B", "A", (20, 44), "0-1", "normal"), // A +24
    ];
    let dir = tmpdir("stats");
    let file = dir.join("hand.txt");
    std::fs::write(&file, format!("# by hand\n{}\n", lines.join("\n"))).unwrap();
    let recs = results(&file);
    assert_eq!(recs.len(), 12);
    assert_eq!(recs[9].outcome, Outcome::WhiteWins);
    let r = Report::build(&recs, Some(Sprt::new(0.0, 20.0)));
    let m = r.matchup.clone().unwrap();
    assert_eq!((m.wdl.wins, m.wdl.draws, m.wdl.losses), (6, 2, 4));
    assert_eq!(m.pairs, [1, 1, 1, 1, 2]);
    // Played-out margins: -24 -16 0 -36 +56 -4 +2 0 +20 +64 +24 = 86 over 11.
    assert_eq!(m.played_out, 11);
    assert!((m.avg_margin.unwrap() - 86.0 / 11.0).abs() < 1e-9);
    // Score 7/12 = 0.583333: Elo = 400 log10(0.583333 / 0.416667) = 58.45.
    // Variance per game (6*0.173611 + 2*0.006944 + 4*0.340278) / 12 = 0.201389,
    // se = sqrt(0.201389 / 12) = 0.129547, score interval 0.329424 .. 0.837243
    // -> Elo -123.48 .. +284.53. LOS = 0.5 (1 + erf(2 / sqrt(20))) = 0.73646.
    let (e, lo, hi) = m.wdl.elo();
    assert!((e - 58.45).abs() < 0.05, "{e}");
    assert!((lo + 123.48).abs() < 0.1, "{lo}");
    assert!((hi - 284.53).abs() < 0.1, "{hi}");
    assert!((m.wdl.los() - 0.73646).abs() < 1e-4);
    // Pairs 0, .25, .5, .75, 1, 1: mean 0.583333, variance 0.138889;
    // LLR = 6 * 0.0287576 * (1.166667 - 1.0287576) / (2 * 0.138889) = 0.08566.
    let (_, llr, _) = r.sprt.unwrap();
    assert!((llr - 0.08566).abs() < 2e-4, "{llr}");
    assert_eq!(r.faults.get(&("B".to_string(), Reason::Time)), Some(&1));
    let text = mollett_ok(&["report", path_str(&file), "--sprt", "elo0=0", "elo1=20"]);
    assert_holds(
        &text,
        &[
            "Games: 12",
            "A vs B",
            "W-D-L: 6-2-4",
            "Score: 58.3%",
            "Elo: +58.5 [-123.5, +284.5] (95%)",
            "LOS: 73.6%",
            "Disc difference: +7.82 per game (11 games played out)",
            "Pairs (0, 1/2, 1, 3/2, 2 points): 1 1 1 1 2 (6 pairs)",
            "Faults (losses): B time 1",
            "SPRT elo0=0 elo1=20 alpha=0.05 beta=0.05: LLR 0.09 [-2.94, 2.94] continue",
        ],
    );
    // A file given twice counts each game once.
    let twice = mollett_ok(&["report", path_str(&file), path_str(&file)]);
    assert!(twice.contains("Games: 12") && twice.contains("Duplicate games ignored: 12"));
}

#[test]
fn openings_generator_writes_distinct_legal_lines() {
    for variant in ["modern", "classic"] {
        let text = mollett_ok(&[
            "--variant",
            variant,
            "openings",
            "--plies",
            "6",
            "--count",
            "20",
            "--max-eval",
            "2",
            "--depth",
            "1",
            "--seed",
            "3",
        ]);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 20, "{variant}: {text}");
        assert_eq!(lines.iter().collect::<HashSet<_>>().len(), 20);
        let v = mollett::Variant::parse(variant).unwrap();
        for l in &lines {
            assert_eq!(l.len(), 12);
            assert!(mollett::tournament::openings::parse_line(l, v)
                .unwrap()
                .is_some());
        }
    }
}

/// Ctrl-C, SIGTERM (a scheduler's kill) and SIGHUP (a closed terminal) all
/// stop a run cleanly: engines stopped, the report printed, and an exit
/// status that says the run is not complete.
#[test]
fn signals_stop_cleanly_with_a_report_and_a_failing_status() {
    for (name, signal) in [
        ("int", libc::SIGINT),
        ("term", libc::SIGTERM),
        ("hup", libc::SIGHUP),
    ] {
        let dir = tmpdir(&format!("signal-{name}"));
        let out = dir.join("games.txt");
        let child = slow_match(40, &out)
            .command()
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while std::fs::read_to_string(&out).map_or(0, |t| t.lines().count()) < 2 {
            assert!(Instant::now() < deadline, "no games recorded");
            std::thread::sleep(Duration::from_millis(20));
        }
        // SAFETY: signals the child we spawned.
        unsafe {
            libc::kill(child.id() as libc::pid_t, signal);
        }
        let o = child.wait_with_output().unwrap();
        let report = String::from_utf8_lossy(&o.stdout);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{name}: {report}{err}");
        assert!(err.contains("interrupted"), "{name}: {err}");
        let n = results(&out).len();
        assert!(n < 40, "{n}");
        assert!(
            report.contains(&format!("Stopped early: interrupted after {n} of 40 games")),
            "{name}: {report}"
        );
        assert!(report.contains(&format!("Games: {n}")), "{name}: {report}");
    }
}

#[test]
fn nboard_engines_play_gtp_engines() {
    let dir = tmpdir("nboard");
    let out = dir.join("games.txt");
    let openings = dir.join("o.txt");
    std::fs::write(&openings, "f5f6\n").unwrap();
    let nb = Spec::fake("nb", "--nboard").key("proto=nboard");
    let gtp = Spec::fake("gtp", "--nopass --upper");
    let (report, recs) = MatchSetup::new()
        .engine(&nb)
        .engine(&gtp)
        .games(2)
        .args(&["--tc", "10", "--openings", path_str(&openings)])
        .play(&out);
    assert_eq!(recs.len(), 2, "{report}");
    assert!(recs.iter().all(|r| r.reason == Reason::Normal), "{report}");
    let o = MatchSetup::new()
        .variant("classic")
        .engine(&nb)
        .engine(&gtp)
        .run();
    assert!(!o.status.success() && stderr(&o).contains("NBoard"));
}

/// `time=frac` sends clocks in milliseconds, rounded down; the default whole
/// seconds. Read back from what the fake engines were sent.
#[test]
fn fractional_clocks_only_for_engines_that_ask() {
    let dir = tmpdir("frac");
    let (frac_log, int_log) = (dir.join("frac.log"), dir.join("int.log"));
    let out = dir.join("games.txt");
    let (_, recs) = MatchSetup::new()
        .engine(Spec::fake("frac", &format!("--log {}", path_str(&frac_log))).key("time=frac"))
        .engine(Spec::fake("int", &format!("--log {}", path_str(&int_log))))
        .games(2)
        .args(&["--tc", "1.5+0.05"])
        .play(&out);
    assert!(recs.iter().all(|r| r.reason == Reason::Normal));
    // Both logs hold the preflight's session too; only clock lines matter.
    let clock_lines = |log: &Path| -> Vec<Vec<String>> {
        std::fs::read_to_string(log)
            .unwrap()
            .lines()
            .map(|l| {
                l.split_whitespace()
                    .skip(1)
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
            .filter(|w| w.first().is_some_and(|c| c.starts_with("time_")))
            .collect()
    };
    let frac_lines = clock_lines(&frac_log);
    let int_lines = clock_lines(&int_log);
    assert!(
        frac_lines.iter().any(|w| w[0] == "time_left"),
        "{frac_lines:?}"
    );
    assert!(
        int_lines.iter().any(|w| w[0] == "time_left"),
        "{int_lines:?}"
    );
    for w in &frac_lines {
        match w[0].as_str() {
            "time_settings" => assert_eq!(w[1..], ["1.500", "0", "0"]),
            _ => {
                let (secs, ms) = w[2].split_once('.').expect("decimals");
                assert_eq!(ms.len(), 3, "{w:?}");
                // The fake answers at once: its clock only grows by the increments.
                let t: f64 = w[2].parse().unwrap();
                assert!(t >= 1.4 && secs.parse::<u32>().unwrap() < 4, "{w:?}");
            }
        }
    }
    for w in &int_lines {
        match w[0].as_str() {
            "time_settings" => assert_eq!(w[1..], ["1", "0", "0"]),
            _ => assert!(w[2].parse::<u32>().is_ok(), "{w:?}"),
        }
    }
}

/// Writes hand-made result lines to `dir/name`.
fn write_lines(dir: &Path, name: &str, lines: &[String]) -> std::path::PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    path
}

/// The text report of hand-made result `lines`, written to `dir/name`.
fn report_of(dir: &Path, name: &str, lines: &[String]) -> String {
    mollett_ok(&["report", path_str(&write_lines(dir, name, lines))])
}

/// Asserts that `text` holds each of `wants`.
fn assert_holds(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "missing {want:?} in:\n{text}");
    }
}

/// `report` on files of separate runs: games that share an index but differ
/// all count (each run's pairs kept together); the same record read twice
/// (a file given twice, or a copy a resumed run extended) counts once.
#[test]
fn report_merges_separate_runs_and_counts_a_repeated_record_once() {
    let dir = tmpdir("merge");
    let run_ab = [
        line(0, "A", "B", (40, 24), "1-0", "normal"),
        line(1, "B", "A", (40, 24), "1-0", "normal"),
        line(2, "A", "B", (32, 32), "1/2-1/2", "normal"),
        line(3, "B", "A", (20, 44), "0-1", "normal"),
    ];
    let ab = write_lines(&dir, "ab.txt", &run_ab);
    // Another run, other engines, the same indices.
    let ac = write_lines(
        &dir,
        "ac.txt",
        &[
            line(0, "A", "C", (50, 14), "1-0", "normal"),
            line(1, "C", "A", (10, 54), "0-1", "normal"),
            line(2, "A", "C", (30, 34), "0-1", "normal"),
            line(3, "C", "A", (31, 33), "0-1", "normal"),
        ],
    );
    let o = mollett(&["report", path_str(&ab), path_str(&ac)]);
    let (text, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{text}{err}");
    assert!(text.contains("Games: 8"), "{text}");
    assert!(
        text.contains(
            "Games of separate runs: 4 share an index with a different game (each counted)"
        ),
        "{text}"
    );
    assert!(!text.contains("Duplicate"), "{text}");
    assert!(text.contains("Cross table"), "{text}");
    // A took 2.5 of 4 from B and 3 of 4 from C.
    let row_a = text.lines().find(|l| l.starts_with("A ")).unwrap();
    assert_eq!(
        row_a.split_whitespace().collect::<Vec<_>>(),
        ["A", "-", "2.5/4", "3/4"],
        "{text}"
    );
    // The warning names both files.
    assert!(
        err.contains(&format!(
            "{}: 4 games with the index of a different game in {}: results of separate runs",
            path_str(&ac),
            path_str(&ab)
        )),
        "{err}"
    );
    // Given twice, and with a copy extended by a resumed run: each record once.
    let mut extended = run_ab.to_vec();
    extended.push(line(4, "A", "B", (64, 0), "1-0", "normal"));
    extended.push(line(5, "B", "A", (0, 64), "0-1", "normal"));
    let ab2 = write_lines(&dir, "ab-resumed.txt", &extended);
    let o = mollett(&["report", path_str(&ab), path_str(&ab2), path_str(&ab)]);
    let (text, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{text}{err}");
    assert!(text.contains("Games: 6"), "{text}");
    assert!(text.contains("Duplicate games ignored: 8"), "{text}");
    assert!(
        !text.contains("separate runs") && !err.contains("separate runs"),
        "{text}{err}"
    );
    assert!(text.contains("W-D-L: 4-1-1"), "{text}");
    assert!(text.contains("(3 pairs)"), "{text}");
    // The same match played twice: both runs count, and each run's pairs
    // stay together (4 complete pairs, not 2 pairs of 4 games).
    let again = write_lines(
        &dir,
        "ab-again.txt",
        &[
            line(0, "A", "B", (24, 40), "0-1", "normal"),
            line(1, "B", "A", (24, 40), "0-1", "normal"),
            line(2, "A", "B", (44, 20), "1-0", "normal"),
            line(3, "B", "A", (44, 20), "1-0", "normal"),
        ],
    );
    let text = mollett_ok(&["report", path_str(&ab), path_str(&again)]);
    assert!(text.contains("Games: 8"), "{text}");
    assert!(text.contains("W-D-L: 4-1-3"), "{text}");
    // Pairs: run 1 gives A 1 and 1.5 points, run 2 gives 1 and 1.
    assert!(
        text.contains("Pairs (0, 1/2, 1, 3/2, 2 points): 0 0 3 1 0 (4 pairs)"),
        "{text}"
    );
    let mut recs = results(&ab);
    recs.extend(results(&again));
    recs.extend(results(&ab));
    let r = Report::build(&recs, None);
    assert_eq!((r.games, r.duplicates, r.separate), (8, 4, 4));
    assert_eq!(r.matchup.unwrap().pairs, [0, 0, 3, 1, 0]);
}

/// The same figure prints the same way everywhere: an Elo with its interval
/// in the progress lines and the report (infinite as `+inf`/`-inf`, never a
/// large number; never `-0.0`); the ratings say they are another estimate;
/// one pair is `1 pair`.
#[test]
fn figures_agree_between_progress_report_and_ratings() {
    let dir = tmpdir("figures");
    // 100%: A wins both games of one pair.
    let text = report_of(
        &dir,
        "all.txt",
        &[
            line(0, "A", "B", (40, 24), "1-0", "normal"),
            line(1, "B", "A", (24, 40), "0-1", "normal"),
        ],
    );
    assert_holds(&text, &[
        "W-D-L: 2-0-0 (2 wins, 0 draws, 0 losses for A)",
        "Score: 100.0%",
        "Elo: +inf [+inf, +inf] (95%)",
        "Disc difference: +16.00 per game (2 games played out)",
        "Pairs (0, 1/2, 1, 3/2, 2 points): 0 0 0 0 1 (1 pair)\n",
        "Ratings (maximum likelihood over all games, mean 0, finite even at 100%; not the Elo above):",
    ]);
    assert!(!text.contains("3600"), "{text}");
    // 50%: one win each.
    let text = report_of(
        &dir,
        "even.txt",
        &[
            line(0, "A", "B", (40, 24), "1-0", "normal"),
            line(1, "B", "A", (40, 24), "1-0", "normal"),
        ],
    );
    assert_holds(
        &text,
        &[
            "W-D-L: 1-0-1 (1 win, 0 draws, 1 loss for A)",
            "Elo: 0.0 [-inf, +inf] (95%)",
            "(1 pair)",
        ],
    );
    assert!(!text.contains("-0.0"), "{text}");
    let ratings: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(" s/game"))
        .map(|l| l.split_whitespace().nth(2).unwrap())
        .collect();
    assert_eq!(ratings, ["0.0", "0.0"], "{text}");
    // A run's progress lines print the report's figure.
    let out = dir.join("lost.txt");
    let o = MatchSetup::new()
        .engine(Spec::fake("bad", "--illegal 1"))
        .engine(Spec::fake("good", ""))
        .games(2)
        .out(&out)
        .run();
    let (report, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{report}{err}");
    let last = err.lines().rfind(|l| l.starts_with("[2/2]")).unwrap();
    assert!(
        last.contains("bad vs good: 0-0-2 score 0.0% Elo -inf [-inf, -inf] ETA"),
        "{err}"
    );
    assert!(report.contains("Elo: -inf [-inf, -inf] (95%)"), "{report}");
    assert!(report.contains("(1 pair)"), "{report}");
    assert!(!err.contains("3600") && !report.contains("3600"));
    // Two alike engines: 50%, without a negative zero anywhere.
    let out = dir.join("alike.txt");
    let o = MatchSetup::new()
        .engine(Spec::fake("a", ""))
        .engine(Spec::fake("b", ""))
        .games(2)
        .out(&out)
        .run();
    let (report, err) = (stdout(&o), stderr(&o));
    assert!(o.status.success(), "{report}{err}");
    let last = err.lines().rfind(|l| l.starts_with("[2/2]")).unwrap();
    assert!(last.contains("score 50.0% Elo 0.0 ["), "{err}");
    assert!(report.contains("Elo: 0.0 ["), "{report}");
    assert!(
        !err.contains("-0.0") && !report.contains("-0.0"),
        "{report}{err}"
    );
}

/// Settings that quietly defeat themselves get a warning when the run starts.
#[test]
fn silent_misconfigurations_are_warned() {
    let dir = tmpdir("warn");
    // Two games against `b`, their results in `dir/file`.
    let b = Spec::fake("b", "").key("time=frac");
    let against_b = |a: &Spec, clock: &[&str], file: &str| {
        MatchSetup::new()
            .engine(a)
            .engine(&b)
            .games(2)
            .args(clock)
            .out(&dir.join(file))
            .quiet()
            .run()
    };
    // A clock under one second, sent in whole seconds: a warning for the
    // engine without time=frac only.
    let a = Spec::fake("a", "");
    let o = against_b(&a, &["--st", "0.5"], "st.txt");
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("mollett: warning: engine 'a' has a clock under one second (0.5 s per move), but GTP times go to it in whole seconds, rounded down: it is told 0 s, and an engine that believes it (Mollett) moves at once; add time=frac to its --engine"),
        "{err}"
    );
    assert!(!err.contains("engine 'b'"), "{err}");
    // The same from an engine's own clock; a clock of a second is fine.
    let a_tc = Spec::fake("a", "").key("tc=0.8+0.1");
    let o = against_b(&a_tc, &["--tc", "1+0"], "tc.txt");
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("engine 'a' has a clock under one second (0.8 s per game + 0.1 s per move)"),
        "{err}"
    );
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    // GRhino ignores GTP clocks: a clock without tc=none is warned about.
    let rhino = dir.join("gtp-rhino");
    std::os::unix::fs::symlink(
        concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fake_gtp.py"),
        &rhino,
    )
    .unwrap();
    let r = Spec::cmd("rhino", &format!("{} -l 2", path_str(&rhino)));
    let o = against_b(&r, &["--tc", "0.5"], "rhino.txt");
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains(&format!("mollett: warning: engine 'rhino' looks like GRhino ({}), which ignores GTP clocks: it plays at the pace of its level whatever the clock (0.5 s per game), and is still held to it, so a slow level loses on time; give it tc=none in its --engine", path_str(&rhino))),
        "{err}"
    );
    // Not told about whole seconds too: GRhino takes nothing else.
    assert_eq!(err.matches("warning").count(), 1, "{err}");
    let o = against_b(&r.key("tc=none"), &["--tc", "0.5"], "rhino-none.txt");
    assert!(
        o.status.success() && !stderr(&o).contains("warning"),
        "{}",
        stderr(&o)
    );
    // --sprt takes every word after it: a file name there is named as such.
    let file = write_lines(
        &dir,
        "games.txt",
        &[line(0, "A", "B", (40, 24), "1-0", "normal")],
    );
    let o = mollett(&["report", "--sprt", "elo0=0", "elo1=5", path_str(&file)]);
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(
        err.contains(&format!(
            "'{0}' is not key=value: --sprt takes every word after it up to the next option, so '{0}' was taken as an SPRT word; give file names before --sprt",
            path_str(&file)
        )),
        "{err}"
    );
    // In the right order it reads the file.
    let text = mollett_ok(&["report", path_str(&file), "--sprt", "elo0=0", "elo1=5"]);
    assert!(
        text.contains("Games: 1") && text.contains("SPRT elo0=0 elo1=5"),
        "{text}"
    );
    let o = MatchSetup::new()
        .engine(&a)
        .engine(&b)
        .args(&["--sprt", "elo0=0", "elo1=5", "extra"])
        .run();
    assert!(
        o.status.code() == Some(2) && stderr(&o).contains("'extra' was taken as an SPRT word"),
        "{}",
        stderr(&o)
    );
}

/// A move value is a number of discs within ±64 in an answer with the id
/// asked: anything else loses the game as a malformed answer, with the
/// reason on stderr, and is never written to the GGF record.
#[test]
fn move_values_past_64_or_under_another_id_lose_and_are_never_written() {
    let dir = tmpdir("values");
    // Two games against a well-behaved fake, their results in `dir/file`.
    let against_good = |bad: Spec, file: &str| {
        let out = dir.join(file);
        let o = MatchSetup::new()
            .engine(bad)
            .engine(Spec::fake("good", ""))
            .games(2)
            .out(&out)
            .quiet()
            .run();
        (out, o)
    };
    let cases = [
        (
            "huge",
            "--value 1e300",
            "\"1e300\": 1e300 is not a number of discs within ±64",
        ),
        (
            "e19",
            "--value 1e19",
            "1e19 is not a number of discs within ±64",
        ),
        (
            "past",
            "--value -64.5",
            "-64.5 is not a number of discs within ±64",
        ),
        (
            "nan",
            "--value nan",
            "nan is not a number of discs within ±64",
        ),
        ("word", "--value hello", "\"hello\" is not a number"),
        ("id", "--value +2.10 --value-id 10", "carries the id 10"),
        (
            "nboard",
            "--nboard --value 1e6",
            "1e6 is not a number of discs within ±64",
        ),
    ];
    std::thread::scope(|s| {
        for (tag, opts, why) in cases {
            let against_good = &against_good;
            s.spawn(move || {
                let mut bad = Spec::fake("bad", opts);
                if tag == "nboard" {
                    bad = bad.key("proto=nboard");
                }
                let (out, o) = against_good(bad, &format!("{tag}.txt"));
                let err = stderr(&o);
                assert!(o.status.success(), "{tag}: {err}");
                let recs = results(&out);
                assert_eq!(recs.len(), 2, "{tag}: {err}");
                for r in &recs {
                    assert_eq!(r.reason, Reason::Malformed, "{tag}: {}", r.to_line());
                    assert_eq!(r.loser(), Some("bad"), "{tag}");
                }
                assert_eq!(err.matches(why).count(), 2, "{tag}: {err}");
                // The GGF record holds the moves before, without the value.
                let ggf = std::fs::read_to_string(out.with_extension("txt.ggf")).unwrap();
                assert_eq!(ggf.lines().count(), 2, "{tag}: {ggf}");
                for word in ["/1e", "/nan", "/hello", "/10", "/-64.5"] {
                    assert!(!ggf.contains(word), "{tag}: {word} in {ggf}");
                }
            });
        }
    });
    // ±64 itself, with a word after it, is a value and is kept.
    let (out, o) = against_good(Spec::fake("edge", "--value -64 --upper"), "edge.txt");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(results(&out).iter().all(|r| r.reason == Reason::Normal));
    let ggf = std::fs::read_to_string(dir.join("edge.txt.ggf")).unwrap();
    assert!(
        ggf.lines().all(|g| g.matches("/-64/").count() >= 10),
        "{ggf}"
    );
}

/// `last_value` is asked after the clock stops, so it has a short limit of
/// its own (a second here): a slow answer is dropped with a warning, its
/// late answer is not taken for the next command's, and the game goes on.
#[test]
fn a_slow_last_value_is_dropped_not_waited_for() {
    let dir = tmpdir("slow-value");
    let out = dir.join("games.txt");
    let t = Instant::now();
    let o = MatchSetup::new()
        .engine(Spec::fake("slow", "--value +1.50 --value-slow 3:2.5"))
        .engine(Spec::fake("good", "--upper"))
        .games(1)
        .args(&["--timeout", "60"])
        .out(&out)
        .quiet()
        .run();
    let err = stderr(&o);
    assert!(o.status.success(), "{err}");
    let r = &results(&out)[0];
    assert_eq!(r.reason, Reason::Normal, "{err}");
    assert!(
        err.contains(
            "slow: no answer to last_value within 1.0 s: the move is kept without its value"
        ),
        "{err}"
    );
    // Waited a second for it, not the 2.5 s it took, nor the 60 s timeout.
    assert!(t.elapsed() < Duration::from_secs(20), "{:?}", t.elapsed());
    let ggf = std::fs::read_to_string(dir.join("games.txt.ggf")).unwrap();
    let values = ggf.matches("/1.5/").count();
    let slow_moves = r
        .moves
        .iter()
        .step_by(2)
        .filter(|m| **m != mollett::rules::square::Move::Pass)
        .count();
    assert_eq!(values, slow_moves - 1, "{ggf}");
}
