#![allow(dead_code)]
//! The real parts some tests need (a program from a Debian package, root
//! for a tmpfs): a test whose part is missing fails, saying what to
//! install, unless the comma-separated `MOLLETT_SKIP` names the part; then
//! it says it is skipped and passes. CI never sets `MOLLETT_SKIP`
//! (`.ci/run` installs the parts). The server's tests have the same rule
//! (`server/tests/common/nginx.rs`); docs/testing.md lists the part names.
//! Self-contained (std only) so that a test file may take it alone with
//! `#[path = "common/parts.rs"]`.

use std::path::Path;

/// True when the comma-separated `MOLLETT_SKIP` names `part`.
pub fn skipped(part: &str) -> bool {
    std::env::var("MOLLETT_SKIP")
        .unwrap_or_default()
        .split(',')
        .any(|s| s.trim() == part)
}

/// For a test that cannot have `part`: a line saying the test is skipped
/// when `MOLLETT_SKIP` names it (the caller then returns); otherwise a
/// failure that says `why` and how to skip.
pub fn missing(part: &str, why: &str) {
    if skipped(part) {
        eprintln!("SKIPPED: MOLLETT_SKIP names {part} ({why})");
        return;
    }
    panic!("{why}; or set MOLLETT_SKIP={part} to skip the tests that need it");
}

/// The program at `path`, Debian's package `package` (the part `part`):
/// None (and a line saying the test is skipped) when `MOLLETT_SKIP` names
/// the part, even where it is installed; the path when it is installed;
/// otherwise a failure naming the package to install.
pub fn program(part: &str, path: &'static str, package: &str) -> Option<&'static str> {
    if skipped(part) {
        eprintln!("SKIPPED: MOLLETT_SKIP names {part}: this test of {path} is not run");
        return None;
    }
    if Path::new(path).exists() {
        return Some(path);
    }
    panic!(
        "no {path} on this machine: install Debian's package {package} (apt-get install {package}), \
         or set MOLLETT_SKIP={part} to skip the tests that need it"
    );
}

/// GRhino's GTP engine, from Debian's package `grhino`.
pub const RHINO: &str = "/usr/games/gtp-rhino";

/// GRhino (part `grhino`) for a test that plays it: see [`program`].
pub fn rhino() -> Option<&'static str> {
    program("grhino", RHINO, "grhino")
}
