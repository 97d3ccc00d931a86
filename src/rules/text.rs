//! Reading the project's text files (OBF, openings, positions, results,
//! corpus): one place that names the file in errors and drops the UTF-8
//! byte-order mark some editors (Windows') put at the start.

use std::path::Path;

/// `bytes` without a leading UTF-8 byte-order mark.
pub fn strip_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes)
}

/// A file's bytes (byte-order mark included), errors naming the file. Only
/// a regular file is read: a FIFO or a device would never end.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, String> {
    crate::files::regular_input(path)?;
    std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// A UTF-8 text file without its byte-order mark, errors naming the file.
pub fn read_text(path: &Path) -> Result<String, String> {
    crate::files::regular_input(path)?;
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}
