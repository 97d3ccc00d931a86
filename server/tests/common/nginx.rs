//! nginx running `server/deploy/nginx.conf` in front of servers on
//! loopback (docs/deploy.md): nginx and openssl found or installed, a
//! self-signed certificate, the recipe with only its lines that name the
//! machine rewritten, and HTTPS requests from any 127.x address. Used by
//! server/tests/deploy.rs, and by tests/room_play.rs through `#[path]`.

#![allow(dead_code)]

use rustls::pki_types::ServerName;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Every wait on nginx is bounded by this.
const WAIT: Duration = Duration::from_secs(10);

/// The recipe's node line; the tests write one per node in its place.
pub const NODE_LINE: &str = "server 127.0.0.1:8000 ";

/// The recipe as kept in the repository.
pub fn recipe() -> String {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let path = [
        here.join("deploy/nginx.conf"),
        here.join("server/deploy/nginx.conf"),
    ]
    .into_iter()
    .find(|p| p.exists())
    .expect("server/deploy/nginx.conf");
    std::fs::read_to_string(path).unwrap()
}

/// True when the comma-separated `MOLLETT_SKIP` names `what`.
pub fn skipped(what: &str) -> bool {
    std::env::var("MOLLETT_SKIP")
        .unwrap_or_default()
        .split(',')
        .any(|s| s.trim() == what)
}

/// The program `name` from Debian's package `package`: found on this
/// machine, or installed with apt-get (as root, a bounded wait). None
/// when `MOLLETT_SKIP` names it; a failure saying which package to
/// install when it is neither there nor installable.
pub fn tool(name: &str, package: &str) -> Option<PathBuf> {
    if skipped(name) {
        return None;
    }
    let find = || {
        [
            "/usr/sbin",
            "/usr/bin",
            "/usr/local/sbin",
            "/usr/local/bin",
            "/sbin",
        ]
        .iter()
        .map(|d| Path::new(d).join(name))
        .find(|p| p.exists())
    };
    if let Some(p) = find() {
        return Some(p);
    }
    // /proc/self belongs to the process's own user: root may install.
    let root = std::os::unix::fs::MetadataExt::uid(&std::fs::metadata("/proc/self").unwrap()) == 0;
    if root && Path::new("/usr/bin/apt-get").exists() {
        eprintln!("installing Debian's {package} with apt-get for the nginx tests");
        let apt = |args: &[&str]| {
            Command::new("timeout")
                .arg("240")
                .arg("apt-get")
                .args(["-o", "DPkg::Lock::Timeout=120"])
                .args(args)
                .env("DEBIAN_FRONTEND", "noninteractive")
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success())
        };
        if !apt(&["install", "-y", "-q", package]) {
            apt(&["update", "-q"]);
            apt(&["install", "-y", "-q", package]);
        }
    }
    Some(find().unwrap_or_else(|| {
        panic!(
            "no {name} on this machine and apt-get could not install it: install Debian's package \
             {package} (apt-get install {package}), or set MOLLETT_SKIP={name} to skip the tests that need it"
        )
    }))
}

/// nginx and openssl for `test`, or None (and a line saying so) when
/// `MOLLETT_SKIP` names either.
pub fn tools(test: &str) -> Option<(PathBuf, PathBuf)> {
    match (tool("nginx", "nginx-light"), tool("openssl", "openssl")) {
        (Some(n), Some(o)) => Some((n, o)),
        _ => {
            eprintln!("SKIPPED {test}: MOLLETT_SKIP names nginx or openssl");
            None
        }
    }
}

/// A port nothing listens on now.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// A request's answer: the status, the header block (lower case), the body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    fn parse(bytes: &[u8]) -> Answer {
        let text = String::from_utf8_lossy(bytes).to_string();
        let (head, body) = text
            .split_once("\r\n\r\n")
            .unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
        Answer {
            status: head.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0),
            head: head.to_lowercase(),
            body: body.to_string(),
        }
    }

    /// The value of header `name` (lower case), if there is one.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            (k.trim() == name).then(|| v.trim())
        })
    }
}

/// A TLS connection to nginx, `wss://` and `https://` alike.
pub type Tls = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

/// nginx with the recipe, stopped when dropped.
pub struct Front {
    /// The https port (the recipe's 443) and the plain-http one (its 80).
    pub https: u16,
    pub http: u16,
    /// The certificate nginx serves (self-signed, for 127.0.0.1).
    pub cert: PathBuf,
    /// nginx's folder: its logs (access.log, error.log) and files.
    pub dir: tempfile::TempDir,
    tls: Arc<rustls::ClientConfig>,
    child: Child,
}

