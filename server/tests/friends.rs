//! What a friend expects of a room, over real WebSockets: names for the
//! seats, a draw by agreement, abort, claiming the game of a seat that left,
//! a seat moved to another device, every game of the room downloadable
//! after a rematch; a foreign page's WebSocket refused; rooms nobody joined
//! deleted. Each new message kept to the wire contract's examples.

mod common;

use common::*;
use mollett_server::limits::Limits;
use mollett_server::sqlite::SqliteStore;
use mollett_server::store::Store;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

fn quick() -> Limits {
    Limits {
        presence_delay: Duration::from_millis(50),
        ..Limits::default()
    }
}

/// A room with both seats taken: (room, black, white, black's token).
async fn full_room(addr: SocketAddr) -> (String, Client, Client, String) {
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (black, _) = Client::join(addr, &room, Some(&token)).await;
    let (white, _) = Client::join(addr, &room, None).await;
    (room, black, white, token)
}

/// Black plays f5 and white d6, each seen by the other.
async fn two_moves(black: &mut Client, white: &mut Client) {
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    white
        .send(json!({"type": "move", "square": "d6", "ply": 1}))
        .await;
    black.state_at(2).await;
}

/// The next state frame for which `pred` holds.
async fn state_where(c: &mut Client, pred: impl Fn(&Value) -> bool) -> Value {
    loop {
        let s = c.recv_type("state").await;
        if pred(&s["state"]) {
            return s;
        }
    }
}

#[tokio::test]
async fn names_and_a_draw_are_kept_through_a_restart() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (room, mut black, mut white, _) = full_room(addr).await;
    black.send(json!({"type": "name", "name": " Ann "})).await;
    let s = state_where(&mut white, |s| !s["seats"]["black"]["name"].is_null()).await;
    assert_eq!(s["state"]["seats"]["black"]["name"], "Ann");
    assert!(s["state"]["seats"]["white"]["name"].is_null());
    white
        .expect_error(json!({"type": "name", "name": "x".repeat(25)}), "bad-name")
        .await;
    white
        .expect_error(json!({"type": "name", "name": "a\u{7}b"}), "bad-name")
        .await;
    white
        .expect_error(json!({"type": "name", "name": "\u{202E}boB"}), "bad-name")
        .await;
    white.send(json!({"type": "name", "name": "Bob"})).await;
    state_where(&mut black, |s| s["seats"]["white"]["name"] == "Bob").await;
    // A draw: offered, declined, offered again, accepted.
    black
        .expect_error(json!({"type": "draw-answer", "accept": true}), "no-draw")
        .await;
    black.send(json!({"type": "draw"})).await;
    let s = state_where(&mut white, |s| !s["draw"].is_null()).await;
    assert_eq!(s["state"]["draw"], json!({"by": "black"}));
    white
        .send(json!({"type": "draw-answer", "accept": false}))
        .await;
    state_where(&mut black, |s| s["draw"].is_null()).await;
    white.send(json!({"type": "draw"})).await;
    state_where(&mut black, |s| s["draw"] == json!({"by": "white"})).await;
    black
        .send(json!({"type": "draw-answer", "accept": true}))
        .await;
    let s = state_where(&mut white, |s| s["status"] == "over").await;
    assert_eq!(
        s["state"]["result"],
        json!({"winner": null, "black": 2, "white": 2, "reason": "agreement"})
    );
    // Another server on the same database sees the names and the draw.
    let (again, _) = start_with(&db, &site, quick()).await;
    let s = get_state(again, &room).await;
    assert_eq!(s["seats"]["black"]["name"], "Ann");
    assert_eq!(s["seats"]["white"]["name"], "Bob");
    assert_eq!(s["result"]["reason"], "agreement");
    let (_, _, ggf) = http(again, "GET", &format!("/api/rooms/{room}/game.ggf"), "").await;
    assert!(
        ggf.contains("PB[Ann]PW[Bob]") && ggf.contains("RE[+0.000:s]"),
        "{ggf}"
    );
}

