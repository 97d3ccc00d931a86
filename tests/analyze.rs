//! `mollett analyze`: its losses are exact where it says so (against every
//! legal move solved on its own, and against WTHOR's theoretical scores),
//! its text, JSON and summary say the same numbers, Ctrl-C and `--resume`
//! lose nothing, shards merge to the whole, bad input is refused.

mod common;

use common::*;
use mollett::engine::search::{Engine, Limits, Scoring, Settings};
use mollett::review::record::MoveRecord;
use mollett::rules::moveline::parse_moves;
use mollett::rules::wthor;
use mollett::{Color, Move, Position, Variant};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn wthor_2017() -> PathBuf {
    PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/wthor/WTH_2017.wtb"
    ))
}

/// `--json` lines read back.
fn json_records(text: &str) -> Vec<MoveRecord> {
    text.lines()
        .map(|l| MoveRecord::parse(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The exact value of each legal move of `pos` for its mover, solved one by
/// one (empties to the winner, as modern games are scored).
fn exact_values(engine: &mut Engine, pos: &Position) -> Vec<(Move, i32)> {
    let stop = AtomicBool::new(false);
    let limits = Limits {
        exact: true,
        ..Limits::default()
    };
    pos.legal_moves()
        .into_iter()
        .map(|mv| {
            let next = pos.play(mv).unwrap();
            let v = if next.is_game_over() {
                -next.final_score(true)
            } else if next.must_pass() {
                engine
                    .search(&next.play(Move::Pass).unwrap(), &limits, &stop)
                    .score as i32
            } else {
                -(engine.search(&next, &limits, &stop).score as i32)
            };
            (mv, v)
        })
        .collect()
}

/// From 20 empties on, a move's value, the best value and the loss are
/// those of every legal move solved exactly on its own.
#[test]
fn exact_losses_equal_the_difference_of_solved_values() {
    // Three tournament games of 2017, one a shard.
    let out = mollett_ok(&[
        "analyze",
        path_str(&wthor_2017()),
        "--shard",
        "7/900",
        "--exact",
        "20",
        "--depth",
        "4",
        "--json",
        "--quiet",
    ]);
    let records = json_records(&out);
    let games = wthor::read(&wthor_2017()).unwrap().games;
    let mut engine = Engine::new(Settings {
        scoring: Scoring::EmptiesToWinner,
        ..Settings::default()
    });
    let mut checked = 0;
    for r in records.iter().filter(|r| r.empties <= 20) {
        assert!(r.exact, "{r:?}");
        let n: usize = r.game.rsplit(':').next().unwrap().parse().unwrap();
        assert_eq!((n - 7) % 900, 0, "{r:?}");
        let moves = parse_moves(&r.line).unwrap();
        let mut pos = Position::start(Variant::Modern, Color::Black);
        for &m in &moves[..moves.len() - 1] {
            pos = pos.play(m).unwrap();
        }
        let values = exact_values(&mut engine, &pos);
        let best = values.iter().map(|&(_, v)| v).max().unwrap();
        let played: Move = r.mv.parse().unwrap();
        let value = values.iter().find(|&&(m, _)| m == played).unwrap().1;
        assert_eq!(r.value, value as f64, "{r:?} {values:?}");
        assert_eq!(r.best_value, best as f64, "{r:?} {values:?}");
        assert_eq!(r.loss, (best - value) as f64, "{r:?}");
        let best_move: Move = r.best_move.parse().unwrap();
        assert_eq!(
            values.iter().find(|&&(m, _)| m == best_move).unwrap().1,
            best
        );
        checked += 1;
    }
    assert!(checked >= 40, "{checked} moves checked");
    let _ = games;
}

/// WTHOR solved every game from 24 empties: the analysis's exact value
/// there, from black's view, is that theoretical score.
#[test]
fn the_value_at_24_empties_is_wthors_theoretical_score() {
    let out = mollett_ok(&[
        "analyze",
        path_str(&wthor_2017()),
        "--shard",
        "3/600",
        "--exact",
        "24",
        "--depth",
        "2",
        "--threads",
        "2",
        "--json",
        "--quiet",
    ]);
    let records = json_records(&out);
    let file = wthor::read(&wthor_2017()).unwrap();
    assert_eq!(file.depth, 24);
    let mut compared = 0;
    for (i, g) in file.games.iter().enumerate().filter(|(i, _)| i % 600 == 2) {
        let id = format!("{}:{}", path_str(&wthor_2017()), i + 1);
        let at_24: Vec<&MoveRecord> = records
            .iter()
            .filter(|r| r.game == id && r.empties == 24)
            .collect();
        let Some(r) = at_24.first() else {
            continue; // a pass at 24 empties: the other side's move is at 23
        };
        assert!(r.exact);
        let black_view = if r.color == "black" {
            r.best_value
        } else {
            -r.best_value
        };
        assert_eq!(black_view, g.theoretical_result() as f64, "{id}: {r:?}");
        compared += 1;
    }
    assert!(compared >= 3, "{compared} games compared");
}

/// The text table, the JSON lines and the summary say the same numbers:
/// a reviewed file read back (no search) prints them all.
#[test]
fn text_json_and_summary_agree() {
    let dir = tmpdir("analyze-agree");
    let out = dir.join("a.jsonl");
    mollett_ok(&[
        "analyze",
        path_str(&wthor_2017()),
        "--shard",
        "11/800",
        "--depth",
        "6",
        "--exact",
        "14",
        "--out",
        path_str(&out),
        "--quiet",
    ]);
    let json = json_records(&mollett_ok(&[
        "analyze",
        path_str(&out),
        "--json",
        "--quiet",
    ]));
    assert_eq!(json, json_records(&std::fs::read_to_string(&out).unwrap()));
    assert!(json.len() > 100);
    let text = mollett_ok(&["analyze", path_str(&out), "--quiet"]);
    for r in &json {
        let block = text
            .split("Game ")
            .find(|b| b.starts_with(&format!("{}:", r.game)))
            .unwrap_or_else(|| panic!("no table of {}", r.game));
        let row = block
            .lines()
            .find(|l| l.split_whitespace().next() == Some(&r.ply.to_string()))
            .unwrap_or_else(|| panic!("no row for {r:?}"));
        for n in [r.value, r.best_value] {
            assert!(row.contains(&format!("{n:+.2}")), "{row} / {r:?}");
        }
        assert!(
            row.contains(&format!("{:.2}", r.loss)) && row.contains(&r.class),
            "{row}"
        );
        let mark = match r.class.as_str() {
            "inaccuracy" => "?!",
            "mistake" => "?",
            "blunder" => "??",
            _ => "",
        };
        assert!(row.contains(&format!("{}{mark} ", r.mv)), "{row}");
    }
    // The GGF records: each move's value in its `/eval`, each marked move
    // with its best move in the comment.
    let ggf_path = dir.join("a.ggf");
    mollett_ok(&[
        "analyze",
        path_str(&out),
        "--ggf",
        path_str(&ggf_path),
        "--quiet",
    ]);
    let ggf = mollett::rules::ggf::parse_all(&std::fs::read_to_string(&ggf_path).unwrap()).unwrap();
    assert_eq!(
        ggf.len(),
        json.iter()
            .map(|r| &r.game)
            .collect::<std::collections::HashSet<_>>()
            .len()
    );
    for r in &json {
        let g = ggf
            .iter()
            .find(|g| {
                let moves: Vec<Move> = g.moves.iter().map(|m| m.mv).collect();
                moves.len() >= r.ply
                    && mollett::rules::moveline::moves_text(&moves[..r.ply]) == r.line
            })
            .unwrap_or_else(|| panic!("no GGF game for {r:?}"));
        assert_eq!(g.moves[r.ply - 1].eval, Some(r.value), "{r:?}");
        let comment = &g.other.iter().find(|(k, _)| k == "C").expect("a comment").1;
        let mark = match r.class.as_str() {
            "inaccuracy" => "?!",
            "mistake" => "?",
            "blunder" => "??",
            _ => continue,
        };
        let entry = format!(
            "{}. {}{mark} {:+.2} (best {} {:+.2})",
            r.ply, r.mv, r.value, r.best_move, r.best_value
        );
        assert!(comment.contains(&entry), "{entry} not in {comment}");
    }
    // Each player's summary row: games, moves, loss a move and the class
    // counts from the JSON lines.
    let summary = mollett_ok(&["analyze", path_str(&out), "--summary", "--quiet"]);
    let mut players: BTreeMap<&str, (usize, f64, [usize; 3])> = BTreeMap::new();
    for r in json.iter().filter(|r| r.class != "forced") {
        let e = players.entry(&r.player).or_default();
        e.0 += 1;
        e.1 += r.loss;
        match r.class.as_str() {
            "inaccuracy" => e.2[0] += 1,
            "mistake" => e.2[1] += 1,
            "blunder" => e.2[2] += 1,
            _ => {}
        }
    }
    // --min-games 2 ranks only players with two games or more.
    let two = mollett_ok(&[
        "analyze",
        path_str(&out),
        "--summary",
        "--min-games",
        "2",
        "--quiet",
    ]);
    let mut games_of: BTreeMap<&str, std::collections::HashSet<&str>> = BTreeMap::new();
    for r in &json {
        games_of.entry(&r.player).or_default().insert(&r.game);
    }
    for (name, games) in &games_of {
        assert_eq!(
            two.contains(&format!(" {name} ")),
            games.len() >= 2,
            "{name}: {two}"
        );
    }
    let unranked = games_of.values().filter(|g| g.len() < 2).count();
    if unranked > 0 {
        assert!(
            two.contains(&format!(
                "({unranked} of {} players with fewer than 2 games not ranked)",
                games_of.len()
            )),
            "{two}"
        );
    }
    // Each game again under another id: every player has twice the games.
    let twice = dir.join("twice.jsonl");
    let again: String = json
        .iter()
        .map(|r| {
            MoveRecord {
                game: format!("{}-again", r.game),
                ..r.clone()
            }
            .to_json()
                + "\n"
        })
        .collect();
    std::fs::write(&twice, again).unwrap();
    let both = mollett_ok(&[
        "analyze",
        path_str(&out),
        path_str(&twice),
        "--summary",
        "--min-games",
        "2",
        "--quiet",
    ]);
    for (name, games) in &games_of {
        let row = both
            .lines()
            .find(|l| l.contains(&format!(" {name} ")))
            .unwrap_or_else(|| panic!("{name}: {both}"));
        assert!(
            row.split_whitespace()
                .any(|w| w == (2 * games.len()).to_string()),
            "{row}"
        );
    }
    assert!(!both.contains("not ranked"), "{both}");
    for (name, (moves, loss, classes)) in players {
        let row = summary
            .lines()
            .find(|l| l.contains(name))
            .unwrap_or_else(|| panic!("{name} not in {summary}"));
        let words: Vec<&str> = row.split_whitespace().rev().collect();
        // ... moves loss/move inacc mist blund accuracy, from the right.
        assert_eq!(words[5], moves.to_string(), "{row}");
        assert_eq!(words[4], format!("{:.2}", loss / moves as f64), "{row}");
        assert_eq!(
            [words[3], words[2], words[1]],
            classes
                .map(|c| c.to_string())
                .each_ref()
                .map(|s| s.as_str()),
            "{row}"
        );
    }
}

/// Stopped by Ctrl-C (SIGINT) in the middle, then `--resume`: the file
/// holds every move once, with the values an unbroken run gives; shards
/// read together give the unsharded summary.
#[test]
fn interrupted_and_sharded_runs_lose_nothing() {
    let dir = tmpdir("analyze-resume");
    let whole = dir.join("whole.jsonl");
    let args = |out: &Path, shard: &str| -> Vec<String> {
        [
            "analyze",
            path_str(&wthor_2017()),
            "--shard",
            shard,
            "--depth",
            "8",
            "--exact",
            "16",
            "--out",
            path_str(out),
            "--quiet",
        ]
        .map(String::from)
        .to_vec()
    };
    let run = |a: &[String]| mollett_ok(&a.iter().map(String::as_str).collect::<Vec<_>>());
    run(&args(&whole, "5/1000"));
    let all = json_records(&std::fs::read_to_string(&whole).unwrap());
    assert!(all.len() > 100);

    let cut = dir.join("cut.jsonl");
    let mut child = std::process::Command::new(mollett_bin())
        .args(args(&cut, "5/1000"))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let t = Instant::now();
    while std::fs::metadata(&cut).map_or(0, |m| m.len()) < 4000 {
        assert!(t.elapsed() < Duration::from_secs(60), "no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    assert!(!status.success(), "an interrupted run fails");
    let part = json_records(&std::fs::read_to_string(&cut).unwrap());
    assert!(!part.is_empty() && part.len() < all.len(), "{}", part.len());
    // Without --resume the file is not replaced.
    let o = mollett(
        &args(&cut, "5/1000")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    assert!(!o.status.success() && stderr(&o).contains("--resume"));
    let mut again = args(&cut, "5/1000");
    again.push("--resume".into());
    run(&again);
    let resumed = json_records(&std::fs::read_to_string(&cut).unwrap());
    assert_eq!(resumed.len(), all.len());
    for (a, b) in resumed.iter().zip(&all) {
        assert_eq!(a, b);
    }

    // Two shards of the same games, read together.
    let (a, b) = (dir.join("a.jsonl"), dir.join("b.jsonl"));
    // 5/1000 is games 4, 1004, 2004 (from 0); 5/2000 has 4 and 2004.
    run(&args(&a, "5/2000"));
    run(&args(&b, "1005/2000"));
    let merged = mollett_ok(&[
        "analyze",
        path_str(&a),
        path_str(&b),
        "--summary",
        "--quiet",
    ]);
    let one = mollett_ok(&["analyze", path_str(&whole), "--summary", "--quiet"]);
    assert_eq!(merged, one);
}

/// A classic game (free placements in the centre, discs in hand) is
/// reviewed as any other: every decision has a class, exact at the end.
#[test]
fn classic_games_are_reviewed() {
    let dir = tmpdir("analyze-classic");
    // A whole classic game played by Mollett at depth 1 against itself.
    let mut pos = Position::start(Variant::Classic, Color::Black);
    let mut engine = Engine::new(Settings::default());
    let stop = AtomicBool::new(false);
    let mut moves = Vec::new();
    while !pos.is_game_over() {
        let limits = Limits {
            depth: Some(1),
            ..Limits::default()
        };
        let mv = engine.search(&pos, &limits, &stop).best;
        moves.push(mv);
        pos = pos.play(mv).unwrap();
    }
    let file = dir.join("classic.txt");
    std::fs::write(&file, mollett::rules::moveline::moves_text(&moves) + "\n").unwrap();
    let out = mollett_ok(&[
        "--variant",
        "classic",
        "analyze",
        path_str(&file),
        "--depth",
        "4",
        "--exact",
        "12",
        "--json",
        "--quiet",
    ]);
    let records = json_records(&out);
    let decisions = moves.iter().filter(|&&m| m != Move::Pass).count();
    assert_eq!(records.len(), decisions);
    assert!(records.iter().any(|r| r.color == "red"));
    assert!(records.iter().filter(|r| r.empties <= 12).all(|r| r.exact));
    // The last move's value is the game's result for its mover.
    let last = records.last().unwrap();
    let margin = pos.final_score(false) as f64;
    let mover_view = if last.color == "black" { 1.0 } else { -1.0 };
    let black_margin = {
        let b = pos.discs_of(Color::Black).count_ones() as f64;
        let w = pos.discs_of(Color::White).count_ones() as f64;
        b - w
    };
    assert_eq!(last.value, mover_view * black_margin, "{last:?} {margin}");
}

/// Bad input: one line on stderr naming what is wrong, a failing status,
/// nothing on stdout.
#[test]
fn bad_input_is_refused_with_one_line() {
    let dir = tmpdir("analyze-bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "f5d6c3\nf5f5\n").unwrap();
    let out = dir.join("out.jsonl");
    for (args, why) in [
        (vec![path_str(&bad)], "bad.txt:2: move 2 (f5) is illegal"),
        (vec!["/no/such/file.ggf"], "/no/such/file.ggf"),
        (vec![path_str(&dir)], "is a directory"),
        (vec![path_str(&bad), "--resume"], "--resume needs --out"),
        (
            vec![path_str(&bad), "--out", path_str(&bad)],
            "is one of the files to analyse",
        ),
        (vec![path_str(&bad), "--shard", "3/2"], "--shard"),
        (vec![path_str(&bad), "--depth", "0"], "--depth"),
        (
            vec![path_str(&bad), "--out", path_str(&dir.join("no/out.jsonl"))],
            "does not exist",
        ),
    ] {
        let mut a = vec!["analyze"];
        a.extend(args);
        let o = mollett(&a);
        let err = stderr(&o);
        assert!(!o.status.success(), "{a:?}");
        assert!(stdout(&o).is_empty(), "{a:?}");
        assert!(err.contains(why), "{a:?}: {err}");
        assert!(err.trim().lines().count() <= 2, "{a:?}: {err}");
    }
    assert!(!out.exists());
}

/// WTHOR games are named from `WTHOR.JOU` and `WTHOR.TRN` beside the file
/// (read here on their own: 16-byte header, 20- and 26-byte Latin-1 names).
#[test]
fn wthor_games_are_named_from_the_lists_beside_them() {
    let names = |file: &str, width: usize| -> Vec<String> {
        let bytes = std::fs::read(wthor_2017().with_file_name(file)).unwrap();
        bytes[16..]
            .chunks(width)
            .map(|c| {
                c.iter()
                    .take_while(|&&b| b != 0)
                    .map(|&b| b as char)
                    .collect::<String>()
            })
            .map(|s| s.trim().to_string())
            .collect()
    };
    let (players, tournaments) = (names("WTHOR.JOU", 20), names("WTHOR.TRN", 26));
    let game = &wthor::read(&wthor_2017()).unwrap().games[0];
    let text = mollett_ok(&[
        "analyze",
        path_str(&wthor_2017()),
        "--shard",
        "1/5000",
        "--depth",
        "2",
        "--exact",
        "4",
        "--quiet",
    ]);
    let want = format!(
        "Game {}:1: {} (black) - {}, {} 2017",
        path_str(&wthor_2017()),
        players[game.black as usize],
        players[game.white as usize],
        tournaments[game.tournament as usize]
    );
    assert_eq!(text.lines().next().unwrap(), want);
}
