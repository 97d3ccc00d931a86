//! The match client: the runner's side of an engine process, spoken over
//! GTP or NBoard, every call bounded in time.
//!
//! `spec` parses `--engine`, `process` starts the program and carries its
//! lines, `gtp` and `nboard` are the two dialects. Named `client`, not
//! `engine`: the engine is the `crate::engine` layer that Mollett searches
//! with; this is how the runner talks to any engine's process.

mod gtp;
mod nboard;
mod process;
mod spec;

pub use gtp::GtpAnswer;
pub use process::{parse_reply, EngineError, EngineProcess, Reply, MAX_ENGINE_LINE};
pub use spec::{EngineSpec, TimeFormat};
