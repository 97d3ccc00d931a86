//! `mollett-server`: the board site and rooms on one port.

use clap::Parser;
use mollett_server::{http, hub::Hub, sqlite::SqliteStore};
use std::net::SocketAddr;
use std::path::PathBuf;

/// Serves the Mollett board (the built site) and two-player rooms.
#[derive(Parser)]
#[command(version)]
struct Args {
    /// Address to listen on (port 0: any free port, printed on stderr).
    #[arg(long, default_value = "127.0.0.1:8000")]
    addr: SocketAddr,
    /// The SQLite database file holding every room and move (made if absent).
    #[arg(long, default_value = "mollett-rooms.db")]
    db: PathBuf,
    /// The built board site (scripts/web/build.sh).
    #[arg(long, default_value = "target/web")]
    site: PathBuf,
    /// Sync the database to disk on every move (survives a power cut, not
    /// only a killed server; slower).
    #[arg(long)]
    durable: bool,
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
    if !args.site.join("index.html").is_file() {
        log::warn!(
            "{}: no index.html (build the site with scripts/web/build.sh); rooms work without it",
            args.site.display()
        );
    }
    let store = SqliteStore::open(&args.db, args.durable)?;
    let hub = Hub::load(Box::new(store))?;
    let listener = tokio::net::TcpListener::bind(args.addr)
        .await
        .map_err(|e| format!("{}: {e}", args.addr))?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    // Tests and scripts read this line to find the port when --addr had port 0.
    eprintln!("mollett-server: listening on http://{addr}/");
    axum::serve(listener, http::router(hub, args.site))
        .with_graceful_shutdown(async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| e.to_string())
}
