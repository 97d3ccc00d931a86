//! Helpers for the tests that talk to a real server over loopback: a
//! minimal HTTP client, a WebSocket client with timeouts, a server in this
//! process (or as the binary, for the kill -9 test).

#![allow(dead_code)]

pub mod nginx;
pub mod node;
pub mod play;
pub mod postgres;

use futures_util::{SinkExt, StreamExt};
use mollett_server::hub::Hub;
use mollett_server::limits::Limits;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Every wait in these tests is bounded by this.
pub const WAIT: Duration = Duration::from_secs(10);

/// A server running in this process on a free loopback port.
pub async fn start_in_process(db: &Path, site: &Path) -> SocketAddr {
    start_with(db, site, Limits::default()).await.0
}

/// [`start_in_process`] held to `limits`; the hub too, to look inside.
pub async fn start_with(db: &Path, site: &Path, limits: Limits) -> (SocketAddr, Arc<Hub>) {
    let store = mollett_server::sqlite::SqliteStore::open(db, false).unwrap();
    let hub = Hub::load_with(Box::new(store), limits.clone()).unwrap();
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = mollett_server::http::router(hub.clone(), site.to_path_buf());
    tokio::spawn(async move {
        mollett_server::listen::serve(listener, app, &limits, std::future::pending()).await
    });
    (addr, hub)
}

/// A TCP connection to `addr` from the loopback address `from` (any of
/// 127.0.0.0/8 is this machine: a second client address without a network).
pub async fn tcp_from(addr: SocketAddr, from: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    tokio::time::timeout(WAIT, socket.connect(addr))
        .await
        .expect("connect in time")
        .unwrap()
}

/// A temporary folder with a site (index.html) and room for a database.
pub fn scratch() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    std::fs::create_dir(&site).unwrap();
    std::fs::write(
        site.join("index.html"),
        "<!doctype html><title>board</title>",
    )
    .unwrap();
    let db = dir.path().join("rooms.db");
    (dir, site, db)
}

/// [`scratch`] with a site as scripts/web/assets.py writes one: the page
/// and a hashed script (`/app.0123456789ab.js`), each with its .br and .gz
/// copies (their bytes told apart: "brotli bytes of the page", "gzip bytes
/// of the script", ...), and `/plain.js` (20 000 bytes) with no copies.
pub fn scratch_built() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let (dir, site, db) = scratch();
    let files: [(&str, &[u8]); 6] = [
        ("index.html.br", b"brotli bytes of the page"),
        ("index.html.gz", b"gzip bytes of the page"),
        ("app.0123456789ab.js", b"export const app = 1;"),
        ("app.0123456789ab.js.br", b"brotli bytes of the script"),
        ("app.0123456789ab.js.gz", b"gzip bytes of the script"),
        ("plain.js", &[b'x'; 20_000]),
    ];
    for (name, bytes) in files {
        std::fs::write(site.join(name), bytes).unwrap();
    }
    (dir, site, db)
}

/// One HTTP/1.1 request; returns the status, headers (lower case) and body.
pub async fn http(addr: SocketAddr, method: &str, path: &str, body: &str) -> (u16, String, String) {
    http_from(
        addr,
        "127.0.0.1",
        method,
        path,
        "Content-Type: application/json\r\n",
        body,
    )
    .await
}

