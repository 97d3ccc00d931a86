//! `mollett room-play` refuses what it cannot play with one line on stderr
//! and exit status 2, before starting any engine: a link that is not a
//! room, a server that cannot be reached, a room the server does not have,
//! a server that is not a room server. (Whole games through a real server
//! are tests/browser/test_rooms.py.)

use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output, Stdio};

const ROOM: &str = "0123456789abcdef0123456789abcdef";

fn room_play(link: &str) -> Output {
    // An engine that would fail if it were ever started: the refusals come first.
    Command::new(env!("CARGO_BIN_EXE_mollett"))
        .args([
            "room-play",
            "--room",
            link,
            "--engine",
            "cmd=/nonexistent/engine",
        ])
        .stdin(Stdio::null())
        .output()
        .expect("run mollett")
}

fn assert_refused(link: &str, what: &str) {
    let o = room_play(link);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{link}: {err}");
    assert_eq!(err.lines().count(), 1, "{link}: one line, got {err:?}");
    assert!(err.contains(what), "{link}: {err:?} should say {what:?}");
    assert!(o.stdout.is_empty(), "{link}: stdout stays quiet");
}

/// A one-shot HTTP server on a free loopback port answering every request
/// with `answer`; its address.
fn answering(answer: &'static str) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut stream = stream;
            let mut buf = [0u8; 4096];
            let _ = stream.read(&mut buf);
            let _ = stream.write_all(answer.as_bytes());
        }
    });
    addr
}

#[test]
fn links_that_are_not_rooms_are_refused() {
    assert_refused("127.0.0.1:8000", "not a room link");
    assert_refused("http://127.0.0.1:8000/", "no room id");
    assert_refused("http://127.0.0.1:8000/?room=new", "32 hexadecimal digits");
    assert_refused(
        &format!("https://example.org/?room={ROOM}"),
        "https is not supported",
    );
}

#[test]
fn an_unreachable_server_is_refused() {
    // A port that was free a moment ago: nothing listens there.
    let port = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    assert_refused(
        &format!("http://127.0.0.1:{port}/?room={ROOM}"),
        "cannot reach the room server",
    );
}

#[test]
fn a_room_the_server_lacks_or_a_server_without_rooms_is_refused() {
    let not_found = answering("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n");
    assert_refused(&format!("http://{not_found}/?room={ROOM}"), "no such room");
    let plain = answering("HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi");
    assert_refused(
        &format!("http://{plain}/?room={ROOM}"),
        "is not a room server",
    );
}
