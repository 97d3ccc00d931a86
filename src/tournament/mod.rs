//! Matches and tournaments between engine processes, refereed by the rules core.
//!
//! Layered, each file using only those before it: `types` (clocks, how a
//! game ended), `engine` drives a process over GTP or NBoard, `referee` plays one game,
//! `openings` reads and generates openings, `record` writes and reads result
//! files, `stats` has the Elo, pentanomial and SPRT arithmetic, `report`
//! summarises results, `runner` schedules and plays games; `tune` tunes
//! engine options by SPSA over the runner.

pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod runner;
pub mod stats;
pub mod tune;
pub mod types;

pub use engine::{EngineError, EngineProcess, EngineSpec, TimeFormat};
pub use openings::Opening;
pub use record::GameRecord;
pub use referee::RefereeLimits;
pub use report::Report;
pub use runner::{Config, Format};
pub use types::{Reason, TimeControl};
