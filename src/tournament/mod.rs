//! Matches and tournaments between engine processes, refereed by the rules core.
//!
//! Layered, each file using only those before it: `types` (clocks, how a
//! game ended), `client` drives an engine process over GTP or NBoard, `referee` plays one game,
//! `openings` reads and generates openings, `record` writes and reads result
//! files, `runner` schedules games and `report` summarises them; `tune`
//! tunes engine options by SPSA over the runner.

pub mod client;
pub mod config;
pub mod matchup;
pub mod openings;
pub mod record;
mod record_ggf;
pub mod referee;
pub mod report;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tune;
pub mod types;
mod worker;

pub use client::{EngineError, EngineProcess, EngineSpec, TimeFormat};
pub use config::Config;
pub use openings::Opening;
pub use record::GameRecord;
pub use referee::RefereeLimits;
pub use report::Report;
pub use schedule::Format;
pub use types::{Reason, TimeControl};
