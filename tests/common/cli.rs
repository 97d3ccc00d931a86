//! The `mollett` binary run as a command, for the command-line tests.

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `mollett` with `args` and no input.
pub fn mollett(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

/// The standard output of a run that must have succeeded.
pub fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// A path `name` in a fresh temporary folder of its own (`suite` and
/// `test` name it), removed with what was written there when it drops.
pub fn temp(suite: &str, test: &str, name: &str) -> super::TestPath {
    super::TestPath::new(&format!("{suite}-{test}"), name)
}
