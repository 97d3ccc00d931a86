//! docs/deploy.md's recipe as written: real nginx running
//! server/deploy/nginx.conf (only its lines naming the machine rewritten)
//! in front of `mollett-server` started with the docs' flags. Plain http
//! redirected to the https port in use; the server sees each client's
//! address through the proxy; one client's connections capped by nginx
//! while the site's are not; a killed node's requests answered by
//! another, and a POST a node may have carried out never sent again.
//! nginx and openssl come from Debian's packages (installed if missing);
//! MOLLETT_SKIP=nginx skips these tests.

mod common;

use common::nginx::Front;
use common::node::{deploy_flags, Node};
use common::scratch;
use std::io::Read;
use std::net::{SocketAddr, TcpListener};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A node started with docs/deploy.md's flags and `more`.
fn node(more: &[&str]) -> (Node, tempfile::TempDir) {
    let (dir, site, db) = scratch();
    let mut flags = deploy_flags();
    flags.extend(more.iter().map(|s| s.to_string()));
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    (Node::start(&db, &site, &flags), dir)
}

#[test]
fn the_servers_command_names_nginx_as_its_trusted_proxy() {
    let flags = deploy_flags().join(" ");
    assert!(flags.contains("--trusted-proxy 127.0.0.1"), "{flags}");
    assert!(flags.contains("--per-address "), "{flags}");
}

#[test]
fn plain_http_is_sent_to_the_https_port_in_use() {
    let (n, _d) = node(&[]);
    let Some(front) = Front::start("plain_http_is_sent_to_the_https_port_in_use", &[n.addr]) else {
        return;
    };
    assert_ne!(front.https, 443);
    let path = "/?room=0123456789abcdef0123456789abcdef&seat=x";
    let moved = front.http("GET", path);
    assert_eq!(moved.status, 301, "{moved:?}");
    // The certificate's name (the recipe's server_name) and the port nginx
    // serves https on, the link's path and query kept.
    let to = format!("https://rooms.example.org:{}{path}", front.https);
    assert_eq!(moved.header("location"), Some(to.to_lowercase().as_str()));
    // And that port is the board, over TLS.
    let page = front.https_from("127.0.0.1", "GET", "/", "", "");
    assert_eq!(page.status, 200, "{page:?}");
    assert!(page.body.contains("<title>board</title>"), "{page:?}");
}

#[test]
fn the_site_goes_through_nginx_as_the_server_sends_it_compressed_once_cached_by_name() {
    let (_d, site, db) = common::scratch_built();
    let n = Node::start(
        &db,
        &site,
        &deploy_flags()
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
    );
    let test = "the_site_goes_through_nginx_as_the_server_sends_it_compressed_once_cached_by_name";
    let Some(front) = Front::start(test, &[n.addr]) else {
        return;
    };
    let get = |path: &str, accept: &str| {
        let accept = format!("Accept-Encoding: {accept}\r\n");
        front.https_from("127.0.0.1", "GET", path, &accept, "")
    };
    // The build's brotli copy of a hashed name, cached for a year.
    let script = get("/app.0123456789ab.js", "gzip, deflate, br");
    assert_eq!(script.status, 200, "{script:?}");
    assert_eq!(script.body, "brotli bytes of the script", "{script:?}");
    assert_eq!(script.header("content-encoding"), Some("br"), "{script:?}");
    assert_eq!(
        script.header("cache-control"),
        Some("public, max-age=31536000, immutable"),
        "{script:?}"
    );
    let gzipped = get("/app.0123456789ab.js", "gzip");
    assert_eq!(gzipped.body, "gzip bytes of the script", "{gzipped:?}");
    assert_eq!(
        gzipped.header("content-encoding"),
        Some("gzip"),
        "{gzipped:?}"
    );
    // The page: its copy, asked for again every time.
    let page = get("/", "br");
    assert_eq!(page.body, "brotli bytes of the page", "{page:?}");
    assert_eq!(page.header("content-encoding"), Some("br"), "{page:?}");
    assert_eq!(page.header("cache-control"), Some("no-cache"), "{page:?}");
    // Nothing compressed on the way: a file without copies arrives whole.
    let plain = get("/plain.js", "gzip, br");
    assert_eq!(plain.status, 200, "{plain:?}");
    assert_eq!(plain.body.len(), 20_000, "{plain:?}");
    assert_eq!(plain.header("content-encoding"), None, "{plain:?}");
}

