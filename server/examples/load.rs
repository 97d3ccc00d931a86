//! Load and attack benchmark (not a test; docs/rooms.md "Speed and size"
//! and "Limits"): starts the server binary on loopback with a fresh
//! database, opens ROOMS rooms at once with two WebSocket clients each
//! (each room's two players from an address group of their own in 127.0.0.0/8,
//! as people are), optionally SPECTATORS more watching room 0, and plays
//! whole random legal games (each client picks a random square of
//! `legal`). Reports moves a second, the latency from one seat's move to
//! the other seat receiving the state (median, p99; room 0's players
//! apart), the server's peak RSS and the database size. With `--kill`, a
//! second run whose server is killed with kill -9 mid-load and started
//! again: games and moves the clients were told of but the restarted
//! server lacks are counted. With `--attack N`, a run whose server is held
//! to 1,024 open files while N idle sockets from 127.0.0.1 (half WebSocket
//! upgrades that never say hello, half HTTP requests never finished,
//! reopened as they are closed) try to take it, and a player pair from
//! another address makes a room and plays a game.
//!
//! With `--postgres`, the rooms are kept in a PostgreSQL cluster the run
//! starts (Debian's `postgresql`, tests/common/postgres.rs, with its
//! defaults but `synchronous_commit=off`: a commit is safe from the node
//! being killed, as SQLite's WAL at `synchronous=NORMAL` is), and
//! `--nodes 2` starts two servers on it: room `i` is made on node `i % 2`,
//! its black seat joins there and its white seat on the same node, or on
//! the other one with `--across` (every move then crosses PostgreSQL's
//! NOTIFY); room 0's spectators are spread over both.
//!
//!     cargo build --release -p mollett-server --example load
//!     target/release/examples/load [--rooms 1000] [--think MS] [--spectators 300] [--kill] [--attack 1200]
//!     target/release/examples/load --postgres [--nodes 2 [--across]] [--rooms 1000] [--spectators 300]
//!
//! Without `--think` every client moves the moment it may, so the server is
//! saturated and the latency is mostly queueing (1,000 rooms / moves a
//! second); `--think 1000` plays like quick humans (0-2 s a move).
//!
//! Every wait is bounded (`common::WAIT` a frame, `LIMIT` a run).

#[path = "../tests/common/mod.rs"]
mod common;

use common::{get_state, http_from, scratch, Client};
use serde_json::{json, Value};
use std::collections::HashMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most a run may take before it is called off.
const LIMIT: Duration = Duration::from_secs(300);

struct Server {
    child: Child,
    addr: SocketAddr,
}

fn start(bin: &Path, db: impl AsRef<OsStr>, site: &Path) -> Server {
    start_with(bin, db, site, None, &[])
}

/// The server, with its open-file limit held to `files` (soft and hard,
/// as a default system would) and `extra` flags.
fn start_with(
    bin: &Path,
    db: impl AsRef<OsStr>,
    site: &Path,
    files: Option<u32>,
    extra: &[&str],
) -> Server {
    let mut cmd = match files {
        Some(n) => {
            let mut c = Command::new("sh");
            c.args(["-c", &format!("ulimit -n {n} && exec \"$0\" \"$@\"")])
                .arg(bin);
            c
        }
        None => Command::new(bin),
    };
    let mut child = cmd
        .args(["--addr", "127.0.0.1:0", "--db"])
        .arg(db.as_ref())
        .arg("--site")
        .arg(site)
        .args(extra)
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
    /// Room 0's (the one with the spectators).
    watched_us: Vec<u64>,
    moves: u64,
    /// Moves sent again after a `rate-limited` answer.
    resent: u64,
}

/// Room `i`'s players' address, in a /24 of its own: two connections and
/// one room an address group, so the per-address limits see people, not
/// one benchmark.
fn player_address(i: usize) -> String {
    format!("127.{}.{}.1", 1 + i / 250, i % 250)
}

/// The `pct` percentile of `v` (sorted here) in milliseconds.
fn percentile(v: &mut [u64], pct: f64) -> f64 {
    v.sort_unstable();
    v.get(((v.len() as f64 - 1.0) * pct) as usize)
        .copied()
        .unwrap_or(0) as f64
        / 1000.0
}

/// `POST /api/rooms` from `from`: the room and the creator's token.
async fn make_room(addr: SocketAddr, from: &str, variant: &str) -> (String, String) {
    let body = json!({"variant": variant, "color": "black"}).to_string();
    let json = "Content-Type: application/json\r\n";
    let (status, _, answer) = http_from(addr, from, "POST", "/api/rooms", json, &body).await;
    assert_eq!(status, 201, "{answer}");
    let v: Value = serde_json::from_str(&answer).unwrap();
    (
        v["room"].as_str().unwrap().into(),
        v["token"].as_str().unwrap().into(),
    )
}