impl Front {
    /// The recipe in front of `nodes` (`HOST:PORT` each, one `server` line
    /// each in its `upstream`); None when MOLLETT_SKIP names nginx or openssl.
    pub fn start(test: &str, nodes: &[SocketAddr]) -> Option<Front> {
        Front::start_with(test, nodes, &[])
    }

    /// [`Front::start`] with more lines of the recipe rewritten (`from`
    /// must be in it), e.g. a smaller connection limit.
    pub fn start_with(test: &str, nodes: &[SocketAddr], edits: &[(&str, &str)]) -> Option<Front> {
        let (nginx, openssl) = tools(test)?;
        let dir = tempfile::tempdir().unwrap();
        // nginx's workers (user nobody when started as root) read in here too.
        std::fs::set_permissions(
            dir.path(),
            std::os::unix::fs::PermissionsExt::from_mode(0o755),
        )
        .unwrap();
        let (cert, key) = self_signed(&openssl, dir.path());
        let (https, http) = (free_port(), free_port());

        let mut site = recipe();
        let node_line = site
            .lines()
            .find(|l| l.trim_start().starts_with(NODE_LINE))
            .expect("server/deploy/nginx.conf has a node line 'server 127.0.0.1:8000 ...'")
            .to_string();
        let node_lines: Vec<String> = nodes
            .iter()
            .map(|a| node_line.replace("127.0.0.1:8000", &a.to_string()))
            .collect();
        let machine = [
            (
                "listen 443 ssl;".to_string(),
                format!("listen 127.0.0.1:{https} ssl;"),
            ),
            (
                "listen 80;".to_string(),
                format!("listen 127.0.0.1:{http};"),
            ),
            (
                ":443$request_uri".to_string(),
                format!(":{https}$request_uri"),
            ),
            (
                "/etc/letsencrypt/live/rooms.example.org/fullchain.pem".to_string(),
                cert.display().to_string(),
            ),
            (
                "/etc/letsencrypt/live/rooms.example.org/privkey.pem".to_string(),
                key.display().to_string(),
            ),
            (node_line.clone(), node_lines.join("\n")),
        ];
        let more = edits.iter().map(|(f, t)| (f.to_string(), t.to_string()));
        for (from, to) in machine.into_iter().chain(more) {
            assert!(
                site.contains(&from),
                "server/deploy/nginx.conf has no '{from}'"
            );
            site = site.replace(&from, &to);
        }
        std::fs::write(dir.path().join("site.conf"), site).unwrap();

        // The main context as docs/deploy.md gives it, scaled down: one
        // worker with room for the tests' few hundred sockets (two each).
        // gzip on, as Debian's nginx.conf has it (here for scripts too):
        // the recipe must not compress the board's files again.
        let d = dir.path().display();
        let main = format!(
            "daemon off;\nworker_processes 1;\nworker_rlimit_nofile 4096;\npid {d}/nginx.pid;\n\
             error_log {d}/error.log warn;\nevents {{ worker_connections 1024; }}\n\
             http {{\n  access_log {d}/access.log;\n  gzip on;\n  gzip_types text/javascript application/javascript;\n  \
             client_body_temp_path {d}/body;\n  proxy_temp_path {d}/proxy;\n\
             fastcgi_temp_path {d}/fastcgi;\n  uwsgi_temp_path {d}/uwsgi;\n  scgi_temp_path {d}/scgi;\n  include {d}/site.conf;\n}}\n"
        );
        std::fs::write(dir.path().join("nginx.conf"), main).unwrap();
        let child = Command::new(nginx)
            .arg("-p")
            .arg(dir.path())
            .arg("-c")
            .arg(dir.path().join("nginx.conf"))
            .arg("-e")
            .arg(dir.path().join("error.log"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start nginx");
        let tls = mollett::rooms::tls::client_config(Some(&cert)).unwrap();
        let mut front = Front {
            https,
            http,
            cert,
            dir,
            tls,
            child,
        };
        let deadline = Instant::now() + WAIT;
        while TcpStream::connect(("127.0.0.1", https)).is_err()
            || TcpStream::connect(("127.0.0.1", http)).is_err()
        {
            if let Ok(Some(status)) = front.child.try_wait() {
                panic!("nginx stopped ({status}): {}", front.log("error.log"));
            }
            assert!(
                Instant::now() < deadline,
                "nginx does not listen: {}",
                front.log("error.log")
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        Some(front)
    }

    /// One of nginx's logs (`access.log`, `error.log`).
    pub fn log(&self, name: &str) -> String {
        std::fs::read_to_string(self.dir.path().join(name)).unwrap_or_default()
    }

    /// A TLS connection to nginx's https port from the loopback address `from`.
    pub fn connect_from(&self, from: &str) -> Tls {
        let tcp = tcp_from(self.https, from);
        let name = ServerName::try_from("127.0.0.1").unwrap();
        let conn = rustls::ClientConnection::new(self.tls.clone(), name).unwrap();
        rustls::StreamOwned::new(conn, tcp)
    }

    /// One HTTPS request from `from`, with `headers` (each line ending in
    /// CRLF); the connection closed after the answer.
    pub fn https_from(
        &self,
        from: &str,
        method: &str,
        path: &str,
        headers: &str,
        body: &str,
    ) -> Answer {
        let mut s = self.connect_from(from);
        s.write_all(request(self.https, method, path, headers, body).as_bytes())
            .unwrap();
        Answer::parse(&read_to_close(&mut s))
    }

    /// `POST /api/rooms` (a modern room, no clock) from `from`.
    pub fn create_room_from(&self, from: &str, headers: &str) -> Answer {
        let body = r#"{"variant":"modern","color":"black","clock":null}"#;
        let headers = format!("Content-Type: application/json\r\n{headers}");
        self.https_from(from, "POST", "/api/rooms", &headers, body)
    }

    /// One plain-http request to nginx's port 80 (the recipe's).
    pub fn http(&self, method: &str, path: &str) -> Answer {
        let mut s = tcp_from(self.http, "127.0.0.1");
        s.write_all(request(self.http, method, path, "", "").as_bytes())
            .unwrap();
        Answer::parse(&read_to_close(&mut s))
    }

    /// A WebSocket upgrade to room `room` from `from`: nginx's (or the
    /// server's) answer, and the socket, held open, if it was upgraded.
    pub fn upgrade_from(&self, from: &str, room: &str) -> (Answer, Option<Tls>) {
        let mut s = self.connect_from(from);
        let req = format!(
            "GET /ws/{room} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n",
            self.https
        );
        s.write_all(req.as_bytes()).unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") {
            match s.read(&mut byte) {
                Ok(1) => head.push(byte[0]),
                _ => break,
            }
        }
        let answer = Answer::parse(&head);
        let open = (answer.status == 101).then_some(s);
        (answer, open)
    }
}

impl Drop for Front {
    /// SIGTERM to the master takes its workers with it.
    fn drop(&mut self) {
        stop(&mut self.child, "TERM");
    }
}

/// Ends `child` with `signal` (`TERM`, `INT`: its own clean shutdown),
/// waiting up to 5 s before SIGKILL.
pub fn stop(child: &mut Child, signal: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{signal}"), &child.id().to_string()])
        .status();
    let deadline = Instant::now() + Duration::from_secs(5);
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// A self-signed certificate for 127.0.0.1, made as docs/deploy.md makes one.
pub fn self_signed(openssl: &Path, dir: &Path) -> (PathBuf, PathBuf) {
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    let made = Command::new(openssl)
        .args([
            "req",
            "-x509",
            "-newkey",
            "ec",
            "-pkeyopt",
            "ec_paramgen_curve:prime256v1",
        ])
        .args(["-nodes", "-days", "2", "-subj", "/CN=127.0.0.1"])
        .args(["-addext", "subjectAltName=IP:127.0.0.1"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(&key)
        .arg("-out")
        .arg(&cert)
        .output()
        .unwrap();
    assert!(
        made.status.success(),
        "{}",
        String::from_utf8_lossy(&made.stderr)
    );
    (cert, key)
}

/// A TCP connection to loopback port `port` from the address `from` (any
/// of 127.0.0.0/8 is this machine: another client without a network),
/// its reads and writes bounded.
pub fn tcp_from(port: u16, from: &str) -> TcpStream {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    let source = SocketAddr::new(from.parse().expect("an IPv4 address"), 0);
    socket.bind(&source.into()).unwrap();
    let to = SocketAddr::from(([127, 0, 0, 1], port));
    socket
        .connect_timeout(&to.into(), WAIT)
        .unwrap_or_else(|e| panic!("connect to {to} from {from}: {e}"));
    let tcp: TcpStream = socket.into();
    tcp.set_read_timeout(Some(WAIT)).unwrap();
    tcp.set_write_timeout(Some(WAIT)).unwrap();
    tcp
}

fn request(port: u16, method: &str, path: &str, headers: &str, body: &str) -> String {
    format!(
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{headers}\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// Reads until the peer closes (a TLS peer that closes without its
/// close_notify is as good: the answer came).
fn read_to_close(s: &mut impl Read) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match s.read(&mut buf) {
            Ok(0) | Err(_) => return out,
            Ok(n) => out.extend_from_slice(&buf[..n]),
        }
    }
}
