//! The shared table: a lockless hash of search results shared by all search
//! threads, in buckets of one cache line.

use super::bound::{is_solved, Bound, NO_MOVE};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Entries per bucket; a bucket is one 64-byte cache line.
const BUCKET: usize = 4;

/// One probed entry, unpacked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
    /// Best or refutation move: a square index, or `None`.
    pub mv: Option<u8>,
}

impl Entry {
    /// The score that settles a search of (`alpha`, `beta`) needing at least
    /// `depth`: `score` (the entry's score in the caller's units) when the
    /// entry is that deep and exact, a lower bound at or above `beta`, or
    /// an upper bound at or below `alpha`.
    #[inline]
    pub fn cutoff(&self, depth: i32, score: i32, alpha: i32, beta: i32) -> Option<i32> {
        if self.depth as i32 >= depth {
            match self.bound {
                Bound::Exact => return Some(score),
                Bound::Lower if score >= beta => return Some(score),
                Bound::Upper if score <= alpha => return Some(score),
                _ => {}
            }
        }
        None
    }

    fn pack(self, generation: u8) -> u64 {
        (self.score as u16 as u64)
            | (self.depth as u64) << 16
            | (self.bound as u64) << 24
            | (self.mv.unwrap_or(NO_MOVE) as u64 & 0x7F) << 26
            | (generation as u64) << 33
    }

    fn unpack(data: u64) -> Option<Entry> {
        let bound = match (data >> 24) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            3 => Bound::Exact,
            _ => return None,
        };
        let mv = ((data >> 26) & 0x7F) as u8;
        Some(Entry {
            score: data as u16 as i16,
            depth: (data >> 16) as u8,
            bound,
            mv: if mv < 64 { Some(mv) } else { None },
        })
    }
}

fn generation_of(data: u64) -> u8 {
    (data >> 33) as u8
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// `BUCKET` slots, aligned so that each bucket is one cache line of its own.
#[derive(Default)]
#[repr(align(64))]
struct Bucket([Slot; BUCKET]);

const _: () = assert!(std::mem::size_of::<Bucket>() == 64);

/// The shared table. Probes and stores take `&self`, so threads share it by reference.
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: AtomicU64,
}

/// `(key * n) >> 64` on 64-bit multiplications: WebAssembly has no 128-bit
/// product (a `u128` one is a call to `__multi3`), and its `usize` is 32 bits.
#[cfg(any(test, target_arch = "wasm32"))]
#[inline(always)]
fn mul_high_u32(key: u64, n: u32) -> u64 {
    let n = n as u64;
    // Below 2^64: (2^32 - 1)^2 + 2^32.
    ((key >> 32) * n + (((key & 0xFFFF_FFFF) * n) >> 32)) >> 32
}

impl TranspositionTable {
    /// A table of about `mb` megabytes (at least one bucket). Where that
    /// much memory cannot be had, the largest power-of-two share of it that
    /// can, with a warning; callers that must refuse use [`Self::try_new`].
    pub fn new(mb: usize) -> TranspositionTable {
        let mut size = mb.max(1);
        loop {
            match TranspositionTable::try_new(size) {
                Ok(tt) => return tt,
                Err(e) if size > 1 => {
                    log::warn!("{e}; trying {} MB", size / 2);
                    size /= 2;
                }
                Err(e) => panic!("{e}"),
            }
        }
    }

