//! Transposition table: a lockless hash of search results shared by all search threads.
//!
//! Each entry is two atomic words, `key ^ data` and `data` (the XOR trick of
//! Hyatt's lockless hashing): a torn write by a racing thread fails the key
//! check and reads as a miss. Moves read back are still only hints; the
//! search checks them against the legal moves before use.

mod bound;
mod local;
mod table;

pub use bound::{is_solved, Bound, SOLVED_DEPTH};
pub use local::{LocalEntry, LocalTable, LOCAL_ENTRIES};
pub use table::{available_memory, Entry, TranspositionTable};
