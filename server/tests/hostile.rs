//! Clients that hold what others need (issue 77), over loopback: address
//! groups and the connection caps.

mod common;

use common::*;
use mollett_server::limits::Limits;
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Short hello and request limits, as in limits.rs.
fn quick() -> Limits {
    Limits {
        hello: Duration::from_millis(300),
        header_timeout: Duration::from_millis(300),
        body_timeout: Duration::from_millis(300),
        presence_delay: Duration::from_millis(50),
        ..Limits::default()
    }
}

/// Reads until the server closes the connection; the bytes it sent.
async fn read_to_close(s: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out))
        .await
        .expect("the server closes the connection in time");
    String::from_utf8_lossy(&out).to_string()
}

/// `GET /` on a fresh connection from `from`: the whole answer.
async fn get_from(addr: SocketAddr, from: &str) -> String {
    let mut s = tcp_from(addr, from).await;
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    read_to_close(&mut s).await
}

#[tokio::test]
async fn one_address_cannot_take_every_connection() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        per_address: 5,
        connections: 40,
        header_timeout: Duration::from_millis(1500),
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    // Five idle connections from one address: the sixth is refused, plainly.
    let mut idle = Vec::new();
    for _ in 0..5 {
        idle.push(tcp_from(addr, "127.0.0.4").await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let answer = get_from(addr, "127.0.0.4").await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(
        answer.contains("too many connections from your address (at most 5)"),
        "{answer}"
    );
    // Another address still makes a room and plays.
    let (got, _, body) = http_from(
        addr,
        "127.0.1.5",
        "POST",
        "/api/rooms",
        "Content-Type: application/json\r\n",
        r#"{"variant":"modern","color":"black"}"#,
    )
    .await;
    assert_eq!(got, 201, "{body}");
    // Past the total (40): seven more groups of five fill it, the next is told so.
    tokio::time::sleep(Duration::from_millis(50)).await;
    for group in 2..9 {
        for _ in 0..5 {
            idle.push(tcp_from(addr, &format!("127.0.{group}.1")).await);
        }
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut last = tcp_from(addr, "127.0.9.1").await;
    let answer = read_to_close(&mut last).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    // The idle ones never sent a request: closed by the header time limit,
    // after which there is room again.
    for mut s in idle {
        read_to_close(&mut s).await;
    }
    assert!(get_from(addr, "127.0.0.4").await.starts_with("HTTP/1.1 200"));
}

#[tokio::test]
async fn an_address_group_holds_at_most_an_eighth_of_the_connections() {
    let (_dir, site, db) = scratch();
    // --per-address as deployed (256), a small total: a /24 gets 64 / 8.
    let limits = Limits {
        connections: 64,
        header_timeout: Duration::from_millis(1500),
        trusted_proxies: vec!["127.0.3.1".parse().unwrap()],
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let mut idle = Vec::new();
    for i in 1..=8 {
        idle.push(tcp_from(addr, &format!("127.0.1.{i}")).await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    // A ninth from the same /24, another address of it: refused.
    let answer = get_from(addr, "127.0.1.9").await;
    assert!(answer.starts_with("HTTP/1.1 429"), "{answer}");
    assert!(answer.contains("(at most 8)"), "{answer}");
    // Another group gets in.
    assert!(get_from(addr, "127.0.2.1").await.starts_with("HTTP/1.1 200"));
    // A trusted proxy speaks for many clients: only --per-address holds it.
    for _ in 0..10 {
        idle.push(tcp_from(addr, "127.0.3.1").await);
    }
    tokio::time::sleep(Duration::from_millis(50)).await;
    assert!(get_from(addr, "127.0.3.1").await.starts_with("HTTP/1.1 200"));
    for mut s in idle {
        read_to_close(&mut s).await;
    }
}
