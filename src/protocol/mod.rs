//! The text protocol. STUB: to be written by the protocol work.

use crate::color::Variant;
use std::io::{BufRead, Write};

/// Runs the protocol loop until `quit` or end of input.
pub fn run<R: BufRead + Send + 'static, W: Write>(
    input: R,
    output: W,
    variant: Variant,
) -> std::io::Result<()> {
    let _ = (input, output, variant);
    Ok(())
}