/// [`http`] from the loopback address `from`, with `headers` (each line
/// ending in CRLF) in place of the JSON content type.
pub async fn http_from(
    addr: SocketAddr,
    from: &str,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> (u16, String, String) {
    let fut = async {
        let mut s = tcp_from(addr, from).await;
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept-Encoding: identity\r\n\
             {headers}Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        s.write_all(req.as_bytes()).await.unwrap();
        let mut out = Vec::new();
        s.read_to_end(&mut out).await.unwrap();
        out
    };
    let out = tokio::time::timeout(WAIT, fut)
        .await
        .expect("HTTP answer in time");
    let text = String::from_utf8_lossy(&out).to_string();
    let (head, body) = text.split_once("\r\n\r\n").expect("a header block");
    let status = head[9..12].parse().unwrap();
    (status, head.to_lowercase(), body.to_string())
}

/// `POST /api/rooms`: (room, seat, token).
pub async fn create(
    addr: SocketAddr,
    variant: &str,
    color: &str,
    clock: Value,
) -> (String, String, String) {
    let body = json!({"variant": variant, "color": color, "clock": clock}).to_string();
    let (status, _, body) = http(addr, "POST", "/api/rooms", &body).await;
    assert_eq!(status, 201, "{body}");
    let v: Value = serde_json::from_str(&body).unwrap();
    let s = |k: &str| v[k].as_str().unwrap().to_string();
    (s("room"), s("seat"), s("token"))
}

/// `GET /api/rooms/<id>` as JSON.
pub async fn get_state(addr: SocketAddr, room: &str) -> Value {
    let (status, _, body) = http(addr, "GET", &format!("/api/rooms/{room}"), "").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str(&body).unwrap()
}

/// The state without what changes with time or connections (clocks, presence).
pub fn game_part(mut state: Value) -> Value {
    for k in ["clock", "seats", "spectators"] {
        state.as_object_mut().unwrap().remove(k);
    }
    state
}

/// A frame from the server as JSON, once it has been read as the wire's
/// typed `ClientOut` too: every frame of every test keeps to the contract.
pub fn contract(text: &str) -> Value {
    if let Err(e) = serde_json::from_str::<mollett::rooms::wire::ClientOut>(text) {
        panic!("the server sent a frame outside the wire contract: {e}: {text}");
    }
    serde_json::from_str(text).unwrap()
}

pub struct Client {
    ws: WebSocketStream<MaybeTlsStream<TcpStream>>,
}

impl Client {
    pub async fn connect(addr: SocketAddr, room: &str) -> Client {
        Client::connect_from(addr, room, "127.0.0.1").await
    }

    /// [`Client::connect`] from the loopback address `from`.
    pub async fn connect_from(addr: SocketAddr, room: &str, from: &str) -> Client {
        Client::over(addr, room, tcp_from(addr, from).await).await
    }

    /// [`Client::connect`] over a connection already open to `addr`.
    pub async fn over(addr: SocketAddr, room: &str, tcp: TcpStream) -> Client {
        let url = format!("ws://{addr}/ws/{room}");
        let (ws, _) = tokio::time::timeout(
            WAIT,
            tokio_tungstenite::client_async(url, MaybeTlsStream::Plain(tcp)),
        )
        .await
        .expect("connect in time")
        .expect("WebSocket upgrade");
        Client { ws }
    }

    /// Connects and says hello; returns the client and its welcome.
    pub async fn join(addr: SocketAddr, room: &str, token: Option<&str>) -> (Client, Value) {
        let mut c = Client::connect(addr, room).await;
        c.send(json!({"type": "hello", "token": token})).await;
        let w = c.recv_type("welcome").await;
        (c, w)
    }

    pub async fn send(&mut self, v: Value) {
        self.send_text(v.to_string()).await;
    }

    pub async fn send_text(&mut self, text: String) {
        self.ws.send(Message::Text(text.into())).await.unwrap();
    }

    /// The next text frame as JSON (`None` when the server closed).
    pub async fn next(&mut self) -> Option<Value> {
        self.next_within(WAIT).await
    }

    /// [`Client::next`] with another bound on the wait.
    pub async fn next_within(&mut self, wait: Duration) -> Option<Value> {
        loop {
            let msg = tokio::time::timeout(wait, self.ws.next())
                .await
                .expect("a frame in time");
            match msg {
                Some(Ok(Message::Text(t))) => return Some(contract(&t)),
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
                _ => continue,
            }
        }
    }

    /// The next frame of type `kind`, skipping others (states of presence changes).
    pub async fn recv_type(&mut self, kind: &str) -> Value {
        loop {
            let v = self
                .next()
                .await
                .unwrap_or_else(|| panic!("closed while waiting for {kind}"));
            if v["type"] == kind {
                return v;
            }
        }
    }

    /// The next state frame whose game has `plies` plies.
    pub async fn state_at(&mut self, plies: usize) -> Value {
        loop {
            let v = self.recv_type("state").await;
            if v["state"]["moves"].as_array().unwrap().len() == plies {
                return v;
            }
        }
    }

    /// The next state frame whose game has at least `plies` plies.
    pub async fn state_at_least(&mut self, plies: usize) -> Value {
        loop {
            let v = self.recv_type("state").await;
            if v["state"]["moves"].as_array().unwrap().len() >= plies {
                return v;
            }
        }
    }

    /// Sends `v` and expects the error `code` as the next error frame.
    pub async fn expect_error(&mut self, v: Value, code: &str) {
        self.send(v).await;
        let e = self.recv_type("error").await;
        assert_eq!(e["code"], code, "{e}");
        assert!(!e["message"].as_str().unwrap().is_empty());
    }

    /// The socket itself (for frames the helpers do not send).
    pub fn ws_mut(&mut self) -> &mut WebSocketStream<MaybeTlsStream<TcpStream>> {
        &mut self.ws
    }

    /// Reads for `ms` milliseconds, answering the server's pings as a
    /// browser does: the text frames that came, or `None` if it closed.
    pub async fn listen_for(&mut self, ms: u64) -> Option<Vec<Value>> {
        let end = tokio::time::Instant::now() + Duration::from_millis(ms);
        let mut got = Vec::new();
        loop {
            match tokio::time::timeout_at(end, self.ws.next()).await {
                Err(_) => return Some(got),
                Ok(Some(Ok(Message::Text(t)))) => got.push(contract(&t)),
                Ok(Some(Ok(Message::Close(_))) | None | Some(Err(_))) => return None,
                Ok(_) => continue,
            }
        }
    }

    /// True when nothing arrives within `ms` milliseconds.
    pub async fn quiet_for(&mut self, ms: u64) -> bool {
        tokio::time::timeout(Duration::from_millis(ms), self.ws.next())
            .await
            .is_err()
    }
}
