#![allow(dead_code)]
//! Temporary folders of the tests, removed when the test ends, pass or fail
//! (a failed assertion unwinds and drops them too): a run of the suite
//! leaves nothing behind in the temporary directory.

use std::ops::Deref;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, Weak};
use tempfile::TempDir;

/// A fresh, empty folder named `mollett-<name>-…`, removed on drop. It reads
/// as a `Path` (`dir.join(..)`, `&dir` where a `&Path` is wanted).
pub struct TestDir(TempDir);

impl TestDir {
    pub fn new(name: &str) -> TestDir {
        let dir = tempfile::Builder::new()
            .prefix(&format!("mollett-{name}-"))
            .tempdir()
            .expect("make a temporary folder");
        TestDir(dir)
    }

    pub fn path(&self) -> &Path {
        self.0.path()
    }
}

impl Deref for TestDir {
    type Target = Path;
    fn deref(&self) -> &Path {
        self.0.path()
    }
}

impl AsRef<Path> for TestDir {
    fn as_ref(&self) -> &Path {
        self.0.path()
    }
}

/// A path `name` in the folder of `folder`: paths asked for with the same
/// `folder` while one of them is alive share it (a file and the progress
/// file beside it), and the folder goes, with what was written there, when
/// the last of them drops. It reads as a `Path`.
pub struct TestPath {
    _dir: Arc<TestDir>,
    path: PathBuf,
}

impl TestPath {
    pub fn new(folder: &str, name: &str) -> TestPath {
        static LIVE: Mutex<Vec<(String, Weak<TestDir>)>> = Mutex::new(Vec::new());
        let mut live = LIVE.lock().unwrap_or_else(|e| e.into_inner());
        live.retain(|(_, dir)| dir.strong_count() > 0);
        let dir = match live
            .iter()
            .find_map(|(f, d)| (f == folder).then(|| d.upgrade()).flatten())
        {
            Some(dir) => dir,
            None => {
                let dir = Arc::new(TestDir::new(folder));
                live.push((folder.to_string(), Arc::downgrade(&dir)));
                dir
            }
        };
        let path = dir.join(name);
        TestPath { _dir: dir, path }
    }
}

impl Deref for TestPath {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.path
    }
}

impl AsRef<Path> for TestPath {
    fn as_ref(&self) -> &Path {
        &self.path
    }
}
