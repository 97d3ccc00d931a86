//! The pattern set: the base patterns, their instances on the board (the
//! symmetric images), the weight slots that symmetric configurations share,
//! the fast path's gather tables, and the game stages; with the global
//! features' names and the weight scale, the definitions that a weight
//! file's checksum covers. Built once.

use crate::rules::bitboard::symmetry;
use std::sync::OnceLock;

/// Default number of game stages (by discs on the board, 4..=63 split evenly).
pub const DEFAULT_STAGES: usize = 15;

/// Weight units per disc in the file and the tables (part of the
/// definitions: the checksum covers it).
pub const WEIGHT_SCALE: i32 = 256;

/// A base pattern: a name and squares as `(column, row)`, a1 = (0, 0).
type BasePattern = (&'static str, &'static [(u8, u8)]);

/// The eleven base patterns of layout `v1` (46 instances).
const ELEVEN: [BasePattern; 11] = [
    (
        "edge+2x",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (6, 0),
            (7, 0),
            (1, 1),
            (6, 1),
        ],
    ),
    (
        "corner2x5",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
        ],
    ),
    (
        "corner3x3",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (2, 2),
        ],
    ),
    (
        "row2",
        &[
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
            (6, 1),
            (7, 1),
        ],
    ),
    (
        "row3",
        &[
            (0, 2),
            (1, 2),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 2),
            (6, 2),
            (7, 2),
        ],
    ),
    (
        "row4",
        &[
            (0, 3),
            (1, 3),
            (2, 3),
            (3, 3),
            (4, 3),
            (5, 3),
            (6, 3),
            (7, 3),
        ],
    ),
    (
        "diag8",
        &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (4, 4),
            (5, 5),
            (6, 6),
            (7, 7),
        ],
    ),
    (
        "diag7",
        &[(1, 0), (2, 1), (3, 2), (4, 3), (5, 4), (6, 5), (7, 6)],
    ),
    ("diag6", &[(2, 0), (3, 1), (4, 2), (5, 3), (6, 4), (7, 5)]),
    ("diag5", &[(3, 0), (4, 1), (5, 2), (6, 3), (7, 4)]),
    ("diag4", &[(4, 0), (5, 1), (6, 2), (7, 3)]),
];

/// The ten-square shapes that Egaroucid's and Edax's evaluations have and
/// `v1` lacks (issue 29): the corner triangle, the edge with a block
/// (Edax's "corner + block"), and the cross of the corner's three diagonals.
const TEN_SQUARE: [BasePattern; 3] = [
    (
        "triangle",
        &[
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (0, 2),
            (1, 2),
            (0, 3),
        ],
    ),
    (
        "corner+block",
        &[
            (0, 0),
            (2, 0),
            (3, 0),
            (4, 0),
            (5, 0),
            (7, 0),
            (2, 1),
            (3, 1),
            (4, 1),
            (5, 1),
        ],
    ),
    (
        "cross",
        &[
            (0, 0),
            (1, 1),
            (2, 2),
            (3, 3),
            (1, 0),
            (2, 1),
            (3, 2),
            (0, 1),
            (1, 2),
            (2, 3),
        ],
    ),
];

/// A count the evaluation reads off the position, with one weight per
/// value and stage (a table, not a linear term: issue 29). Values at or
/// above `size - 1` share the last entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// Legal moves of the side to move.
    MovesMine,
    /// Legal moves of the opponent (if it were to move).
    MovesTheirs,
    /// Empty squares next to an opponent's disc (the side to move's potential mobility).
    PotentialMine,
    /// Empty squares next to a disc of the side to move.
    PotentialTheirs,
    /// The side to move's corners and edge discs beside its own corners.
    AnchoredMine,
    /// The same for the opponent.
    AnchoredTheirs,
    /// Discs of the side to move.
    DiscsMine,
    /// Quadrants with an odd number of empty squares.
    OddQuadrants,
}

