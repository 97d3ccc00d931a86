//! `mollett room-play`: its refusals, each one line on stderr and exit
//! status 2 (a link that is not a room, a server that cannot be reached, a
//! room the server does not have, a server that is not a room server, a
//! full room, a certificate it does not trust); its engine started and
//! heard from before it takes a seat; and a whole game through nginx and
//! TLS (`wss://`) with the recipe of docs/deploy.md. (Games against a
//! browser are tests/browser/test_rooms.py.)

use mollett::rooms::wire::{ClientIn, ClientOut, Reason, Seat, Side, State, Status};
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};
use tungstenite::WebSocket;

// nginx with server/deploy/nginx.conf, and the server as a process, shared
// with the server's tests.
#[path = "../server/tests/common/nginx.rs"]
mod nginx;
#[path = "../server/tests/common/node.rs"]
mod node;
use node::Node;

const ROOM: &str = "0123456789abcdef0123456789abcdef";
const MOLLETT: &str = env!("CARGO_BIN_EXE_mollett");

fn room_play(args: &[&str]) -> Output {
    Command::new(MOLLETT)
        .arg("room-play")
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

/// room-play with an engine that would fail if it were ever started: the
/// refusals about the room come first.
fn room_play_link(link: &str) -> Output {
    room_play(&["--room", link, "--engine", "cmd=/nonexistent/engine"])
}

fn assert_refused_with(o: &Output, what: &str, case: &str) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{case}: {err}");
    assert_eq!(err.lines().count(), 1, "{case}: one line, got {err:?}");
    assert!(err.contains(what), "{case}: {err:?} should say {what:?}");
    assert!(o.stdout.is_empty(), "{case}: stdout stays quiet");
}

fn assert_refused(link: &str, what: &str) {
    assert_refused_with(&room_play_link(link), what, link);
}

/// A one-shot HTTP server on a free loopback port answering every request
/// with `answer`; its address.
fn answering(answer: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    addr
}

/// A loopback port nothing listens on (free a moment ago).
fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn links_that_are_not_rooms_are_refused() {
    assert_refused("127.0.0.1:8000", "not a room link");
    assert_refused("http://127.0.0.1:8000/", "no room id");
    assert_refused("http://127.0.0.1:8000/?room=new", "32 hexadecimal digits");
    assert_refused(&format!("ftp://example.org/?room={ROOM}"), "not http");
    let plain_with_ca = room_play(&[
        "--room",
        &format!("http://127.0.0.1:8000/?room={ROOM}"),
        "--ca",
        "/nonexistent/ca.pem",
        "--engine",
        "cmd=/nonexistent/engine",
    ]);
    assert_refused_with(&plain_with_ca, "--ca is for https://", "--ca on http");
    let missing_ca = room_play(&[
        "--room",
        &format!("https://127.0.0.1:8000/?room={ROOM}"),
        "--ca",
        "/nonexistent/ca.pem",
        "--engine",
        "cmd=/nonexistent/engine",
    ]);
    assert_refused_with(&missing_ca, "--ca /nonexistent/ca.pem", "missing --ca");
}

#[test]
fn an_unreachable_server_is_refused() {
    for scheme in ["http", "https"] {
        assert_refused(
            &format!("{scheme}://127.0.0.1:{}/?room={ROOM}", free_port()),
            "cannot reach the room server at 127.0.0.1:",
        );
    }
}

