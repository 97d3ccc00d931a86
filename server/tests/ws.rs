//! The server over real loopback sockets: the HTTP API, and every bad
//! message of the contract answered with its error code and no state change.

mod common;

use common::*;
use serde_json::{json, Value};

/// A room with both seats connected: (room, black client, white client).
async fn full_room(addr: std::net::SocketAddr, variant: &str) -> (String, Client, Client) {
    let (room, seat, token) = create(addr, variant, "black", Value::Null).await;
    assert_eq!(seat, "black");
    let (black, w) = Client::join(addr, &room, Some(&token)).await;
    assert_eq!(
        (w["seat"].as_str(), w["token"].is_null()),
        (Some("black"), true),
        "a reconnect gets no new token"
    );
    let (white, w) = Client::join(addr, &room, None).await;
    assert_eq!(w["seat"], "white");
    assert_eq!(w["token"].as_str().unwrap().len(), 32);
    assert_eq!(w["state"]["status"], "playing");
    (room, black, white)
}

#[tokio::test]
async fn http_api_creates_rooms_and_refuses_bad_requests() {
    let (_dir, site, db) = scratch();
    let addr = start_in_process(&db, &site).await;
    let (room, seat, token) = create(
        addr,
        "classic",
        "red",
        json!({"minutes": 5, "increment": 2}),
    )
    .await;
    assert_eq!(seat, "white");
    assert!(room.len() == 32 && token.len() == 32 && room != token);
    let s = get_state(addr, &room).await;
    assert_eq!(
        (s["variant"].as_str(), s["status"].as_str()),
        (Some("classic"), Some("waiting"))
    );
    assert_eq!(s["clock"]["black_ms"], 300_000);
    assert_eq!(s["clock"]["increment_ms"], 2_000);
    assert_eq!(s["supply"]["black"], 32);
    assert!(!s.to_string().contains(&token), "no tokens in the state");
    for bad in [
        "{",
        r#"{"variant":"chess","color":"black"}"#,
        r#"{"variant":"modern","color":"green"}"#,
        r#"{"variant":"modern"}"#,
        r#"{"variant":"modern","color":"black","clock":{"minutes":0.1,"increment":0}}"#,
        r#"{"variant":"modern","color":"black","clock":{"minutes":5,"increment":181}}"#,
        r#"{"variant":"modern","color":"black","clock":{"minutes":5}}"#,
    ] {
        let (status, _, body) = http(addr, "POST", "/api/rooms", bad).await;
        assert_eq!(status, 400, "{bad} -> {body}");
        assert!(serde_json::from_str::<Value>(&body).unwrap()["error"].is_string());
    }
    let nobody = "0123456789abcdef0123456789abcdef";
    let upgrade = tokio_tungstenite::connect_async(format!("ws://{addr}/ws/{nobody}")).await;
    match upgrade {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 404),
        other => panic!("a WebSocket to no room: {other:?}"),
    }
    for path in [
        format!("/api/rooms/{nobody}"),
        "/api/rooms/..%2f".into(),
        format!("/ws/{nobody}"),
        format!("/api/rooms/{nobody}/game.txt"),
    ] {
        let (status, _, body) = http(addr, "GET", &path, "").await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    let (status, head, body) = http(addr, "GET", "/", "").await;
    assert_eq!(status, 200);
    assert!(head.contains("text/html") && body.contains("<title>board</title>"));
}

