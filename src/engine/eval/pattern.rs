//! The learned pattern evaluation (Logistello / Edax style).
//!
//! The board is cut into 46 pattern *instances*: the 8 symmetric images of 11
//! base patterns (edges with their X-squares, 2x5 corner regions, 3x3
//! corners, rows and columns 2-4, diagonals of length 8 down to 4). Each
//! instance reads its squares as a base-3 number (0 empty, 1 side to move, 2
//! opponent) and looks the number up in its pattern's weight table; every
//! instance of a pattern shares the table, and configurations that a
//! symmetry of the pattern itself maps onto each other share one weight, so
//! the evaluation is exactly invariant under the board's 8 symmetries.
//! A few global features (mobility, parity, a bias, and for classic the
//! supplies) are added, with one set of weights per game stage (by discs on
//! the board).
//!
//! PatternWeights are quantised to `i16` in [`WEIGHT_SCALE`] units per disc and
//! stored in a small binary file (see [`PatternWeights::to_bytes`]); the shipped set
//! is embedded in the binary.

use super::{Evaluator, EVAL_LIMIT, UNITS_PER_DISC};
use crate::rules::bitboard::symmetry;
use crate::rules::color::{Color, Variant};
use crate::rules::geometry::neighbours;
use crate::rules::position::{Position, CENTRE};
use std::fmt;
use std::path::Path;
use std::sync::OnceLock;

/// Weight units per disc in the file and the tables.
pub const WEIGHT_SCALE: i32 = 256;

/// Default number of game stages (by discs on the board, 4..=63 split evenly).
pub const DEFAULT_STAGES: usize = 15;

