//! The opening book: Edax's own test book read and round-tripped, the
//! `mollett book` subcommands, and play from a book over GTP and NBoard.

mod common;

use mollett::protocol::book::edax::{self, EdaxBook};
use mollett::protocol::book::{self as book, Book};
use mollett::{Color, Position, Variant};
use std::collections::BTreeMap;

const EDAX_BOOK: &[u8] = include_bytes!("data/edax/test-book.dat");

use common::cli::{mollett, stdout};

fn temp(test: &str, name: &str) -> common::TestPath {
    common::cli::temp("book", test, name)
}

/// Positions by board, each with its sorted links, leaf and level.
fn by_board(b: &EdaxBook) -> BTreeMap<(u64, u64), (Vec<edax::Link>, edax::Link, u8)> {
    b.positions
        .iter()
        .map(|p| {
            let mut links = p.links.clone();
            links.sort();
            ((p.player, p.opponent), (links, p.leaf, p.level))
        })
        .collect()
}

#[test]
fn edax_test_book_reads_as_its_readme_says() {
    let e = edax::parse(EDAX_BOOK).unwrap();
    assert_eq!(e.positions.len(), 31);
    assert_eq!(e.links_and_leaves(), (35, 28));
    assert_eq!(e.options[0], 4, "level 4");
    assert!(e.positions.iter().all(|p| p.level == 4));
    let ours = e.to_book();
    assert_eq!(ours.len(), 31);
    assert_eq!(ours.move_count(), 35 + 28);
    // Its first move from the start is in the book, legal, any symmetry.
    let start = Position::start(Variant::Modern, Color::Black);
    let hits = ours.lookup(&start);
    assert!(!hits.is_empty());
    assert!(hits.iter().all(|h| start.play(h.mv).is_some()));
}

#[test]
fn edax_round_trip_keeps_every_position_link_and_value() {
    let first = edax::parse(EDAX_BOOK).unwrap();
    let ours = first.to_book();
    let bytes = edax::write(&EdaxBook::from_book(&ours).unwrap());
    let second = edax::parse(&bytes).unwrap();
    assert_eq!(by_board(&first), by_board(&second));
    assert_eq!(second.to_book(), ours);
    // Our own bytes read back the same.
    assert_eq!(Book::from_bytes(ours.bytes().to_vec()).unwrap(), ours);
}

#[test]
fn damaged_files_get_an_error_naming_them() {
    let path = temp("damaged", "bad.book");
    std::fs::write(&path, [b'x'; 100]).unwrap();
    let err = book::load(&path).unwrap_err();
    assert!(
        err.contains("bad.book") && err.contains("not a Mollett book"),
        "{err}"
    );
    let ours = edax::parse(EDAX_BOOK).unwrap().to_book();
    std::fs::write(&path, &ours.bytes()[..ours.bytes().len() - 3]).unwrap();
    let err = book::load(&path).unwrap_err();
    assert!(err.contains("truncated"), "{err}");
    assert!(edax::parse(&EDAX_BOOK[..1000]).is_err());
}