#[tokio::test]
async fn a_game_is_played_and_both_seats_and_spectators_see_it() {
    let (_dir, site, db) = scratch();
    let addr = start_in_process(&db, &site).await;
    let (room, mut black, mut white) = full_room(addr, "modern").await;
    let (mut watcher, w) = Client::join(addr, &room, None).await;
    assert_eq!(
        (w["seat"].as_str(), w["token"].is_null()),
        (Some("spectator"), true)
    );
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    for c in [&mut black, &mut white, &mut watcher] {
        let s = c.state_at(1).await;
        assert_eq!(s["state"]["moves"], json!(["f5"]));
        assert_eq!(s["state"]["to_move"], "white");
    }
    white
        .send(json!({"type": "move", "square": "d6", "ply": 1}))
        .await;
    let s = black.state_at(2).await;
    assert_eq!(s["seat"], "black");
    let (_, _, txt) = http(addr, "GET", &format!("/api/rooms/{room}/game.txt"), "").await;
    assert_eq!(txt, "f5d6");
    let (status, head, ggf) = http(addr, "GET", &format!("/api/rooms/{room}/game.ggf"), "").await;
    assert_eq!(status, 200);
    assert!(head.contains("content-disposition: attachment"), "{head}");
    assert!(
        ggf.starts_with("(;GM[Othello]") && ggf.contains("B[F5]W[D6]") && ggf.contains("RE[?]"),
        "{ggf}"
    );
    // Resigning ends it for everyone, with the reason.
    white.send(json!({"type": "resign"})).await;
    let s = watcher.recv_type("state").await;
    let s = if s["state"]["status"] == "over" {
        s
    } else {
        watcher.recv_type("state").await
    };
    assert_eq!(s["state"]["result"]["winner"], "black");
    assert_eq!(s["state"]["result"]["reason"], "resign");
}

#[tokio::test]
async fn every_bad_message_gets_its_code_and_changes_nothing() {
    let (_dir, site, db) = scratch();
    let addr = start_in_process(&db, &site).await;
    let (room, mut black, mut white) = full_room(addr, "modern").await;
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    black.state_at(1).await;
    white.state_at(1).await;
    let before = game_part(get_state(addr, &room).await);

    // Malformed, unknown, incomplete, binary.
    black.send_text("{not json".into()).await;
    assert_eq!(black.recv_type("error").await["code"], "bad-message");
    black
        .expect_error(json!({"type": "castle"}), "bad-message")
        .await;
    black
        .expect_error(json!({"type": "move", "square": "d6"}), "bad-message")
        .await;
    black
        .expect_error(json!({"square": "d6", "ply": 1}), "bad-message")
        .await;
    black
        .expect_error(json!({"type": "hello", "token": null}), "bad-message")
        .await;
    // Out of turn, illegal, stale (which sends the state again), not a square.
    black
        .expect_error(
            json!({"type": "move", "square": "d6", "ply": 1}),
            "not-your-turn",
        )
        .await;
    white
        .expect_error(
            json!({"type": "move", "square": "a1", "ply": 1}),
            "illegal-move",
        )
        .await;
    white
        .expect_error(
            json!({"type": "move", "square": "z9", "ply": 1}),
            "illegal-move",
        )
        .await;
    white
        .expect_error(
            json!({"type": "move", "square": "pass", "ply": 1}),
            "illegal-move",
        )
        .await;
    white
        .expect_error(json!({"type": "move", "square": "d6", "ply": 0}), "stale")
        .await;
    assert_eq!(
        white.recv_type("state").await["state"]["moves"],
        json!(["f5"])
    );
    // Undo answers without a request; asking twice.
    white
        .expect_error(json!({"type": "undo-answer", "accept": true}), "no-undo")
        .await;
    // White has no move of its own to take back yet.
    white.expect_error(json!({"type": "undo"}), "no-undo").await;
    black.send(json!({"type": "undo"})).await;
    white.recv_type("state").await;
    black.expect_error(json!({"type": "undo"}), "no-undo").await;
    white
        .send(json!({"type": "undo-answer", "accept": false}))
        .await;
    black.recv_type("state").await;
    white
        .expect_error(json!({"type": "rematch"}), "not-over")
        .await;

    // A wrong token in a full room watches, and cannot act; nor can a third connection.
    let (mut thief, w) = Client::join(addr, &room, Some("0123456789abcdef0123456789abcdef")).await;
    assert_eq!(w["seat"], "spectator");
    let (mut third, _) = Client::join(addr, &room, None).await;
    for c in [&mut thief, &mut third] {
        c.expect_error(json!({"type": "move", "square": "d6", "ply": 1}), "no-seat")
            .await;
        c.expect_error(json!({"type": "undo"}), "no-seat").await;
        c.expect_error(json!({"type": "resign"}), "no-seat").await;
        c.expect_error(json!({"type": "undo-answer", "accept": true}), "no-seat")
            .await;
    }
    // A message before hello.
    let mut early = Client::connect(addr, &room).await;
    early
        .expect_error(
            json!({"type": "move", "square": "d6", "ply": 1}),
            "bad-message",
        )
        .await;
    early.send(json!({"type": "ping"})).await;
    assert_eq!(early.recv_type("pong").await["type"], "pong");

    assert_eq!(
        game_part(get_state(addr, &room).await),
        before,
        "a refused message changed the room"
    );

    // A frame over 4096 bytes: answered, then the connection is closed.
    let big = json!({"type": "ping", "pad": "x".repeat(5000)}).to_string();
    third.send_text(big).await;
    let e = third.recv_type("error").await;
    assert_eq!(e["code"], "too-large");
    assert!(
        third.next().await.is_none(),
        "the connection is closed after too-large"
    );

    // A flood: past 20 messages a second the rest are refused.
    for _ in 0..40 {
        thief.send(json!({"type": "ping"})).await;
    }
    let mut codes = Vec::new();
    while codes.len() < 40 {
        let v = thief.next().await.unwrap();
        if v["type"] != "state" {
            codes.push(v["type"].as_str().unwrap().to_string() + v["code"].as_str().unwrap_or(""));
        }
    }
    // The earlier messages of this second used part of the 20.
    let limited = codes.iter().filter(|c| *c == "errorrate-limited").count();
    let pongs = codes.iter().filter(|c| *c == "pong").count();
    assert!(
        limited >= 15 && pongs >= 10 && limited + pongs == 40,
        "{codes:?}"
    );

    // A finished game: moves and undo refused as game-over.
    black.send(json!({"type": "resign"})).await;
    loop {
        if white.recv_type("state").await["state"]["status"] == "over" {
            break;
        }
    }
    let over = game_part(get_state(addr, &room).await);
    white
        .expect_error(
            json!({"type": "move", "square": "d6", "ply": 1}),
            "game-over",
        )
        .await;
    white
        .expect_error(json!({"type": "undo"}), "game-over")
        .await;
    white
        .expect_error(json!({"type": "resign"}), "game-over")
        .await;
    assert_eq!(game_part(get_state(addr, &room).await), over);
}

