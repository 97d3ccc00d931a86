//! The recipe for several nodes as a whole (docs/deploy.md): nginx, with
//! server/deploy/nginx.conf, in front of two `mollett-server` nodes started
//! with the docs' flags on one PostgreSQL. Two players play a game through
//! nginx and TLS; one node is killed with SIGKILL mid-game; the player whose
//! socket it held reconnects through nginx with its token and the game goes
//! on to its end on the node that is left.

mod common;

use common::nginx::{Front, Tls};
use common::node::{deploy_flags, Node};
use common::postgres::Postgres;
use common::scratch;
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::protocol::Role;
use tokio_tungstenite::tungstenite::{Message, WebSocket};

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
