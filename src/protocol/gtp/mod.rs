//! The GTP dialect: GTP version 2 framing with Othello commands (see
//! `protocol.md`). `command` holds the typed commands, `args` their argument
//! parsers, `table` the one table that names them, `parse` turns raw lines
//! into requests and `response` frames answers; `exec` executes commands
//! on the `Session`, `searches` those that start a search.

pub mod args;
pub mod command;
mod exec;
pub mod parse;
mod pending;
pub mod response;
mod searches;
pub mod table;
mod text;

pub use exec::Gtp;
