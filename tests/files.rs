//! Files that lose nothing: one writer per growing file, torn last lines
//! skipped and replayed, special files refused before they are read, and
//! weight files replaced whole (a full disk leaves the old one).

#[path = "common/parts.rs"]
mod parts;
#[path = "common/tmp.rs"]
mod tmp;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use tmp::TestDir;

fn bin() -> &'static str {
    env!("CARGO_BIN_EXE_mollett")
}

fn mollett(args: &[&str]) -> Output {
    Command::new(bin())
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

/// A fresh, empty folder of this test, removed when it drops.
fn dir(test: &str) -> TestDir {
    TestDir::new(&format!("files-{test}"))
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Exit status 2, one line on stderr containing `what`, within `limit`.
fn assert_refused_within(args: &[&str], what: &str, limit: Duration) -> String {
    let t = Instant::now();
    let out = mollett(args);
    let took = t.elapsed();
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err}");
    // Progress may come first; the error itself is one line.
    let errors = err.lines().filter(|l| l.starts_with("mollett:")).count();
    assert_eq!(errors, 1, "{args:?}: one error line: {err}");
    assert!(!err.contains("For more information"), "{args:?}: {err}");
    assert!(took < limit, "{args:?} took {took:?}");
    err
}

/// Waits until `path` holds at least `lines` whole lines.
fn wait_for_lines(path: &Path, lines: usize, child: &mut Child) {
    let t = Instant::now();
    loop {
        let n = std::fs::read(path)
            .map(|b| b.iter().filter(|&&c| c == b'\n').count())
            .unwrap_or(0);
        if n >= lines {
            return;
        }
        assert!(
            child.try_wait().unwrap().is_none(),
            "the first writer ended early"
        );
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "{path:?}: no progress"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// SIGTERM, as Slurm or a user's kill sends it: a clean stop.
fn terminate(child: &mut Child) {
    // SAFETY: signalling our own child process.
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let _ = child.wait();
}

/// The game indices of a corpus file (its header line skipped).
fn corpus_indices(path: &Path) -> Vec<u64> {
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.ends_with('\n'), "whole lines only");
    text.lines()
        .skip(1)
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect()
}

const SELFPLAY: [&str; 13] = [
    "--variant",
    "classic",
    "selfplay",
    "--games",
    "100000",
    "--depth",
    "1",
    "--exact-empties",
    "4",
    "--threads",
    "1",
    "--eval",
    "handcrafted",
];

#[test]
fn a_second_selfplay_on_the_same_corpus_refuses_and_the_first_loses_nothing() {
    let d = dir("selfplay");
    let corpus = d.join("c.games");
    let mut args = SELFPLAY.to_vec();
    args.extend(["--corpus", s(&corpus)]);
    let mut first = Command::new(bin())
        .args(&args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&corpus, 4, &mut first);
    let before = std::fs::metadata(&corpus).unwrap().len();
    let err = assert_refused_within(&args, "is writing it", Duration::from_secs(5));
    assert!(
        err.contains(&first.id().to_string()),
        "names the writer: {err}"
    );
    assert!(
        std::fs::metadata(&corpus).unwrap().len() >= before,
        "not truncated"
    );
    wait_for_lines(&corpus, 8, &mut first);
    terminate(&mut first);
    let mut games = corpus_indices(&corpus);
    let n = games.len();
    games.sort_unstable();
    games.dedup();
    assert_eq!(games.len(), n, "no game repeated");
    // One thread plays the games in order: none missing below the highest.
    assert_eq!(games, (0..n as u64).collect::<Vec<_>>());
    // Once the first has stopped, the file is free again.
    let mut more = args.clone();
    more[4] = "2";
    let out = mollett(&more);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A match between two depth-1 Mollett engines.
fn match_args<'a>(engines: &'a [String; 2], games: &'a str, out: &'a Path) -> Vec<&'a str> {
    vec![
        "match",
        "--engine",
        &engines[0],
        "--engine",
        &engines[1],
        "--games",
        games,
        "--out",
        s(out),
        "--quiet",
    ]
}

fn engines() -> [String; 2] {
    [
        format!("name=a cmd={} init=set_option depth 1", bin()),
        format!("name=b cmd={} init=set_option depth 2", bin()),
    ]
}

#[test]
fn a_second_match_on_the_same_out_refuses() {
    let d = dir("match");
    let out = d.join("games.txt");
    let e = engines();
    let args = match_args(&e, "2000", &out);
    let mut first = Command::new(bin())
        .args(&args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for_lines(&out, 2, &mut first);
    let mut resume = args.clone();
    resume.push("--resume");
    assert_refused_within(&resume, "is writing it", Duration::from_secs(5));
    assert_refused_within(&args, "is writing it", Duration::from_secs(5));
    terminate(&mut first);
    let text = std::fs::read_to_string(&out).unwrap();
    let mut idx: Vec<&str> = text.lines().map(|l| l.split(' ').next().unwrap()).collect();
    let n = idx.len();
    idx.sort_unstable();
    idx.dedup();
    assert_eq!(idx.len(), n, "one record per game: {text}");
}

#[test]
fn a_torn_result_line_is_reported_and_replayed_by_resume() {
    let d = dir("torn");
    let out = d.join("games.txt");
    let e = engines();
    let args = match_args(&e, "4", &out);
    assert!(mollett(&args).status.success());
    let whole = std::fs::read(&out).unwrap();
    let last_line_start = whole[..whole.len() - 1]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let lost_game = String::from_utf8_lossy(&whole[last_line_start..])
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    // `head -c -4`: the last line cut inside its time field.
    std::fs::write(&out, &whole[..whole.len() - 4]).unwrap();
    let report = mollett(&["report", s(&out)]);
    let err = String::from_utf8_lossy(&report.stderr);
    assert!(report.status.success(), "{err}");
    assert!(
        err.contains("mollett: warning:") && err.contains("no end"),
        "reported: {err}"
    );
    assert!(
        String::from_utf8_lossy(&report.stdout).contains("3 games")
            || String::from_utf8_lossy(&report.stdout).contains("Games: 3"),
        "the torn game is not counted: {}",
        String::from_utf8_lossy(&report.stdout)
    );
    let mut resume = args.clone();
    resume.push("--resume");
    let r = mollett(&resume);
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.ends_with('\n'));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert!(lines.iter().all(|l| l.contains(" time=")), "{text}");
    assert_eq!(
        lines
            .iter()
            .filter(|l| l.split(' ').next() == Some(&lost_game))
            .count(),
        1,
        "the torn game is played again, once: {text}"
    );
}

#[test]
fn special_files_are_refused_at_once() {
    let d = dir("special");
    let fifo = d.join("fifo");
    let c = std::ffi::CString::new(s(&fifo)).unwrap();
    // SAFETY: a valid NUL-terminated path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let second = Duration::from_secs(1);
    assert_refused_within(&["report", "/dev/zero"], "character device", second);
    assert_refused_within(&["solve", s(&fifo)], "FIFO", second);
    assert_refused_within(&["train", s(&d)], "directory", second);
    assert_refused_within(&["evaltest", "/dev/zero"], "character device", second);
    assert_refused_within(
        &["train", s(&fifo), "--out", s(&d.join("w.bin"))],
        "FIFO",
        second,
    );
    let engine = format!("name=a cmd={}", bin());
    assert_refused_within(
        &[
            "match",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--openings",
            s(&fifo),
        ],
        "FIFO",
        second,
    );
}

#[test]
fn outputs_are_checked_before_the_first_game() {
    let d = dir("outputs");
    let e = engines();
    let t = Duration::from_secs(3);
    assert_refused_within(&match_args(&e, "2", &d), "is a directory", t);
    let missing = d.join("no-such-folder").join("games.txt");
    assert_refused_within(&match_args(&e, "2", &missing), "does not exist", t);
    let corpus = d.join("no-such-folder").join("c.games");
    let mut args = SELFPLAY.to_vec();
    args.extend(["--corpus", s(&corpus)]);
    assert_refused_within(&args, "does not exist", t);
    assert_refused_within(
        &["train", "tests/data/ffo/fforum-20-39.obf", "--out", s(&d)],
        "is a directory",
        t,
    );
    assert_refused_within(&["openings", "--out", s(&missing)], "does not exist", t);
}

/// A small tmpfs, unmounted when dropped; what `mount` said where mounting
/// is not allowed (not root, no mount namespace): the test then fails
/// unless `MOLLETT_SKIP` names `tmpfs`.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(at: &Path, size: &str) -> Result<Tmpfs, String> {
        std::fs::create_dir_all(at).map_err(|e| e.to_string())?;
        let out = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs", s(at)])
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("mount: {e}"))?;
        if !out.status.success() {
            return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
        }
        Ok(Tmpfs(at.to_path_buf()))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_during_train_leaves_the_old_weight_file() {
    if parts::skipped("tmpfs") {
        eprintln!("SKIPPED: MOLLETT_SKIP names tmpfs: the full disk is not tried (the replacement itself is unit-tested in src/files/mod.rs)");
        return;
    }
    let d = dir("fulldisk");
    let ffo = "tests/data/ffo/fforum-20-39.obf";
    let train = |out: &Path| {
        mollett(&[
            "train",
            ffo,
            "--stages",
            "1",
            "--epochs",
            "1",
            "--out",
            s(out),
        ])
    };
    // The size of the file this training writes.
    let probe = d.join("probe.bin");
    assert!(train(&probe).status.success());
    let size = std::fs::metadata(&probe).unwrap().len();
    let fs = match Tmpfs::mount(&d.join("small"), &format!("{}k", size * 4 / 1024 + 64)) {
        Ok(fs) => fs,
        Err(why) => {
            parts::missing(
                "tmpfs",
                &format!("cannot mount a small tmpfs here ({why}): mount -t tmpfs needs root (run the tests as root)"),
            );
            return;
        }
    };
    let old = fs.0.join("w.bin");
    let good: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
    std::fs::write(&old, &good).unwrap();
    // Fill the disk.
    let mut filler = std::fs::File::create(fs.0.join("filler")).unwrap();
    while std::io::Write::write_all(&mut filler, &[0u8; 4096]).is_ok() {}
    drop(filler);
    let out = train(&old);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("left as it was"), "{err}");
    assert_eq!(
        std::fs::read(&old).unwrap(),
        good,
        "the old weight file is intact"
    );
    let names: Vec<_> = std::fs::read_dir(&fs.0)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names.len(), 2, "no temporary file left: {names:?}");
    drop(fs);
}