#[tokio::test]
async fn a_game_is_aborted_only_before_both_sides_have_moved() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (_room, mut black, mut white, _) = full_room(addr).await;
    two_moves(&mut black, &mut white).await;
    black
        .expect_error(json!({"type": "abort"}), "no-abort")
        .await;
    let (room, mut black, mut white, _) = full_room(addr).await;
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    white.send(json!({"type": "abort"})).await;
    let s = state_where(&mut black, |s| s["status"] == "over").await;
    assert_eq!(s["state"]["result"]["reason"], "aborted");
    assert!(s["state"]["result"]["winner"].is_null());
    let (_, _, ggf) = http(addr, "GET", &format!("/api/rooms/{room}/game.ggf"), "").await;
    assert!(!ggf.contains("RE["), "an aborted game has no result: {ggf}");
}

#[tokio::test]
async fn the_one_who_stayed_is_told_when_and_claims_the_game() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        claim_after: Duration::from_millis(600),
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (_room, mut black, mut white, _) = full_room(addr).await;
    black
        .expect_error(json!({"type": "claim"}), "no-claim")
        .await;
    two_moves(&mut black, &mut white).await;
    black
        .expect_error(json!({"type": "claim"}), "no-claim")
        .await;
    drop(white);
    let s = state_where(&mut black, |s| !s["claim"].is_null()).await;
    let claim = &s["state"]["claim"];
    assert_eq!(claim["by"], "black");
    let wait = claim["in_ms"].as_u64().unwrap();
    assert!(wait > 0 && wait <= 600, "{claim}");
    black
        .expect_error(json!({"type": "claim"}), "no-claim")
        .await;
    // The server says so when the wait is over, with no message from anyone.
    let s = state_where(&mut black, |s| s["claim"]["in_ms"] == 0).await;
    assert_eq!(s["state"]["status"], "playing");
    black.send(json!({"type": "claim"})).await;
    let s = state_where(&mut black, |s| s["status"] == "over").await;
    assert_eq!(s["state"]["result"]["winner"], "black");
    assert_eq!(s["state"]["result"]["reason"], "left");
    assert!(s["state"]["claim"].is_null());
    // A seat that comes back ends the notice; a watcher does not.
    let (room, _, token) = create(addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
    let (mut white, w) = Client::join(addr, &room, None).await;
    let white_token = w["token"].as_str().unwrap().to_string();
    two_moves(&mut black, &mut white).await;
    drop(white);
    state_where(&mut black, |s| !s["claim"].is_null()).await;
    let (_watcher, w) = Client::join(addr, &room, None).await;
    assert_eq!(w["seat"], "spectator");
    assert_eq!(w["state"]["claim"]["by"], "black");
    let (_white, w) = Client::join(addr, &room, Some(&white_token)).await;
    assert!(w["state"]["claim"].is_null(), "{}", w["state"]["claim"]);
    state_where(&mut black, |s| s["claim"].is_null()).await;
}

#[tokio::test]
async fn a_seat_moves_to_another_device_and_the_old_one_watches() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (room, mut black, mut white, old) = full_room(addr).await;
    white
        .expect_error(json!({"type": "ping-me"}), "bad-message")
        .await;
    black.send(json!({"type": "transfer"})).await;
    let link = black.recv_type("transfer-link").await;
    assert_eq!(link["expires_ms"], 600_000);
    let link = link["token"].as_str().unwrap().to_string();
    assert_ne!(link, old);
    let (mut phone, w) = Client::join(addr, &room, Some(&link)).await;
    assert_eq!(w["seat"], "black");
    let new = w["token"].as_str().expect("a token of its own").to_string();
    assert!(new != link && new != old);
    assert_eq!(black.recv_type("seat-moved").await["seat"], "black");
    let s = black.recv_type("state").await;
    assert_eq!(s["seat"], "spectator");
    black
        .expect_error(json!({"type": "move", "square": "f5", "ply": 0}), "no-seat")
        .await;
    // The phone plays; the old token and the used link only watch.
    phone
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    for token in [&old, &link] {
        let (_c, w) = Client::join(addr, &room, Some(token)).await;
        assert_eq!(w["seat"], "spectator", "{token}");
        assert!(w["token"].is_null());
    }
    // The moved seat's token reconnects as the seat after a restart.
    let (again, _) = start_with(&db, &site, quick()).await;
    let (_c, w) = Client::join(again, &room, Some(&new)).await;
    assert_eq!(w["seat"], "black");
}