/// The base patterns: a name and squares as `(column, row)`, a1 = (0, 0).
const BASE_PATTERNS: [(&str, &[(u8, u8)]); 11] = [
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

/// Pattern instances on the board (the symmetric images of the base patterns).
pub const INSTANCES: usize = 46;

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
struct Lookup {
    /// The instance's squares.
    mask: u64,
    /// Start of its `2^len` entries in [`PatternSet::digit_values`].
    digits: u32,
    /// Start of its pattern in a stage's expanded table.
    table: u32,
}

/// All patterns and instances, built once.
pub struct PatternSet {
    pub patterns: Vec<Pattern>,
    pub instances: Vec<Instance>,
    /// Offset of each pattern in a stage's expanded table (configurations).
    pub full_offset: Vec<usize>,
    /// Configurations per stage (sum of `3^len`).
    pub full_per_stage: usize,
    /// Offset of each pattern in a stage's compact weights (slots).
    pub slot_offset: Vec<usize>,
    /// Compact pattern weights per stage (sum of slots), globals excluded.
    pub slots_per_stage: usize,
    /// Checksum of the definitions, stored in weight files.
    pub checksum: u64,
    /// Per instance, `2^len` entries: for each subset of its squares, as
    /// `pext(bits, mask)` gathers them (lowest square first), the sum of the
    /// squares' digit weights `3^(len - 1 - k)` (k: place in digit order).
    /// An instance's index is `v[pext(player)] + 2 * v[pext(opponent)]`.
    /// 18 880 entries (37 KB).
    digit_values: Vec<u16>,
    /// One entry per instance, in instance order.
    lookups: Vec<Lookup>,
}

fn square_symmetry(sq: u8, s: usize) -> u8 {
    symmetry(1u64 << sq, s).trailing_zeros() as u8
}

fn encode(digits: &[u8]) -> usize {
    digits.iter().fold(0, |acc, &d| acc * 3 + d as usize)
}

fn build() -> PatternSet {
    let mut patterns = Vec::new();
    let mut instances = Vec::new();
    let mut hash = Fnv::new();
    hash.write(b"mollett-patterns-v1");
    hash.write(&(WEIGHT_SCALE as u32).to_le_bytes());
    for (p, &(name, coords)) in BASE_PATTERNS.iter().enumerate() {
        let base: Vec<u8> = coords.iter().map(|&(c, r)| r * 8 + c).collect();
        let len = base.len();
        hash.write(name.as_bytes());
        hash.write(&base);
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
    assert_eq!(instances.len(), INSTANCES);
    for g in GLOBAL_NAMES {
        hash.write(g.as_bytes());
    }
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
    PatternSet {
        patterns,
        instances,
        full_offset,
        full_per_stage: full,
        slot_offset,
        slots_per_stage: slots,
        checksum: hash.finish(),
        digit_values,
        lookups,
    }
}

/// The pattern definitions (built on first use, a few milliseconds).
pub fn pattern_set() -> &'static PatternSet {
    static SET: OnceLock<PatternSet> = OnceLock::new();
    SET.get_or_init(build)
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

/// Stage of a position with `discs` on the board, among `stages`.
#[inline]
pub fn stage_of(discs: u32, stages: usize) -> usize {
    let d = discs.clamp(4, 63) as usize - 4;
    (d * stages / 60).min(stages - 1)
}

/// Squares' ternary contents: 0 empty, 1 side to move, 2 opponent.
#[inline]
fn ternary_board(pos: &Position) -> [u8; 64] {
    let mut t = [0u8; 64];
    let (p, o) = (pos.player, pos.opponent);
    for (i, v) in t.iter_mut().enumerate() {
        *v = ((p >> i) & 1) as u8 + 2 * ((o >> i) & 1) as u8;
    }
    t
}

/// Configuration index of each instance (into its pattern's `3^len` table).
#[inline]
pub fn instance_indices(pos: &Position, out: &mut [u32]) {
    #[cfg(target_arch = "x86_64")]
    if crate::rules::cpu::has_fast_bits() {
        // SAFETY: the CPU supports the features `fast::instance_indices` is compiled for.
        unsafe { fast::instance_indices(pos, out) };
        return;
    }
    instance_indices_portable(pos, out);
}

/// [`instance_indices`] square by square, for CPUs without BMI2.
fn instance_indices_portable(pos: &Position, out: &mut [u32]) {
    let t = ternary_board(pos);
    for (inst, o) in pattern_set().instances.iter().zip(out.iter_mut()) {
        let mut idx = 0u32;
        for &sq in &inst.squares[..inst.len] {
            idx = idx * 3 + t[sq as usize] as u32;
        }
        *o = idx;
    }
}

/// The global features of a position (integers; their weights are per stage).
#[inline]
pub fn global_features(pos: &Position) -> [i32; GLOBALS] {
    // SAFETY: with `FAST` false no CPU feature is needed.
    unsafe { global_features_with::<false>(pos) }
}

/// Legal moves of `player` (the side `side`) as `Position::moves` gives
/// them: none for a classic side with an empty supply, the empty centre
/// squares during the classic opening. With `FAST`, from the AVX2 kernel.
///
/// # Safety
/// With `FAST` the CPU must support AVX2 (callers check `crate::rules::cpu::has_fast_bits`).
#[inline(always)]
unsafe fn side_moves<const FAST: bool>(
    pos: &Position,
    side: Color,
    player: u64,
    opponent: u64,
) -> u64 {
    if pos.variant == Variant::Classic {
        if pos.supply[side.index()] == 0 {
            return 0;
        }
        if pos.in_classic_opening() {
            return CENTRE & pos.empties();
        }
    }
    #[cfg(target_arch = "x86_64")]
    if FAST {
        // SAFETY: the caller guarantees AVX2 when `FAST`.
        return unsafe { crate::rules::bitboard::avx2::moves(player, opponent) };
    }
    crate::rules::bitboard::moves(player, opponent)
}

/// [`global_features`]; with `FAST`, legal moves come from the AVX2 kernel.
///
/// # Safety
/// With `FAST` the CPU must support AVX2 (callers check `crate::rules::cpu::has_fast_bits`).
#[inline(always)]
unsafe fn global_features_with<const FAST: bool>(pos: &Position) -> [i32; GLOBALS] {
    // As through `Position::moves` (a classic side with an empty supply has no moves).
    let (p, o) = (pos.player, pos.opponent);
    // SAFETY: passed on from the caller.
    let (mine, theirs) = unsafe {
        (
            side_moves::<FAST>(pos, pos.side, p, o),
            side_moves::<FAST>(pos, pos.side.other(), o, p),
        )
    };
    let mobility = mine.count_ones() as i32 - theirs.count_ones() as i32;
    let e = pos.empty_count() as i32;
    let parity = if e & 1 == 1 { 1 } else { -1 };
    let empty = pos.empties();
    let potential = (neighbours(pos.opponent) & empty).count_ones() as i32
        - (neighbours(pos.player) & empty).count_ones() as i32;
    let mut g = [mobility, potential, parity, 1, 0, 0, 0];
    if pos.variant == Variant::Classic {
        // Without passes the side to move places ceil(e/2) more discs, the other floor(e/2).
        let mine = pos.supply[pos.side.index()] as i32;
        let theirs = pos.supply[pos.side.other().index()] as i32;
        let short_mine = ((e + 1) / 2 - mine).max(0);
        let short_theirs = (e / 2 - theirs).max(0);
        g[4] = 1;
        g[5] = short_theirs - short_mine;
        g[6] = mine - theirs;
    }
    g
}

/// The evaluation and instance indices with BMI2 `pext` (one gather per
/// instance and colour, then two lookups in [`PatternSet::digit_values`]),
/// POPCNT and the AVX2 move generator. Only called after the run-time check
/// in `crate::rules::cpu`.
#[cfg(target_arch = "x86_64")]
mod fast {
    use super::*;
    use std::arch::x86_64::_pext_u64;

    /// The instance's configuration index, in digit order (below `3^len`).
    ///
    /// # Safety
    /// The CPU must support BMI2.
    #[inline]
    #[target_feature(enable = "bmi2")]
    unsafe fn index(digits: &[u16], l: &Lookup, player: u64, opponent: u64) -> usize {
        let (p, o) = (_pext_u64(player, l.mask), _pext_u64(opponent, l.mask));
        // A gather from a mask of `len` squares is below `2^len`, and `build`
        // gives every instance `2^len` entries from `l.digits`.
        debug_assert!(l.digits as usize + (p.max(o) as usize) < digits.len());
        // SAFETY: in bounds, as above.
        unsafe {
            *digits.get_unchecked(l.digits as usize + p as usize) as usize
                + 2 * *digits.get_unchecked(l.digits as usize + o as usize) as usize
        }
    }

    /// Same as `super::instance_indices_portable`.
    ///
    /// # Safety
    /// The CPU must support BMI2 (callers check `crate::rules::cpu::has_fast_bits`).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    pub unsafe fn instance_indices(pos: &Position, out: &mut [u32]) {
        let set = pattern_set();
        for (l, o) in set.lookups.iter().zip(out.iter_mut()) {
            *o = index(&set.digit_values, l, pos.player, pos.opponent) as u32;
        }
    }

    /// Same as `PatternEval::raw_portable`.
    ///
    /// # Safety
    /// The CPU must support popcnt, lzcnt, BMI1, BMI2 and AVX2 (callers check
    /// `crate::rules::cpu::has_fast_bits`).
    #[target_feature(enable = "popcnt,lzcnt,bmi1,bmi2,avx2")]
    pub unsafe fn raw(eval: &PatternEval, pos: &Position) -> i32 {
        let set = pattern_set();
        let discs = (pos.player | pos.opponent).count_ones();
        let s = stage_of(discs, eval.stages);
        let table = &eval.tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
        let mut sum = 0i32;
        for l in &set.lookups {
            let idx = l.table as usize + index(&set.digit_values, l, pos.player, pos.opponent);
            // `l.table` starts the pattern's `3^len` entries in a stage's table.
            debug_assert!(idx < table.len());
            // SAFETY: `index` is below `3^len`, so in bounds, as above.
            sum += unsafe { *table.get_unchecked(idx) } as i32;
        }
        let g = global_features_with::<true>(pos);
        let gw = &eval.globals[s * GLOBALS..(s + 1) * GLOBALS];
        for k in 0..GLOBALS {
            sum += g[k] * gw[k] as i32;
        }
        sum
    }
}

/// Why a weight file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WeightError(pub String);

impl fmt::Display for WeightError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for WeightError {}

/// File magic.
pub const MAGIC: &[u8; 8] = b"MOLLWGT\0";
/// File format version.
pub const VERSION: u32 = 1;
/// Payload encodings.
const ENC_RAW: u32 = 0;
const ENC_ZERO_RUNS: u32 = 1;
/// In the zero-run encoding, this word is followed by a `u16` count of zeros.
const ZERO_RUN: i16 = i16::MIN;
const HEADER_LEN: usize = 8 + 4 * 4 + 8;

/// Compact quantised weights: per stage, each pattern's slots then the globals.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PatternWeights {
    pub stages: usize,
    pub data: Vec<i16>,
}

