//! The opening book: Edax's own test book read and round-tripped, the
//! `mollett book` subcommands, and play from a book over GTP and NBoard.

mod common;

use mollett::protocol::book::edax::{self, EdaxBook};
use mollett::protocol::book::{self as book, Book};
use mollett::{Color, Position, Variant};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

const EDAX_BOOK: &[u8] = include_bytes!("data/edax/test-book.dat");

fn temp(test: &str, name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("mollett-book-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn mollett(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
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