/// A count table of a layout: the count, its name (in the checksum) and its entries.
pub type CountTable = (Count, &'static str, usize);

/// The mobility and potential-mobility counts as tables (layout `v3`).
const MOBILITY_TABLES: [CountTable; 4] = [
    (Count::MovesMine, "moves-mine", 32),
    (Count::MovesTheirs, "moves-theirs", 32),
    (Count::PotentialMine, "potential-mine", 48),
    (Count::PotentialTheirs, "potential-theirs", 48),
];

/// `v3`'s tables and four more (layout `v4`).
const MORE_TABLES: [CountTable; 8] = [
    MOBILITY_TABLES[0],
    MOBILITY_TABLES[1],
    MOBILITY_TABLES[2],
    MOBILITY_TABLES[3],
    (Count::AnchoredMine, "anchored-mine", 13),
    (Count::AnchoredTheirs, "anchored-theirs", 13),
    (Count::DiscsMine, "discs-mine", 65),
    (Count::OddQuadrants, "odd-quadrants", 5),
];

/// An evaluation's shape: the base patterns it reads, by name, and its
/// count tables. A weight file is made for one layout (its checksum says which).
#[derive(Clone, Copy)]
pub struct Layout {
    pub name: &'static str,
    /// The base patterns, in weight order: the parts one after another.
    parts: &'static [&'static [BasePattern]],
    /// Count tables, after the patterns in weight order.
    counts: &'static [CountTable],
}

impl Layout {
    fn patterns(&self) -> impl Iterator<Item = &'static BasePattern> {
        self.parts.iter().flat_map(|p| p.iter())
    }
}

/// A small layout for ordering the exact solver's moves (issue 31): four
/// ten-square corner and edge shapes, 20 instances (v1 has 46).
const ORDERING: [BasePattern; 4] = [ELEVEN[0], ELEVEN[1], TEN_SQUARE[0], TEN_SQUARE[1]];

/// Every layout, the default (the shipped weights') first.
pub const LAYOUTS: [Layout; 5] = [
    Layout {
        name: "v1",
        parts: &[&ELEVEN],
        counts: &[],
    },
    Layout {
        name: "v2",
        parts: &[&ELEVEN, &TEN_SQUARE],
        counts: &[],
    },
    Layout {
        name: "o1",
        parts: &[&ORDERING],
        counts: &[],
    },
    Layout {
        name: "v3",
        parts: &[&ELEVEN, &TEN_SQUARE],
        counts: &MOBILITY_TABLES,
    },
    Layout {
        name: "v4",
        parts: &[&ELEVEN, &TEN_SQUARE],
        counts: &MORE_TABLES,
    },
];

/// Names of the global features, in weight order.
pub const GLOBAL_NAMES: [&str; 7] = [
    "mobility",
    "potential-mobility",
    "parity",
    "bias",
    "classic-bias",
    "classic-shortfall",
    "classic-supply",
];
/// Number of global features.
pub const GLOBALS: usize = GLOBAL_NAMES.len();

/// Longest pattern.
const MAX_LEN: usize = 10;

/// Most pattern instances of any layout (the symmetric images of its base patterns).
pub const MAX_INSTANCES: usize = 64;

/// One base pattern with everything derived from it.
pub struct Pattern {
    pub name: &'static str,
    /// Squares of the base orientation.
    pub len: usize,
    /// `3^len`: configurations.
    pub size: usize,
    /// Configuration -> weight slot within this pattern (symmetric configurations share one).
    pub slot_of: Vec<u32>,
    /// Distinct weight slots.
    pub slots: usize,
}

/// One placement of a pattern on the board.
#[derive(Clone, Copy)]
pub struct Instance {
    pub pattern: usize,
    pub len: usize,
    /// Squares in digit order: the first is the most significant base-3 digit.
    pub squares: [u8; MAX_LEN],
    /// The same squares as a bitboard.
    pub mask: u64,
}

/// What the fast path needs of one instance, packed for the evaluation loop.
#[derive(Clone, Copy)]
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(super) struct Lookup {
    /// The instance's squares.
    pub(super) mask: u64,
    /// Start of its `2^len` entries in [`PatternSet::digit_values`].
    pub(super) digits: u32,
    /// Start of its pattern in a stage's expanded table.
    pub(super) table: u32,
}