#[tokio::test]
async fn every_game_of_a_room_downloads_after_rematches() {
    let (_dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    let (room, mut black, mut white, _) = full_room(addr).await;
    two_moves(&mut black, &mut white).await;
    white.send(json!({"type": "resign"})).await;
    state_where(&mut black, |s| s["status"] == "over").await;
    for c in [&mut black, &mut white] {
        c.send(json!({"type": "rematch"})).await;
    }
    state_where(&mut black, |s| s["game"] == 2 && s["status"] == "playing").await;
    // Game 2: the old white token plays black.
    white
        .send(json!({"type": "move", "square": "c4", "ply": 0}))
        .await;
    black.state_at(1).await;
    let get = |path: String| async move { http(addr, "GET", &path, "").await };
    let (status, _, one) = get(format!("/api/rooms/{room}/games/1.txt")).await;
    assert_eq!((status, one.as_str()), (200, "f5d6"));
    let (status, head, ggf) = get(format!("/api/rooms/{room}/games/1.ggf")).await;
    assert_eq!(status, 200);
    assert!(head.contains(&format!("mollett-{room}-1.ggf")), "{head}");
    assert!(
        ggf.contains("RE[+64.000:r]") && ggf.contains("B[F5]W[D6]"),
        "{ggf}"
    );
    let (_, _, two) = get(format!("/api/rooms/{room}/games/2.txt")).await;
    assert_eq!(two, "c4");
    let (_, _, current) = get(format!("/api/rooms/{room}/game.txt")).await;
    assert_eq!(current, "c4");
    let (_, _, ggf) = get(format!("/api/rooms/{room}/games/2.ggf")).await;
    assert!(ggf.contains("RE[?]"), "{ggf}");
    for (file, want) in [
        ("3.txt", 404),
        ("0.txt", 404),
        ("1.pgn", 404),
        ("x.ggf", 404),
    ] {
        let (status, _, _) = get(format!("/api/rooms/{room}/games/{file}")).await;
        assert_eq!(status, want, "{file}");
    }
    // After a restart too (games before the rematch rebuilt from the events).
    let (again, _) = start_with(&db, &site, quick()).await;
    let (_, _, one) = http(again, "GET", &format!("/api/rooms/{room}/games/1.txt"), "").await;
    assert_eq!(one, "f5d6");
}

/// A WebSocket upgrade to `room` with `origin`: the HTTP status it gets.
async fn upgrade_with_origin(addr: SocketAddr, room: &str, origin: &str) -> u16 {
    let mut req = format!("ws://{addr}/ws/{room}")
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("origin", HeaderValue::from_str(origin).unwrap());
    let tcp = tcp_from(addr, "127.0.0.1").await;
    match tokio_tungstenite::client_async(req, tokio_tungstenite::MaybeTlsStream::Plain(tcp)).await
    {
        Ok(_) => 101,
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => r.status().as_u16(),
        Err(e) => panic!("{e}"),
    }
}

#[tokio::test]
async fn a_foreign_pages_websocket_is_refused() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        allowed_origins: vec!["https://board.example.org".into()],
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (room, _, _) = create(addr, "modern", "black", Value::Null).await;
    assert_eq!(
        upgrade_with_origin(addr, &room, "https://evil.example").await,
        403
    );
    assert_eq!(upgrade_with_origin(addr, &room, "null").await, 403);
    assert_eq!(
        upgrade_with_origin(addr, &room, &format!("http://{addr}")).await,
        101
    );
    assert_eq!(
        upgrade_with_origin(addr, &room, "https://board.example.org").await,
        101
    );
    // The allowed origin may make rooms too; another is refused.
    let body = r#"{"variant":"modern","color":"black"}"#;
    for (origin, want) in [
        ("https://board.example.org", 201),
        ("https://evil.example", 403),
    ] {
        let headers = format!("Content-Type: application/json\r\nOrigin: {origin}\r\n");
        let (status, _, _) =
            http_from(addr, "127.0.0.2", "POST", "/api/rooms", &headers, body).await;
        assert_eq!(status, want, "{origin}");
    }
    // Programs send no Origin and are not refused.
    let (_c, w) = Client::join(addr, &room, None).await;
    assert_eq!(w["seat"], "white");
}