    /// A table of about `mb` megabytes, or why it cannot be had: more than
    /// the memory the system says is available, or an allocation that fails.
    /// Refusing here keeps a value that cannot be used from aborting the
    /// process later.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        if let Some(available) = available_memory() {
            if bytes as u64 > available {
                return Err(format!(
                    "a {mb} MB table needs more than the {} MB of memory available",
                    available / (1024 * 1024)
                ));
            }
        }
        let count = (bytes / std::mem::size_of::<Bucket>()).max(1);
        let mut buckets = Vec::new();
        buckets
            .try_reserve_exact(count)
            .map_err(|_| format!("cannot allocate a {mb} MB table"))?;
        advise_huge_pages(&buckets);
        buckets.resize_with(count, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            generation: AtomicU64::new(0),
        })
    }

    /// Empties every entry.
    pub fn clear(&mut self) {
        for b in &mut self.buckets {
            *b = Bucket::default();
        }
        self.generation.store(0, Relaxed);
    }

    /// Starts a new search: older entries become preferred victims.
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    fn generation(&self) -> u8 {
        self.generation.load(Relaxed) as u8
    }

    #[inline]
    fn bucket(&self, key: u64) -> &[Slot] {
        // Multiply-shift maps the key's high bits onto any bucket count.
        #[cfg(not(target_arch = "wasm32"))]
        let i = ((key as u128 * self.buckets.len() as u128) >> 64) as usize;
        #[cfg(target_arch = "wasm32")]
        let i = mul_high_u32(key, self.buckets.len() as u32) as usize;
        &self.buckets[i].0
    }

    /// Starts loading `key`'s bucket into the cache, for a probe or store
    /// soon after: a table much larger than the cache misses on nearly
    /// every probe, and other work can overlap the wait.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let bucket = self.bucket(key).as_ptr() as *const i8;
            // SAFETY: a prefetch reads nothing and cannot fault; SSE is baseline on x86_64.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(bucket) };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        for s in self.bucket(key) {
            let data = s.data.load(Relaxed);
            if s.check.load(Relaxed) ^ data == key {
                return Entry::unpack(data);
            }
        }
        None
    }

    /// Stores an entry for `key`, replacing the same key, else the shallowest or oldest entry.
    #[inline]
    pub fn store(&self, key: u64, entry: Entry) {
        let generation = self.generation();
        let bucket = self.bucket(key);
        let mut victim = 0;
        let mut victim_worth = i32::MAX;
        for (i, s) in bucket.iter().enumerate() {
            let data = s.data.load(Relaxed);
            if s.check.load(Relaxed) ^ data == key {
                // Keep a solved result against any heuristic one, and a deeper
                // result of this search unless the new one is exact.
                if let Some(old) = Entry::unpack(data) {
                    let solved = is_solved(old.depth) && !is_solved(entry.depth);
                    let deeper = old.depth > entry.depth
                        && entry.bound != Bound::Exact
                        && generation_of(data) == generation;
                    if solved || deeper {
                        return;
                    }
                }
                victim = i;
                break;
            }
            let age = generation.wrapping_sub(generation_of(data)) as i32;
            let worth = ((data >> 16) & 0xFF) as i32 - 8 * age;
            if worth < victim_worth {
                victim_worth = worth;
                victim = i;
            }
        }
        let data = entry.pack(generation);
        bucket[victim].check.store(key ^ data, Relaxed);
        bucket[victim].data.store(data, Relaxed);
    }

    /// Size in megabytes as built.
    pub fn megabytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>() / (1024 * 1024)
    }
}

/// Asks the kernel to back the table's (still untouched) allocation with
/// 2 MB pages where transparent huge pages are enabled for `madvise`: every
/// probe is a random access, and with 4 KB pages a table of 128 MB misses
/// the TLB on almost every one. A hint only; nothing changes where refused.
fn advise_huge_pages(buckets: &Vec<Bucket>) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let start = buckets.as_ptr() as usize;
        let len = buckets.capacity() * std::mem::size_of::<Bucket>();
        // The whole 2 MB pages inside the allocation.
        let first = start.next_multiple_of(HUGE);
        let end = (start + len) / HUGE * HUGE;
        if end > first {
            // SAFETY: the range lies inside this process's own allocation;
            // MADV_HUGEPAGE changes no contents.
            unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = buckets;
}

/// Memory the system can give without swapping (Linux `MemAvailable`), if known.
pub fn available_memory() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tt::SOLVED_DEPTH;

    #[test]
    fn the_browser_builds_bucket_index_is_the_128_bit_products() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for n in [1u32, 2, 3, 1000, 1 << 20, 699_051, u32::MAX] {
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(mul_high_u32(x, n), ((x as u128 * n as u128) >> 64) as u64);
            }
            assert_eq!(
                mul_high_u32(u64::MAX, n),
                ((u64::MAX as u128 * n as u128) >> 64) as u64
            );
        }
    }

    #[test]
    fn stores_and_probes_round_trip() {
        let tt = TranspositionTable::new(1);
        let e = Entry {
            score: -1234,
            depth: 9,
            bound: Bound::Upper,
            mv: Some(63),
        };
        tt.store(0xDEAD_BEEF, e);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e));
        assert_eq!(tt.probe(0xDEAD_BEEE), None);
        let e2 = Entry {
            score: 5,
            depth: SOLVED_DEPTH,
            bound: Bound::Exact,
            mv: None,
        };
        tt.store(0xDEAD_BEEF, e2);
        assert_eq!(tt.probe(0xDEAD_BEEF), Some(e2));
        assert_eq!(tt.megabytes(), 1);
    }

    #[test]
    fn bounds_classify_and_cut() {
        assert_eq!(Bound::of(5, -3, 5), Bound::Lower);
        assert_eq!(Bound::of(4, -3, 5), Bound::Exact);
        assert_eq!(Bound::of(-3, -3, 5), Bound::Upper);
        let e = |bound, depth| Entry {
            score: 0,
            depth,
            bound,
            mv: None,
        };
        assert_eq!(e(Bound::Exact, 4).cutoff(4, 7, 0, 9), Some(7));
        assert_eq!(e(Bound::Exact, 3).cutoff(4, 7, 0, 9), None);
        assert_eq!(e(Bound::Lower, 4).cutoff(4, 9, 0, 9), Some(9));
        assert_eq!(e(Bound::Lower, 4).cutoff(4, 8, 0, 9), None);
        assert_eq!(e(Bound::Upper, 4).cutoff(4, 0, 0, 9), Some(0));
        assert_eq!(e(Bound::Upper, 4).cutoff(4, 1, 0, 9), None);
    }
}