#[test]
fn the_server_counts_rooms_by_each_clients_address_through_nginx() {
    let (n, _d) = node(&[]);
    let test = "the_server_counts_rooms_by_each_clients_address_through_nginx";
    let Some(front) = Front::start(test, &[n.addr]) else {
        return;
    };
    // Twelve clients, a room each: more than the ten one address (a /24)
    // may make at once, all made (the server saw twelve addresses, not
    // nginx's one).
    for i in 2..14 {
        let made = front.create_room_from(&format!("127.{i}.0.1"), "");
        assert_eq!(made.status, 201, "client 127.{i}.0.1: {made:?}");
    }
    // One client, eleven rooms, each naming another address of its own in
    // X-Forwarded-For: nginx writes the address it saw over it.
    let from = "127.0.0.20";
    for i in 0..10 {
        let forged = format!("X-Forwarded-For: 10.0.0.{i}\r\n");
        let made = front.create_room_from(from, &forged);
        assert_eq!(made.status, 201, "room {i}: {made:?}");
    }
    let refused = front.create_room_from(from, "X-Forwarded-For: 10.0.0.99\r\n");
    assert_eq!(refused.status, 429, "{refused:?}");
    assert!(refused.header("retry-after").is_some(), "{refused:?}");
}

/// The recipe's `limit_conn mollett_per_client N;`.
fn recipe_per_client() -> usize {
    let recipe = common::nginx::recipe();
    let line = recipe
        .lines()
        .find_map(|l| l.trim().strip_prefix("limit_conn mollett_per_client "))
        .expect("server/deploy/nginx.conf has 'limit_conn mollett_per_client N;'");
    line.trim_end_matches(';').parse().unwrap()
}