#[tokio::test]
async fn rooms_nobody_joined_are_deleted_and_joined_ones_kept() {
    let (_dir, site, db) = scratch();
    let limits = Limits {
        unjoined_keep: Duration::from_millis(400),
        sweep_every: Duration::from_millis(100),
        ..quick()
    };
    let (addr, _) = start_with(&db, &site, limits).await;
    let (lonely, _, _) = create(addr, "modern", "black", Value::Null).await;
    let (joined, mut black, mut white, _) = full_room(addr).await;
    black
        .send(json!({"type": "move", "square": "f5", "ply": 0}))
        .await;
    white.state_at(1).await;
    white.send(json!({"type": "resign"})).await;
    black.recv_type("state").await;
    drop((black, white));
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let (status, _, _) = http(addr, "GET", &format!("/api/rooms/{lonely}"), "").await;
    assert_eq!(status, 404, "the room nobody joined is gone");
    let s = get_state(addr, &joined).await;
    assert_eq!(s["result"]["reason"], "resign", "the finished game is kept");
    let mut store = SqliteStore::open(&db, false).unwrap();
    assert!(
        store.load(&lonely).unwrap().is_none(),
        "gone from the database"
    );
    assert!(store.load(&joined).unwrap().is_some());
}

#[test]
fn every_refusal_code_is_in_the_contracts_examples() {
    use mollett_server::room::RoomError::*;
    let file: Value = serde_json::from_str(mollett::rooms::wire::EXAMPLES).unwrap();
    let codes = file["error_codes"].as_array().unwrap();
    for e in [
        NoSeat,
        NotYourTurn,
        Waiting,
        IllegalMove,
        Stale,
        GameOver,
        NotOver,
        NoUndo,
        TooMany,
        BadName,
        NoDraw,
        NoAbort,
        NoClaim,
    ] {
        assert!(codes.iter().any(|c| c == e.code()), "{} missing", e.code());
    }
}

