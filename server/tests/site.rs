//! The board site as the server sends it (docs/web.md, "What a visit
//! loads"): the build's brotli and gzip copies where the browser accepts
//! them, never a compression of its own, a year's caching for hashed names
//! and a revalidation for the rest.

mod common;

use common::*;
use std::net::SocketAddr;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// GET `path` with `Accept-Encoding: accept`: the status, the header block
/// (lower case) and the body's bytes as sent.
async fn get(addr: SocketAddr, path: &str, accept: &str) -> (u16, String, Vec<u8>) {
    let mut s = tcp_from(addr, "127.0.0.1").await;
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept-Encoding: {accept}\r\n\r\n"
    );
    s.write_all(req.as_bytes()).await.unwrap();
    let mut out = Vec::new();
    tokio::time::timeout(WAIT, s.read_to_end(&mut out))
        .await
        .expect("an answer in time")
        .unwrap();
    let at = out.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&out[..at]).to_lowercase();
    (head[9..12].parse().unwrap(), head, out[at + 4..].to_vec())
}

fn header<'a>(head: &'a str, name: &str) -> Option<&'a str> {
    head.lines().find_map(|l| {
        let (k, v) = l.split_once(':')?;
        (k.trim() == name).then(|| v.trim())
    })
}

#[tokio::test]
async fn the_builds_compressed_copies_are_sent_with_a_years_caching_for_hashed_names() {
    let (_dir, site, db) = scratch_built();
    let addr = start_in_process(&db, &site).await;

    // A hashed name: brotli where accepted (preferred over gzip), cached a year.
    let (status, head, body) = get(addr, "/app.0123456789ab.js", "gzip, deflate, br").await;
    assert_eq!(status, 200, "{head}");
    assert_eq!(body, b"brotli bytes of the script", "{head}");
    assert_eq!(header(&head, "content-encoding"), Some("br"), "{head}");
    assert_eq!(
        header(&head, "cache-control"),
        Some("public, max-age=31536000, immutable"),
        "{head}"
    );
    assert!(head.contains("vary: accept-encoding"), "{head}");
    assert!(
        header(&head, "content-type")
            .unwrap()
            .contains("javascript"),
        "{head}"
    );
    let (_, head, body) = get(addr, "/app.0123456789ab.js", "gzip").await;
    assert_eq!(body, b"gzip bytes of the script", "{head}");
    assert_eq!(header(&head, "content-encoding"), Some("gzip"), "{head}");
    let (_, head, body) = get(addr, "/app.0123456789ab.js", "identity").await;
    assert_eq!(body, b"export const app = 1;", "{head}");
    assert_eq!(header(&head, "content-encoding"), None, "{head}");

    // The page keeps its name and is asked for again every time.
    for path in ["/", "/index.html"] {
        let (status, head, body) = get(addr, path, "br").await;
        assert_eq!(status, 200, "{path}: {head}");
        assert_eq!(body, b"brotli bytes of the page", "{path}: {head}");
        assert_eq!(header(&head, "content-encoding"), Some("br"), "{head}");
        assert_eq!(header(&head, "cache-control"), Some("no-cache"), "{head}");
        assert!(
            header(&head, "content-type")
                .unwrap()
                .starts_with("text/html"),
            "{head}"
        );
    }

    // A file without copies goes as it is: nothing is compressed per request.
    let (status, head, body) = get(addr, "/plain.js", "gzip, br").await;
    assert_eq!(status, 200, "{head}");
    assert_eq!(body.len(), 20_000, "{head}");
    assert_eq!(header(&head, "content-encoding"), None, "{head}");
    assert_eq!(header(&head, "cache-control"), Some("no-cache"), "{head}");

    // A hashed name that is not there is not cached for a year.
    let (status, head, _) = get(addr, "/app.ffffffffffff.js", "br").await;
    assert_eq!(status, 404, "{head}");
    assert_eq!(header(&head, "cache-control"), None, "{head}");
}

#[test]
fn a_hashed_name_is_the_builds_name_dot_twelve_hex_digits_dot_extension() {
    use mollett_server::http::is_hashed;
    for yes in [
        "/mollett.a6ffc713b135.wasm",
        "/shared/engine.05cf2dd276c2.js",
        "/data/modern-weights.d0b77ce974ee.bin",
    ] {
        assert!(is_hashed(yes), "{yes}");
    }
    for no in [
        "/",
        "/index.html",
        "/mollett.wasm",
        "/x.A6FFC713B135.js",
        "/x.a6ffc713b13.js",
        "/.a6ffc713b135.js",
        "/mollett.a6ffc713b135.wasm.br",
    ] {
        assert!(!is_hashed(no), "{no}");
    }
}
