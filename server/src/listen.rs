//! The accept loop: connections counted per address group and in all
//! (refused with a plain HTTP answer past the caps), HTTP/1 with a header
//! time limit, and the client's address handed to the routes.

use crate::limits::{client_key, Limits, FD_RESERVE, SEND_BUFFER};
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::Request;
use hyper_util::rt::{TokioIo, TokioTimer};
use std::collections::HashMap;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tower_service::Service;

/// Refusals being written at once; past this a refused connection is
/// closed without an answer (a flood should not cost files of its own).
const REFUSING: usize = 64;

/// Raises the soft open-file limit to the hard one and returns the soft
/// limit now in force (`None` where it cannot be read).
pub fn raise_open_files() -> Option<u64> {
    #[cfg(unix)]
    {
        use rustix::process::{getrlimit, setrlimit, Resource};
        let mut lim = getrlimit(Resource::Nofile);
        if let (Some(cur), Some(max)) = (lim.current, lim.maximum) {
            if cur < max {
                lim.current = Some(max);
                match setrlimit(Resource::Nofile, lim) {
                    Ok(()) => return Some(max),
                    Err(e) => log::warn!("open-file limit stays {cur}: raising it to {max}: {e}"),
                }
            }
        }
        getrlimit(Resource::Nofile).current
    }
    #[cfg(not(unix))]
    None
}

/// The connection cap that fits under `open_files` (the soft limit).
pub fn connection_cap(wanted: usize, open_files: Option<u64>) -> usize {
    match open_files {
        Some(n) => wanted.min((n as usize).saturating_sub(FD_RESERVE).max(1)),
        None => wanted,
    }
}

/// What connections are counted by: a client's address group
/// ([`client_key`]), or a trusted proxy's own address, which speaks for
/// many clients.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Key {
    Group(IpAddr),
    Proxy(IpAddr),
}

/// The counts of open connections.
struct Gate {
    total: AtomicUsize,
    max_total: usize,
    by_address: Mutex<HashMap<Key, usize>>,
    /// [`Limits::per_group`]: at most an eighth of the total.
    max_per_group: usize,
    /// `--per-address` alone: a proxy's clients are capped by the proxy.
    max_per_proxy: usize,
    proxies: Vec<IpAddr>,
    refusing: AtomicUsize,
}

/// Why a connection was not taken (for an address: the cap it reached).
#[derive(Clone, Copy)]
enum Refusal {
    Address(usize),
    Full,
}

/// One admitted connection; dropping it (when the connection, or the
/// WebSocket it became, closes) frees its place.
struct Ticket {
    gate: Arc<Gate>,
    key: Key,
}

impl Gate {
    fn admit(self: &Arc<Gate>, peer: IpAddr) -> Result<Ticket, Refusal> {
        let (key, max) = if self.proxies.contains(&peer) {
            (Key::Proxy(peer), self.max_per_proxy)
        } else {
            (Key::Group(client_key(peer)), self.max_per_group)
        };
        let mut map = self.by_address.lock().unwrap_or_else(|e| e.into_inner());
        let n = map.entry(key).or_insert(0);
        if *n >= max {
            return Err(Refusal::Address(max));
        }
        if self.total.fetch_add(1, Ordering::Relaxed) >= self.max_total {
            self.total.fetch_sub(1, Ordering::Relaxed);
            if *n == 0 {
                map.remove(&key);
            }
            return Err(Refusal::Full);
        }
        *n += 1;
        Ok(Ticket {
            gate: self.clone(),
            key,
        })
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        let mut map = self
            .gate
            .by_address
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        if let Some(n) = map.get_mut(&self.key) {
            *n -= 1;
            if *n == 0 {
                map.remove(&self.key);
            }
        }
        self.gate.total.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A TCP stream that holds its connection's place until it is dropped:
/// it travels into the WebSocket when the connection is upgraded.
struct Counted {
    stream: TcpStream,
    _ticket: Ticket,
}

impl AsyncRead for Counted {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_read(cx, buf)
    }
}

impl AsyncWrite for Counted {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// The answer to a connection past a cap, sent before its request is read.
fn refusal_text(why: Refusal) -> String {
    let (status, message) = match why {
        Refusal::Address(per_address) => (
            "429 Too Many Requests",
            format!("too many connections from your address (at most {per_address})"),
        ),
        Refusal::Full => (
            "503 Service Unavailable",
            "the server has as many connections as it can hold".to_string(),
        ),
    };
    let body = serde_json::json!({ "error": message }).to_string();
    format!(
        "HTTP/1.1 {status}\r\nContent-Type: application/json\r\nRetry-After: 10\r\n\
         Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
}

async fn refuse(gate: Arc<Gate>, mut stream: TcpStream, why: Refusal) {
    if gate.refusing.fetch_add(1, Ordering::Relaxed) < REFUSING {
        let text = refusal_text(why);
        let _ = tokio::time::timeout(Duration::from_secs(1), async {
            stream.write_all(text.as_bytes()).await?;
            stream.shutdown().await?;
            // Read what the client sent, so that closing does not reset the
            // connection before the answer is read.
            let mut sink = [0u8; 4096];
            while stream.read(&mut sink).await? > 0 {}
            Ok::<(), io::Error>(())
        })
        .await;
    }
    gate.refusing.fetch_sub(1, Ordering::Relaxed);
}

/// Serves `app` on `listener` until `shutdown` completes.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: &Limits,
    shutdown: impl Future<Output = ()>,
) {
    let gate = Arc::new(Gate {
        total: AtomicUsize::new(0),
        max_total: limits.connections,
        by_address: Mutex::new(HashMap::new()),
        max_per_group: limits.per_group(),
        max_per_proxy: limits.per_address.max(1),
        proxies: limits.trusted_proxies.clone(),
        refusing: AtomicUsize::new(0),
    });
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let http = Arc::new(http);
    tokio::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            _ = &mut shutdown => return,
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of files, most likely: wait for some to close
                    // rather than spin.
                    log::warn!("accept: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let ticket = match gate.admit(peer.ip()) {
            Ok(t) => t,
            Err(why) => {
                tokio::spawn(refuse(gate.clone(), stream, why));
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        // A reader that stops reading then stalls its connection's writes
        // within a few frames (and is cut off) rather than parking megabytes
        // in the kernel.
        let _ = socket2::SockRef::from(&stream).set_send_buffer_size(SEND_BUFFER);
        let io = TokioIo::new(Counted {
            stream,
            _ticket: ticket,
        });
        let app = app.clone();
        let http = http.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
                req.extensions_mut().insert(ConnectInfo(peer));
                app.clone().call(req)
            });
            // A connection that ends badly (a timeout, a reset) is the client's business.
            let _ = http.serve_connection(io, service).with_upgrades().await;
        });
    }
}

/// The client's address as the accept loop saw it.
pub fn peer(extensions: &axum::http::Extensions) -> Option<SocketAddr> {
    extensions.get::<ConnectInfo<SocketAddr>>().map(|c| c.0)
}