#[test]
fn a_database_made_before_rooms_were_deleted_is_brought_up_to_date() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("old.db");
    {
        // The schema and rows as the server wrote them before `joined`.
        let old = rusqlite::Connection::open(&db).unwrap();
        old.execute_batch(
            r#"CREATE TABLE rooms (key INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, spec TEXT NOT NULL);
               CREATE TABLE events (room INTEGER NOT NULL REFERENCES rooms(key), seq INTEGER NOT NULL,
                   event TEXT NOT NULL, PRIMARY KEY (room, seq)) WITHOUT ROWID;
               INSERT INTO rooms VALUES (1, 'lonely', '{"id":"lonely","variant":"modern","clock":null,"created":5}');
               INSERT INTO rooms VALUES (2, 'joined', '{"id":"joined","variant":"modern","clock":null,"created":5}');
               INSERT INTO rooms VALUES (3, 'young', '{"id":"young","variant":"modern","clock":null,"created":50}');
               INSERT INTO events VALUES (1, 0, '{"e":"seat","color":"black","token":"a","at":5}');
               INSERT INTO events VALUES (2, 0, '{"e":"seat","color":"black","token":"b","at":5}');
               INSERT INTO events VALUES (2, 1, '{"e":"seat","color":"white","token":"c","at":6}');
               INSERT INTO events VALUES (3, 0, '{"e":"seat","color":"white","token":"d","at":50}');"#,
        )
        .unwrap();
    }
    let mut store = SqliteStore::open(&db, false).unwrap();
    assert_eq!(
        store.delete_unjoined(10).unwrap(),
        vec!["lonely".to_string()]
    );
    assert!(store.load("lonely").unwrap().is_none());
    assert_eq!(store.load("joined").unwrap().unwrap().1.len(), 2);
    assert!(
        store.load("young").unwrap().is_some(),
        "made after the cut-off"
    );
    drop(store);
    // Opened again: nothing to add, nothing more deleted.
    let mut store = SqliteStore::open(&db, false).unwrap();
    assert!(store.delete_unjoined(10).unwrap().is_empty());
}

/// A room's GGF read back as `mollett analyze` reads it (the library's
/// reader, `analyze::sources`): the room's own moves, passes included, from
/// the room's start, in a classic room (an empty board and four free
/// placements in the centre) and a modern one; the `.txt` beside it is the
/// same game.
#[tokio::test]
async fn a_rooms_ggf_replays_its_moves_in_either_variant() {
    use mollett::analyze::sources::{read_games, FileKind};
    use mollett::{Move, Position, Variant};
    let (dir, site, db) = scratch();
    let (addr, _) = start_with(&db, &site, quick()).await;
    for (variant, opening) in [
        (Variant::Classic, ["d4", "e4", "e5", "d5"]),
        (Variant::Modern, ["f5", "d6", "c3", "d3"]),
    ] {
        let name = variant.name();
        let (room, _, token) = create(addr, name, "black", Value::Null).await;
        let (mut black, _) = Client::join(addr, &room, Some(&token)).await;
        let (mut white, _) = Client::join(addr, &room, None).await;
        // The opening's plies, then the first legal square for four more.
        let mut state = get_state(addr, &room).await;
        for ply in 0..8 {
            let square = match opening.get(ply) {
                Some(sq) => sq.to_string(),
                None => state["legal"][0].as_str().unwrap().to_string(),
            };
            let mover = if ply % 2 == 0 { &mut black } else { &mut white };
            mover
                .send(json!({"type": "move", "square": square, "ply": ply}))
                .await;
            state = black.state_at(ply + 1).await["state"].clone();
        }
        let moves: Vec<Move> = state["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().parse().unwrap())
            .collect();
        let (status, _, ggf) = http(addr, "GET", &format!("/api/rooms/{room}/game.ggf"), "").await;
        assert_eq!(status, 200);
        let file = dir.path().join(format!("{name}.ggf"));
        std::fs::write(&file, &ggf).unwrap();
        let games = read_games(&file, FileKind::Ggf, variant)
            .unwrap_or_else(|e| panic!("{name}: {e}\n{ggf}"));
        assert_eq!(games.len(), 1, "{ggf}");
        assert_eq!(
            games[0].start,
            Position::start(variant, mollett::Color::Black),
            "{ggf}"
        );
        assert_eq!(games[0].moves, moves, "{ggf}");
        let second = if variant == Variant::Classic {
            "red"
        } else {
            "white"
        };
        assert_eq!(
            (games[0].black.as_str(), games[0].white.as_str()),
            ("black", second)
        );
        let (_, _, txt) = http(addr, "GET", &format!("/api/rooms/{room}/game.txt"), "").await;
        let placed: String = moves
            .iter()
            .filter(|m| **m != Move::Pass)
            .map(|m| m.to_string())
            .collect();
        assert_eq!(txt, placed);
    }
}
