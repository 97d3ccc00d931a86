//! The store's contract, the same checks on both backends: the embedded
//! SQLite file and a real PostgreSQL (a private cluster this test starts,
//! tests/common/postgres.rs). Then what only a shared store does: a second
//! node's store hears each committed event, and nodes starting together
//! bring the schema up once.

mod common;

use common::postgres::Postgres;
use mollett::{Color, Square, Variant};
use mollett_server::event::{Event, RoomSpec};
use mollett_server::postgres::PgStore;
use mollett_server::sqlite::SqliteStore;
use mollett_server::store::{AppendError, Notice, Store};
use std::time::Duration;

fn spec(id: &str, created: u64) -> RoomSpec {
    RoomSpec {
        id: id.to_string(),
        variant: Variant::Modern,
        clock: None,
        created,
    }
}

fn seat(color: Color, token: &str, at: u64) -> Event {
    Event::Seat {
        color,
        token: token.to_string(),
        at,
    }
}

fn mv(sq: &str, at: u64) -> Event {
    Event::Move {
        square: sq.parse::<Square>().unwrap(),
        at,
        left_ms: None,
    }
}

/// Every check of the contract, on one empty store.
fn contract(store: &mut dyn Store, name: &str) {
    let a = "a".repeat(32);
    let b = "b".repeat(32);
    let young = "c".repeat(32);
    store
        .create(&spec(&a, 5), &[seat(Color::Black, "ta", 5)])
        .unwrap();
    store
        .create(&spec(&b, 5), &[seat(Color::White, "tb", 5)])
        .unwrap();
    store
        .create(&spec(&young, 50), &[seat(Color::White, "ty", 50)])
        .unwrap();
    assert!(
        store
            .create(&spec(&a, 6), &[seat(Color::Black, "x", 6)])
            .is_err(),
        "{name}: a room id is made once"
    );

    // Events in order; the key (room, seq) refuses a second writer of a number.
    store.append(&a, 1, &seat(Color::White, "ta2", 6)).unwrap();
    store.append(&a, 2, &mv("d3", 7)).unwrap();
    match store.append(&a, 2, &mv("c4", 8)) {
        Err(AppendError::Taken) => {}
        other => panic!("{name}: a second event 2 should be Taken, got {other:?}"),
    }
    match store.append(&"d".repeat(32), 0, &mv("c4", 8)) {
        Err(AppendError::Failed(_)) => {}
        other => panic!("{name}: an event of no room should fail, got {other:?}"),
    }

    let (s, events) = store.load(&a).unwrap().expect("room a");
    assert_eq!(s, spec(&a, 5), "{name}");
    assert_eq!(
        events,
        vec![
            seat(Color::Black, "ta", 5),
            seat(Color::White, "ta2", 6),
            mv("d3", 7)
        ],
        "{name}: the first writer's event 2 stays"
    );
    assert_eq!(
        store.load_since(&a, 1).unwrap(),
        events[1..].to_vec(),
        "{name}"
    );
    assert!(store.load_since(&a, 3).unwrap().is_empty(), "{name}");
    assert!(
        store.load_since(&"d".repeat(32), 0).unwrap().is_empty(),
        "{name}"
    );
    assert!(store.load(&"d".repeat(32)).unwrap().is_none(), "{name}");

    let mut all = store.load_all().unwrap();
    all.sort_by(|x, y| x.0.id.cmp(&y.0.id));
    assert_eq!(all.len(), 3, "{name}");
    assert_eq!(all[0].1, events, "{name}");
    assert_eq!(all[1].1, vec![seat(Color::White, "tb", 5)], "{name}");

    // Rooms nobody joined, made before the cut-off, go with their events.
    assert_eq!(
        store.delete_unjoined(10).unwrap(),
        vec![b.clone()],
        "{name}"
    );
    assert!(store.load(&b).unwrap().is_none(), "{name}");
    assert!(store.load(&a).unwrap().is_some(), "{name}: joined");
    assert!(
        store.load(&young).unwrap().is_some(),
        "{name}: made after the cut-off"
    );
    assert!(store.delete_unjoined(10).unwrap().is_empty(), "{name}");
}