impl PatternWeights {
    /// PatternWeights per stage: pattern slots plus globals.
    pub fn per_stage() -> usize {
        pattern_set().slots_per_stage + GLOBALS
    }

    pub fn zeros(stages: usize) -> PatternWeights {
        PatternWeights {
            stages,
            data: vec![0; stages * PatternWeights::per_stage()],
        }
    }

    /// The file: header (magic `MOLLWGT\0`, version u32, stages u32, weights
    /// per stage u32, encoding u32, pattern checksum u64; all little-endian),
    /// then the weights as little-endian `i16` words, runs of zeros written as
    /// `i16::MIN` followed by the run length (`u16`).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(HEADER_LEN + self.data.len());
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.stages as u32).to_le_bytes());
        out.extend_from_slice(&(PatternWeights::per_stage() as u32).to_le_bytes());
        out.extend_from_slice(&ENC_ZERO_RUNS.to_le_bytes());
        out.extend_from_slice(&pattern_set().checksum.to_le_bytes());
        let mut i = 0;
        while i < self.data.len() {
            let w = self.data[i];
            if w == 0 {
                let mut n = 0usize;
                while i + n < self.data.len() && self.data[i + n] == 0 && n < u16::MAX as usize {
                    n += 1;
                }
                out.extend_from_slice(&ZERO_RUN.to_le_bytes());
                out.extend_from_slice(&(n as u16).to_le_bytes());
                i += n;
            } else {
                // i16::MIN is the run marker; the trainer never writes it.
                out.extend_from_slice(&w.max(-i16::MAX).to_le_bytes());
                i += 1;
            }
        }
        out
    }

    pub fn from_bytes(bytes: &[u8]) -> Result<PatternWeights, WeightError> {
        let err = |m: &str| Err(WeightError(m.to_string()));
        if bytes.len() < HEADER_LEN || &bytes[..8] != MAGIC {
            return err("not a Mollett weight file (bad magic)");
        }
        let u32_at = |o: usize| u32::from_le_bytes(bytes[o..o + 4].try_into().expect("4 bytes"));
        if u32_at(8) != VERSION {
            return err("unsupported weight file version");
        }
        let stages = u32_at(12) as usize;
        let per_stage = u32_at(16) as usize;
        let encoding = u32_at(20);
        let checksum = u64::from_le_bytes(bytes[24..32].try_into().expect("8 bytes"));
        if checksum != pattern_set().checksum || per_stage != PatternWeights::per_stage() {
            return err("weight file was made for other patterns (checksum mismatch)");
        }
        if stages == 0 || stages > 60 {
            return err("weight file stage count must be 1 to 60");
        }
        let total = stages * per_stage;
        let payload = &bytes[HEADER_LEN..];
        if !payload.len().is_multiple_of(2) {
            return err("truncated weight file");
        }
        let mut data = Vec::with_capacity(total);
        let mut words = payload
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        match encoding {
            ENC_RAW => data.extend(words),
            ENC_ZERO_RUNS => {
                while let Some(w) = words.next() {
                    if w == ZERO_RUN {
                        let n = match words.next() {
                            Some(n) => n as u16 as usize,
                            None => return err("truncated weight file"),
                        };
                        data.resize(data.len() + n, 0);
                    } else {
                        data.push(w);
                    }
                    if data.len() > total {
                        break;
                    }
                }
            }
            _ => return err("unknown weight encoding"),
        }
        if data.len() != total {
            return err("weight file has the wrong number of weights");
        }
        Ok(PatternWeights { stages, data })
    }

    /// Reads a weight file.
    pub fn read(path: &Path) -> Result<PatternWeights, WeightError> {
        let bytes =
            std::fs::read(path).map_err(|e| WeightError(format!("{}: {e}", path.display())))?;
        PatternWeights::from_bytes(&bytes)
            .map_err(|e| WeightError(format!("{}: {e}", path.display())))
    }

    /// Writes a weight file.
    pub fn write(&self, path: &Path) -> Result<(), WeightError> {
        std::fs::write(path, self.to_bytes())
            .map_err(|e| WeightError(format!("{}: {e}", path.display())))
    }
}

