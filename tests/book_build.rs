//! Long book runs: `book build` resumed after a kill and split in shards
//! gives the book of one run, the classic tree covers every centre opening,
//! and `book learn` adds the near-best deviations and re-minimaxes.

use mollett::protocol::book::{self as book, Book, BookMove, BookPosition, Key};
use mollett::rules::square::Move;
use mollett::{Color, Position, Variant};
use std::path::Path;

mod common;
use common::cli::{mollett, stdout as ok};

fn temp(test: &str, name: &str) -> common::TestPath {
    common::cli::temp("bookrun", test, name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// What a kill leaves: the header and the first `keep` lines of the
/// progress file, and half of the next line.
fn kill_after(progress: &Path, keep: usize) {
    let text = std::fs::read_to_string(progress).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > keep + 2, "{} lines", lines.len());
    let mut cut = lines[..=keep].join("\n") + "\n";
    cut.push_str(&lines[keep + 1][..lines[keep + 1].len() / 2]);
    std::fs::write(progress, cut).unwrap();
}

#[test]
fn build_resumes_after_a_kill_and_its_shards_merge_to_the_same_book() {
    let build = |out: &Path, extra: &[&str]| {
        let mut args = vec![
            "book",
            "build",
            "--wthor",
            "corpus/wthor/WTH_2000.wtb",
            "--plies",
            "5",
            "--depth",
            "3",
        ];
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--out", s(out)]);
        ok(&mollett(&args))
    };
    let whole = temp("build", "whole.book");
    build(&whole, &[]);
    let one = std::fs::read(&whole).unwrap();
    // Killed after 3 positions: the rerun scores only the rest.
    let resumed = temp("build", "resumed.book");
    build(&resumed, &[]);
    let progress = temp("build", "resumed.book.progress");
    kill_after(&progress, 3);
    std::fs::remove_file(&resumed).unwrap();
    let out = build(&resumed, &[]);
    let n = book::load(&whole).unwrap().len();
    assert!(
        out.contains(&format!("{} scored by this run", n - 3)),
        "{out}"
    );
    assert_eq!(std::fs::read(&resumed).unwrap(), one);
    // Again: nothing left to score, the same book.
    assert!(build(&resumed, &[]).contains(" 0 scored by this run"));
    assert_eq!(std::fs::read(&resumed).unwrap(), one);
    // Two shards, merged.
    let (a, b, merged) = (
        temp("build", "a.book"),
        temp("build", "b.book"),
        temp("build", "ab.book"),
    );
    build(&a, &["--shard", "1/2"]);
    build(&b, &["--shard", "2/2"]);
    let (la, lb) = (book::load(&a).unwrap().len(), book::load(&b).unwrap().len());
    assert!(la > 0 && lb > 0 && la + lb == n, "{la} + {lb} of {n}");
    ok(&mollett(&[
        "book",
        "merge",
        s(&a),
        s(&b),
        "--out",
        s(&merged),
    ]));
    assert_eq!(std::fs::read(&merged).unwrap(), one);
    // A progress file of other settings is refused, in one line.
    let o = mollett(&[
        "book",
        "build",
        "--wthor",
        "corpus/wthor/WTH_2000.wtb",
        "--plies",
        "5",
        "--depth",
        "2",
        "--out",
        s(&whole),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("whole.book.progress") && err.contains("another run"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

#[test]
fn the_classic_tree_covers_every_centre_opening() {
    let out = temp("classic", "c.book");
    ok(&mollett(&[
        "--variant",
        "classic",
        "book",
        "build",
        "--plies",
        "6",
        "--depth",
        "2",
        "--out",
        s(&out),
    ]));
    let b = book::load(&out).unwrap();
    assert_eq!(b.variant(), Variant::Classic);
    let centre = ["d4", "e4", "d5", "e5"];
    let mut openings = 0;
    // Black's two squares, in every way; the placements alternate.
    for i in 0..4 {
        for j in i + 1..4 {
            let white: Vec<&str> = (0..4)
                .filter(|k| *k != i && *k != j)
                .map(|k| centre[k])
                .collect();
            let line = [centre[i], white[0], centre[j], white[1]];
            let mut pos = Position::start(Variant::Classic, Color::Black);
            for sq in line {
                pos = pos.play(sq.parse::<Move>().unwrap()).unwrap();
            }
            let hits = b.lookup(&pos);
            assert!(!hits.is_empty(), "{}", line.concat());
            assert!(hits.iter().all(|h| pos.play(h.mv).is_some()));
            // Every move of the opening's position is in the book, and the
            // positions after them too (6 plies).
            assert_eq!(hits.len(), pos.legal_moves().len(), "{}", line.concat());
            for h in &hits {
                assert!(!b.lookup(&pos.play(h.mv).unwrap()).is_empty());
            }
            let shown = ok(&mollett(&[
                "--variant",
                "classic",
                "book",
                "show",
                s(&out),
                "--moves",
                &line.concat(),
            ]));
            assert_eq!(shown.lines().count(), hits.len(), "{shown}");
            openings += 1;
        }
    }
    assert_eq!(openings, 6);
}

/// A modern book of the start (every first move) and of the position after
/// f5, whose three moves are d6 +0.5, f6 -1.0 and f4 -5.0 (hand-set).
fn small_book() -> Book {
    let start = Position::start(Variant::Modern, Color::Black);
    let f5 = start.play("f5".parse().unwrap()).unwrap();
    let mv = |sq: &str, value| BookMove {
        square: sq
            .parse::<mollett::rules::square::Square>()
            .unwrap()
            .index() as u8,
        value,
        depth: 4,
        games: 0,
        leaf: false,
    };
    let at = |p: &Position, moves| BookPosition {
        key: Key {
            player: p.player,
            opponent: p.opponent,
            supply: [0, 0],
        },
        games: 0,
        moves,
    };
    Book::from_positions(
        Variant::Modern,
        vec![
            at(
                &start,
                ["d3", "c4", "f5", "e6"].iter().map(|m| mv(m, 0)).collect(),
            ),
            at(&f5, vec![mv("d6", 50), mv("f6", -100), mv("f4", -500)]),
        ],
    )
}

fn after(moves: &str) -> Position {
    let mut pos = Position::start(Variant::Modern, Color::Black);
    for mv in mollett::rules::moveline::parse_moves(moves).unwrap() {
        pos = pos.play(mv).unwrap();
    }
    pos
}

#[test]
fn learn_adds_the_near_best_deviations_and_reminimaxes_their_parents() {
    let input = temp("learn", "small.book");
    std::fs::write(&input, small_book().bytes()).unwrap();
    let learn = |out: &Path| {
        ok(&mollett(&[
            "book",
            "learn",
            s(&input),
            "--depth",
            "2",
            "--max-error",
            "2",
            "--total-error",
            "2",
            "--rounds",
            "2",
            "--out",
            s(out),
        ]))
    };
    let out = temp("learn", "learned.book");
    learn(&out);
    let b = book::load(&out).unwrap();
    let best = |moves: &str| b.lookup(&after(moves)).first().map(|h| h.value);
    let value = |moves: &str, mv: &str| {
        b.lookup(&after(moves))
            .iter()
            .find(|h| h.mv.to_string() == mv)
            .map(|h| h.value)
            .unwrap()
    };
    // d6 (the best) and f6 (1.0 worse, within 2) were searched and added;
    // f4 (5.5 worse) was not, and keeps its value.
    assert!(best("f5d6").is_some() && best("f5f6").is_some());
    assert!(best("f5f4").is_none());
    assert_eq!(value("f5", "f4"), -5.0);
    // Re-minimaxed: a move into the book has its position's best value.
    for mv in ["d6", "f6"] {
        let child = best(&format!("f5{mv}")).unwrap();
        assert_eq!(value("f5", mv), -child, "{mv}");
    }
    assert_eq!(value("", "f5"), -best("f5").unwrap());
    assert_ne!(value("f5", "d6"), 0.5, "d6 took its searched line's value");
    // Killed in its second round and resumed: the same book.
    let again = temp("learn", "again.book");
    learn(&again);
    kill_after(&temp("learn", "again.book.progress"), 2);
    std::fs::remove_file(&again).unwrap();
    learn(&again);
    assert_eq!(std::fs::read(&again).unwrap(), std::fs::read(&out).unwrap());
}