#[test]
fn sqlite_keeps_the_contract() {
    let dir = tempfile::tempdir().unwrap();
    let mut store = SqliteStore::open(&dir.path().join("rooms.db"), false).unwrap();
    assert!(!store.shared());
    contract(&mut store, "sqlite");
}

#[test]
fn postgres_keeps_the_contract() {
    let Some(pg) = Postgres::start() else { return };
    let mut store = PgStore::open(&pg.database()).unwrap();
    assert!(store.shared());
    contract(&mut store, "postgres");
    // Opened again, the schema is there: nothing is lost, nothing made twice.
    drop(store);
    let url = format!("postgres://postgres@127.0.0.1:{}/rooms1", pg.port);
    let mut again = PgStore::open(&url).unwrap();
    assert_eq!(again.load_all().unwrap().len(), 2);
}

#[test]
fn a_bad_postgres_url_is_refused_with_what_was_wrong() {
    let e = PgStore::open("postgres://nobody@127.0.0.1:1/none")
        .err()
        .expect("no server on port 1");
    assert!(e.contains("127.0.0.1:1"), "{e}");
    let e = PgStore::open("postgres://x@host:notaport/db")
        .err()
        .expect("a bad port");
    assert!(e.contains("notaport"), "{e}");
}

/// Receives notices until one satisfies `want` (within 5 s).
fn wait_for(
    rx: &mut tokio::sync::mpsc::UnboundedReceiver<Notice>,
    want: impl Fn(&Notice) -> bool,
) -> Notice {
    let by = std::time::Instant::now() + Duration::from_secs(5);
    loop {
        match rx.try_recv() {
            Ok(n) if want(&n) => return n,
            Ok(_) => {}
            Err(_) => {
                assert!(std::time::Instant::now() < by, "no such notice within 5 s");
                std::thread::sleep(Duration::from_millis(5));
            }
        }
    }
}

#[test]
fn a_second_node_hears_each_committed_event_and_no_refused_one() {
    let Some(pg) = Postgres::start() else { return };
    let url = pg.database();
    // Two nodes started at once migrate one at a time.
    let (one, two) = std::thread::scope(|s| {
        let one = s.spawn(|| PgStore::open(&url).unwrap());
        let two = s.spawn(|| PgStore::open(&url).unwrap());
        (one.join().unwrap(), two.join().unwrap())
    });
    let (mut one, mut two) = (one, two);
    assert_ne!(one.node(), two.node());
    let mut heard = two.notices().expect("a shared store has notices");
    assert!(two.notices().is_none(), "handed out once");
    // The listening connection is up once an announcement comes back.
    std::thread::sleep(Duration::from_millis(300));
    two.announce(&Notice::Alive {
        node: two.node().to_string(),
    })
    .unwrap();
    wait_for(&mut heard, |n| matches!(n, Notice::Alive { .. }));

    let id = "e".repeat(32);
    one.create(&spec(&id, 5), &[seat(Color::Black, "t", 5)])
        .unwrap();
    one.append(&id, 1, &seat(Color::White, "u", 6)).unwrap();
    assert!(matches!(
        two.append(&id, 1, &mv("d3", 7)),
        Err(AppendError::Taken)
    ));
    one.append(&id, 2, &mv("d3", 7)).unwrap();
    let first = wait_for(&mut heard, |n| matches!(n, Notice::Event { .. }));
    let second = wait_for(&mut heard, |n| matches!(n, Notice::Event { .. }));
    let node = one.node().to_string();
    assert_eq!(
        first,
        Notice::Event {
            node: node.clone(),
            room: id.clone(),
            seq: 1,
            event: seat(Color::White, "u", 6)
        }
    );
    assert_eq!(
        second,
        Notice::Event {
            node,
            room: id.clone(),
            seq: 2,
            event: mv("d3", 7)
        },
        "the refused event was never announced"
    );
    assert_eq!(two.load_since(&id, 0).unwrap().len(), 3);
}