#[test]
fn book_subcommands_build_show_check_merge_and_convert() {
    let built = temp("cli", "w.book");
    let b = built.to_str().unwrap();
    let out = stdout(&mollett(&[
        "book",
        "build",
        "--wthor",
        "corpus/wthor",
        "--plies",
        "4",
        "--depth",
        "4",
        "--out",
        b,
    ]));
    assert!(
        out.contains("positions") && out.contains("(1977-2017)"),
        "{out}"
    );
    // The start: the four symmetric first moves, with the games through them.
    let show = stdout(&mollett(&["book", "show", b]));
    let moves: Vec<&str> = show.lines().map(|l| l.split(' ').next().unwrap()).collect();
    assert_eq!(moves, ["d3", "c4", "f5", "e6"], "{show}");
    let after = stdout(&mollett(&["book", "show", b, "--moves", "f5"]));
    assert!(
        after
            .lines()
            .any(|l| l.starts_with("d6 ") && l.contains("depth 4")),
        "{after}"
    );
    assert_eq!(
        stdout(&mollett(&["book", "show", b, "--moves", "f5d6c3d3c4"])).trim(),
        "no book moves"
    );
    let check = stdout(&mollett(&["book", "check", b]));
    assert!(check.contains("modern book"), "{check}");
    // Coverage of the games it was built from: all of their first four
    // plies, not all of five (and it names a missing line of five plies).
    let cover = |plies: &str| {
        stdout(&mollett(&[
            "book",
            "check",
            b,
            "--wthor",
            "corpus/wthor",
            "--plies",
            plies,
            "--min-games",
            "1",
        ]))
    };
    let four = cover("4");
    assert!(four.contains("(100.0 %)"), "{four}");
    let five = cover("5");
    assert!(!five.contains("(100.0 %)"), "{five}");
    let lacks = five
        .split("after '")
        .nth(1)
        .unwrap()
        .trim_end()
        .trim_end_matches('\'');
    assert_eq!(lacks.len(), 8, "four moves: {five}");
    // Merging a book with itself keeps its positions and doubles its games.
    let merged = temp("cli", "m.book");
    stdout(&mollett(&[
        "book",
        "merge",
        b,
        b,
        "--out",
        merged.to_str().unwrap(),
    ]));
    let (one, two) = (book::load(&built).unwrap(), book::load(&merged).unwrap());
    assert_eq!(one.len(), two.len());
    assert_eq!(two.position(0).games, 2 * one.position(0).games);
    // Edax in and out.
    let dat = temp("cli", "w.dat");
    let back = temp("cli", "back.book");
    stdout(&mollett(&["book", "export-edax", b, dat.to_str().unwrap()]));
    stdout(&mollett(&[
        "book",
        "import-edax",
        dat.to_str().unwrap(),
        back.to_str().unwrap(),
    ]));
    assert_eq!(book::load(&back).unwrap().len(), one.len());
    // Errors: one line, non-zero exit, the file named.
    let o = mollett(&["book", "check", "tests/data/edax/test-book.dat"]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("test-book.dat") && err.contains("import-edax"),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
}

/// Edax's test book as a Mollett book file of this test.
/// (The file goes with the returned path, when it drops.)
fn edax_book_file(test: &str) -> common::TestPath {
    let path = temp(test, "edax.book");
    let ours = edax::parse(EDAX_BOOK).unwrap().to_book();
    std::fs::write(&path, ours.bytes()).unwrap();
    path
}

#[test]
fn gtp_plays_and_hints_from_the_book_until_it_is_off() {
    let book = edax_book_file("gtp");
    let path = book.display();
    // After f5 d6 c3 d3 c4 the test book holds f4 (one of its lines).
    let script = format!(
        "set_option book_file {path}\nplay b f5\nplay w d6\nplay b c3\nplay w d3\nplay b c4\n\
         hint 2\nreg_genmove w\nset_option book off\nset_option depth 2\nhint 1\nset_option book on\n\
         set_option book_file none\nhint 1\n"
    );
    let a = common::ask(&script);
    assert_eq!(a[0], "=");
    let book_lines: Vec<&str> = a[6].trim_start_matches("= ").lines().collect();
    assert!(book_lines.iter().all(|l| l.ends_with(" book")), "{}", a[6]);
    assert!(book_lines[0].starts_with("f4 "), "{}", a[6]);
    assert_eq!(a[7], "= f4");
    // Off: a search's hint, without the book marker; none: the same.
    assert!(!a[10].contains("book"), "{}", a[10]);
    assert!(!a[13].contains("book"), "{}", a[13]);
    // A file that does not read is refused when set, naming it.
    let a =
        common::ask("set_option book_file tests/data/edax/test-book.dat\nget_option book_file\n");
    assert!(
        a[0].starts_with("? invalid value: book_file: tests/data/edax/test-book.dat"),
        "{}",
        a[0]
    );
    assert_eq!(a[1], "= shipped");
}

#[test]
fn genmove_answers_the_book_move_at_once() {
    let book = edax_book_file("genmove");
    let path = book.display();
    // No time at all for a search: a book move still comes, and is played.
    let script = format!(
        "set_option book_file {path}\nset_option movetime 1\nset_option nodes 1\ngenmove b\nhistory\n"
    );
    let t = std::time::Instant::now();
    let a = common::ask(&script);
    assert!(t.elapsed() < std::time::Duration::from_secs(2));
    // The test book's start: d3, c4, f5, e6 all at 0; the first in board order.
    assert_eq!(a[3], "= d3");
    assert_eq!(a[4], "= d3");
}

#[test]
fn nboard_hint_sends_book_lines_and_go_the_book_move() {
    let book = edax_book_file("nboard");
    let path = book.display();
    let script = format!(
        "nboard 2\nset book_file {path}\nset depth 2\n\
         set game (;GM[Othello]PC[NBoard]DT[2014-02-21]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[F5];)\n\
         hint 3\ngo\nset book off\ngo\n"
    );
    let out = common::run(&script);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[1].starts_with("book ") && lines[1].ends_with(" 0 4"),
        "{out}"
    );
    let go = lines.iter().position(|l| l.starts_with("=== ")).unwrap();
    assert!(
        lines[go].ends_with("/0.0") && !lines[..go].contains(&"status thinking"),
        "{out}"
    );
    // With the book off, the search thinks and says so.
    assert!(lines[go + 1..].contains(&"status thinking"), "{out}");
}

