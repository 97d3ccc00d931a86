//! The HTTP side: the rooms API, the WebSocket upgrade, and the board site
//! (static files: their brotli or gzip copies where the browser accepts
//! them, as scripts/web/build.sh wrote them; nothing compressed here).

use crate::download;
use crate::event::ClockSpec;
use crate::hub::Hub;
use crate::ids::looks_like_id;
use crate::limits::Limits;
use crate::wire::MAX_FRAME;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::{header, Extensions, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use mollett::{Color, Variant};
use serde::Deserialize;
use serde_json::json;
use std::net::IpAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tower_http::services::ServeDir;

/// Frames past this are refused by the WebSocket library itself (the
/// connection closes without an answer); between `MAX_FRAME` and this, the
/// server answers `too-large` before closing.
const LIBRARY_LIMIT: usize = 64 * 1024;
/// A connection's read and write buffers (bytes).
const BUFFER: usize = 8 * 1024;
/// The longest path asked for: far past any the site or the API has, and
/// short of the file system's name limit (whose error the file service
/// would answer with 500).
pub const MAX_PATH: usize = 1024;

/// `Cache-Control` of a file whose name holds its content's hash: the same
/// name always has the same bytes.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// `Cache-Control` of every other file (the html pages, whose addresses
/// people keep): kept, but asked again (a 304 when unchanged).
pub const REVALIDATE: &str = "no-cache";

pub fn router(hub: Arc<Hub>, site: PathBuf) -> Router {
    // The build's NAME.br and NAME.gz beside each file (scripts/web/assets.py):
    // a first visit costs the server no compression (it gzipped the 18 MB
    // wasm for every visitor, about a second of CPU each, issue 78). The API's
    // answers are a few hundred bytes of JSON and go uncompressed.
    let files = Router::new()
        .fallback_service(
            ServeDir::new(site)
                .append_index_html_on_directories(true)
                .precompressed_br()
                .precompressed_gzip(),
        )
        .layer(axum::middleware::from_fn(site_caching));
    Router::new()
        .route("/api/rooms", post(create))
        .route("/api/rooms/{id}", get(room_state))
        .route("/api/rooms/{id}/game.txt", get(game_txt))
        .route("/api/rooms/{id}/game.ggf", get(game_ggf))
        .route("/api/rooms/{id}/games/{file}", get(game_file))
        .route("/ws/{id}", get(websocket))
        .layer(DefaultBodyLimit::max(MAX_FRAME))
        .with_state(hub)
        .fallback_service(files)
        .layer(axum::middleware::from_fn(path_limit))
}

/// Before any route or file lookup: 414 for a path longer than
/// `MAX_PATH`, and 404 for a name no file system holds (past 255 bytes: the
/// file service would answer the system's "name too long" with 500).
async fn path_limit(request: Request, next: axum::middleware::Next) -> Response {
    let path = request.uri().path();
    if path.len() > MAX_PATH {
        return error(
            StatusCode::URI_TOO_LONG,
            format!("the path may hold {MAX_PATH} bytes"),
        );
    }
    if path.split('/').any(|name| name.len() > 255) {
        return error(StatusCode::NOT_FOUND, "no such file");
    }
    next.run(request).await
}

/// A file's caching: a year and never asked again for a hashed name, asked
/// again every time for the rest; and, as the bytes sent depend on the
/// request's `Accept-Encoding`, `Vary` says so to any cache on the way.
async fn site_caching(request: Request, next: axum::middleware::Next) -> Response {
    let hashed = is_hashed(request.uri().path());
    let mut response = next.run(request).await;
    let status = response.status();
    if status.is_success() || status == StatusCode::NOT_MODIFIED {
        let cache = if hashed { IMMUTABLE } else { REVALIDATE };
        let headers = response.headers_mut();
        headers.insert(
            header::CACHE_CONTROL,
            header::HeaderValue::from_static(cache),
        );
        headers.append(
            header::VARY,
            header::HeaderValue::from_static("accept-encoding"),
        );
    }
    response
}

/// Whether the path's last name is the build's `NAME.HASH.EXT`, HASH 12
/// lowercase hex digits (scripts/web/assets.py).
pub fn is_hashed(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or("");
    let mut parts = name.rsplit('.');
    let (Some(ext), Some(hash), Some(stem)) = (parts.next(), parts.next(), parts.next()) else {
        return false;
    };
    !ext.is_empty()
        && !stem.is_empty()
        && hash.len() == 12
        && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

fn json_response(status: StatusCode, body: String) -> Response {
    (status, [(header::CONTENT_TYPE, "application/json")], body).into_response()
}

fn error(status: StatusCode, message: impl Into<String>) -> Response {
    json_response(status, json!({"error": message.into()}).to_string())
}

fn no_room() -> Response {
    error(StatusCode::NOT_FOUND, "no such room")
}

fn too_large() -> Response {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body may hold {MAX_FRAME} bytes"),
    )
}

#[derive(Deserialize)]
struct CreateRequest {
    variant: String,
    color: String,
    #[serde(default)]
    clock: Option<ClockRequest>,
}

#[derive(Deserialize)]
struct ClockRequest {
    minutes: f64,
    increment: f64,
}

/// The request's values, checked: variant, the creator's colour (`None`
/// for random) and the clock.
type Create = (Variant, Option<Color>, Option<ClockSpec>);

fn parse_create(body: &[u8]) -> Result<Create, String> {
    let req: CreateRequest = serde_json::from_slice(body).map_err(|e| e.to_string())?;
    let variant = match req.variant.as_str() {
        "modern" => Variant::Modern,
        "classic" => Variant::Classic,
        v => return Err(format!("variant '{v}': modern or classic")),
    };
    let color = match req.color.as_str() {
        "black" => Some(Color::Black),
        "white" | "red" => Some(Color::White),
        "random" => None,
        c => return Err(format!("color '{c}': black, white, red or random")),
    };
    let clock = match req.clock {
        None => None,
        Some(c) => {
            if !(0.5..=180.0).contains(&c.minutes) {
                return Err("clock minutes: from 0.5 to 180".into());
            }
            if !(0.0..=180.0).contains(&c.increment) {
                return Err("clock increment: from 0 to 180 seconds".into());
            }
            Some(ClockSpec {
                initial_ms: (c.minutes * 60_000.0).round() as u64,
                increment_ms: (c.increment * 1000.0).round() as u64,
            })
        }
    };
    Ok((variant, color, clock))
}

/// Why a request comes from another site's page: its `Origin` is not one
/// of the allowed origins, and names another host than the one it was sent
/// to or another scheme than the server's pages are loaded over
/// ([`page_scheme`]): an `http://` page of the host, which anyone on the
/// network path can write, is not the https site's own. Browsers send
/// `Origin` with every cross-site POST and every WebSocket upgrade;
/// programs (room-play, curl) send none and are not refused.
fn foreign_origin(headers: &HeaderMap, limits: &Limits, peer: Option<IpAddr>) -> Option<String> {
    let origin = headers.get(header::ORIGIN)?.to_str().unwrap_or("?");
    if limits
        .allowed_origins
        .iter()
        .any(|a| a.eq_ignore_ascii_case(origin))
    {
        return None;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let scheme = page_scheme(headers, peer, &limits.trusted_proxies);
    match (origin.split_once("://"), host) {
        (Some((s, a)), Some(h)) if s.eq_ignore_ascii_case(scheme) && a.eq_ignore_ascii_case(h) => {
            None
        }
        _ => Some(origin.to_string()),
    }
}

/// The scheme this server's own pages are loaded over: the server speaks
/// plain http, unless the peer is a trusted proxy whose
/// `X-Forwarded-Proto` says otherwise (its last entry, the one the proxy
/// wrote; from any other peer the header is anyone's word).
fn page_scheme<'a>(headers: &'a HeaderMap, peer: Option<IpAddr>, trusted: &[IpAddr]) -> &'a str {
    if !peer.is_some_and(|p| trusted.contains(&p)) {
        return "http";
    }
    headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .unwrap_or("http")
}

