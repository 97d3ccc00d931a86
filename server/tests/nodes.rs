//! Rooms on several nodes sharing one PostgreSQL (docs/rooms.md "Several
//! nodes"): two `mollett-server` processes on a private cluster this test
//! starts. Any node serves any room; a node killed with SIGKILL loses no
//! acknowledged ply; moves cross from node to node within 100 ms (p99);
//! two moves for one ply through two nodes at once apply once; rooms made
//! on both are all there after both restart; two flag timers end a game
//! once. And the recipe for several nodes as a whole (docs/deploy.md):
//! nginx, with server/deploy/nginx.conf, in front of two nodes started with
//! the docs' flags, one of them killed mid-game.

mod common;

use common::nginx::{Front, Tls};
use common::node::{deploy_flags, Node};
use common::play::play;
use common::postgres::Postgres;
use common::*;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::{Message, WebSocket};

/// Two nodes on one new database: (cluster, database URL, folder, node A, node B).
fn two_nodes(args: &[&str]) -> Option<(Postgres, String, tempfile::TempDir, Node, Node)> {
    let pg = Postgres::start()?;
    let url = pg.database();
    let (dir, site, _) = scratch();
    let a = Node::start(&url, &site, args);
    let b = Node::start(&url, &site, args);
    Some((pg, url, dir, a, b))
}

fn plies(state: &Value) -> usize {
    state["moves"].as_array().unwrap().len()
}

