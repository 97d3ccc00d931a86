//! The server binary as a process: started on a free loopback port with a
//! store (a SQLite file or a PostgreSQL URL), killed with SIGKILL when asked
//! or dropped; and a game played through two seats' clients.

use super::{game_part, Client};
use serde_json::{json, Value};
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

pub struct Server {
    child: Child,
    pub addr: SocketAddr,
}

impl Server {
    pub fn start(db: impl AsRef<OsStr>, site: &Path) -> Server {
        Server::start_with(db, site, &[])
    }

    /// [`Server::start`] with more of the server's flags.
    pub fn start_with(db: impl AsRef<OsStr>, site: &Path, args: &[&str]) -> Server {
        Server::start_at(db, site, "127.0.0.1:0", args)
    }

    /// [`Server::start_with`] listening on `addr`.
    pub fn start_at(db: impl AsRef<OsStr>, site: &Path, addr: &str, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_mollett-server"))
            .args(["--addr", addr, "--db"])
            .arg(db)
            .arg("--site")
            .arg(site)
            .args(args)
            .env("RUST_LOG", "warn")
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
        let addr = loop {
            let line = lines
                .next()
                .expect("the server says where it listens")
                .unwrap();
            if let Some(rest) = line.strip_prefix("mollett-server: listening on http://") {
                break rest.trim_end_matches('/').parse().unwrap();
            }
            // A server that cannot start says why on its last line.
            eprintln!("server: {line}");
        };
        // Keep draining stderr so the server never blocks on a full pipe,
        // and show what it warns of in the test's output.
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                eprintln!("server {addr}: {line}");
            }
        });
        Server { child, addr }
    }

    /// kill -9: no chance to flush or close anything.
    pub fn kill9(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Plays the first legal square for whichever seat is to move, `n` times;
/// returns the last state seen by both (which must agree).
pub async fn play(black: &mut Client, white: &mut Client, mut state: Value, n: usize) -> Value {
    for _ in 0..n {
        if state["status"] != "playing" {
            break;
        }
        let plies = state["moves"].as_array().unwrap().len();
        let sq = state["legal"][0].as_str().unwrap().to_string();
        let mover = if state["to_move"] == "black" {
            &mut *black
        } else {
            &mut *white
        };
        // Each client may send 20 messages a second (the rate limit).
        tokio::time::sleep(std::time::Duration::from_millis(30)).await;
        mover
            .send(json!({"type": "move", "square": sq, "ply": plies}))
            .await;
        let a = black.state_at_least(plies + 1).await;
        let b = white.state_at_least(plies + 1).await;
        assert_eq!(game_part(a["state"].clone()), game_part(b["state"].clone()));
        state = a["state"].clone();
    }
    state
}
