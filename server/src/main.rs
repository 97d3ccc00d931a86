//! `mollett-server`: the board site and rooms on one port.

use clap::Parser;
use mollett_server::limits::{self, Limits};
use mollett_server::store::Store;
use mollett_server::{http, hub::Hub, listen, postgres::PgStore, sqlite::SqliteStore};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

/// Serves the Mollett board (the built site) and two-player rooms.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Address to listen on (port 0: any free port, printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8000")]
    addr: SocketAddr,
    /// Where every room and move is kept: a SQLite file (made if absent),
    /// or a PostgreSQL database that several servers share
    /// (postgres://USER@HOST:PORT/DB, docs/deploy.md).
    #[arg(long, default_value = "mollett-rooms.db")]
    db: String,
    /// The built board site (scripts/web/build.sh).
    #[arg(long, default_value = "target/web")]
    site: PathBuf,
    /// Sync the SQLite file to disk on every move (survives a power cut, not
    /// only a killed server; slower). PostgreSQL follows its own settings.
    #[arg(long)]
    durable: bool,
    /// Open connections in all (lowered to the open-file limit less 64).
    #[arg(long, default_value_t = limits::MAX_CONNECTIONS, value_parser = positive)]
    max_connections: usize,
    /// Open connections from one address group (an IPv4 /24, an IPv6 /64),
    /// never more than an eighth of --max-connections; a --trusted-proxy
    /// is held to this number alone.
    #[arg(long, default_value_t = limits::PER_ADDRESS, value_parser = positive)]
    per_address: usize,
    /// Spectators one room takes.
    #[arg(long, default_value_t = limits::SPECTATORS)]
    spectators: usize,
    /// Rooms one address may make at once (then one per --room-every seconds).
    #[arg(long, default_value_t = limits::ROOMS_BURST, value_parser = clap::value_parser!(u32).range(1..))]
    rooms_burst: u32,
    /// Seconds between rooms from one address once its burst is spent.
    #[arg(long, default_value_t = limits::ROOM_EVERY.as_secs_f64(), value_parser = seconds)]
    room_every: f64,
    /// Seconds a WebSocket has to say hello.
    #[arg(long, default_value_t = limits::HELLO_TIMEOUT.as_secs_f64(), value_parser = seconds)]
    hello_timeout: f64,
    /// Seconds between the server's pings on each WebSocket.
    #[arg(long, default_value_t = limits::PING_EVERY.as_secs_f64(), value_parser = seconds)]
    ping_every: f64,
    /// Seconds of silence after which a WebSocket is closed (its seat offline).
    #[arg(long, default_value_t = limits::PING_TIMEOUT.as_secs_f64(), value_parser = seconds)]
    ping_timeout: f64,
    /// Seconds an HTTP request's header, and a room request's body, may take.
    #[arg(long, default_value_t = limits::HEADER_TIMEOUT.as_secs_f64(), value_parser = seconds)]
    request_timeout: f64,
    /// A reverse proxy (its address as the server sees it, e.g. 127.0.0.1)
    /// whose X-Forwarded-For names the client for the room-making limit and
    /// whose X-Forwarded-Proto the scheme of the site's pages (https behind
    /// TLS: an http page's Origin is then foreign); repeatable (docs/deploy.md).
    #[arg(long = "trusted-proxy")]
    trusted_proxies: Vec<std::net::IpAddr>,
    /// An origin besides the server's own host (e.g. https://example.org)
    /// whose pages may make rooms and open their WebSockets; repeatable.
    #[arg(long = "allow-origin", value_parser = origin)]
    allowed_origins: Vec<String>,
    /// Seconds a seat is offline before the one who stayed may claim the game.
    #[arg(long, default_value_t = limits::CLAIM_AFTER.as_secs_f64(), value_parser = seconds)]
    claim_after: f64,
}

fn origin(s: &str) -> Result<String, String> {
    match s.split_once("://") {
        Some(("http" | "https", host)) if !host.is_empty() && !host.contains('/') => {
            Ok(s.to_string())
        }
        _ => Err(format!(
            "'{s}': an origin is http(s)://HOST[:PORT], no path"
        )),
    }
}

fn positive(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!("'{s}': a whole number above 0")),
    }
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (0.01..=86_400.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}': seconds, from 0.01 to 86400")),
    }
}

#[tokio::main]
async fn main() {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("info")).init();
    let args = Args::parse();
    if let Err(e) = run(args).await {
        eprintln!("mollett-server: {e}");
        std::process::exit(1);
    }
}

async fn run(args: Args) -> Result<(), String> {
    // A client answers each ping at once and is silent until the next: a
    // timeout within one interval would close every connection.
    if args.ping_timeout <= args.ping_every {
        return Err(format!(
            "--ping-timeout {} must be longer than --ping-every {}",
            args.ping_timeout, args.ping_every
        ));
    }
    if !args.site.join("index.html").is_file() {
        log::warn!(
            "{}: no index.html (build the site with scripts/web/build.sh); rooms work without it",
            args.site.display()
        );
    }
    let open_files = listen::raise_open_files();
    let connections = listen::connection_cap(args.max_connections, open_files);
    if connections < args.max_connections {
        log::warn!(
            "at most {connections} connections: the open-file limit is {}",
            open_files.unwrap_or(0)
        );
    }
    let secs = Duration::from_secs_f64;
    let limits = Limits {
        connections,
        per_address: args.per_address.min(connections),
        spectators: args.spectators,
        rooms_burst: args.rooms_burst,
        room_every: secs(args.room_every),
        hello: secs(args.hello_timeout),
        ping_every: secs(args.ping_every),
        ping_timeout: secs(args.ping_timeout),
        header_timeout: secs(args.request_timeout),
        body_timeout: secs(args.request_timeout),
        trusted_proxies: args.trusted_proxies.clone(),
        allowed_origins: args.allowed_origins.clone(),
        claim_after: secs(args.claim_after),
        ..Limits::default()
    };
    let store: Box<dyn Store> =
        if args.db.starts_with("postgres://") || args.db.starts_with("postgresql://") {
            if args.durable {
                log::warn!("--durable is for a SQLite file: PostgreSQL syncs as it is set to");
            }
            Box::new(PgStore::open(&args.db)?)
        } else {
            Box::new(SqliteStore::open(&PathBuf::from(&args.db), args.durable)?)
        };
    let hub = Hub::load_with(store, limits.clone())?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("{}: {e}", args.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // Tests and scripts read this line to find the port when --addr had port 0.
    eprintln!("mollett-server: listening on http://{addr}/");
    let shutdown = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    listen::serve(listener, http::router(hub, args.site), &limits, shutdown).await;
    Ok(())
}
