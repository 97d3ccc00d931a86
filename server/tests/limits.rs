//! The server against hostile and vanishing clients, over loopback, with
//! the limits shortened so that each test takes a second or two: a socket
//! that never says hello, a seat that goes silent, floods, cross-site
//! forms, room-making caps, slow requests, spectators, and rooms let go
//! from memory and read back (connection caps: hostile.rs).

mod common;

use common::*;
use mollett_server::limits::Limits;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// Short hello and request limits; pings as deployed (clients in these
/// tests do not always read, and would not answer quicker ones).
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
async fn read_to_close(s: &mut tokio::net::TcpStream) -> String {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(WAIT, s.read_to_end(&mut out))
        .await
        .expect("the server closes the connection in time");
    String::from_utf8_lossy(&out).to_string()
}

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (room, _, _) = create(addr, "modern", "black", Value::Null).await;
    let mut c = Client::connect(addr, &room).await;
    let t = Instant::now();
    let e = c.recv_type("error").await;
    assert_eq!(e["code"], "timeout", "{e}");
    assert!(c.next().await.is_none(), "closed after the timeout");
    let waited = t.elapsed();
    assert!(
        waited >= Duration::from_millis(250) && waited < Duration::from_secs(3),
        "{waited:?}"
    );
    // One that says hello in time stays.
    let (mut ok, _) = Client::join(addr, &room, None).await;
    assert!(ok.quiet_for(600).await, "a greeted connection stays open");
}

#[tokio::test]
async fn a_silent_seat_goes_offline_and_an_answering_one_stays() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        ping_every: Duration::from_millis(100),
        ping_timeout: Duration::from_millis(400),
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    // White joins, then reads nothing more: its pongs never go (as a phone
    // whose network dropped without closing anything).
    let (white, w) = Client::join(addr, &room, None).await;
    assert_eq!(w["state"]["seats"]["white"]["online"], true);
    let t = Instant::now();
    let offline = loop {
        let s = black.recv_type("state").await;
        if s["state"]["seats"]["white"]["online"] == false {
            break s;
        }
    };
    let waited = t.elapsed();
    assert!(waited < Duration::from_secs(2), "offline after {waited:?}");
    // Black, which answers the pings by reading, stayed online throughout.
    assert_eq!(offline["state"]["seats"]["black"]["online"], true);
    let more = black.listen_for(700).await.expect("black is kept");
    assert!(more.is_empty(), "{more:?}");
    assert_eq!(
        get_state(addr, &room).await["seats"]["black"]["online"],
        true
    );
    drop(white);
}

