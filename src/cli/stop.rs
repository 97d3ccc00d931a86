//! The Ctrl-C flag a long run stops at, handed to each run by `main`.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// The function that installs Ctrl-C (and SIGTERM) handling and returns the
/// flag it sets: `main` passes it, and a run calls it only when its work
/// starts, so a command that fails first keeps the default handling.
pub type CtrlC = fn() -> Arc<AtomicBool>;