/// A weight set as the kernels (`fast::raw`, `rows::raw`) read it: the
/// stage count, the configuration tables and the global weights
/// (`PatternEval`'s fields, lent).
#[derive(Clone, Copy)]
#[cfg_attr(
    not(any(
        target_arch = "x86_64",
        test,
        all(target_arch = "wasm32", target_feature = "simd128")
    )),
    allow(dead_code)
)]
pub(super) struct Weights<'a> {
    pub set: &'a PatternSet,
    pub stages: usize,
    pub tables: &'a [i16],
    pub globals: &'a [i16],
}

/// Instances to a vector of [`PatternSet::row_values`].
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
pub(super) const LANES: usize = 8;

/// A layout's patterns and instances, built once.
pub struct PatternSet {
    /// The layout's name.
    pub name: &'static str,
    pub patterns: Vec<Pattern>,
    pub instances: Vec<Instance>,
    /// Offset of each pattern in a stage's expanded table (configurations).
    pub full_offset: Vec<usize>,
    /// Configurations per stage (sum of `3^len`).
    pub full_per_stage: usize,
    /// Offset of each pattern in a stage's compact weights (slots).
    pub slot_offset: Vec<usize>,
    /// Compact weights per stage (the patterns' slots, then the count
    /// tables' entries), globals excluded.
    pub slots_per_stage: usize,
    /// The count tables, in weight order.
    pub counts: &'static [CountTable],
    /// Start of the count tables in a stage's compact weights.
    pub count_slot_offset: usize,
    /// Start of the count tables in a stage's expanded table.
    pub count_full_offset: usize,
    /// Checksum of the definitions, stored in weight files.
    pub checksum: u64,
    /// Per instance, `2^len` entries: for each subset of its squares, as
    /// `pext(bits, mask)` gathers them (lowest square first), the sum of the
    /// squares' digit weights `3^(len - 1 - k)` (k: place in digit order).
    /// An instance's index is `v[pext(player)] + 2 * v[pext(opponent)]`.
    /// 18 880 entries (37 KB).
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) digit_values: Vec<u16>,
    /// One entry per instance, in instance order.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub(super) lookups: Vec<Lookup>,
    /// The browser build's stand-in for `digit_values`: for board row `r`,
    /// byte `b` (a colour's discs in that row) and group of [`LANES`]
    /// instances `c`, entry `(r * 256 + b) * groups + c` holds each
    /// instance's sum of the digit weights `3^(len - 1 - k)` of its squares
    /// in `b` (`k`: the square's place in digit order). An instance's index
    /// is the sum over rows of the side to move's entries plus twice the
    /// opponent's (below `3^10`: `u16` lanes hold it). 196 KB for 46 instances.
    #[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
    pub(super) row_values: Vec<[u16; LANES]>,
}

fn square_symmetry(sq: u8, s: usize) -> u8 {
    symmetry(1u64 << sq, s).trailing_zeros() as u8
}

fn encode(digits: &[u8]) -> usize {
    digits.iter().fold(0, |acc, &d| acc * 3 + d as usize)
}

/// The checksum of a layout's definitions (its patterns' names and
/// squares, the global features, the weight scale): what a weight file
/// stores, computed without building the set.
fn checksum(layout: &Layout) -> u64 {
    let mut hash = Fnv::new();
    hash.write(b"mollett-patterns-v1");
    hash.write(&(WEIGHT_SCALE as u32).to_le_bytes());
    for &(name, coords) in layout.patterns() {
        let base: Vec<u8> = coords.iter().map(|&(c, r)| r * 8 + c).collect();
        hash.write(name.as_bytes());
        hash.write(&base);
    }
    for g in GLOBAL_NAMES {
        hash.write(g.as_bytes());
    }
    // Layouts without count tables keep the checksum they had before them.
    for &(_, name, size) in layout.counts {
        hash.write(name.as_bytes());
        hash.write(&(size as u32).to_le_bytes());
    }
    hash.finish()
}

