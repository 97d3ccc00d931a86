//! Matches and tournaments between engine processes, refereed by the rules core.
//!
//! `engine` drives a process over GTP or NBoard, `referee` plays one game,
//! `openings` reads and generates openings, `record` writes and reads result
//! files, `runner` schedules games and `report` summarises them; `tune`
//! tunes engine options by SPSA over the runner.

pub mod engine;
pub mod openings;
pub mod record;
pub mod referee;
pub mod report;
pub mod runner;
pub mod tune;

pub use engine::{EngineError, EngineProcess, EngineSpec, Proto, TimeFormat};
pub use openings::Opening;
pub use record::GameRecord;
pub use referee::{Limits, Reason, TimeControl};
pub use report::Report;
pub use runner::{Config, Format};
