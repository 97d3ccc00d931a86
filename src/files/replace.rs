//! Whole-file replacement by rename: all or nothing.

use std::fs::File;
use std::io::Write;
use std::path::Path;

use super::guard::{check_output, temp_name};

/// Replaces the file at `path` with what `write` writes, all or nothing:
/// the bytes go to a temporary file in the same folder, are synced, and the
/// temporary file is renamed over `path`. A failure (a full disk, a crash)
/// leaves the old file as it was and removes the temporary one.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> std::io::Result<()>,
) -> Result<(), String> {
    check_output(path)?;
    let tmp = temp_name(path, "tmp");
    // The replacement keeps the old file's mode (a file kept private
    // stays so), not the mode a new file gets.
    let mode = std::fs::metadata(path).ok().map(|m| m.permissions());
    let result = File::create(&tmp)
        .and_then(|mut f| {
            write(&mut f)?;
            f.flush()?;
            if let Some(mode) = mode {
                f.set_permissions(mode)?;
            }
            f.sync_all()
        })
        .and_then(|()| std::fs::rename(&tmp, path));
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("{}: {e} (the file was left as it was)", path.display())
    })
}

/// [`replace_with`] for bytes at hand.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    replace_with(path, |f| f.write_all(bytes))
}