#[test]
fn one_client_holds_at_most_the_recipes_connections_and_the_site_more() {
    let started = Instant::now();
    // Sockets that do not say hello are kept past the test's length.
    let (n, _d) = node(&["--hello-timeout", "60"]);
    let test = "one_client_holds_at_most_the_recipes_connections_and_the_site_more";
    let Some(front) = Front::start(test, &[n.addr]) else {
        return;
    };
    let per_client = recipe_per_client();
    let made = front.create_room_from("127.0.0.29", "");
    assert_eq!(made.status, 201, "{made:?}");
    let v: serde_json::Value = serde_json::from_str(&made.body).unwrap();
    let room = v["room"].as_str().unwrap();

    let mut held = Vec::new();
    for i in 0..per_client {
        let (answer, socket) = front.upgrade_from("127.0.0.30", room);
        assert_eq!(answer.status, 101, "socket {i} of {per_client}: {answer:?}");
        held.push(socket.unwrap());
    }
    let (over, _) = front.upgrade_from("127.0.0.30", room);
    assert_eq!(
        over.status,
        429,
        "socket {} from one client: {over:?}",
        per_client + 1
    );
    assert!(
        front
            .log("error.log")
            .contains("limiting connections by zone \"mollett_per_client\""),
        "{}",
        front.log("error.log")
    );
    // Other clients still get in, past the 256 the server allows one
    // address of its own (it sees them all as nginx: --per-address raised).
    let others = 257usize.saturating_sub(per_client).max(1) + 8;
    for i in 0..others {
        let from = format!("127.0.0.{}", 31 + i % 4);
        let (answer, socket) = front.upgrade_from(&from, room);
        assert_eq!(answer.status, 101, "socket {i} from {from}: {answer:?}");
        held.push(socket.unwrap());
    }
    eprintln!(
        "{per_client} sockets from one client, the next refused, {others} more from others, in {:.1} s",
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn a_killed_node_s_requests_are_answered_by_the_other() {
    let (a, _da) = node(&[]);
    let (b, _db) = node(&[]);
    let test = "a_killed_node_s_requests_are_answered_by_the_other";
    let Some(front) = Front::start(test, &[a.addr, b.addr]) else {
        return;
    };
    let mut a = a;
    // Both nodes answer while both run.
    for _ in 0..4 {
        let page = front.https_from("127.0.0.1", "GET", "/", "", "");
        assert_eq!(page.status, 200, "{page:?}");
    }
    a.kill9();
    let t = Instant::now();
    // The page, rooms hashed to every node (404: each node here has a
    // database of its own), and new rooms: all answered, none a 502.
    for i in 0..8 {
        let page = front.https_from("127.0.0.1", "GET", "/", "", "");
        assert_eq!(page.status, 200, "page {i}: {page:?}");
        let room = format!(
            "/api/rooms/{:032x}",
            0x1234_5678_9abc_def0_u128.wrapping_mul(i + 1)
        );
        let state = front.https_from("127.0.0.1", "GET", &room, "", "");
        assert_eq!(state.status, 404, "{room}: {state:?}");
        assert!(state.body.contains("no such room"), "{state:?}");
        // A POST the killed node never received (connection refused) may
        // go to another node.
        let made = front.create_room_from("127.0.0.1", "");
        assert_eq!(made.status, 201, "room {i}: {made:?}");
    }
    let waited = t.elapsed();
    assert!(waited < Duration::from_secs(3), "{waited:?}");
    let log = front.log("error.log");
    assert!(
        log.contains("Connection refused") && log.contains(&a.addr.to_string()),
        "nginx tried the killed node: {log}"
    );
}

/// A node that reads each request, tells its first line, and closes
/// without answering (as one killed mid-request): where it may have acted.
fn dropping_node() -> (SocketAddr, mpsc::Receiver<String>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for s in listener.incoming() {
            let Ok(mut s) = s else { return };
            s.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
            let mut got = Vec::new();
            let mut buf = [0u8; 4096];
            while !got.windows(4).any(|w| w == b"\r\n\r\n") {
                match s.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => got.extend_from_slice(&buf[..n]),
                }
            }
            let text = String::from_utf8_lossy(&got).to_string();
            let first = text.lines().next().unwrap_or("").to_string();
            if tx.send(first).is_err() {
                return;
            }
        }
    });
    (addr, rx)
}

#[test]
fn a_post_a_node_dropped_is_not_sent_to_another_and_a_get_is() {
    let (real, _d) = node(&[]);
    let test = "a_post_a_node_dropped_is_not_sent_to_another_and_a_get_is";
    // POST /api/rooms: the node that took it and dropped it may have made
    // the room, so nginx answers 502 rather than make it again elsewhere.
    let (dropping, seen) = dropping_node();
    let Some(front) = Front::start(test, &[dropping, real.addr]) else {
        return;
    };
    let mut answers = Vec::new();
    while seen.try_recv().is_err() {
        assert!(
            answers.len() < 4,
            "round-robin never chose the dropping node: {answers:?}"
        );
        let made = front.create_room_from("127.0.0.1", "");
        let dropped = seen.recv_timeout(Duration::from_millis(200));
        if let Ok(line) = dropped {
            assert_eq!(line, "POST /api/rooms HTTP/1.1");
            assert_eq!(made.status, 502, "a dropped POST sent again: {made:?}");
            break;
        }
        assert_eq!(made.status, 201, "{made:?}");
        answers.push(made.status);
    }
    drop(front);

    // GET: the same drop, and the request answered by the other node.
    let (dropping, seen) = dropping_node();
    let front = Front::start(test, &[dropping, real.addr]).unwrap();
    for i in 0..4 {
        let page = front.https_from("127.0.0.1", "GET", "/", "", "");
        assert_eq!(page.status, 200, "page {i}: {page:?}");
    }
    let line = seen
        .try_recv()
        .expect("round-robin chose the dropping node");
    assert_eq!(line, "GET / HTTP/1.1");
}
