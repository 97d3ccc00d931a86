//! The repository's data as `corpus/README.md` promises it: every file the
//! manifest lists is there with its hash, every chunk is listed, the
//! embedded weights and books are named by their hash, and (from the
//! checkout's history) no data file was ever rewritten.

#[path = "common/parts.rs"]
mod parts;
#[path = "common/tmp.rs"]
mod tmp;
use std::path::Path;
use std::process::{Command, Stdio};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn mollett(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args(args)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

/// The manifest's rows as (kind, file, sha256) from the file itself.
fn manifest_rows() -> Vec<(String, String, String)> {
    std::fs::read_to_string(Path::new(ROOT).join("corpus/manifest.tsv"))
        .unwrap()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn every_listed_file_is_there_as_listed_and_every_chunk_is_listed() {
    let o = mollett(&["corpus", "check", "--replay"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    // 710,948 games were sealed by the conversion; seals only add.
    let games: u64 = out
        .split(" games")
        .next()
        .and_then(|s| s.rsplit(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no game count in {out:?}"));
    assert!(games >= 710_948, "{out}");
}

#[test]
fn embedded_weights_and_books_are_named_by_their_hash_and_listed() {
    let rows = manifest_rows();
    let mut embedded = 0;
    for (kind, file, sha) in &rows {
        if kind != "weights" && kind != "book" {
            continue;
        }
        embedded += 1;
        let name = Path::new(file).file_stem().unwrap().to_str().unwrap();
        assert!(
            name.ends_with(&format!("-{}", &sha[..12])),
            "{file}: a shipped weight set or book is named NAME-H, H its hash's first 12 hex digits ({})",
            &sha[..12]
        );
    }
    assert_eq!(embedded, 4, "two weight sets and two books ship");
    // What the binary embeds is what the manifest lists.
    for source in [
        "src/engine/eval/pattern/weights.rs",
        "src/protocol/book/mod.rs",
    ] {
        let text = std::fs::read_to_string(Path::new(ROOT).join(source)).unwrap();
        for inc in text.split("include_bytes!(\"").skip(1) {
            let name = inc.split('"').next().unwrap();
            let name = Path::new(name).file_name().unwrap().to_str().unwrap();
            assert!(
                rows.iter()
                    .any(|(_, f, _)| f.ends_with(&format!("/{name}"))),
                "{source} embeds {name}, which corpus/manifest.tsv does not list"
            );
        }
    }
}

#[test]
fn a_sealed_chunk_is_never_a_selfplay_output() {
    let d = tmp::TestDir::new("data-chunk-output");
    let chunk = d.path().join("x-000.games.zst");
    let o = mollett(&[
        "selfplay",
        "--games",
        "1",
        "--depth",
        "1",
        "--corpus",
        chunk.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("sealed chunk"), "{err}");
    assert!(!chunk.exists(), "nothing was written");
}

/// `git` in the repository, or None where there is no history to read.
fn git(args: &[&str]) -> Option<String> {
    let o = Command::new("git")
        .args(args)
        .current_dir(ROOT)
        .stderr(Stdio::null())
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

#[test]
fn no_data_file_was_rewritten_after_it_was_added() {
    if parts::skipped("git") {
        eprintln!("SKIPPED: MOLLETT_SKIP names git: the data's history is not checked");
        return;
    }
    if git(&["rev-parse", "--git-dir"]).is_none() {
        parts::missing(
            "git",
            "no git history to check: run the tests in a git clone, with Debian's package git installed (apt-get install git)",
        );
        return;
    }
    let files: Vec<String> = manifest_rows()
        .into_iter()
        .map(|(_, f, _)| {
            let p = Path::new("corpus").join(&f);
            // `../src/...` rows: the path from the root.
            let mut parts = Vec::new();
            for c in p.components() {
                match c {
                    std::path::Component::ParentDir => {
                        parts.pop();
                    }
                    c => parts.push(c.as_os_str().to_string_lossy().into_owned()),
                }
            }
            parts.join("/")
        })
        .collect();
    let mut args = vec!["log", "--diff-filter=M", "--format=%h %s", "--"];
    args.extend(files.iter().map(String::as_str));
    let modified = git(&args).unwrap();
    assert!(
        modified.trim().is_empty(),
        "data files are added, never rewritten; these commits modify one:\n{modified}"
    );
    // The manifest only grows: no commit removes or changes a row.
    let log = git(&["log", "-p", "--format=", "--", "corpus/manifest.tsv"]).unwrap();
    let removed: Vec<&str> = log
        .lines()
        .filter(|l| l.starts_with('-') && !l.starts_with("---"))
        .collect();
    assert!(
        removed.is_empty(),
        "manifest rows removed or changed: {removed:?}"
    );
    // Open corpus files (the runs' journals) are not committed.
    let tracked = git(&["ls-files", ":(glob)corpus/*.games", "corpus/open"]).unwrap();
    assert!(
        tracked.trim().is_empty(),
        "open corpus files in git: {tracked}"
    );
}

#[test]
fn a_seal_never_writes_its_manifest_over_an_open_file() {
    let d = tmp::TestDir::new("data-seal-guard");
    let open = d.path().join("s.games");
    std::fs::write(&open, "# mollett-corpus 1 variant=modern exact=20 seed=1\n").unwrap();
    let before = std::fs::read(&open).unwrap();
    let dotted = d.path().join(".").join("s.games");
    let o = mollett(&[
        "corpus",
        "seal",
        open.to_str().unwrap(),
        "--commit",
        "abc1234",
        "--manifest",
        dotted.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains("--manifest") && err.contains("open corpus file"),
        "{err}"
    );
    assert_eq!(std::fs::read(&open).unwrap(), before, "nothing was written");
}