/// Runs `args` in `dir`: refused (status 2, one line naming `what`), and
/// every file of `dir` as it was.
fn refused_in(dir: &Path, args: &[&str], what: &str) {
    let before: Vec<(PathBuf, Vec<u8>)> = files_of(dir);
    let out = Command::new(bin())
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(what), "{args:?}: {err}");
    assert_eq!(err.lines().count(), 1, "{args:?}: one line: {err}");
    assert_eq!(files_of(dir), before, "{args:?}: nothing written");
}

/// The regular files of `dir` (not following links) and their bytes.
fn files_of(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out: Vec<(PathBuf, Vec<u8>)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.symlink_metadata().unwrap().is_file())
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    out.sort();
    out
}

/// Every command that writes a file refuses to write over a file the same
/// run reads, however the two are spelled (`./`, `//`, `..`, a symbolic
/// link, a hard link), before any work (docs/files.md lists them).
#[test]
fn no_command_writes_over_its_own_input() {
    let d = dir("guard");
    std::fs::create_dir(d.join("sub")).unwrap();
    let wtb = PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/corpus/wthor/WTH_2017.wtb"
    ));
    std::fs::copy(&wtb, d.join("v.wtb")).unwrap();
    std::fs::write(d.join("t.txt"), "f5d6c3d3c4\n").unwrap();
    std::fs::write(d.join("o.txt"), "f5d6\n").unwrap();
    std::fs::write(d.join("a.book"), "not read\n").unwrap();
    std::fs::write(d.join("b.book"), "not read\n").unwrap();
    std::os::unix::fs::symlink("t.txt", d.join("link.txt")).unwrap();
    std::fs::hard_link(d.join("o.txt"), d.join("hard.txt")).unwrap();
    let engine = format!("name=a cmd={}", bin());
    let m = |out_flag: &str, out: &'static str| -> Vec<String> {
        [
            "match",
            "--engine",
            &engine,
            "--engine",
            &engine,
            "--openings",
            "o.txt",
            out_flag,
            out,
        ]
        .map(String::from)
        .to_vec()
    };
    let cases: Vec<(Vec<String>, &str)> = vec![
        // analyze: the WTHOR file as GGF, the transcript as --out.
        (
            words("analyze v.wtb --shard 1/9000 --depth 1 --ggf ./v.wtb"),
            "a file to analyse",
        ),
        (
            words("analyze t.txt --out ./t.txt --resume"),
            "a file to analyse",
        ),
        (
            words("analyze t.txt --out sub/../t.txt"),
            "a file to analyse",
        ),
        (words("analyze t.txt --out link.txt"), "a file to analyse"),
        (
            words("analyze t.txt --out o.jsonl --ggf .//o.jsonl"),
            "the --out file",
        ),
        // report --html over a result file.
        (words("report o.txt --html sub/../o.txt"), "a result file"),
        // match: results over the openings, by a hard link; the page too.
        (m("--out", "hard.txt"), "the openings file"),
        (m("--html", "./o.txt"), "the openings file"),
        (
            ["tune", "--engine", &engine, "--param", "depth=2,1,4,1"]
                .into_iter()
                .map(String::from)
                .chain(words("--openings o.txt --out ./o.txt"))
                .collect(),
            "the openings file",
        ),
        (
            words("selfplay --openings o.txt --out .//o.txt"),
            "the openings file",
        ),
        (
            words("selfplay --wthor v.wtb --corpus ./v.wtb"),
            "a WTHOR file",
        ),
        (words("train t.txt --out ./link.txt"), "a file to train on"),
        (words("book import-edax a.book ./a.book"), "the book read"),
        (
            words("book export-edax a.book sub/../a.book"),
            "the book read",
        ),
        (
            words("book merge a.book b.book --out ./b.book"),
            "a book merged",
        ),
        (
            words("book build --wthor v.wtb --out ./v.wtb"),
            "a WTHOR file",
        ),
        (
            words("book build --wthor v.wtb --out x.book --progress ./v.wtb"),
            "a WTHOR file",
        ),
        (words("book learn a.book --out ./a.book"), "the book read"),
        (
            words("book learn a.book --out x.book --progress a.book"),
            "the book read",
        ),
    ];
    for (args, what) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        refused_in(&d, &args, what);
    }
    // Special files are no outputs either.
    refused_in(
        &d,
        &["analyze", "t.txt", "--out", "/dev/null"],
        "character device",
    );
    refused_in(&d, &["openings", "--out", "sub"], "is a directory");
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(String::from).collect()
}