fn build(layout: &Layout) -> PatternSet {
    let mut patterns = Vec::new();
    let mut instances = Vec::new();
    for (p, &(name, coords)) in layout.patterns().enumerate() {
        let base: Vec<u8> = coords.iter().map(|&(c, r)| r * 8 + c).collect();
        let len = base.len();
        let mut sorted_base = base.clone();
        sorted_base.sort_unstable();
        // Instances: distinct square sets among the 8 images; permutations:
        // the images that fall back on the base set (the pattern's own symmetries).
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let mut perms: Vec<Vec<usize>> = Vec::new();
        for s in 0..8 {
            let img: Vec<u8> = base.iter().map(|&q| square_symmetry(q, s)).collect();
            let mut set = img.clone();
            set.sort_unstable();
            if set == sorted_base {
                let perm: Vec<usize> = img
                    .iter()
                    .map(|q| base.iter().position(|b| b == q).expect("same set"))
                    .collect();
                if !perms.contains(&perm) {
                    perms.push(perm);
                }
            }
            if !seen.contains(&set) {
                seen.push(set);
                let mut squares = [0u8; MAX_LEN];
                squares[..len].copy_from_slice(&img);
                instances.push(Instance {
                    pattern: p,
                    len,
                    squares,
                    mask: img.iter().fold(0, |m, &q| m | 1u64 << q),
                });
            }
        }
        // Canonical configuration: the smallest index among the images.
        let size = 3usize.pow(len as u32);
        let mut canon = vec![0usize; size];
        let mut digits = [0u8; MAX_LEN];
        let mut image = [0u8; MAX_LEN];
        for (idx, c) in canon.iter_mut().enumerate() {
            let mut x = idx;
            for k in (0..len).rev() {
                digits[k] = (x % 3) as u8;
                x /= 3;
            }
            let mut best = idx;
            for perm in &perms {
                for k in 0..len {
                    image[perm[k]] = digits[k];
                }
                best = best.min(encode(&image[..len]));
            }
            *c = best;
        }
        let mut slot_of = vec![u32::MAX; size];
        let mut slots = 0u32;
        for idx in 0..size {
            if canon[idx] == idx {
                slot_of[idx] = slots;
                slots += 1;
            }
        }
        for idx in 0..size {
            slot_of[idx] = slot_of[canon[idx]];
        }
        patterns.push(Pattern {
            name,
            len,
            size,
            slot_of,
            slots: slots as usize,
        });
    }
    assert!(instances.len() <= MAX_INSTANCES);
    let mut full_offset = Vec::new();
    let mut slot_offset = Vec::new();
    let (mut full, mut slots) = (0, 0);
    for p in &patterns {
        full_offset.push(full);
        slot_offset.push(slots);
        full += p.size;
        slots += p.slots;
    }
    let mut digit_values = Vec::new();
    let mut lookups = Vec::new();
    for inst in &instances {
        // Digit weight of each square in the order pext gathers them (bit order).
        let mut by_bit: Vec<(u8, u16)> = inst.squares[..inst.len]
            .iter()
            .enumerate()
            .map(|(k, &q)| (q, 3u16.pow((inst.len - 1 - k) as u32)))
            .collect();
        by_bit.sort_unstable();
        lookups.push(Lookup {
            mask: inst.mask,
            digits: digit_values.len() as u32,
            table: full_offset[inst.pattern] as u32,
        });
        for v in 0..1usize << inst.len {
            let value = by_bit
                .iter()
                .enumerate()
                .filter(|&(j, _)| v >> j & 1 == 1)
                .map(|(_, &(_, w))| w)
                .sum();
            digit_values.push(value);
        }
    }
    let (count_full_offset, count_slot_offset) = (full, slots);
    let entries: usize = layout.counts.iter().map(|&(_, _, size)| size).sum();
    PatternSet {
        name: layout.name,
        patterns,
        full_offset,
        full_per_stage: full + entries,
        slot_offset,
        slots_per_stage: slots + entries,
        counts: layout.counts,
        count_slot_offset,
        count_full_offset,
        checksum: checksum(layout),
        digit_values,
        lookups,
        #[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
        row_values: row_values(&instances),
        instances,
    }
}

