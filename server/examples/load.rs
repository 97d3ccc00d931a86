//! Load benchmark (not a test; BENCHMARKS.md, row "rooms"): starts the
//! server binary on loopback with a fresh database, opens ROOMS rooms at
//! once with two WebSocket clients each, and plays whole random legal games
//! (each client picks a random square of `legal`). Reports moves a second,
//! the latency from one seat's move to the other seat receiving the state
//! (median, p99), the server's peak RSS and the database size. Then, with
//! `--kill`, a second run whose server is killed with kill -9 mid-load and
//! started again: games and moves the clients were told of but the
//! restarted server lacks are counted.
//!
//!     cargo build --release -p mollett-server
//!     cargo run --release -p mollett-server --example load -- [--rooms 1000] [--think MS] [--kill]
//!
//! Without `--think` every client moves the moment it may, so the server is
//! saturated and the latency is mostly queueing (1,000 rooms / moves a
//! second); `--think 1000` plays like quick humans (0-2 s a move).
//!
//! Every wait is bounded (`common::WAIT` a frame, `LIMIT` a run).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{create, get_state, scratch, Client};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most a run may take before it is called off.
const LIMIT: Duration = Duration::from_secs(300);

struct Server {
    child: Child,
    addr: SocketAddr,
}

fn start(bin: &Path, db: &Path, site: &Path) -> Server {
    let mut child = Command::new(bin)
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(db)
        .arg("--site")
        .arg(site)
        .env("RUST_LOG", "warn")
        .stderr(Stdio::piped())
        .spawn()
        .expect("the server binary (cargo build --release -p mollett-server)");
    let mut lines = BufReader::new(child.stderr.take().unwrap()).lines();
    let addr = loop {
        let line = lines.next().expect("the server's address").unwrap();
        if let Some(rest) = line.strip_prefix("mollett-server: listening on http://") {
            break rest.trim_end_matches('/').parse().unwrap();
        }
    };
    std::thread::spawn(move || {
        for line in lines.map_while(Result::ok) {
            eprintln!("server: {line}");
        }
    });
    Server { child, addr }
}