/// True when the body is declared JSON (a plain HTML form can send only
/// text/plain, urlencoded or multipart, so this keeps forms out too).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

async fn create(State(hub): State<Arc<Hub>>, req: Request) -> Response {
    let (parts, body) = req.into_parts();
    let peer = crate::listen::peer(&parts.extensions).map(|p| p.ip());
    if let Some(origin) = foreign_origin(&parts.headers, hub.limits(), peer) {
        return error(
            StatusCode::FORBIDDEN,
            format!("rooms are made from this site's own page, not from {origin}"),
        );
    }
    if !is_json(&parts.headers) {
        return error(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "the body must be Content-Type: application/json",
        );
    }
    // A body declared past the limit is refused before any of it is read:
    // waiting for it would hold the connection until the body time limit.
    let declared = parts
        .headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_FRAME as u64) {
        return too_large();
    }
    let within = hub.limits().body_timeout;
    let body = match tokio::time::timeout(within, axum::body::to_bytes(body, MAX_FRAME)).await {
        Ok(Ok(b)) => b,
        Ok(Err(_)) => return too_large(),
        Err(_) => {
            return error(
                StatusCode::REQUEST_TIMEOUT,
                format!("the body did not arrive within {} s", within.as_secs_f64()),
            )
        }
    };
    let (variant, color, clock) = match parse_create(&body) {
        Ok(r) => r,
        Err(e) => return error(StatusCode::BAD_REQUEST, e),
    };
    if let Some(peer) = peer {
        let forwarded = parts
            .headers
            .get("x-forwarded-for")
            .and_then(|v| v.to_str().ok());
        let client = crate::limits::client_ip(peer, forwarded, &hub.limits().trusted_proxies);
        if let Err(wait) = hub.may_make_room(client) {
            let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
            let limits = hub.limits();
            let mut r = error(
                StatusCode::TOO_MANY_REQUESTS,
                format!(
                    "too many rooms made from your address ({} at once, then one every {} s); try again in {secs} s",
                    limits.rooms_burst,
                    limits.room_every.as_secs_f64()
                ),
            );
            r.headers_mut().insert(
                header::RETRY_AFTER,
                secs.to_string().parse().expect("digits"),
            );
            return r;
        }
    }
    match hub.create(variant, color, clock) {
        Ok((room, seat, token)) => {
            let seat = crate::event::color_name(seat);
            json_response(
                StatusCode::CREATED,
                json!({"room": room, "seat": seat, "token": token}).to_string(),
            )
        }
        Err(e) => error(StatusCode::SERVICE_UNAVAILABLE, e.message),
    }
}