/// [`PatternSet::row_values`] of `instances`.
#[cfg(any(test, all(target_arch = "wasm32", target_feature = "simd128")))]
fn row_values(instances: &[Instance]) -> Vec<[u16; LANES]> {
    let groups = instances.len().div_ceil(LANES);
    let mut t = vec![[0u16; LANES]; 8 * 256 * groups];
    for (i, inst) in instances.iter().enumerate() {
        for (k, &q) in inst.squares[..inst.len].iter().enumerate() {
            let w = 3u16.pow((inst.len - 1 - k) as u32);
            let (r, col) = (q as usize / 8, q as usize % 8);
            for b in (0..256).filter(|b| b >> col & 1 == 1) {
                t[(r * 256 + b) * groups + i / LANES][i % LANES] += w;
            }
        }
    }
    t
}

/// FNV-1a, for the definitions checksum.
struct Fnv(u64);
impl Fnv {
    fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= b as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

impl PatternSet {
    /// Weights per stage in a file: pattern slots plus globals.
    pub fn weights_per_stage(&self) -> usize {
        self.slots_per_stage + GLOBALS
    }
}

impl PartialEq for PatternSet {
    fn eq(&self, other: &PatternSet) -> bool {
        self.checksum == other.checksum
    }
}

impl Eq for PatternSet {}

impl std::fmt::Debug for PatternSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "PatternSet({}, {} instances)",
            self.name,
            self.instances.len()
        )
    }
}

/// Each layout's set, built on first use (a few milliseconds).
static SETS: [OnceLock<PatternSet>; LAYOUTS.len()] = [const { OnceLock::new() }; LAYOUTS.len()];

fn set_at(i: usize) -> &'static PatternSet {
    SETS[i].get_or_init(|| build(&LAYOUTS[i]))
}

/// The default layout's pattern set (the one the shipped weights use).
pub fn pattern_set() -> &'static PatternSet {
    set_at(0)
}

/// The pattern set of the layout named `name` (`v1`, `v2`, `o1`).
pub fn layout(name: &str) -> Option<&'static PatternSet> {
    LAYOUTS.iter().position(|l| l.name == name).map(set_at)
}

/// The names of the layouts, the default first.
pub fn layout_names() -> impl Iterator<Item = &'static str> {
    LAYOUTS.iter().map(|l| l.name)
}

/// The pattern set whose definitions have this checksum (a weight file's).
pub fn set_with_checksum(sum: u64) -> Option<&'static PatternSet> {
    LAYOUTS.iter().position(|l| checksum(l) == sum).map(set_at)
}

/// Stage of a position with `discs` on the board, among `stages`.
#[inline]
pub fn stage_of(discs: u32, stages: usize) -> usize {
    let d = discs.clamp(4, 63) as usize - 4;
    (d * stages / 60).min(stages - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pattern_set_has_46_instances_covering_the_board() {
        let set = pattern_set();
        assert_eq!(set.instances.len(), 46);
        for name in layout_names() {
            let set = layout(name).expect("a layout");
            let mut covered = 0u64;
            for i in &set.instances {
                for &sq in &i.squares[..i.len] {
                    covered |= 1 << sq;
                }
            }
            // The ordering layout reads only the edges and corners.
            if name != "o1" {
                assert_eq!(covered, u64::MAX, "{name} covers the board");
            }
            assert_eq!(set_with_checksum(set.checksum), Some(set));
        }
        // The ten-square shapes: triangle and cross are symmetric about the
        // diagonal, corner + block about the column axis: 4 instances each.
        assert_eq!(layout("v2").expect("v2").instances.len(), 46 + 12);
        // The weights a stage that docs/training.md quotes.
        assert_eq!(pattern_set().weights_per_stage(), 113_884);
        assert_eq!(layout("v2").expect("v2").weights_per_stage(), 204_037);
        // The edge pattern's mirror halves its table (plus palindromes).
        let edge = &set.patterns[0];
        assert_eq!(edge.slots, (59049 + 243) / 2);
        assert_eq!(set.digit_values.len(), 18880);
    }
}
