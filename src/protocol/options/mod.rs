//! The option table: one list drives `set_option`, `get_option`, `options`,
//! NBoard's `set`, the command line's `--option` and the search settings.
//! Each row is a typed field of [`Options`]; a default is written once,
//! taken from the search's own constants where it has one.

mod table;
mod values;

pub use table::{Options, OPTIONS};
pub use values::{Kind, OptionSpec};