/// The weights shipped in the binary (`src/eval/weights.bin`).
pub static EMBEDDED_WEIGHTS: &[u8] = include_bytes!("weights.bin");

/// The pattern evaluator: expanded tables, one lookup per instance.
#[derive(Clone)]
pub struct PatternEval {
    stages: usize,
    /// `stages * full_per_stage` configuration weights.
    tables: Vec<i16>,
    /// `stages * GLOBALS` global weights.
    globals: Vec<i16>,
    /// The CPU runs the `fast` module (checked once, at construction).
    fast_cpu: bool,
}

impl fmt::Debug for PatternEval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "PatternEval {{ stages: {} }}", self.stages)
    }
}

impl PatternEval {
    /// Expands compact weights into lookup tables.
    pub fn new(w: &PatternWeights) -> PatternEval {
        let set = pattern_set();
        let per = PatternWeights::per_stage();
        let mut tables = vec![0i16; w.stages * set.full_per_stage];
        let mut globals = vec![0i16; w.stages * GLOBALS];
        for s in 0..w.stages {
            let src = &w.data[s * per..(s + 1) * per];
            let dst = &mut tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
            for (p, pat) in set.patterns.iter().enumerate() {
                let so = set.slot_offset[p];
                let fo = set.full_offset[p];
                for (d, &slot) in dst[fo..fo + pat.size].iter_mut().zip(&pat.slot_of) {
                    *d = src[so + slot as usize];
                }
            }
            globals[s * GLOBALS..(s + 1) * GLOBALS].copy_from_slice(&src[set.slots_per_stage..]);
        }
        PatternEval {
            stages: w.stages,
            tables,
            globals,
            fast_cpu: crate::rules::cpu::has_fast_bits(),
        }
    }

