//! Files that lose nothing: one writer per growing file (an advisory lock
//! held for the whole run), inputs that are regular files, outputs checked
//! before any work, whole lines only, and whole-file replacement by rename.
//! A leaf utility, like `rng`: any layer may use it.

mod guard;
mod lines;
mod replace;
mod writer;

pub use guard::{check_output, folder_of, guard, regular_input, same_file, warn_empty, RunFile};
pub use lines::{
    read_bounded_line, read_lines, too_long, whole_lines_of, BoundedLine, FileLine, LinesRead,
    MAX_RECORD_LINE,
};
pub use replace::{replace, replace_with};
pub use writer::Writer;

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;
    use std::path::{Path, PathBuf};

    /// A fresh folder and its path; the folder goes when the first drops.
    fn dir(name: &str) -> (tempfile::TempDir, PathBuf) {
        let tmp = tempfile::Builder::new()
            .prefix(&format!("mollett-files-{name}-"))
            .tempdir()
            .unwrap();
        let d = tmp.path().to_path_buf();
        (tmp, d)
    }

    #[test]
    fn a_second_writer_is_refused_until_the_first_is_done() {
        let (_tmp, d) = dir("lock");
        let path = d.join("games.txt");
        let mut first = Writer::lock(&path).unwrap();
        first.append("one\n").unwrap();
        let err = Writer::lock(&path).unwrap_err();
        assert!(
            err.contains("is writing it") && err.contains("games.txt"),
            "{err}"
        );
        assert_eq!(
            std::fs::read(&path).unwrap(),
            b"one\n",
            "nothing written by the second"
        );
        drop(first);
        Writer::lock(&path).unwrap().append("two\n").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"one\ntwo\n");
    }

    #[test]
    fn inputs_must_be_regular_files() {
        let (_tmp, d) = dir("input");
        let err = regular_input(&d).unwrap_err();
        assert!(err.contains("is a directory"), "{err}");
        let err = regular_input(Path::new("/dev/zero")).unwrap_err();
        assert!(err.contains("character device"), "{err}");
        let f = d.join("f.txt");
        std::fs::write(&f, "x\n").unwrap();
        regular_input(&f).unwrap();
    }

    #[test]
    fn outputs_are_checked_before_any_work() {
        let (_tmp, d) = dir("output");
        assert!(check_output(&d).unwrap_err().contains("is a directory"));
        let missing = d.join("no-such-folder").join("out.txt");
        assert!(check_output(&missing)
            .unwrap_err()
            .contains("does not exist"));
        check_output(&d.join("new.txt")).unwrap();
        assert!(!d.join("new.txt").exists(), "checking creates nothing");
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "no probe left");
    }

    #[test]
    fn a_failed_replacement_leaves_the_old_file() {
        let (_tmp, d) = dir("replace");
        let path = d.join("w.bin");
        std::fs::write(&path, b"old and good").unwrap();
        let err = replace_with(&path, |f| {
            f.write_all(b"half")?;
            Err(std::io::Error::other("no space left on device"))
        })
        .unwrap_err();
        assert!(err.contains("left as it was"), "{err}");
        assert_eq!(std::fs::read(&path).unwrap(), b"old and good");
        assert_eq!(
            std::fs::read_dir(&d).unwrap().count(),
            1,
            "no temporary file left"
        );
        replace(&path, b"new").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"new");
    }
}
