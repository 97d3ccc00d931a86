//! Matches and tournaments between engine processes, refereed by the rules core.
//!
//! Layered, each file using only those listed before it: `types` (clocks,
//! how a game ended) and `stats` (Elo, SPRT); `client` drives an engine
//! process over GTP or NBoard; `openings` reads and generates openings;
//! `referee` plays one game; `results` writes and reads result files and
//! `results_ggf` their GGF twin; `matchup` and `report` summarise games,
//! `report_series` gathers a page's data, `report_plots` draws it and
//! `report_html` writes the page;
//! `schedule` lists a run's games, `config` holds its settings, `game_loop`
//! is each thread's loop of games off the queue and `runner` runs them all; `tune` tunes engine
//! options by SPSA over the runner. Children import each other, never this
//! file, which only declares and re-exports.

pub mod client;
pub mod config;
mod game_loop;
pub mod matchup;
pub mod openings;
pub mod referee;
pub mod report;
pub mod report_html;
mod report_plots;
pub mod report_series;
pub mod results;
pub mod results_ggf;
pub mod runner;
pub mod schedule;
pub mod stats;
pub mod tune;
pub mod types;

pub use client::{EngineError, EngineProcess, EngineSpec, TimeFormat};
pub use config::Config;
pub use openings::Opening;
pub use referee::RefereeLimits;
pub use report::Report;
pub use results::GameRecord;
pub use schedule::Format;
pub use types::{Reason, TimeControl};