    /// The shipped weights.
    pub fn embedded() -> Result<PatternEval, WeightError> {
        Ok(PatternEval::new(&PatternWeights::from_bytes(
            EMBEDDED_WEIGHTS,
        )?))
    }

    /// PatternWeights from a file written by `mollett train`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<PatternEval, WeightError> {
        Ok(PatternEval::new(&PatternWeights::read(path.as_ref())?))
    }

    pub fn stages(&self) -> usize {
        self.stages
    }

    /// The raw sum in weight units ([`WEIGHT_SCALE`] per disc).
    #[inline]
    pub fn raw(&self, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if self.fast_cpu {
            // SAFETY: `fast_cpu` is true only when the CPU has the features `fast::raw` needs.
            return unsafe { fast::raw(self, pos) };
        }
        self.raw_portable(pos)
    }

    /// [`PatternEval::raw`] square by square, for CPUs without BMI2 (and the
    /// reference the fast path is tested against).
    fn raw_portable(&self, pos: &Position) -> i32 {
        let set = pattern_set();
        let discs = (pos.player | pos.opponent).count_ones();
        let s = stage_of(discs, self.stages);
        let table = &self.tables[s * set.full_per_stage..(s + 1) * set.full_per_stage];
        let t = ternary_board(pos);
        let mut sum = 0i32;
        for inst in &set.instances {
            let mut idx = 0usize;
            for &sq in &inst.squares[..inst.len] {
                idx = idx * 3 + t[sq as usize] as usize;
            }
            sum += table[set.full_offset[inst.pattern] + idx] as i32;
        }
        let g = global_features(pos);
        let gw = &self.globals[s * GLOBALS..(s + 1) * GLOBALS];
        for k in 0..GLOBALS {
            sum += g[k] * gw[k] as i32;
        }
        sum
    }
}