#[tokio::test]
async fn a_flood_of_binary_frames_is_limited_then_cut() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, Limits::default()).await;
    let (room, _, _) = create(addr, "modern", "black", Value::Null).await;
    let (mut c, _) = Client::join(addr, &room, None).await;
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    // All at once: a pause would let the bucket refill and forgive.
    for _ in 0..400 {
        if c.ws_mut()
            .send(Message::Binary(vec![0u8; 8].into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let mut codes = Vec::new();
    while let Some(v) = c.next().await {
        codes.push(v["code"].as_str().unwrap_or("").to_string());
    }
    let bad = codes.iter().filter(|c| *c == "bad-message").count();
    let limited = codes.iter().filter(|c| *c == "rate-limited").count();
    assert!(bad <= 20, "binary frames answered past the rate: {bad}");
    // The close may reset the connection before every answer is read here.
    assert!(limited >= 50, "{limited} rate-limited of {}", codes.len());
    assert!(
        codes.len() < 400,
        "the flooding connection is closed before its end"
    );
}

#[tokio::test]
async fn a_cross_site_or_plain_text_post_makes_no_room() {
    let (_dir, site, db) = scratch();
    let (addr, hub) = start_with(&db, &site, quick()).await;
    let body = r#"{"variant":"modern","color":"black"}"#;
    let json = "Content-Type: application/json\r\n";
    for (headers, status) in [
        // What a form on another site can send without asking.
        (
            "Content-Type: text/plain\r\nOrigin: http://evil.example\r\n".to_string(),
            403,
        ),
        ("Content-Type: text/plain\r\n".to_string(), 415),
        (
            "Content-Type: application/x-www-form-urlencoded\r\n".to_string(),
            415,
        ),
        (String::new(), 415),
        (format!("{json}Origin: http://evil.example\r\n"), 403),
        (format!("{json}Origin: null\r\n"), 403),
    ] {
        let (got, _, answer) =
            http_from(addr, "127.0.0.1", "POST", "/api/rooms", &headers, body).await;
        assert_eq!(got, status, "{headers:?}: {answer}");
        let v: Value = serde_json::from_str(&answer).unwrap();
        assert!(
            v["error"].as_str().is_some_and(|e| !e.is_empty()),
            "{answer}"
        );
    }
    assert_eq!(hub.rooms_in_memory(), 0, "no room was made");
    // The site's own page (same Origin as Host) and programs (no Origin) may.
    let own = format!("{json}Origin: http://{addr}\r\n");
    let (got, _, answer) = http_from(addr, "127.0.0.1", "POST", "/api/rooms", &own, body).await;
    assert_eq!(got, 201, "{answer}");
    let with_charset = "Content-Type: application/json; charset=utf-8\r\n";
    let (got, _, _) = http_from(addr, "127.0.0.1", "POST", "/api/rooms", with_charset, body).await;
    assert_eq!(got, 201);
    assert_eq!(hub.rooms_in_memory(), 2);
}

#[tokio::test]
async fn a_path_longer_than_any_the_site_has_is_refused_not_an_error() {
    let (_dir, site, db) = scratch();
    let (addr, _hub) = start_with(&db, &site, quick()).await;
    // Past the file system's name limit (255 bytes a name) and MAX_PATH: the
    // file service would answer 500 for the one and look the other up.
    for path in [
        format!("/{}", "a".repeat(300)),
        format!("/{}", "a/".repeat(400)),
    ] {
        let (got, _, answer) = http_from(addr, "127.0.0.1", "GET", &path, "", "").await;
        assert_eq!(got, 404, "{} bytes: {answer}", path.len());
    }
    let long = format!("/{}", "a".repeat(mollett_server::http::MAX_PATH));
    let (got, _, answer) = http_from(addr, "127.0.0.1", "GET", &long, "", "").await;
    assert_eq!(got, 414, "{answer}");
    // The server still serves.
    let (got, _, _) = http_from(addr, "127.0.0.1", "GET", "/api/rooms/x", "", "").await;
    assert_eq!(got, 404);
}

#[tokio::test]
async fn room_making_is_rate_limited_per_address() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        rooms_burst: 3,
        room_every: Duration::from_secs(60),
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let body = r#"{"variant":"classic","color":"random"}"#;
    let json = "Content-Type: application/json\r\n";
    for _ in 0..3 {
        let (got, _, answer) = http_from(addr, "127.0.0.2", "POST", "/api/rooms", json, body).await;
        assert_eq!(got, 201, "{answer}");
    }
    let (got, head, answer) = http_from(addr, "127.0.0.2", "POST", "/api/rooms", json, body).await;
    assert_eq!(got, 429, "{answer}");
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .expect("Retry-After")
        .trim()
        .parse()
        .unwrap();
    assert!((59..=60).contains(&retry), "Retry-After {retry}");
    assert!(answer.contains("too many rooms"), "{answer}");
    // Another address group (a /24) is not held back by the first.
    let (got, _, _) = http_from(addr, "127.0.1.3", "POST", "/api/rooms", json, body).await;
    assert_eq!(got, 201);
}

#[tokio::test]
async fn a_trusted_proxys_forwarded_address_is_the_one_limited() {
    let (_dir, site, db) = scratch();
    let body = r#"{"variant":"modern","color":"black"}"#;
    let from = |client: &str| {
        format!("Content-Type: application/json\r\nX-Forwarded-For: 203.0.113.9, {client}\r\n")
    };
    // Behind the trusted proxy 127.0.0.4, each client has its own burst.
    let limits = Limits {
        rooms_burst: 1,
        room_every: Duration::from_secs(60),
        trusted_proxies: vec!["127.0.0.4".parse().unwrap()],
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let post = |client: String| async move {
        http_from(addr, "127.0.0.4", "POST", "/api/rooms", &client, body)
            .await
            .0
    };
    assert_eq!(post(from("198.51.100.1")).await, 201);
    assert_eq!(
        post(from("198.51.100.1")).await,
        429,
        "one client's second room"
    );
    assert_eq!(
        post(from("192.0.2.2")).await,
        201,
        "another client behind the proxy"
    );
    // A peer that is not the proxy is limited by its own address, whatever it writes.
    let direct = |client: String| async move {
        http_from(addr, "127.0.0.5", "POST", "/api/rooms", &client, body)
            .await
            .0
    };
    assert_eq!(direct(from("198.51.100.3")).await, 201);
    assert_eq!(
        direct(from("198.51.100.4")).await,
        429,
        "the header is not believed"
    );
}

#[tokio::test]
async fn slow_requests_are_cut_off() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    // Half a header, never finished.
    let mut s = tcp_from(addr, "127.0.0.1").await;
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n").await.unwrap();
    let t = Instant::now();
    read_to_close(&mut s).await;
    assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    // A body that stops a third of the way.
    let mut s = tcp_from(addr, "127.0.0.1").await;
    s.write_all(
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60\r\n\r\n{\"variant\":",
    )
    .await
    .unwrap();
    let answer = read_to_close(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    // A kept-alive connection that sends no next request is closed too.
    let mut s = tcp_from(addr, "127.0.0.1").await;
    s.write_all(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let answer = read_to_close(&mut s).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
}

#[tokio::test]
async fn spectators_are_capped_and_their_comings_are_sent_together() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        spectators: 12,
        presence_delay: Duration::from_millis(300),
        ..Limits::default()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    let (mut white, _) = Client::join(addr, &room, None).await;
    black.state_at(0).await; // white's seat taken
    let mut watchers = Vec::new();
    for _ in 0..12 {
        watchers.push(Client::join(addr, &room, None).await.0);
    }
    // The thirteenth is refused and closed; seats still get in.
    let mut late = Client::connect(addr, &room).await;
    late.send(json!({"type": "hello", "token": null})).await;
    assert_eq!(late.recv_type("error").await["code"], "room-full");
    assert!(late.next().await.is_none());
    let (_again, w) = Client::join(addr, &room, Some(&token)).await;
    assert_eq!(w["seat"], "black");
    // Twelve arrivals reached black as one or two states, not twelve.
    let mut states = Vec::new();
    while let Some(v) = tokio::time::timeout(Duration::from_millis(700), black.next())
        .await
        .ok()
        .flatten()
    {
        states.push(v);
    }
    assert!(
        (1..=3).contains(&states.len()),
        "{} states for 13 arrivals",
        states.len()
    );
    assert_eq!(states.last().unwrap()["state"]["spectators"], 12);
    // Moves still reach everyone at once.
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    for w in &mut watchers {
        w.state_at(1).await;
    }
}

#[tokio::test]
async fn takeback_on_ones_own_turn_takes_back_ones_own_move() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    let (mut white, _) = Client::join(addr, &room, None).await;
    for (ply, (c, sq)) in [(0usize, "f5"), (1, "d6"), (0, "c3"), (1, "d3")]
        .iter()
        .enumerate()
    {
        let mover = if *c == 0 { &mut black } else { &mut white };
        mover
            .send(json!({"type": "move", "square": sq, "ply": ply}))
            .await;
        black.state_at(ply + 1).await;
        white.state_at(ply + 1).await;
    }
    // Black to move asks: white's d3 and black's own c3 go; black moves again.
    black.send(json!({"type": "undo"})).await;
    white.recv_type("state").await;
    white
        .send(json!({"type": "undo-answer", "accept": true}))
        .await;
    let s = black.state_at(2).await;
    assert_eq!(s["state"]["moves"], json!(["f5", "d6"]));
    assert_eq!(s["state"]["to_move"], "black");
    assert_eq!(
        s["state"]["takeback"],
        json!({"by": "black", "moves": ["c3", "d3"]})
    );
    // Black plays c3 again; white, on its own turn, asks: its d6 and c3 go.
    black
        .send(json!({"type": "move", "square": "c3", "ply": 2}))
        .await;
    let s = white.state_at(3).await;
    assert!(s["state"]["takeback"].is_null(), "a move ends the message");
    white.send(json!({"type": "undo"})).await;
    black.recv_type("state").await;
    black
        .send(json!({"type": "undo-answer", "accept": true}))
        .await;
    let s = white.state_at(1).await;
    assert_eq!(s["state"]["to_move"], "white");
    assert_eq!(
        s["state"]["takeback"],
        json!({"by": "white", "moves": ["d6", "c3"]})
    );
}

#[tokio::test]
async fn a_room_stores_only_so_many_changes() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        room_events: 5,
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    let (mut white, _) = Client::join(addr, &room, None).await;
    // Events: two seats, a move, then an ask/decline loop.
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    black.state_at(1).await;
    black.send(json!({"type": "undo"})).await;
    white.recv_type("state").await;
    black.recv_type("state").await;
    white
        .send(json!({"type": "undo-answer", "accept": false}))
        .await;
    white.recv_type("state").await;
    black.recv_type("state").await;
    black.send(json!({"type": "undo"})).await;
    let e = black.recv_type("error").await;
    assert_eq!(e["code"], "too-many", "{e}");
    assert!(e["message"].as_str().unwrap().contains("make a new room"));
    // The room stays readable, as it was.
    let s = get_state(addr, &room).await;
    assert_eq!(s["moves"], json!(["f5"]));
    assert!(s["undo"].is_null());
}

#[tokio::test]
async fn idle_rooms_leave_memory_and_come_back_from_the_database() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        room_idle: Duration::from_millis(200),
        finished_idle: Duration::from_millis(200),
        sweep_every: Duration::from_millis(100),
        ..quick()
    };
    let (addr, hub) = start_with(&db, &site, limits).await;
    let (waiting, _, _) = create(addr, "modern", "black", Value::Null).await;
    let (done, _, token) = create(addr, "classic", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &done, Some(&token)).await;
    let (mut white, _) = Client::join(addr, &done, None).await;
    black
        .send(json!({"type": "move", "square": "d4", "ply": 0}))
        .await;
    white.state_at(1).await;
    white.send(json!({"type": "resign"})).await;
    black.recv_type("state").await;
    drop((black, white));
    let t = Instant::now();
    while hub.rooms_in_memory() > 0 {
        assert!(
            t.elapsed() < Duration::from_secs(3),
            "rooms still in memory"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // The finished game downloads from the database; the waiting room's
    // link still takes its free seat.
    let (got, _, txt) = http(addr, "GET", &format!("/api/rooms/{done}/game.txt"), "").await;
    assert_eq!((got, txt.as_str()), (200, "d4"));
    assert_eq!(get_state(addr, &done).await["result"]["reason"], "resign");
    let (_friend, w) = Client::join(addr, &waiting, None).await;
    assert_eq!(w["seat"], "white");
    assert_eq!(w["state"]["status"], "playing");
}