/// Joins from `from` with `token`: the client and its welcome.
async fn join_from(
    addr: SocketAddr,
    room: &str,
    from: &str,
    token: Option<&str>,
) -> (Client, Value) {
    let mut c = Client::connect_from(addr, room, from).await;
    c.send(json!({"type": "hello", "token": token})).await;
    let w = c.recv_type("welcome").await;
    (c, w)
}

/// One seat's client: plays a random legal square whenever it is to move.
#[allow(clippy::too_many_arguments)] // a benchmark's task: its settings spelled out
async fn seat(
    mut c: Client,
    me: &'static str,
    first: Value,
    seen: Arc<Mutex<Seen>>,
    totals: Arc<Mutex<Totals>>,
    seed: u64,
    think_ms: u64,
    watched: bool,
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
                    let us = t.elapsed().as_micros() as u64;
                    let mut totals = totals.lock().unwrap();
                    totals.latencies_us.push(us);
                    if watched {
                        totals.watched_us.push(us);
                    }
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
                // Quicker than a client may send (20 a second): again, shortly.
                Some(v) if v["code"] == "rate-limited" => {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    moved_at = None;
                    totals.lock().unwrap().resent += 1;
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
/// once; with `kill_after`, kills the first server (kill -9) that long into
/// play. Room `i` is made on node `i % nodes`, its white seat on the next
/// node when `across`.
async fn run(
    servers: &mut [Server],
    rooms: usize,
    think_ms: u64,
    spectators: usize,
    across: bool,
    kill_after: Option<Duration>,
) -> Run {
    let nodes: Vec<SocketAddr> = servers.iter().map(|s| s.addr).collect();
    let totals = Arc::new(Mutex::new(Totals::default()));
    let mut clients = Vec::new();
    for i in 0..rooms {
        let variant = if i % 2 == 0 { "modern" } else { "classic" };
        let from = player_address(i);
        let addr = nodes[i % nodes.len()];
        let (room, token) = make_room(addr, &from, variant).await;
        let (b, _) = join_from(addr, &room, &from, Some(&token)).await;
        let white_at = nodes[(i + usize::from(across)) % nodes.len()];
        let (w, welcome) = join_from(white_at, &room, &from, None).await;
        clients.push((room, b, w, welcome["state"].clone()));
    }
    // Room 0's watchers, ten an address group (a /24); each reads every frame until the
    // game ends (a watcher that stopped reading would be cut off).
    let mut watchers = Vec::new();
    if let Some((room0, ..)) = clients.first() {
        for j in 0..spectators {
            let from = format!("127.{}.{}.1", 200 + j / 2500, j / 10 % 250);
            let (mut c, _) = join_from(nodes[j % nodes.len()], room0, &from, None).await;
            watchers.push(tokio::spawn(async move {
                let mut frames = 0u64;
                while let Some(v) = c.next_within(Duration::from_secs(60)).await {
                    frames += 1;
                    if v["type"] == "state" && v["state"]["status"] == "over" {
                        break;
                    }
                }
                frames
            }));
        }
    }
    eprintln!(
        "{rooms} rooms open, {} connections ({spectators} watching room 0); playing",
        2 * rooms + spectators
    );
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
            i == 0,
        )));
        tasks.push(tokio::spawn(seat(
            w,
            "white",
            first,
            seen.clone(),
            totals.clone(),
            seed ^ 0xFF,
            think_ms,
            i == 0,
        )));
        out.push((room, seen));
    }
    let all = futures_util::future::join_all(tasks);
    match kill_after {
        Some(after) => {
            tokio::time::sleep(after).await;
            servers[0].child.kill().unwrap(); // SIGKILL
            servers[0].child.wait().unwrap();
            eprintln!("server killed with kill -9 after {after:?}");
            let _ = tokio::time::timeout(LIMIT, all).await;
        }
        None => {
            tokio::time::timeout(LIMIT, all)
                .await
                .expect("the games end in time");
            let frames = futures_util::future::join_all(watchers).await;
            let frames: u64 = frames.into_iter().map(|f| f.unwrap_or(0)).sum();
            if spectators > 0 {
                eprintln!("room 0's {spectators} watchers got {frames} frames in all");
            }
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

/// What the attackers' sockets met.
#[derive(Default)]
struct Siege {
    /// Answered 429 (too many from one address) or 503 (server full) at once.
    refused: AtomicU64,
    /// Upgraded, then closed for saying no hello.
    no_hello: AtomicU64,
    /// Half-sent requests closed by the header time limit.
    cut: AtomicU64,
    /// Closed at once without an answer (past the refusals being written).
    dropped: AtomicU64,
    /// Still open when the run ended.
    held: AtomicU64,
}

/// One attacker socket from 127.0.0.1, reopened as it is closed until `stop`.
async fn besiege(
    addr: SocketAddr,
    room: String,
    websocket: bool,
    stop: Arc<AtomicBool>,
    siege: Arc<Siege>,
) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    while !stop.load(Ordering::Relaxed) {
        let socket = tokio::net::TcpSocket::new_v4().unwrap();
        socket.bind("127.0.0.1:0".parse().unwrap()).unwrap();
        let Ok(mut s) = socket.connect(addr).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let req = if websocket {
            format!(
                "GET /ws/{room} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
                 Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
            )
        } else {
            "GET / HTTP/1.1\r\nHost: x\r\n".to_string()
        };
        let _ = s.write_all(req.as_bytes()).await;
        let opened = Instant::now();
        let mut got = Vec::new();
        let mut buf = [0u8; 1024];
        // Until the server closes it (or the run ends).
        loop {
            match tokio::time::timeout(Duration::from_millis(500), s.read(&mut buf)).await {
                Ok(Ok(0)) | Ok(Err(_)) => break,
                Ok(Ok(n)) => got.extend_from_slice(&buf[..n]),
                Err(_) if stop.load(Ordering::Relaxed) => {
                    siege.held.fetch_add(1, Ordering::Relaxed);
                    return;
                }
                Err(_) => {}
            }
        }
        let head = String::from_utf8_lossy(&got[..got.len().min(12)]).to_string();
        let counter = if head.starts_with("HTTP/1.1 429") || head.starts_with("HTTP/1.1 503") {
            &siege.refused
        } else if head.starts_with("HTTP/1.1 101") {
            &siege.no_hello
        } else if opened.elapsed() < Duration::from_secs(1) {
            &siege.dropped
        } else {
            &siege.cut
        };
        counter.fetch_add(1, Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The attack run: the server held to 1,024 open files, `n` idle sockets
/// from 127.0.0.1, and meanwhile a pair from 127.0.1.2 makes a room and
/// plays a whole game (0 to 2 x `think_ms` a move).
async fn attack(bin: &Path, n: usize, think_ms: u64) {
    let (_dir, site, db) = scratch();
    let server = start_with(bin, &db, &site, Some(1024), &[]);
    let addr = server.addr;
    let (target, _) = make_room(addr, "127.0.1.3", "modern").await;
    let stop = Arc::new(AtomicBool::new(false));
    let siege = Arc::new(Siege::default());
    let attackers: Vec<_> = (0..n)
        .map(|k| {
            tokio::spawn(besiege(
                addr,
                target.clone(),
                k % 2 == 0,
                stop.clone(),
                siege.clone(),
            ))
        })
        .collect();
    // Let the attack take hold.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let t = Instant::now();
    let (room, token) = make_room(addr, "127.0.1.2", "modern").await;
    let made_in = t.elapsed();
    let (b, _) = join_from(addr, &room, "127.0.1.2", Some(&token)).await;
    let (w, welcome) = join_from(addr, &room, "127.0.1.2", None).await;
    let seen = Arc::new(Mutex::new(Seen::default()));
    let totals = Arc::new(Mutex::new(Totals::default()));
    let first = welcome["state"].clone();
    let players = futures_util::future::join(
        seat(
            b,
            "black",
            first.clone(),
            seen.clone(),
            totals.clone(),
            7,
            think_ms,
            false,
        ),
        seat(
            w,
            "white",
            first,
            seen.clone(),
            totals.clone(),
            11,
            think_ms,
            false,
        ),
    );
    tokio::time::timeout(LIMIT, players)
        .await
        .expect("the game ends in time");
    let played = t.elapsed();
    stop.store(true, Ordering::Relaxed);
    let _ = futures_util::future::join_all(attackers).await;
    let mut lat = totals.lock().unwrap().latencies_us.clone();
    println!(
        "attack: {n} idle sockets from 127.0.0.1 (half WebSocket without hello, half unfinished requests), \
         server held to 1024 open files"
    );
    println!(
        "  the other address (127.0.1.2): room made in {:.1} ms, game over {}, {} moves in {:.1} s, \
         move to other seat median {:.2} ms, p99 {:.2} ms",
        made_in.as_secs_f64() * 1000.0,
        seen.lock().unwrap().over,
        totals.lock().unwrap().moves,
        played.as_secs_f64(),
        percentile(&mut lat, 0.5),
        percentile(&mut lat, 0.99),
    );
    println!(
        "  the attackers' sockets: {} refused at once (429/503), {} closed at once unanswered, \
         {} WebSockets closed for no hello, {} unfinished requests closed, {} open at the end",
        siege.refused.load(Ordering::Relaxed),
        siege.dropped.load(Ordering::Relaxed),
        siege.no_hello.load(Ordering::Relaxed),
        siege.cut.load(Ordering::Relaxed),
        siege.held.load(Ordering::Relaxed),
    );
    println!(
        "  server peak RSS (VmHWM): {:.1} MiB",
        vm_hwm(server.child.id()) as f64 / 1024.0
    );
}

#[tokio::main]
async fn main() {
    let rooms: usize = arg("--rooms").map_or(1000, |r| r.parse().expect("--rooms N"));
    let bin = PathBuf::from(arg("--server").unwrap_or("target/release/mollett-server".into()));
    let kill = std::env::args().any(|a| a == "--kill");
    // Each seat waits a random 0..2*think ms before moving (0: as fast as the server answers).
    let think_ms: u64 = arg("--think").map_or(0, |t| t.parse().expect("--think MS"));
    let spectators: usize = arg("--spectators").map_or(0, |t| t.parse().expect("--spectators N"));
    let siege: Option<usize> = arg("--attack").map(|t| t.parse().expect("--attack N"));
    let nodes: usize = arg("--nodes").map_or(1, |t| t.parse().expect("--nodes N"));
    let across = std::env::args().any(|a| a == "--across");
    let postgres = std::env::args().any(|a| a == "--postgres");
    assert!(
        nodes == 1 || postgres,
        "--nodes 2 needs --postgres (a shared store)"
    );
    let (_dir, site, db) = scratch();
    let cluster = postgres.then(|| {
        common::postgres::Postgres::start_with(&[("synchronous_commit", "off")])
            .expect("MOLLETT_SKIP names postgres")
    });
    let store = match &cluster {
        Some(pg) => pg.database().into(),
        None => db.clone().into_os_string(),
    };

    let mut servers: Vec<Server> = (0..nodes).map(|_| start(&bin, &store, &site)).collect();
    let r = run(&mut servers, rooms, think_ms, spectators, across, None).await;
    let hwm: u64 = servers.iter().map(|s| vm_hwm(s.child.id())).sum();
    let (moves, resent, mut lat, mut watched) = {
        let t = r.totals.lock().unwrap();
        (
            t.moves,
            t.resent,
            t.latencies_us.clone(),
            t.watched_us.clone(),
        )
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
    for server in &mut servers {
        let _ = Command::new("kill")
            .args(["-INT", &server.child.id().to_string()])
            .status();
        let _ = server.child.wait();
    }
    let db_bytes = if postgres {
        0
    } else {
        // The games' size: the database file with its write-ahead log copied in.
        let conn = rusqlite::Connection::open(&db).unwrap();
        conn.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))
            .unwrap();
        drop(conn);
        size(&db) + size(&db.with_extension("db-wal"))
    };
    let store = if postgres { "PostgreSQL" } else { "SQLite" };
    let seats = if across {
        "on two nodes"
    } else {
        "on one node"
    };
    println!("{store}, {nodes} node(s), each room's seats {seats}");
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
    if spectators > 0 {
        println!(
            "room 0 with {spectators} spectators, its players' move to other seat: median {:.2} ms, p99 {:.2} ms ({} samples)",
            percentile(&mut watched, 0.5),
            percentile(&mut watched, 0.99),
            watched.len()
        );
    }
    if resent > 0 {
        println!("moves sent again after rate-limited: {resent}");
    }
    println!(
        "servers' peak RSS (VmHWM, summed): {:.1} MiB",
        hwm as f64 / 1024.0
    );
    if !postgres {
        println!(
            "database: {:.2} MB for {finished} games ({:.2} MB per 1,000)",
            db_bytes as f64 / 1e6,
            db_bytes as f64 / 1e6 * 1000.0 / finished.max(1) as f64
        );
    }
    if let Some(n) = siege {
        // A game of about 25 s: past the hello and header time limits.
        attack(&bin, n, 400).await;
    }
    if !kill || postgres {
        return;
    }

    // The kill run: a fresh database, killed at about half the first run's play time.
    let (_dir2, site2, db2) = scratch();
    let mut killed = [start(&bin, &db2, &site2)];
    let r = run(
        &mut killed,
        rooms,
        think_ms,
        0,
        false,
        Some(r.play_time / 2),
    )
    .await;
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