impl Evaluator for PatternEval {
    fn evaluate(&self, pos: &Position) -> i32 {
        // Classic placements flip nothing and are symmetric; there is nothing to tell.
        if pos.in_classic_opening() {
            return 0;
        }
        let raw = self.raw(pos);
        let units = (raw * UNITS_PER_DISC).div_euclid(WEIGHT_SCALE);
        units.clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    fn probcut_sigma(&self, depth: u32, shallow: u32, empties: u32) -> f64 {
        PROBCUT_SIGMA.sigma(depth, shallow, empties)
    }
}

/// ProbCut's error model for the shipped weights, fitted by
/// `mollett probcut modern-s11.txt classic-s12.txt --eval learned --positions 300 --max-depth 10 --seed 1`
/// (docs/training.md). Weight files from other runs use it too.
pub const PROBCUT_SIGMA: super::SigmaModel = super::SigmaModel {
    base: 3.0010,
    per_depth: 0.3441,
    per_shallow: -0.6678,
    per_empty: -0.0122,
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::color::Color;

    fn random_position(seed: u64, variant: Variant) -> Position {
        crate::rules::position::playout(variant, 20 + (seed % 30) as u32, seed)
    }

    #[test]
    fn pattern_set_has_46_instances_covering_the_board() {
        let set = pattern_set();
        assert_eq!(set.instances.len(), 46);
        let mut covered = 0u64;
        for i in &set.instances {
            for &sq in &i.squares[..i.len] {
                covered |= 1 << sq;
            }
        }
        assert_eq!(covered, u64::MAX);
        // The edge pattern's mirror halves its table (plus palindromes).
        let edge = &set.patterns[0];
        assert_eq!(edge.slots, (59049 + 243) / 2);
        assert_eq!(set.digit_values.len(), 18880);
    }

    fn random_weights(stages: usize, seed: u64) -> PatternWeights {
        let mut w = PatternWeights::zeros(stages);
        let mut x = seed | 1;
        for v in w.data.iter_mut() {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            *v = if x.is_multiple_of(3) {
                0
            } else {
                (x % 601) as i16 - 300
            };
        }
        w
    }

    #[test]
    fn evaluation_is_invariant_under_the_eight_symmetries() {
        let eval = PatternEval::new(&random_weights(DEFAULT_STAGES, 7));
        for seed in 1..40 {
            for variant in [Variant::Modern, Variant::Classic] {
                let pos = random_position(seed, variant);
                let base = eval.raw(&pos);
                for s in 1..8 {
                    let img = Position {
                        player: symmetry(pos.player, s),
                        opponent: symmetry(pos.opponent, s),
                        ..pos
                    };
                    assert_eq!(eval.raw(&img), base, "seed {seed} symmetry {s}");
                }
                let v = eval.evaluate(&pos);
                assert!(v.abs() <= EVAL_LIMIT);
            }
        }
    }

    /// Positions for the fast/portable comparison: playouts of both variants
    /// at every stage (the classic opening included), then the same discs
    /// with odd classic supplies (empty ones too), then arbitrary disjoint
    /// bitboards (not reachable in play, but `raw` takes any board).
    fn comparison_positions() -> Vec<Position> {
        let mut out = Vec::new();
        for seed in 0..1500u64 {
            for variant in [Variant::Modern, Variant::Classic] {
                let max = if variant == Variant::Modern { 58 } else { 62 };
                let pos = crate::rules::position::playout(variant, 2 + (seed % max) as u32, seed);
                out.push(pos);
                if variant == Variant::Classic {
                    let supply = [(seed % 5) as u8, (seed / 5 % 4) as u8];
                    out.push(Position { supply, ..pos });
                }
            }
        }
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for k in 0..2000u64 {
            let (a, b) = (next(), next());
            let player = a & b;
            let opponent = !player & next() & (a | b);
            let variant = if k % 2 == 0 {
                Variant::Modern
            } else {
                Variant::Classic
            };
            let side = if k % 4 < 2 {
                Color::Black
            } else {
                Color::White
            };
            let supply = [(next() % 33) as u8, (next() % 33) as u8];
            out.push(Position {
                player,
                opponent,
                side,
                variant,
                supply,
            });
        }
        out
    }

    #[test]
    fn fast_evaluation_matches_the_portable_one_exactly() {
        let evals = [
            PatternEval::embedded().expect("embedded weights load"),
            PatternEval::new(&random_weights(DEFAULT_STAGES, 11)),
            PatternEval::new(&random_weights(4, 5)),
        ];
        let positions = comparison_positions();
        assert_eq!(positions.len(), 6500);
        let fast_cpu = crate::rules::cpu::has_fast_bits();
        if !fast_cpu {
            eprintln!("CPU without BMI2/AVX2: only the portable path is tested");
        }
        for eval in &evals {
            assert_eq!(eval.fast_cpu, fast_cpu);
            let portable = PatternEval {
                fast_cpu: false,
                ..eval.clone()
            };
            for pos in &positions {
                let expect = eval.raw_portable(pos);
                // Through the public entry points, on the path this CPU takes and forced portable.
                assert_eq!(eval.raw(pos), expect, "{}", pos.to_obf());
                assert_eq!(portable.raw(pos), expect, "{}", pos.to_obf());
                assert_eq!(eval.evaluate(pos), portable.evaluate(pos));
                #[cfg(target_arch = "x86_64")]
                if fast_cpu {
                    // SAFETY: the CPU has the features (checked above).
                    assert_eq!(unsafe { fast::raw(eval, pos) }, expect, "{}", pos.to_obf());
                }
            }
        }
    }

    #[test]
    fn fast_indices_and_globals_match_the_portable_ones() {
        let positions = comparison_positions();
        for pos in &positions {
            let mut expect = [0u32; INSTANCES];
            instance_indices_portable(pos, &mut expect);
            let mut got = [u32::MAX; INSTANCES];
            instance_indices(pos, &mut got);
            assert_eq!(got, expect, "{}", pos.to_obf());
            let globals = global_features(pos);
            // The reference: mobility through `Position::moves`.
            let mobility = pos.moves().count_ones() as i32 - pos.pass().moves().count_ones() as i32;
            assert_eq!(globals[0], mobility, "{}", pos.to_obf());
            #[cfg(target_arch = "x86_64")]
            if crate::rules::cpu::has_fast_bits() {
                let mut fast = [u32::MAX; INSTANCES];
                // SAFETY: the CPU has the features (checked above).
                unsafe { fast::instance_indices(pos, &mut fast) };
                assert_eq!(fast, expect, "{}", pos.to_obf());
                // SAFETY: as above.
                assert_eq!(unsafe { global_features_with::<true>(pos) }, globals);
            }
        }
        // Every pext gather value maps to its digit-order index: all 2^len
        // player subsets of every instance, against the ternary board.
        let set = pattern_set();
        for (k, inst) in set.instances.iter().enumerate() {
            let l = &set.lookups[k];
            assert_eq!(l.mask.count_ones() as usize, inst.len);
            for v in 0..1u64 << inst.len {
                let mut bits = 0u64;
                let mut rest = l.mask;
                for j in 0..inst.len {
                    let sq = rest.trailing_zeros();
                    rest &= rest - 1;
                    if v >> j & 1 == 1 {
                        bits |= 1 << sq;
                    }
                }
                let pos = Position {
                    player: bits,
                    opponent: l.mask & !bits,
                    ..Position::start(Variant::Modern, Color::Black)
                };
                let mut expect = [0u32; INSTANCES];
                instance_indices_portable(&pos, &mut expect);
                let got = set.digit_values[l.digits as usize + v as usize] as u32
                    + 2 * set.digit_values[l.digits as usize + (v ^ ((1 << inst.len) - 1)) as usize]
                        as u32;
                assert_eq!(got, expect[k], "instance {k} subset {v:b}");
            }
        }
    }

    #[test]
    fn weight_file_round_trips() {
        let w = random_weights(4, 3);
        let bytes = w.to_bytes();
        assert_eq!(PatternWeights::from_bytes(&bytes).unwrap(), w);
        let z = PatternWeights::zeros(15);
        let zb = z.to_bytes();
        assert!(zb.len() < 1000, "zeros compress");
        assert_eq!(PatternWeights::from_bytes(&zb).unwrap(), z);
        let mut bad = bytes.clone();
        bad[24] ^= 1;
        assert!(PatternWeights::from_bytes(&bad).is_err());
        assert!(PatternWeights::from_bytes(&bytes[..bytes.len() - 2]).is_err());
        assert!(PatternWeights::from_bytes(b"junk").is_err());
    }

    #[test]
    fn embedded_weights_load_fast_and_stay_in_range() {
        pattern_set();
        // The best of a few loads: other tests share the CPU.
        let mut ms = f64::INFINITY;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            PatternEval::embedded().expect("embedded weights load");
            ms = ms.min(t.elapsed().as_secs_f64() * 1e3);
        }
        assert!(ms < 50.0, "loading took {ms:.1} ms");
        let eval = PatternEval::embedded().expect("embedded weights load");
        for seed in 1..200 {
            for variant in [Variant::Modern, Variant::Classic] {
                let v = eval.evaluate(&random_position(seed, variant));
                assert!(v.abs() <= EVAL_LIMIT);
            }
        }
        let extreme = PatternEval::new(&PatternWeights {
            stages: 1,
            data: vec![i16::MAX; PatternWeights::per_stage()],
        });
        let start = Position::start(Variant::Modern, Color::Black);
        assert_eq!(extreme.evaluate(&start), EVAL_LIMIT);
    }
}
