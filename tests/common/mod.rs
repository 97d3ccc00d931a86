//! Helpers shared by the integration tests: the protocol in-process, and
//! engine processes driven over GTP by the library's match runner, and
//! the setup of a match run.
#![allow(dead_code, unused_imports)]

pub mod cli;
pub mod gtp;
pub mod inproc;
pub mod parts;
pub mod setup;
pub mod tmp;

pub use gtp::*;
pub use inproc::*;
pub use setup::{path_str, MatchSetup, Spec};
pub use tmp::{TestDir, TestPath};
