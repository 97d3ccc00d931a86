//! `mollett-server` as a process (a node behind nginx, one that can be
//! killed), started with docs/deploy.md's flags where a test asks.

#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server binary on a free loopback port; killed when dropped.
pub struct Node {
    pub addr: SocketAddr,
    child: Child,
}

impl Node {
    /// The binary with `flags`, its database `db` (a SQLite file or a
    /// PostgreSQL URL), serving `site`.
    pub fn start(db: impl AsRef<OsStr>, site: &Path, flags: &[&str]) -> Node {
        Node::start_bin(&server_bin(), db, site, flags)
    }

    /// [`Node::start`] with the server binary `bin` (the engine crate's
    /// tests, tests/room_play.rs, find it beside `mollett`).
    pub fn start_bin(bin: &Path, db: impl AsRef<OsStr>, site: &Path, flags: &[&str]) -> Node {
        let mut child = Command::new(bin)
            .args(flags)
            .args(["--addr", "127.0.0.1:0", "--db"])
            .arg(db.as_ref())
            .arg("--site")
            .arg(site)
            .env("RUST_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start mollett-server");
        let shown = db.as_ref().to_string_lossy().into_owned();
        let (tx, rx) = std::sync::mpsc::channel();
        let err = child.stderr.take().unwrap();
        // Reads stderr to its end, so the server never blocks on a full
        // pipe; what it says after starting shows in the test's output.
        std::thread::spawn(move || {
            let mut started = false;
            for line in BufReader::new(err).lines().map_while(Result::ok) {
                if started {
                    eprintln!("mollett-server ({shown}): {line}");
                } else {
                    started = line.contains("listening on http://");
                    let _ = tx.send(line);
                }
            }
        });
        let mut node = Node {
            addr: "127.0.0.1:0".parse().unwrap(),
            child,
        };
        node.addr = loop {
            let line = rx
                .recv_timeout(Duration::from_secs(10))
                .expect("mollett-server says where it listens");
            // A server that cannot start says why before it stops.
            eprintln!("{line}");
            if let Some(rest) = line.split("listening on http://").nth(1) {
                break rest.trim_end_matches('/').parse().unwrap();
            }
        };
        node
    }

    /// kill -9: no chance to close anything.
    pub fn kill9(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        self.kill9();
    }
}

/// The server binary: cargo names it to the tests; examples/load.rs, which
/// shares this folder, finds it beside its own `examples/` folder.
fn server_bin() -> PathBuf {
    match option_env!("CARGO_BIN_EXE_mollett-server") {
        Some(bin) => PathBuf::from(bin),
        None => std::env::current_exe()
            .unwrap()
            .parent()
            .and_then(Path::parent)
            .expect("the build's folder")
            .join("mollett-server"),
    }
}

/// The flags of docs/deploy.md's server command (its line starting
/// `target/release/mollett-server`) but for `--addr`, `--db` and `--site`,
/// which name the machine: the recipe's server as the tests start it.
pub fn deploy_flags() -> Vec<String> {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/deploy.md");
    let text = std::fs::read_to_string(&docs).unwrap();
    let line = text
        .lines()
        .find(|l| l.starts_with("target/release/mollett-server "))
        .expect("docs/deploy.md has the server's command, 'target/release/mollett-server ...'");
    let mut words = line.split_whitespace().skip(1);
    let mut flags = Vec::new();
    while let Some(w) = words.next() {
        if ["--addr", "--db", "--site"].contains(&w) {
            words.next();
        } else if w != "\\" {
            flags.push(w.to_string());
        }
    }
    flags
}