#[test]
fn a_room_the_server_lacks_or_a_server_without_rooms_is_refused() {
    let not_found = answering("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    assert_refused(&format!("http://{not_found}/?room={ROOM}"), "no such room");
    let plain = answering("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi");
    assert_refused(
        &format!("http://{plain}/?room={ROOM}"),
        "is not a room server",
    );
    // An https link to a server that speaks plain HTTP.
    assert_refused(
        &format!("https://{plain}/?room={ROOM}"),
        "does not speak TLS",
    );
}

/// `mollett-server`, built beside `mollett` (`cargo test` builds both; a
/// lone `--test room_play` may not, so it is built here then).
fn server_bin() -> PathBuf {
    let dir = Path::new(MOLLETT).parent().expect("the binary's folder");
    let bin = dir.join("mollett-server");
    if !bin.exists() {
        let profile = match dir.file_name().and_then(|n| n.to_str()) {
            Some("debug") => "dev",
            Some(p) => p,
            None => "dev",
        };
        let _ = Command::new(env!("CARGO"))
            .args(["build", "--profile", profile, "-p", "mollett-server"])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .status();
        assert!(
            bin.exists(),
            "no {}: cargo build --profile {profile} -p mollett-server",
            bin.display()
        );
    }
    bin
}

/// A child process killed when dropped (a failed assertion included).
struct Running(Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// mollett-server on a free loopback port, its database in a folder of its own.
struct Server {
    addr: String,
    _node: Node,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start() -> Server {
        Server::start_with(&[])
    }

    /// The same, with more of the server's flags.
    fn start_with(flags: &[&str]) -> Server {
        let dir = tempfile::tempdir().unwrap();
        let node = Node::start_bin(
            &server_bin(),
            dir.path().join("rooms.db"),
            dir.path(),
            flags,
        );
        Server {
            addr: node.addr.to_string(),
            _node: node,
            _dir: dir,
        }
    }

    /// One HTTP/1.1 request: the status line and the body.
    fn http(&self, request: &str, body: &str) -> (String, String) {
        let mut s = TcpStream::connect(&self.addr).unwrap();
        write!(
            s,
            "{request} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        s.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap();
        let status = head.lines().next().unwrap().to_string();
        (status, body.to_string())
    }

    /// A modern room without a clock, its creator black: (room, black's token).
    fn create_room(&self) -> (String, String) {
        let body = r#"{"variant":"modern","color":"black","clock":null}"#;
        let (status, json) = self.http("POST /api/rooms", body);
        assert!(status.starts_with("HTTP/1.1 201"), "{status}: {json}");
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        (
            v["room"].as_str().unwrap().to_string(),
            v["token"].as_str().unwrap().to_string(),
        )
    }

    /// The room's state as `GET /api/rooms/ID` tells it.
    fn room(&self, room: &str) -> State {
        let (status, json) = self.http(&format!("GET /api/rooms/{room}"), "");
        assert!(status.starts_with("HTTP/1.1 200"), "{status}: {json}");
        serde_json::from_str(&json).unwrap()
    }
}

type Socket = WebSocket<tungstenite::stream::MaybeTlsStream<TcpStream>>;

/// A seat of the test's own, straight to the server: hello and its welcome.
fn join(addr: &str, room: &str, token: Option<&str>) -> (Socket, Seat, State) {
    let (mut ws, _) = tungstenite::connect(format!("ws://{addr}/ws/{room}")).unwrap();
    if let tungstenite::stream::MaybeTlsStream::Plain(s) = ws.get_ref() {
        s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    }
    send(
        &mut ws,
        &ClientIn::Hello {
            token: token.map(str::to_string),
        },
    );
    match read(&mut ws) {
        ClientOut::Welcome { seat, state, .. } => (ws, seat, state),
        other => panic!("hello answered with {other:?}"),
    }
}

fn send(ws: &mut Socket, msg: &ClientIn) {
    ws.send(tungstenite::Message::text(
        serde_json::to_string(msg).unwrap(),
    ))
    .unwrap();
}

fn read(ws: &mut Socket) -> ClientOut {
    loop {
        if let tungstenite::Message::Text(t) = ws.read().expect("the room's next message") {
            return serde_json::from_str(t.as_str()).unwrap();
        }
    }
}

/// Plays `side`'s first legal square at each of its turns to the end of the
/// game: the last state.
fn play_to_end(ws: &mut Socket, side: Side, mut state: State) -> State {
    let mut sent = None;
    while state.status != Status::Over {
        let ply = state.moves.len();
        if state.status == Status::Playing && state.to_move == Some(side) && sent != Some(ply) {
            let square = state.legal[0].clone();
            send(ws, &ClientIn::Move { square, ply });
            sent = Some(ply);
        }
        match read(ws) {
            ClientOut::State { state: s, .. } | ClientOut::Welcome { state: s, .. } => state = s,
            ClientOut::Error { code, message } => panic!("the room refused: {message} ({code})"),
            ClientOut::Pong | ClientOut::TransferLink { .. } | ClientOut::SeatMoved { .. } => {}
        }
    }
    state
}

/// Seats `mollett room-play ARGS` as white, plays black from the test to
/// the end of the game, and waits for room-play to end by itself: the last
/// state, its exit status, stdout and stderr.
fn play_against_room_play(
    server: &Server,
    room: &str,
    black: &str,
    args: &[&str],
) -> (State, std::process::ExitStatus, String, String) {
    let child = Command::new(MOLLETT)
        .arg("room-play")
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut engine_seat = Running(child);
    let (mut ws, seat, state) = join(&server.addr, room, Some(black));
    assert_eq!(seat, Seat::Black);
    let last = play_to_end(&mut ws, Side::Black, state);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = engine_seat.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "room-play did not end with the game"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let (mut out, mut err) = (String::new(), String::new());
    let child = &mut engine_seat.0;
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (last, status, out, err)
}

#[test]
fn an_engine_thinking_past_the_servers_ping_timeout_keeps_its_connection() {
    // The server pings every 0.5 s and drops a connection silent for 1.5 s;
    // the engine's first move takes 4 s.
    let server = Server::start_with(&["--ping-every", "0.5", "--ping-timeout", "1.5"]);
    let (room, black) = server.create_room();
    let link = format!("http://{}/?room={room}", server.addr);
    let engine = format!(
        "cmd=python3 {}/tests/data/fake_gtp.py --slow 1:4",
        env!("CARGO_MANIFEST_DIR")
    );
    let (last, _, _, err) = play_against_room_play(
        &server,
        &room,
        &black,
        &["--room", &link, "--engine", &engine],
    );
    assert!(last.result.is_some(), "the game ends");
    assert!(
        !err.contains("reconnecting"),
        "the seat's connection stayed up while its engine thought: {err}"
    );
}

/// The next state from the room for which `pred` holds.
fn state_where(ws: &mut Socket, pred: impl Fn(&State) -> bool) -> State {
    loop {
        match read(ws) {
            ClientOut::State { state, .. } if pred(&state) => return state,
            ClientOut::Error { code, message } => panic!("the room refused: {message} ({code})"),
            _ => {}
        }
    }
}

/// Seats room-play (`engine`) as white in a new room, its seat named, with
/// the test as black: room-play, black's socket and the state.
fn seated_room_play(server: &Server, engine: &str) -> (Running, Socket, State) {
    let (room, black) = server.create_room();
    let link = format!("http://{}/?room={room}", server.addr);
    let child = Command::new(MOLLETT)
        .args(["room-play", "--room", &link, "--engine", engine])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (mut ws, _, _) = join(&server.addr, &room, Some(&black));
    let state = state_where(&mut ws, |s| s.seats.white.name.is_some());
    (Running(child), ws, state)
}

/// Waits for room-play to end by itself: its exit status and stderr.
fn ended(mut seat: Running) -> (std::process::ExitStatus, String) {
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = seat.0.try_wait().unwrap() {
            break status;
        }
        assert!(
            Instant::now() < deadline,
            "room-play did not end with the game"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    seat.0
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status, err)
}

#[test]
fn room_play_names_its_seat_and_answers_a_draw_by_its_engines_value() {
    let server = Server::start();
    let fake = format!("{}/tests/data/fake_gtp.py", env!("CARGO_MANIFEST_DIR"));
    // An engine that values its move +3 discs declines; at -2 it accepts.
    for (value, accepted) in [("+3", false), ("-2", true)] {
        let engine = format!("name=Fake\tengine\u{7}{value} cmd=python3 {fake} --value {value}");
        let (seat, mut ws, state) = seated_room_play(&server, &engine);
        let name = state.seats.white.name.clone().unwrap();
        assert!(name.starts_with("Fake") && name.ends_with(value), "{name}");
        assert!(!name.chars().any(char::is_control), "{name:?}");
        send(
            &mut ws,
            &ClientIn::Move {
                square: "f5".into(),
                ply: 0,
            },
        );
        state_where(&mut ws, |s| s.moves.len() == 2);
        send(&mut ws, &ClientIn::Draw);
        state_where(&mut ws, |s| s.draw.is_some());
        let answered = state_where(&mut ws, |s| s.draw.is_none());
        if accepted {
            let r = answered.result.expect("the draw ends the game");
            assert_eq!((r.winner, r.reason), (None, Reason::Agreement));
        } else {
            assert_eq!(answered.status, Status::Playing, "declined");
            send(&mut ws, &ClientIn::Resign);
        }
        let (status, err) = ended(seat);
        assert!(status.success(), "{err}");
        let said = if accepted { "accepted" } else { "declined" };
        assert!(err.contains(&format!("offers a draw: {said}")), "{err}");
    }
    // A game aborted before the engine's first move ends room-play too.
    let engine = format!("cmd=python3 {fake}");
    let (seat, mut ws, _) = seated_room_play(&server, &engine);
    send(&mut ws, &ClientIn::Abort);
    let (status, err) = ended(seat);
    assert!(status.success() && err.contains("game aborted"), "{err}");
}

#[test]
fn room_play_claims_a_game_the_other_side_has_left() {
    let server = Server::start_with(&["--claim-after", "0.5"]);
    let engine = format!(
        "cmd=python3 {}/tests/data/fake_gtp.py",
        env!("CARGO_MANIFEST_DIR")
    );
    let (seat, mut ws, _) = seated_room_play(&server, &engine);
    send(
        &mut ws,
        &ClientIn::Move {
            square: "f5".into(),
            ply: 0,
        },
    );
    state_where(&mut ws, |s| s.moves.len() == 2);
    drop(ws); // black goes, and does not come back
    let (status, err) = ended(seat);
    assert!(status.success(), "{err}");
    assert!(
        err.contains("the other side has left; the game is claimed"),
        "{err}"
    );
    // The discs decided nothing: said apart, after who won and why.
    assert!(
        err.contains("game over: white wins (the other side left); discs black "),
        "{err}"
    );
}

#[test]
fn an_engine_that_cannot_start_takes_no_seat() {
    let server = Server::start();
    let (room, _black) = server.create_room();
    let link = format!("http://{}/?room={room}", server.addr);
    // A program that does not exist, and one that starts and exits without
    // a word: neither is an engine, and the friend's seat stays free.
    assert_refused(&link, "cannot start '/nonexistent/engine'");
    assert!(!server.room(&room).seats.white.taken, "no seat taken");
    let o = room_play(&["--room", &link, "--engine", "cmd=true"]);
    assert!(!server.room(&room).seats.white.taken, "no seat taken");
    assert_refused_with(&o, "(no seat was taken)", "an engine that never answers");
    let (_friend, seat, state) = join(&server.addr, &room, None);
    assert_eq!(seat, Seat::White, "the friend's link takes the free seat");
    assert_eq!(state.status, Status::Playing);
    // Now the room is full: a working engine is refused a seat, once.
    let full = room_play(&["--room", &link, "--engine", &format!("cmd={MOLLETT}")]);
    assert_refused_with(
        &full,
        &format!("room {room} has no free seat"),
        "a full room",
    );
    assert_refused(
        &format!("http://{}/?room={ROOM}", server.addr),
        &format!("no such room at {}", server.addr),
    );
}

#[test]
fn a_whole_game_through_nginx_and_tls() {
    let started = Instant::now();
    let server = Server::start();
    let node = server.addr.parse().unwrap();
    let Some(front) = nginx::Front::start("a_whole_game_through_nginx_and_tls", &[node]) else {
        return;
    };
    let (port, cert) = (front.https, &front.cert);
    let (room, black) = server.create_room();
    let link = format!("https://127.0.0.1:{port}/?room={room}");

    // Without --ca the certificate is not trusted: one line, and no seat.
    let untrusted = room_play_link(&link);
    assert_refused_with(&untrusted, "--ca", "an untrusted certificate");
    assert!(String::from_utf8_lossy(&untrusted.stderr).contains("certificate"));

    let engine = format!("cmd={MOLLETT} init=set_option level 1");
    let cert_arg = cert.display().to_string();
    let args = ["--room", &link, "--engine", &engine, "--ca", &cert_arg];
    let (last, status, out, err) = play_against_room_play(&server, &room, &black, &args);
    let result = last.result.expect("a finished game has a result");
    assert_eq!(
        result.black + result.white,
        last.discs.black + last.discs.white
    );
    assert!(last.moves.len() >= 9, "a whole game: {:?}", last.moves);

    // room-play ends by itself, with the result on stderr, stdout quiet.
    assert!(status.success(), "{err}");
    assert!(out.is_empty(), "stdout stays quiet: {out}");
    assert!(
        err.contains(&format!("plays white in room {room}")),
        "{err}"
    );
    assert!(err.contains("game over: "), "{err}");

    // And the socket went through nginx: its access log has the upgrade.
    let upgraded = format!("\"GET /ws/{room} HTTP/1.1\" 101 ");
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let log = front.log("access.log");
        if log.contains(&upgraded) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "nginx logged no WebSocket upgrade: {log}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    eprintln!(
        "a whole game ({} plies) through nginx and wss:// in {:.1} s",
        last.moves.len(),
        started.elapsed().as_secs_f64()
    );
}
