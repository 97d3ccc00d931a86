//! The FFO endgame problems (modern rules, empties to the winner) solved exactly.
//! FFO #40-#59 (20 to 34 empties) are too slow for the suite: run them with
//! `mollett solve tests/data/ffo/fforum-40-59.obf --threads 2`.

use mollett::engine::suite;
use std::path::Path;
use std::time::Instant;

fn check(file: &str, threads: usize) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ffo")
        .join(file);
    let problems = mollett::rules::obf::read(&path).unwrap();
    let mut engine = suite::engine(threads, 64);
    let t = Instant::now();
    for p in &problems {
        let s = suite::solve(&mut engine, p);
        eprintln!(
            "ffo #{:2}: {} {:+} in {:.3}s, {} nodes",
            p.id,
            s.best,
            s.score,
            s.time.as_secs_f64(),
            s.nodes
        );
        assert_eq!(Some(s.score), p.best_score(), "#{}: score", p.id);
        assert!(
            p.is_best(s.best),
            "#{}: {} is not a best move",
            p.id,
            s.best
        );
    }
    eprintln!("{file}: {:.3}s", t.elapsed().as_secs_f64());
}

#[test]
fn ffo_1_to_19_are_solved_exactly() {
    check("fforum-1-19.obf", 1);
}

/// Two threads (split points): the same exact results.
#[test]
fn ffo_20_to_39_are_solved_exactly_with_two_threads() {
    check("fforum-20-39.obf", 2);
}

/// More threads than the CI machine's two cores: helpers that wait at their
/// own split points run the jobs posted below them, and every solve still
/// ends with the exact results.
#[test]
fn ffo_20_to_39_are_solved_exactly_with_four_threads() {
    check("fforum-20-39.obf", 4);
}

/// A problem of FFO #20-#39 with 20 empties that is not a draw (a draw
/// needs no exact pass after the win/loss/draw one).
fn twenty_empties_not_a_draw() -> mollett::rules::obf::Problem {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/ffo/fforum-20-39.obf");
    mollett::rules::obf::read(&path)
        .unwrap()
        .into_iter()
        .find(|p| p.pos.empty_count() == 20 && p.best_score() != Some(0))
        .unwrap()
}

/// What a user watching a long solve sees, in order: the midgame
/// iterations one ply deeper each, the selective pass to the end, then the
/// win/loss/draw and exact results, the last one the right score.
#[test]
fn a_long_solve_reports_its_passes_in_order() {
    use mollett::engine::search::{Progress, Stage};
    use std::sync::Mutex;
    let p = &twenty_empties_not_a_draw();
    let steps = Mutex::new(Vec::new());
    let record = |s: &Progress| steps.lock().unwrap().push((s.stage, s.depth, s.score));
    let mut engine = suite::engine(1, 16);
    let solved = suite::solve_with_progress(&mut engine, p, Some(&record), None);
    assert!(
        solved.correct,
        "#{}: {} {:+}",
        p.id, solved.best, solved.score
    );
    let steps = steps.into_inner().unwrap();
    let stages: Vec<Stage> = steps.iter().map(|s| s.0).collect();
    let midgame: Vec<u32> = steps
        .iter()
        .filter(|s| s.0 == Stage::Midgame)
        .map(|s| s.1)
        .collect();
    assert_eq!(midgame, (1..20).collect::<Vec<u32>>(), "{steps:?}");
    assert_eq!(
        &stages[19..],
        &[Stage::Selective, Stage::WinLossDraw, Stage::Exact],
        "{steps:?}"
    );
    assert_eq!(steps[19].1, 20, "the selective pass goes to the end");
    assert_eq!(steps[21].2, p.best_score().unwrap() as f64);
}

/// A step still at work tells the user so: with a heartbeat, `working`
/// reports come while a pass runs, each naming its step, window and root
/// move, no closer together than the interval, with nodes and time that
/// only grow; the completed steps and the result are those of a solve
/// without one. Two threads, so that the nodes count the helper's too.
#[test]
fn a_solve_with_a_heartbeat_says_what_it_is_at_while_it_works() {
    use mollett::engine::search::{Progress, Stage};
    use std::sync::Mutex;
    use std::time::Duration;
    let p = &twenty_empties_not_a_draw();
    let every = Duration::from_millis(2);
    let reports: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
    let record = |s: &Progress| reports.lock().unwrap().push(s.clone());
    let mut engine = suite::engine(2, 16);
    let solved = suite::solve_with_progress(&mut engine, p, Some(&record), Some(every));
    assert!(
        solved.correct,
        "#{}: {} {:+}",
        p.id, solved.best, solved.score
    );
    let reports = reports.into_inner().unwrap();

    let working: Vec<&Progress> = reports
        .iter()
        .filter(|r| r.stage == Stage::Working)
        .collect();
    assert!(
        !working.is_empty(),
        "no working report in {} reports",
        reports.len()
    );
    let legal = p.pos.legal_moves();
    for r in &working {
        let w = r.working.expect("a working report says what it is at");
        assert!(
            matches!(
                w.step,
                Stage::Midgame | Stage::Selective | Stage::WinLossDraw | Stage::Exact
            ),
            "{r:?}"
        );
        assert!(
            -64 <= w.window.0 && w.window.0 < w.window.1 && w.window.1 <= 64,
            "{r:?}"
        );
        assert!(
            1 <= w.root.0 && w.root.0 <= w.root.1 && w.root.1 == legal.len(),
            "{r:?}"
        );
        assert_eq!(r.pv.len(), 1, "{r:?}");
        assert!(legal.contains(&r.pv[0]), "{r:?}");
        assert!(r.to_string().starts_with("working "), "{r}");
    }
    // Each names the step that completes next: its iteration's depth, or its pass.
    for (k, r) in reports.iter().enumerate() {
        let Some(w) = r.working else { continue };
        let next = reports[k..]
            .iter()
            .find(|n| n.stage != Stage::Working)
            .expect("a completed step after a working report");
        assert_eq!(
            (w.step, r.depth),
            (next.stage, next.depth),
            "{r:?} then {next:?}"
        );
    }
    for pair in working.windows(2) {
        assert!(
            pair[1].time - pair[0].time >= every,
            "{:?} then {:?}",
            pair[0],
            pair[1]
        );
    }
    for pair in reports.windows(2) {
        assert!(
            pair[0].nodes <= pair[1].nodes,
            "{:?} then {:?}",
            pair[0],
            pair[1]
        );
        assert!(
            pair[0].time <= pair[1].time,
            "{:?} then {:?}",
            pair[0],
            pair[1]
        );
    }
    assert!(reports.last().unwrap().nodes <= solved.nodes);

    // The completed steps are those of a solve without a heartbeat.
    let done: Vec<(Stage, u32)> = reports
        .iter()
        .filter(|r| r.stage != Stage::Working)
        .map(|r| (r.stage, r.depth))
        .collect();
    let mut expected: Vec<(Stage, u32)> = (1..20).map(|d| (Stage::Midgame, d)).collect();
    expected.extend([
        (Stage::Selective, 20),
        (Stage::WinLossDraw, 20),
        (Stage::Exact, 20),
    ]);
    assert_eq!(done, expected);
    assert!(reports
        .iter()
        .filter(|r| r.stage != Stage::Working)
        .all(|r| r.working.is_none()));
}
