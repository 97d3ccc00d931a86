//! Figures the docs quote stay equal to what the code gives: the bench
//! signature (what `mollett bench` prints) in `BENCHMARKS.md`, `protocol.md`
//! and the last row of `docs/history.md`'s signature table, and the perft
//! count `BENCHMARKS.md` quotes. (`.ci/run` checks the signature against the
//! last `Bench:` of the commit messages.)

use mollett::{perft, Color, Position, Variant};
use std::process::Command;

const BENCHMARKS: &str = include_str!("../BENCHMARKS.md");
const PROTOCOL: &str = include_str!("../protocol.md");
const HISTORY: &str = include_str!("../docs/history.md");

/// The node count of `mollett bench`'s last line (`N nodes M nps`).
fn bench_signature() -> u64 {
    let out = Command::new(env!("CARGO_BIN_EXE_mollett"))
        .arg("bench")
        .output()
        .expect("run mollett bench");
    assert!(out.status.success(), "mollett bench failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let last = text.lines().last().expect("bench prints a line");
    number_at(last).unwrap_or_else(|| panic!("bench's last line: {last}"))
}

/// The number (digits, commas allowed) at the start of `s`.
fn number_at(s: &str) -> Option<u64> {
    let digits: String = s
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(|c| *c != ',')
        .collect();
    digits.parse().ok()
}

/// The number that ends just before `s`'s end.
fn number_before(s: &str) -> Option<u64> {
    let start = s
        .trim_end_matches(|c: char| c.is_ascii_digit() || c == ',')
        .len();
    number_at(&s[start..])
}

/// The table row of `doc` that starts with `start`.
fn row<'a>(doc: &'a str, start: &str) -> &'a str {
    doc.lines()
        .find(|l| l.starts_with(start))
        .unwrap_or_else(|| panic!("no row starting with {start:?}"))
}

#[test]
fn the_bench_signature_the_docs_quote_is_the_codes() {
    let signature = bench_signature();

    let line = row(BENCHMARKS, "| bench signature |");
    let (_, after) = line
        .split_once("Bench: ")
        .expect("the row quotes `Bench: N`");
    assert_eq!(
        number_at(after),
        Some(signature),
        "BENCHMARKS.md's bench row: {line}"
    );

    let section = PROTOCOL
        .split("#### `bench`")
        .nth(1)
        .and_then(|s| s.split("####").next())
        .expect("protocol.md has a `bench` section");
    let (before, _) = section
        .split_once(" nodes with the defaults")
        .expect("protocol.md's `bench` section quotes the default count");
    assert_eq!(
        number_before(before),
        Some(signature),
        "protocol.md's `bench` section"
    );

    let table = HISTORY
        .split("## Bench signature over time")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/history.md has the signature table");
    let last = table
        .lines()
        .rfind(|l| l.starts_with('|'))
        .expect("a table row");
    let cell = last.trim_end_matches('|').rsplit('|').next().unwrap();
    assert_eq!(
        number_at(cell.trim().trim_matches('*')),
        Some(signature),
        "docs/history.md: the signature table's last row is the current signature: {last}"
    );
}

#[test]
fn the_perft_count_benchmarks_quotes_is_the_rules() {
    let line = row(BENCHMARKS, "| `mollett perft 11` (");
    let (_, after) = line.split_once("(").unwrap();
    let start = Position::start(Variant::Modern, Color::Black);
    assert_eq!(
        number_at(after),
        Some(perft(&start, 11)),
        "BENCHMARKS.md: {line}"
    );
}
