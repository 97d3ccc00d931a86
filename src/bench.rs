//! `bench`: fixed positions searched to a fixed depth; the node count is the
//! signature of search behaviour. STUB: to be written by the search work.

/// Runs the bench and returns (nodes, nodes per second).
pub fn run() -> (u64, u64) {
    (0, 0)
}