/// Waits until `f` holds for the room's state as node `addr` serves it.
async fn until_state(
    addr: std::net::SocketAddr,
    room: &str,
    what: &str,
    f: impl Fn(&Value) -> bool,
) -> Value {
    let by = Instant::now() + WAIT;
    loop {
        let s = get_state(addr, room).await;
        if f(&s) {
            return s;
        }
        assert!(Instant::now() < by, "{addr} never showed {what}: {s}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_made_on_one_node_is_played_from_the_other() {
    let Some((_pg, _url, _dir, a, b)) = two_nodes(&[]) else {
        return;
    };
    let (room, seat, token) = create(a.addr, "classic", "black", Value::Null).await;
    assert_eq!(seat, "black");
    // Both players on the other node; a spectator on the one that made it.
    let (mut black, _) = Client::join(b.addr, &room, Some(&token)).await;
    let (mut white, w) = Client::join(b.addr, &room, None).await;
    assert_eq!(w["seat"], "white");
    let (mut watcher, v) = Client::join(a.addr, &room, None).await;
    assert_eq!(
        v["seat"], "spectator",
        "the node that made the room knows both seats are taken"
    );
    let state = play(&mut black, &mut white, w["state"].clone(), 12).await;
    assert_eq!(plies(&state), 12);
    // The node that made the room relayed every move to its spectator...
    let seen = watcher.state_at(12).await;
    assert_eq!(game_part(seen["state"].clone()), game_part(state.clone()));
    // ...and serves the same game.
    assert_eq!(game_part(get_state(a.addr, &room).await), game_part(state));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_killed_after_10_plies_loses_none_and_its_players_go_on_elsewhere() {
    let Some((_pg, _url, _dir, mut a, b)) = two_nodes(&[]) else {
        return;
    };
    let clock = json!({"minutes": 10, "increment": 5});
    let (room, _, token_black) = create(a.addr, "modern", "black", clock).await;
    let (mut black, _) = Client::join(a.addr, &room, Some(&token_black)).await;
    let (mut white, w) = Client::join(a.addr, &room, None).await;
    let token_white = w["token"].as_str().unwrap().to_string();
    // A spectator on the node that stays sees the game as it goes.
    let (mut watcher, _) = Client::join(b.addr, &room, None).await;
    let before = play(&mut black, &mut white, w["state"].clone(), 10).await;
    assert_eq!(plies(&before), 10);
    watcher.state_at(10).await;
    drop((black, white));
    a.kill9();

    // Both players come back through the other node with their tokens.
    let (mut black, w) = Client::join(b.addr, &room, Some(&token_black)).await;
    assert_eq!(
        (w["seat"].as_str(), w["token"].is_null()),
        (Some("black"), true)
    );
    let (mut white, w) = Client::join(b.addr, &room, Some(&token_white)).await;
    assert_eq!(w["seat"], "white");
    assert_eq!(
        w["state"]["moves"], before["moves"],
        "no acknowledged ply lost"
    );
    // The clock went on while the node died (the others never stopped).
    let left = |s: &Value, side: &str| s["clock"][side].as_i64().unwrap();
    let mover = if before["to_move"] == "black" {
        "black_ms"
    } else {
        "white_ms"
    };
    assert!(left(&w["state"], mover) <= left(&before, mover), "{w}");
    let end = play(&mut black, &mut white, w["state"].clone(), 200).await;
    assert_eq!(end["status"], "over", "the game goes on to its end");
    assert_eq!(end["result"]["reason"], "end");
    assert_eq!(
        game_part(watcher.state_at(plies(&end)).await["state"].clone()),
        game_part(end)
    );
}

/// The `q` quantile of `v` (sorted here).
fn quantile(v: &mut [Duration], q: f64) -> Duration {
    v.sort();
    v[((v.len() - 1) as f64 * q).round() as usize]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn black_and_white_on_two_nodes_play_a_whole_game_each_move_relayed_in_100_ms() {
    let Some((_pg, _url, _dir, a, b)) = two_nodes(&[]) else {
        return;
    };
    let (room, _, token) = create(a.addr, "modern", "black", Value::Null).await;
    let (mut black, _) = Client::join(a.addr, &room, Some(&token)).await;
    let (mut white, w) = Client::join(b.addr, &room, None).await;
    // Each sees the other online, though the other's node is not its own
    // (white's node may know black's presence already at its welcome).
    let online =
        |s: &Value| s["seats"]["black"]["online"] == true && s["seats"]["white"]["online"] == true;
    for (c, name, known) in [
        (&mut black, "black", false),
        (&mut white, "white", online(&w["state"])),
    ] {
        let by = Instant::now() + WAIT;
        let mut seen = known;
        while !seen {
            let s = c.recv_type("state").await;
            seen = online(&s["state"]);
            assert!(
                seen || Instant::now() < by,
                "{name} never saw both seats online: {s}"
            );
        }
    }
    let mut state = w["state"].clone();
    let mut relay = Vec::new();
    while state["status"] == "playing" {
        let n = plies(&state);
        let sq = state["legal"][0].as_str().unwrap().to_string();
        let (mover, other) = if state["to_move"] == "black" {
            (&mut black, &mut white)
        } else {
            (&mut white, &mut black)
        };
        tokio::time::sleep(Duration::from_millis(30)).await;
        let sent = Instant::now();
        mover
            .send(json!({"type": "move", "square": sq, "ply": n}))
            .await;
        // The other seat is on the other node: its state crossed PostgreSQL.
        let seen = other.state_at_least(n + 1).await;
        relay.push(sent.elapsed());
        let mine = mover.state_at_least(n + 1).await;
        assert_eq!(
            game_part(seen["state"].clone()),
            game_part(mine["state"].clone())
        );
        state = seen["state"].clone();
    }
    assert_eq!(state["result"]["reason"], "end");
    assert!(relay.len() >= 58, "a whole game: {} plies", relay.len());
    let (p50, p99) = (quantile(&mut relay, 0.5), quantile(&mut relay, 0.99));
    eprintln!(
        "{} moves from node to node: relay p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
        relay.len(),
        p50.as_secs_f64() * 1e3,
        p99.as_secs_f64() * 1e3,
        relay.iter().max().unwrap().as_secs_f64() * 1e3
    );
    assert!(
        p99 <= Duration::from_millis(100),
        "p99 relay {p99:?} over 100 ms"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_seat_sending_two_moves_for_one_ply_through_two_nodes_gets_one_applied() {
    let Some((_pg, _url, _dir, a, b)) = two_nodes(&[]) else {
        return;
    };
    let (room, _, token) = create(a.addr, "modern", "black", Value::Null).await;
    // Black is connected to both nodes at once (two tabs, two proxies' picks).
    let (mut black_a, _) = Client::join(a.addr, &room, Some(&token)).await;
    let (mut black_b, _) = Client::join(b.addr, &room, Some(&token)).await;
    let (mut white, w) = Client::join(a.addr, &room, None).await;
    let mut state = w["state"].clone();
    let mut races = 0;
    while state["status"] == "playing" && races < 25 {
        let n = plies(&state);
        tokio::time::sleep(Duration::from_millis(60)).await;
        if state["to_move"] == "white" {
            let sq = state["legal"][0].as_str().unwrap().to_string();
            white
                .send(json!({"type": "move", "square": sq, "ply": n}))
                .await;
            state = white.state_at_least(n + 1).await["state"].clone();
            for c in [&mut black_a, &mut black_b] {
                c.state_at_least(n + 1).await;
            }
            continue;
        }
        let legal: Vec<String> = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_string())
            .collect();
        if legal.len() < 2 {
            black_a
                .send(json!({"type": "move", "square": legal[0], "ply": n}))
                .await;
            state = white.state_at_least(n + 1).await["state"].clone();
            for c in [&mut black_a, &mut black_b] {
                c.state_at_least(n + 1).await;
            }
            continue;
        }
        races += 1;
        let (x, y) = (&legal[0], &legal[legal.len() - 1]);
        tokio::join!(
            black_a.send(json!({"type": "move", "square": x, "ply": n})),
            black_b.send(json!({"type": "move", "square": y, "ply": n})),
        );
        // Each connection ends up with the game one ply on; the loser was
        // told its move came too late (stale) and given the state.
        let sa = black_a.state_at_least(n + 1).await;
        let sb = black_b.state_at_least(n + 1).await;
        state = white.state_at_least(n + 1).await["state"].clone();
        // One of the two is ply n, and the other nowhere after it (white
        // may have had to pass).
        let after: Vec<&str> = state["moves"].as_array().unwrap()[n..]
            .iter()
            .map(|m| m.as_str().unwrap())
            .collect();
        assert!(
            after[0] == x || after[0] == y,
            "ply {n}: {after:?} begins with neither {x} nor {y}"
        );
        assert_eq!(
            after.iter().filter(|m| **m == x || **m == y).count(),
            1,
            "ply {n}: exactly one of {x} and {y} applied: {state}"
        );
        assert!(
            after[1..].iter().all(|m| *m == "pass"),
            "ply {n}: {after:?}"
        );
        for s in [&sa, &sb] {
            assert_eq!(
                game_part(s["state"].clone()),
                game_part(state.clone()),
                "ply {n}"
            );
        }
        // Both nodes agree, and so does what they stored.
        let on_a = get_state(a.addr, &room).await;
        let on_b = until_state(b.addr, &room, "the ply", |s| plies(s) == plies(&state)).await;
        assert_eq!(game_part(on_a), game_part(on_b.clone()), "ply {n}");
        assert_eq!(game_part(on_b), game_part(state.clone()), "ply {n}");
    }
    assert!(races >= 10, "only {races} races");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_hundred_rooms_made_on_both_nodes_are_there_after_both_restart() {
    let args = ["--rooms-burst", "1000"];
    let Some((_pg, url, dir, mut a, mut b)) = two_nodes(&args) else {
        return;
    };
    let mut rooms = Vec::new();
    for i in 0..200 {
        let node = if i % 2 == 0 { a.addr } else { b.addr };
        let variant = if i % 3 == 0 { "classic" } else { "modern" };
        let (room, _, token) = create(node, variant, "black", Value::Null).await;
        rooms.push((room, token, variant));
    }
    a.kill9();
    b.kill9();
    let site = dir.path().join("site");
    let a = Node::start(&url, &site, &args);
    let b = Node::start(&url, &site, &args);
    for (i, (room, token, variant)) in rooms.iter().enumerate() {
        // Each asked of the node that did not make it.
        let node = if i % 2 == 0 { b.addr } else { a.addr };
        let s = get_state(node, room).await;
        assert_eq!(s["variant"], *variant, "{room}");
        assert_eq!(s["seats"]["black"]["taken"], true, "{room}");
        if i % 50 == 0 {
            let (_c, w) = Client::join(node, room, Some(token)).await;
            assert_eq!(w["seat"], "black", "the creator's token holds its seat");
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_both_nodes_time_falls_once() {
    use mollett::{Color, Variant};
    use mollett_server::event::{ClockSpec, Event, RoomSpec};
    use mollett_server::store::Store;
    let Some(pg) = Postgres::start() else { return };
    let url = pg.database();
    // A game whose clock (3 s, black to move) is already running when both
    // nodes start: each reads it and arms its flag timer.
    let now = mollett_server::hub::now_ms();
    let room = "f".repeat(32);
    let spec = RoomSpec {
        id: room.clone(),
        variant: Variant::Modern,
        clock: Some(ClockSpec {
            initial_ms: 3000,
            increment_ms: 0,
        }),
        created: now,
    };
    let seat = |color, token: &str| Event::Seat {
        color,
        token: token.into(),
        at: now,
    };
    let mut store = mollett_server::postgres::PgStore::open(&url).unwrap();
    store.create(&spec, &[seat(Color::Black, "tb")]).unwrap();
    store.append(&room, 1, &seat(Color::White, "tw")).unwrap();
    let (_dir, site, _) = scratch();
    let a = Node::start(&url, &site, &[]);
    let b = Node::start(&url, &site, &[]);
    // Each node serves the game over on time, once the time is up.
    for node in [a.addr, b.addr] {
        let s = until_state(node, &room, "the flag", |s| s["status"] == "over").await;
        assert_eq!(s["result"]["reason"], "time", "{s}");
        assert_eq!(s["result"]["winner"], "white", "{s}");
    }
    // Both timers fired; the store has one flag, the second node's refused.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let events = store.load_since(&room, 0).unwrap();
    let flags = events
        .iter()
        .filter(|e| matches!(e, Event::Flag { .. }))
        .count();
    assert_eq!((events.len(), flags), (3, 1), "{events:?}");
}

/// One seat's socket through nginx.
struct Seat {
    from: &'static str,
    token: Option<String>,
    ws: WebSocket<Tls>,
}

impl Seat {
    /// Upgrades through nginx from `from` and says hello with `token`;
    /// returns the seat and its welcome.
    fn join(front: &Front, from: &'static str, room: &str, token: Option<String>) -> (Seat, Value) {
        let (answer, tls) = front.upgrade_from(from, room);
        let tls = tls.unwrap_or_else(|| panic!("no upgrade through nginx: {answer:?}"));
        let ws = WebSocket::from_raw_socket(tls, Role::Client, None);
        let mut seat = Seat { from, token, ws };
        seat.send(json!({"type": "hello", "token": seat.token}));
        let welcome = seat.recv_type("welcome").expect("a welcome");
        if let Some(t) = welcome["token"].as_str() {
            seat.token = Some(t.to_string());
        }
        (seat, welcome)
    }

    fn send(&mut self, v: Value) {
        self.ws.send(Message::Text(v.to_string().into())).unwrap();
    }

    /// The next frame of type `kind`; `None` when the socket closed.
    fn recv_type(&mut self, kind: &str) -> Option<Value> {
        loop {
            match self.ws.read() {
                Ok(Message::Text(t)) => {
                    let v = common::contract(&t);
                    if v["type"] == kind {
                        return Some(v);
                    }
                }
                Ok(Message::Close(_)) | Err(_) => return None,
                Ok(_) => {}
            }
        }
    }

    /// True when the socket is closed, or closes within `ms` (no frame
    /// comes meanwhile: nobody moved).
    fn closes_within(&mut self, ms: u64) -> bool {
        let sock = |s: &mut Seat, t| {
            s.ws.get_mut()
                .sock
                .set_read_timeout(Some(Duration::from_millis(t)))
                .unwrap()
        };
        sock(self, ms);
        let closed = loop {
            match self.ws.read() {
                Err(tokio_tungstenite::tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    break false
                }
                Ok(Message::Close(_)) | Err(_) => break true,
                Ok(_) => {}
            }
        };
        sock(self, 10_000);
        closed
    }

    /// The next state with at least `plies` plies (`None`: closed).
    fn state_at_least(&mut self, plies: usize) -> Option<Value> {
        loop {
            let s = self.recv_type("state")?;
            if s["state"]["moves"].as_array().unwrap().len() >= plies {
                return Some(s["state"].clone());
            }
        }
    }
}

#[test]
fn nginx_in_front_of_two_nodes_plays_a_game_while_one_is_killed() {
    let Some(pg) = Postgres::start() else { return };
    let url = pg.database();
    let (dir, site, _) = scratch();
    let flags = deploy_flags();
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    let mut a = Node::start(&url, &site, &flags);
    let b = Node::start(&url, &site, &flags);
    // Routing by room id is an optimisation, not a need: without it nginx
    // takes the nodes in turn, so the two players' sockets land on both
    // nodes and each move crosses from one to the other.
    let hash = "hash $mollett_room consistent;";
    let Some(front) = Front::start_with("two nodes", &[a.addr, b.addr], &[(hash, "")]) else {
        return;
    };
    let made = front.create_room_from("127.0.0.2", "");
    assert_eq!(made.status, 201, "{made:?}");
    let made: Value = serde_json::from_str(&made.body).unwrap();
    let room = made["room"].as_str().unwrap().to_string();
    let token = made["token"].as_str().unwrap().to_string();
    let (black, _) = Seat::join(&front, "127.0.0.2", &room, Some(token));
    let (white, w) = Seat::join(&front, "127.0.0.3", &room, None);
    assert_eq!(w["seat"], "white");
    let mut seats = [black, white];
    let mut state = w["state"].clone();
    let mut killed = false;
    let mut reconnected = 0;
    while state["status"] == "playing" {
        let n = state["moves"].as_array().unwrap().len();
        if n == 10 && !killed {
            a.kill9();
            killed = true;
            // The seat whose socket node A held finds it closed and comes
            // back through nginx, which passes the upgrade to node B.
            for seat in seats.iter_mut() {
                if seat.closes_within(1500) {
                    let (again, w) = Seat::join(&front, seat.from, &room, seat.token.clone());
                    assert_eq!(w["state"]["moves"].as_array().unwrap().len(), 10, "{w}");
                    *seat = again;
                    reconnected += 1;
                }
            }
            assert_eq!(reconnected, 1, "one seat's socket was on the killed node");
        }
        let mover = usize::from(state["to_move"] != "black");
        let sq = state["legal"][0].as_str().unwrap().to_string();
        std::thread::sleep(Duration::from_millis(30));
        seats[mover].send(json!({"type": "move", "square": sq, "ply": n}));
        let mine = seats[mover]
            .state_at_least(n + 1)
            .expect("the mover's state");
        let theirs = seats[1 - mover]
            .state_at_least(n + 1)
            .expect("the other seat's state");
        assert_eq!(mine["moves"], theirs["moves"]);
        state = theirs;
    }
    assert!(killed, "the game went past ply 10");
    assert_eq!(state["result"]["reason"], "end");
    // What the node left stored is the game both players saw.
    let stored = front.https_from("127.0.0.4", "GET", &format!("/api/rooms/{room}"), "", "");
    let stored: Value = serde_json::from_str(&stored.body).unwrap();
    assert_eq!(stored["moves"], state["moves"]);
    drop((b, dir, pg));
}