#[test]
fn damaged_bytes_never_panic() {
    let ours = edax::parse(EDAX_BOOK).unwrap().to_book();
    let start = Position::start(Variant::Modern, Color::Black);
    let mut rng = mollett::rng::Rng::new(7);
    for round in 0..2000 {
        let (mut a, mut b) = (EDAX_BOOK.to_vec(), ours.bytes().to_vec());
        for bytes in [&mut a, &mut b] {
            for _ in 0..1 + round % 4 {
                let i = rng.below(bytes.len() as u64) as usize;
                bytes[i] = rng.next_u64() as u8;
            }
            let cut = rng.below(bytes.len() as u64 + 1) as usize;
            if round % 3 == 0 {
                bytes.truncate(cut);
            }
        }
        if let Ok(e) = edax::parse(&a) {
            let book = e.to_book();
            let _ = book.lookup(&start);
            let _ = EdaxBook::from_book(&book);
        }
        if let Ok(book) = Book::from_bytes(b) {
            let _ = book.lookup(&start);
            let _ = EdaxBook::from_book(&book);
        }
    }
}

/// Every position reached from `pos` in `plies` plies (passes included).
fn positions_within(pos: Position, plies: usize) -> Vec<Position> {
    let mut all = vec![pos];
    let mut level = vec![pos];
    for _ in 0..plies {
        level = level
            .iter()
            .flat_map(|p| p.legal_moves().into_iter().filter_map(|m| p.play(m)))
            .collect();
        all.extend(&level);
    }
    all
}

/// The books built into the engine: each of its own variant, the classic
/// one with every move of the first four plies (the free placements, so all
/// six centre openings), the modern one with the start and every reply the
/// tournament games play to it; GTP plays and hints from them by default
/// and searches with `book_file none`.
#[test]
fn the_shipped_books_cover_the_openings_and_play_by_default() {
    let modern = book::shipped(Variant::Modern).expect("a modern book ships");
    let classic = book::shipped(Variant::Classic).expect("a classic book ships");
    assert_eq!(
        (modern.variant(), classic.variant()),
        (Variant::Modern, Variant::Classic)
    );
    for pos in positions_within(Position::start(Variant::Classic, Color::Black), 4) {
        let mut hits: Vec<String> = classic
            .lookup(&pos)
            .iter()
            .map(|h| h.mv.to_string())
            .collect();
        let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
        hits.sort();
        legal.sort();
        assert_eq!(hits, legal, "classic after {:?}", pos);
    }
    let start = Position::start(Variant::Modern, Color::Black);
    assert_eq!(modern.lookup(&start).len(), 4, "the four first moves");
    for first in start.legal_moves() {
        let after = start.play(first).unwrap();
        // Perpendicular, diagonal and parallel openings.
        assert!(modern.lookup(&after).len() >= 3, "after {first}");
    }
    let a = common::ask("get_option book_file\nhint 4\ngenmove b\nset_option book_file none\nset_option depth 2\nhint 1\n");
    assert_eq!(a[0], "= shipped");
    let lines: Vec<&str> = a[1].trim_start_matches("= ").lines().collect();
    assert_eq!(lines.len(), 4, "{}", a[1]);
    assert!(lines.iter().all(|l| l.ends_with(" book")), "{}", a[1]);
    // Equal values (the four are one move up to symmetry) go in board order.
    assert_eq!(a[2], "= d3");
    assert!(!a[5].contains("book"), "{}", a[5]);
    let c = common::answers(&common::run_bytes(Variant::Classic, b"hint 4\n"));
    assert_eq!(
        c[0].lines().filter(|l| l.ends_with(" book")).count(),
        4,
        "{}",
        c[0]
    );
}
