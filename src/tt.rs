//! Transposition table. STUB: to be written by the search work.