#[tokio::test]
async fn a_flag_falls_with_nobody_sending_anything() {
    let (_dir, site, db) = scratch();
    let (addr, hub) = start_with(&db, &site, mollett_server::limits::Limits::default()).await;
    // The shortest clock a request may ask for is 0.5 minutes: the hub
    // makes a 2-second one, then the game goes through the socket as any.
    let clock = mollett_server::event::ClockSpec {
        initial_ms: 2000,
        increment_ms: 0,
    };
    let (room, _, token) = hub
        .create(
            mollett::Variant::Modern,
            Some(mollett::Color::Black),
            Some(clock),
        )
        .unwrap();
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    let (mut white, w) = Client::join(addr, &room, None).await;
    assert_eq!(w["state"]["clock"]["running"], "black");
    let started = std::time::Instant::now();
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    // White does nothing; the server's timer ends the game at 2 s.
    let over = loop {
        let v = black
            .next_within(std::time::Duration::from_secs(10))
            .await
            .expect("open");
        if v["type"] == "state" && v["state"]["status"] == "over" {
            break v;
        }
    };
    let waited = started.elapsed().as_secs_f64();
    assert!((1.9..5.0).contains(&waited), "flag after {waited} s");
    assert_eq!(over["state"]["result"]["reason"], "time");
    assert_eq!(over["state"]["result"]["winner"], "black");
    assert_eq!(over["state"]["clock"]["white_ms"], 0);
    assert!(over["state"]["clock"]["running"].is_null());
}