/// The room's id from the path, if it is one.
fn room_id(id: &str) -> Option<&str> {
    looks_like_id(id).then_some(id)
}

async fn room_state(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    match room_id(&id).and_then(|id| hub.state(id)) {
        Some(state) => json_response(StatusCode::OK, state),
        None => no_room(),
    }
}

/// A game's file to download: the transcript or the GGF record.
#[derive(Clone, Copy)]
enum Record {
    Txt,
    Ggf,
}

/// Game `game` of room `id` (`None`: the current one) as `record`.
fn game_record(hub: &Hub, id: &str, game: Option<u32>, record: Record) -> Response {
    let Some(id) = room_id(id) else {
        return no_room();
    };
    let text = hub.with_room(id, |r| {
        let n = game.unwrap_or(r.game_no);
        r.game_view(n).map(|v| {
            let text = match record {
                Record::Txt => download::transcript(&v),
                Record::Ggf => download::ggf(&v),
            };
            (n, text)
        })
    });
    match text {
        None => no_room(),
        Some(None) => error(StatusCode::NOT_FOUND, "no such game in this room"),
        Some(Some((_, text))) if matches!(record, Record::Txt) => {
            ([(header::CONTENT_TYPE, "text/plain; charset=utf-8")], text).into_response()
        }
        Some(Some((n, text))) => (
            [
                (header::CONTENT_TYPE, "application/octet-stream".to_string()),
                (
                    header::CONTENT_DISPOSITION,
                    format!("attachment; filename=\"mollett-{id}-{n}.ggf\""),
                ),
            ],
            text,
        )
            .into_response(),
    }
}

async fn game_txt(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    game_record(&hub, &id, None, Record::Txt)
}

async fn game_ggf(State(hub): State<Arc<Hub>>, Path(id): Path<String>) -> Response {
    game_record(&hub, &id, None, Record::Ggf)
}

/// `/api/rooms/ID/games/N.ggf` or `N.txt`: game N of the room (1 the first).
async fn game_file(
    State(hub): State<Arc<Hub>>,
    Path((id, file)): Path<(String, String)>,
) -> Response {
    let parsed = file.split_once('.').and_then(|(n, ext)| {
        let n = n.parse::<u32>().ok().filter(|&n| n >= 1)?;
        match ext {
            "txt" => Some((n, Record::Txt)),
            "ggf" => Some((n, Record::Ggf)),
            _ => None,
        }
    });
    match parsed {
        Some((n, record)) => game_record(&hub, &id, Some(n), record),
        None => error(
            StatusCode::NOT_FOUND,
            "a game's file is N.txt or N.ggf, N from 1",
        ),
    }
}

async fn websocket(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    extensions: Extensions,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    // A page of another site could otherwise play in a visitor's rooms with
    // the tokens its own origin cannot read, or fill rooms with watchers.
    let peer = crate::listen::peer(&extensions).map(|p| p.ip());
    if let Some(origin) = foreign_origin(&headers, hub.limits(), peer) {
        return error(
            StatusCode::FORBIDDEN,
            format!("rooms are played from this site's own page, not from {origin}"),
        );
    }
    // The room is looked up first: no such room is a 404 whatever the request.
    if !room_id(&id).is_some_and(|id| hub.exists(id)) {
        return no_room();
    }
    let ws = match ws {
        Ok(ws) => ws,
        Err(rejection) => return rejection.into_response(),
    };
    // The library's 128 KiB read and write buffers per connection would be
    // most of the server's memory with thousands of rooms; our frames are
    // at most 4 KiB in and a few KiB out.
    ws.max_message_size(LIBRARY_LIMIT)
        .max_frame_size(LIBRARY_LIMIT)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .max_write_buffer_size(LIBRARY_LIMIT)
        .on_upgrade(move |socket| crate::ws::serve(socket, hub, id))
}
