//! Nothing lost: what the database holds rebuilds every room as it was, and
//! a server killed with kill -9 and started again carries on every game.

mod common;

use common::node::Node;
use common::play::play;
use common::*;
use mollett::Variant;
use mollett_server::event::{ClockSpec, Event, RoomSpec};
use mollett_server::room::{Command, Joined, Room};
use mollett_server::sqlite::SqliteStore;
use mollett_server::store::Store;
use serde_json::{json, Value};

/// Applies `e` to `room` and stores it as event `seq`.
fn keep(store: &mut SqliteStore, room: &mut Room, seq: &mut u64, e: Event) {
    store.append(&room.spec.id, *seq, &e).unwrap();
    *seq += 1;
    room.apply(&e);
}

#[test]
fn the_database_rebuilds_every_room_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("rooms.db");
    let mut rooms = Vec::new();
    {
        let mut store = SqliteStore::open(&db, false).unwrap();
        for (i, variant) in [Variant::Modern, Variant::Classic, Variant::Modern]
            .into_iter()
            .enumerate()
        {
            let clock = (i == 2).then_some(ClockSpec {
                initial_ms: 60_000,
                increment_ms: 1_000,
            });
            let spec = RoomSpec {
                id: format!("{i:032x}"),
                variant,
                clock,
                created: 1,
            };
            let mut room = Room::new(spec.clone());
            let Joined::Take(seat) = room.join(None, format!("a{i}"), 10) else {
                panic!()
            };
            store.create(&spec, std::slice::from_ref(&seat)).unwrap();
            room.apply(&seat);
            let mut seq = 1;
            if i == 0 {
                rooms.push(room); // waiting for its second seat
                continue;
            }
            let Joined::Take(seat) = room.join(None, format!("b{i}"), 20) else {
                panic!()
            };
            keep(&mut store, &mut room, &mut seq, seat);
            // Some moves, an undo declined and one accepted, one pending.
            for t in 0..12u64 {
                let sq = room.game.position().legal_moves()[0].square().unwrap();
                let ply = room.game.moves().len();
                let e = room
                    .handle(
                        Some(room.to_move()),
                        Command::Move { square: sq, ply },
                        100 + t * 700,
                    )
                    .unwrap();
                keep(&mut store, &mut room, &mut seq, e);
            }
            let asker = Some(room.to_move());
            let other = Some(room.to_move().other());
            for (who, cmd) in [
                (asker, Command::Undo),
                (other, Command::UndoAnswer { accept: false }),
                (asker, Command::Undo),
                (other, Command::UndoAnswer { accept: true }),
                (asker, Command::Undo),
            ] {
                let e = room.handle(who, cmd, 20_000).unwrap();
                keep(&mut store, &mut room, &mut seq, e);
            }
            rooms.push(room);
        }
    }
    let mut store = SqliteStore::open(&db, false).unwrap();
    let loaded: Vec<Room> = store
        .load_all()
        .unwrap()
        .into_iter()
        .map(|(s, e)| Room::replay(s, &e))
        .collect();
    assert_eq!(loaded, rooms);
    assert!(loaded[2].undo.is_some() && loaded[2].clock.unwrap().left_ms != [60_000; 2]);
    // The reopened store appends where the old one stopped.
    let mut room = loaded[1].clone();
    let answerer = room.undo.expect("a request stands").other();
    let e = room
        .handle(
            Some(answerer),
            Command::UndoAnswer { accept: false },
            30_000,
        )
        .unwrap();
    let n = store.load_all().unwrap()[1].1.len() as u64;
    store.append(&room.spec.id, n, &e).unwrap();
    assert!(
        store.append(&room.spec.id, n, &e).is_err(),
        "an event number is stored once"
    );
    room.apply(&e);
    let again = store.load_all().unwrap().remove(1);
    assert_eq!(Room::replay(again.0, &again.1), room);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_killed_with_kill_9_has_every_move_after_a_restart() {
    let (_dir, site, db) = scratch();
    let mut server = Node::start(&db, &site, &[]);
    let addr = server.addr;
    let mut rooms = Vec::new();
    for (variant, clock) in [
        ("modern", Value::Null),
        ("classic", json!({"minutes": 10, "increment": 5})),
    ] {
        let (room, seat, token_a) = create(addr, variant, "random", clock).await;
        let (a, _) = Client::join(addr, &room, Some(&token_a)).await;
        let (b, w) = Client::join(addr, &room, None).await;
        let token_b = w["token"].as_str().unwrap().to_string();
        let (mut black, mut white, tb, tw) = if seat == "black" {
            (a, b, token_a, token_b)
        } else {
            (b, a, token_b, token_a)
        };
        let state = play(&mut black, &mut white, w["state"].clone(), 20).await;
        // The last move was acknowledged to both before the kill.
        rooms.push((room, tb, tw, state));
        drop((black, white));
    }
    server.kill9();
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;

    let server = Node::start(&db, &site, &[]);
    let addr = server.addr;
    for (room, tb, tw, before) in rooms {
        assert_eq!(
            game_part(get_state(addr, &room).await),
            game_part(before.clone())
        );
        let (mut black, w) = Client::join(addr, &room, Some(&tb)).await;
        assert_eq!(
            (w["seat"].as_str(), w["token"].is_null()),
            (Some("black"), true)
        );
        let (mut white, w) = Client::join(addr, &room, Some(&tw)).await;
        assert_eq!(w["seat"], "white");
        assert_eq!(w["state"]["moves"], before["moves"]);
        if before["clock"].is_object() {
            // The 3 s the server was down are not charged: the clocks are
            // as they were (less the moments since the restart).
            for side in ["black_ms", "white_ms"] {
                let (a, b) = (
                    w["state"]["clock"][side].as_i64().unwrap(),
                    before["clock"][side].as_i64().unwrap(),
                );
                assert!(
                    (a - b).abs() < 1500,
                    "{side}: {b} before, {a} after the restart"
                );
            }
        }
        let end = play(&mut black, &mut white, w["state"].clone(), 200).await;
        assert_eq!(end["status"], "over", "the game goes on to its end");
        assert_eq!(end["result"]["reason"], "end");
    }
}
