//! Perft counts pinned to the table in RULES.md (copied to tests/data/perft.txt).

use mollett::{perft, Color, Position, Variant};

fn table() -> Vec<(Variant, u32, u64)> {
    include_str!("data/perft.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (
                Variant::parse(f[0]).unwrap(),
                f[1].parse().unwrap(),
                f[2].parse().unwrap(),
            )
        })
        .collect()
}

fn check(variant: Variant, min_depth: u32, max_depth: u32) {
    let start = Position::start(variant, Color::Black);
    let rows: Vec<_> = table()
        .into_iter()
        .filter(|&(v, d, _)| v == variant && (min_depth..=max_depth).contains(&d))
        .collect();
    assert!(!rows.is_empty());
    for (_, depth, expected) in rows {
        assert_eq!(perft(&start, depth), expected, "{variant} perft {depth}");
    }
}

#[test]
fn modern_to_depth_9() {
    check(Variant::Modern, 1, 9);
}

#[test]
fn classic_to_depth_8() {
    check(Variant::Classic, 1, 8);
}

/// Depths 10 to 12: about 5.5 s in the ci profile on two shared cores.
#[test]
fn modern_depth_10_to_12() {
    check(Variant::Modern, 10, 12);
}

/// Red first in classic mirrors black first: the counts are the same.
#[test]
fn classic_red_first_has_the_same_tree_size() {
    let start = Position::start(Variant::Classic, Color::White);
    assert_eq!(perft(&start, 8), 6624);
}

/// The portable fallback (for CPUs without AVX2/BMI2) counts the same.
#[test]
fn portable_path_counts_the_same() {
    let start = Position::start(Variant::Modern, Color::Black);
    for (v, depth, expected) in table() {
        if v == Variant::Modern && depth <= 8 {
            assert_eq!(
                mollett::rules::perft::perft_modern_portable(start.player, start.opponent, depth),
                expected
            );
        }
    }
}
