//! The local table of one search thread's endgame solver: bounds on exact
//! scores, small enough to stay in a core's L2 cache.

use super::bound::NO_MOVE;

/// Entries of a [`LocalTable`] (a power of two): 16,384 of 16 bytes,
/// 256 KB, which stays in a core's L2 cache.
pub const LOCAL_ENTRIES: usize = 1 << 14;

/// One entry of a [`LocalTable`]: bounds on a position's exact score.
#[derive(Clone, Copy, Debug, Default)]
pub struct LocalEntry {
    /// The position's key (`key_raw`); 0 marks an empty entry.
    pub key: u64,
    /// The exact score lies in `lo..=hi` (discs).
    pub lo: i8,
    pub hi: i8,
    /// The best or refuting move, or [`NO_MOVE`].
    mv: u8,
}

impl LocalEntry {
    /// The best or refuting move, if the search that stored it had one.
    #[inline(always)]
    pub fn mv(&self) -> Option<u8> {
        (self.mv != NO_MOVE).then_some(self.mv)
    }

    /// A search of (`alpha`, `beta`) decided by the bounds: the bound that
    /// settles it, or `None` with the window narrowed to the bounds.
    #[inline(always)]
    pub fn cutoff(&self, alpha: &mut i32, beta: &mut i32) -> Option<i32> {
        let (lo, hi) = (self.lo as i32, self.hi as i32);
        if lo >= *beta || lo >= hi {
            return Some(lo);
        }
        if hi <= *alpha {
            return Some(hi);
        }
        *alpha = (*alpha).max(lo);
        *beta = (*beta).min(hi);
        None
    }
}

/// A small direct-mapped table of exact-solver bounds, one per search
/// thread, for the nodes just below the shared table's (too few empties
/// to pay for a probe of main memory): a position there recurs within the
/// same small subtree, so 16,384 entries in the L2 cache catch most of it.
/// Unshared, so plain memory, written once when a search thread starts
/// (256 KB: some microseconds); the latest position of a slot replaces the
/// one before (keeping the one of most empties instead took more nodes).
pub struct LocalTable {
    entries: Box<[LocalEntry]>,
}

impl Default for LocalTable {
    fn default() -> LocalTable {
        LocalTable {
            entries: vec![LocalEntry::default(); LOCAL_ENTRIES].into_boxed_slice(),
        }
    }
}

impl LocalTable {
    #[inline(always)]
    fn slot(key: u64) -> usize {
        (key as usize) & (LOCAL_ENTRIES - 1)
    }

    /// The entry for `key`, if it holds one.
    #[inline(always)]
    pub fn probe(&self, key: u64) -> Option<LocalEntry> {
        let e = self.entries[LocalTable::slot(key)];
        // A key of 0 would match an empty entry: it is never stored.
        (e.key == key && key != 0).then_some(e)
    }

    /// Records that a fail-soft search of (`alpha`, `beta`) returned
    /// `score` with `mv` best, keeping what the entry already knew of the
    /// same position.
    #[inline(always)]
    pub fn store(&mut self, key: u64, score: i32, alpha: i32, beta: i32, mv: Option<u8>) {
        if key == 0 {
            return;
        }
        let mv = mv.unwrap_or(NO_MOVE);
        let e = &mut self.entries[LocalTable::slot(key)];
        if e.key != key {
            *e = LocalEntry {
                key,
                lo: -64,
                hi: 64,
                mv,
            };
        }
        e.mv = mv;
        let s = score as i8;
        if score < beta {
            e.hi = e.hi.min(s);
        }
        if score > alpha {
            e.lo = e.lo.max(s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_table_merges_bounds_of_one_position() {
        let mut t = LocalTable::default();
        let key = 0x1234_5678_9ABC;
        assert!(t.probe(key).is_none());
        // A fail low at (2, 3) with 0: the score is at most 0.
        t.store(key, 0, 2, 3, Some(20));
        let e = t.probe(key).unwrap();
        assert_eq!((e.lo, e.hi, e.mv()), (-64, 0, Some(20)));
        // It settles a search whose window lies above 0, and narrows a wider one.
        let (mut a, mut b) = (2, 3);
        assert_eq!(e.cutoff(&mut a, &mut b), Some(0));
        let (mut a, mut b) = (-5, 5);
        assert_eq!(e.cutoff(&mut a, &mut b), None);
        assert_eq!((a, b), (-5, 0));
        // Then a fail high at (-5, -4) with -2: -2 ..= 0.
        t.store(key, -2, -5, -4, Some(21));
        let e = t.probe(key).unwrap();
        assert_eq!((e.lo, e.hi, e.mv()), (-2, 0, Some(21)));
        // An exact result inside the window pins it.
        t.store(key, -1, -2, 0, None);
        let e = t.probe(key).unwrap();
        assert_eq!((e.lo, e.hi, e.mv()), (-1, -1, None));
        let (mut a, mut b) = (-10, 10);
        assert_eq!(e.cutoff(&mut a, &mut b), Some(-1));
        // Another position in the same slot replaces it; key 0 is never stored.
        let other = key + LOCAL_ENTRIES as u64;
        t.store(other, 10, 20, 30, Some(5));
        assert!(t.probe(key).is_none());
        assert_eq!(t.probe(other).map(|e| (e.lo, e.hi)), Some((-64, 10)));
        t.store(0, 1, 0, 2, Some(0));
        assert!(t.probe(0).is_none());
    }
}
