//! Helpers shared by the integration tests: the protocol in-process, and
//! engine processes driven over GTP by the library's match runner.
#![allow(dead_code, unused_imports)]

pub mod cli;
pub mod gtp;
pub mod inproc;
pub mod tmp;

pub use gtp::*;
pub use inproc::*;
pub use tmp::{TestDir, TestPath};
