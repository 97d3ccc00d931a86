//! The engine: evaluation, search, transposition table and clock handling.
//! It searches a position within limits and reports; it knows nothing of
//! text protocols.

pub mod bench;
pub mod chances;
pub mod data;
pub mod eval;
pub mod review;
pub mod search;
pub mod suite;
pub mod timeman;
pub mod tt;