/// Peak resident memory of a process, from /proc (kB).
fn vm_hwm(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

/// What the clients of one room saw.
#[derive(Default)]
struct Seen {
    /// When the last move was sent, and by whom (for the other seat's latency).
    sent: Option<(Instant, &'static str)>,
    /// The longest `moves` list the server told either seat (acknowledged).
    acked: Vec<Value>,
    over: bool,
}

#[derive(Default)]
struct Totals {
    latencies_us: Vec<u64>,
    moves: u64,
}

/// One seat's client: plays a random legal square whenever it is to move.
async fn seat(
    mut c: Client,
    me: &'static str,
    first: Value,
    seen: Arc<Mutex<Seen>>,
    totals: Arc<Mutex<Totals>>,
    seed: u64,
    think_ms: u64,
) {
    let mut rng = seed | 1;
    let mut state = first;
    let mut plies = 0;
    let mut moved_at: Option<usize> = None;
    loop {
        let n = state["moves"].as_array().map_or(0, Vec::len);
        if n > plies {
            plies = n;
            let mut s = seen.lock().unwrap();
            if n > s.acked.len() {
                s.acked = state["moves"].as_array().unwrap().clone();
            }
            // The other seat's move reached this seat: its latency.
            if let Some((t, by)) = s.sent {
                if by != me {
                    s.sent = None;
                    totals
                        .lock()
                        .unwrap()
                        .latencies_us
                        .push(t.elapsed().as_micros() as u64);
                }
            }
        }
        if state["status"] == "over" {
            seen.lock().unwrap().over = true;
            return;
        }
        // Frames queued before this seat's last move are old news.
        if state["status"] == "playing" && state["to_move"] == me && moved_at.is_none_or(|m| n > m)
        {
            moved_at = Some(n);
            if think_ms > 0 {
                rng ^= rng << 13;
                rng ^= rng >> 7;
                rng ^= rng << 17;
                tokio::time::sleep(Duration::from_millis(rng % (2 * think_ms))).await;
            }
            let legal = state["legal"].as_array().unwrap();
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            let sq = legal[(rng % legal.len() as u64) as usize].clone();
            seen.lock().unwrap().sent = Some((Instant::now(), me));
            totals.lock().unwrap().moves += 1;
            c.send(json!({"type": "move", "square": sq, "ply": n}))
                .await;
        }
        // Wait for a state with more plies (or a change of status).
        loop {
            match c.next_within(Duration::from_secs(30)).await {
                Some(v) if v["type"] == "state" => {
                    state = v["state"].clone();
                    break;
                }
                Some(v) if v["type"] == "error" => panic!("{me}: {v}"),
                Some(_) => continue,
                None => return, // the server went away (the kill run)
            }
        }
    }
}

struct Run {
    rooms: Vec<(String, Arc<Mutex<Seen>>)>,
    totals: Arc<Mutex<Totals>>,
    play_time: Duration,
}

/// Opens `rooms` rooms with both seats connected, then plays them all at
/// once; with `kill_after`, kills the server (kill -9) that long into play.
async fn run(
    server: &mut Server,
    rooms: usize,
    think_ms: u64,
    kill_after: Option<Duration>,
) -> Run {
    let addr = server.addr;
    let totals = Arc::new(Mutex::new(Totals::default()));
    let mut clients = Vec::new();
    for i in 0..rooms {
        let variant = if i % 2 == 0 { "modern" } else { "classic" };
        let (room, _, token) = create(addr, variant, "black", Value::Null).await;
        let (b, _) = Client::join(addr, &room, Some(&token)).await;
        let (w, welcome) = Client::join(addr, &room, None).await;
        clients.push((room, b, w, welcome["state"].clone()));
    }
    eprintln!("{rooms} rooms open, {} connections; playing", 2 * rooms);
    let started = Instant::now();
    let mut tasks = Vec::new();
    let mut out = Vec::new();
    for (i, (room, b, w, first)) in clients.into_iter().enumerate() {
        let seen = Arc::new(Mutex::new(Seen::default()));
        let seed = (i as u64 + 1) * 0x9E37_79B9_7F4A_7C15;
        tasks.push(tokio::spawn(seat(
            b,
            "black",
            first.clone(),
            seen.clone(),
            totals.clone(),
            seed,
            think_ms,
        )));
        tasks.push(tokio::spawn(seat(
            w,
            "white",
            first,
            seen.clone(),
            totals.clone(),
            seed ^ 0xFF,
            think_ms,
        )));
        out.push((room, seen));
    }
    let all = futures_util::future::join_all(tasks);
    match kill_after {
        Some(after) => {
            tokio::time::sleep(after).await;
            server.child.kill().unwrap(); // SIGKILL
            server.child.wait().unwrap();
            eprintln!("server killed with kill -9 after {after:?}");
            let _ = tokio::time::timeout(LIMIT, all).await;
        }
        None => {
            tokio::time::timeout(LIMIT, all)
                .await
                .expect("the games end in time");
        }
    }
    Run {
        rooms: out,
        totals,
        play_time: started.elapsed(),
    }
}

fn size(path: &Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

fn arg(name: &str) -> Option<String> {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

#[tokio::main]
async fn main() {
    let rooms: usize = arg("--rooms").map_or(1000, |r| r.parse().expect("--rooms N"));
    let bin = PathBuf::from(arg("--server").unwrap_or("target/release/mollett-server".into()));
    let kill = std::env::args().any(|a| a == "--kill");
    // Each seat waits a random 0..2*think ms before moving (0: as fast as the server answers).
    let think_ms: u64 = arg("--think").map_or(0, |t| t.parse().expect("--think MS"));
    let (_dir, site, db) = scratch();

    let mut server = start(&bin, &db, &site);
    let r = run(&mut server, rooms, think_ms, None).await;
    let hwm = vm_hwm(server.child.id());
    let (moves, mut lat) = {
        let t = r.totals.lock().unwrap();
        (t.moves, t.latencies_us.clone())
    };
    lat.sort_unstable();
    let pct = |p: f64| {
        lat.get(((lat.len() as f64 - 1.0) * p) as usize)
            .copied()
            .unwrap_or(0) as f64
            / 1000.0
    };
    let finished = r
        .rooms
        .iter()
        .filter(|(_, s)| s.lock().unwrap().over)
        .count();
    let _ = Command::new("kill")
        .args(["-INT", &server.child.id().to_string()])
        .status();
    let _ = server.child.wait();
    // The games' size: the database file with its write-ahead log copied in.
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
        .unwrap();
    drop(conn);
    let db_bytes = size(&db) + size(&db.with_extension("db-wal"));
    println!("think {think_ms} ms: rooms {rooms}, games finished {finished}, moves {}, play time {:.1} s", moves, r.play_time.as_secs_f64());
    println!(
        "moves per second: {:.0}",
        moves as f64 / r.play_time.as_secs_f64()
    );
    println!(
        "move to other seat: median {:.2} ms, p99 {:.2} ms ({} samples)",
        pct(0.5),
        pct(0.99),
        lat.len()
    );
    println!("server peak RSS (VmHWM): {:.1} MiB", hwm as f64 / 1024.0);
    println!(
        "database: {:.2} MB for {finished} games ({:.2} MB per 1,000)",
        db_bytes as f64 / 1e6,
        db_bytes as f64 / 1e6 * 1000.0 / finished.max(1) as f64
    );
    if !kill {
        return;
    }

    // The kill run: a fresh database, killed at about half the first run's play time.
    let (_dir2, site2, db2) = scratch();
    let mut server = start(&bin, &db2, &site2);
    let r = run(&mut server, rooms, think_ms, Some(r.play_time / 2)).await;
    let server = start(&bin, &db2, &site2);
    let (mut games_lost, mut moves_lost, mut acked_total) = (0, 0, 0);
    let mut stored: HashMap<String, usize> = HashMap::new();
    for (room, seen) in &r.rooms {
        let acked = seen.lock().unwrap().acked.clone();
        acked_total += acked.len();
        let (status, _, _) =
            common::http(server.addr, "GET", &format!("/api/rooms/{room}"), "").await;
        if status != 200 {
            games_lost += 1;
            moves_lost += acked.len();
            continue;
        }
        let state = get_state(server.addr, room).await;
        let have = state["moves"].as_array().unwrap();
        // Acknowledged plies must be there, in order, as a prefix of what is stored.
        let kept = acked.iter().zip(have).take_while(|(a, b)| a == b).count();
        moves_lost += acked.len() - kept;
        stored.insert(room.clone(), have.len());
    }
    let extra: usize = r
        .rooms
        .iter()
        .map(|(room, s)| {
            stored
                .get(room)
                .copied()
                .unwrap_or(0)
                .saturating_sub(s.lock().unwrap().acked.len())
        })
        .sum();
    println!(
        "kill -9 mid-load: {} rooms, {acked_total} plies acknowledged; lost {games_lost} games, {moves_lost} plies; \
         {extra} plies stored but not yet acknowledged",
        r.rooms.len()
    );
    drop(server);
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
