//! `mollett room-play`'s side of the rooms wire (docs/rooms.md): the room
//! link read into an address, the messages read into types, and one
//! WebSocket connection that reconnects by itself.
//!
//! A blocking client (`tungstenite` over a `TcpStream`): the engine binary
//! gains no async runtime, and one connection needs none.

use serde::Deserialize;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::time::{Duration, Instant};
use tungstenite::handshake::HandshakeError;
use tungstenite::{Message, WebSocket};

/// How long one TCP connect may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// After a dropped connection, retries for this long (a server restarted
/// from its database takes a second or two), waiting from 250 ms doubling
/// to 4 s between tries.
const RECONNECT_FOR: Duration = Duration::from_secs(60);
const RECONNECT_WAIT: (Duration, Duration) = (Duration::from_millis(250), Duration::from_secs(4));
/// Longest message the contract allows either way; more is not a room server.
const MAX_MESSAGE: usize = 64 * 1024;

/// A room link (`http://HOST:PORT/?room=ID`, as the page shows it, or the
/// socket's own `ws://HOST:PORT/ws/ID`) read into where to connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomAddress {
    /// `HOST:PORT`.
    pub authority: String,
    pub room: String,
}

impl RoomAddress {
    pub fn parse(link: &str) -> Result<RoomAddress, String> {
        let not_room = |why: &str| {
            format!("--room '{link}' is not a room link ({why}): give the address the board shows, http://HOST:PORT/?room=ID")
        };
        let (scheme, rest) = link
            .split_once("://")
            .ok_or_else(|| not_room("no http://"))?;
        match scheme.to_ascii_lowercase().as_str() {
            "http" | "ws" => {}
            "https" | "wss" => return Err(not_room("https is not supported: room-play speaks plain WebSocket, so run it against the server's own http address")),
            _ => return Err(not_room("not http")),
        }
        let (authority, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
        if authority.is_empty() || authority.contains('@') {
            return Err(not_room("no host"));
        }
        let authority = if authority
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok())
        {
            authority.to_string()
        } else {
            format!("{authority}:80")
        };
        let path = path.split('#').next().unwrap_or("");
        let (path, query) = path.split_once('?').unwrap_or((path, ""));
        let from_query = query.split('&').find_map(|kv| kv.strip_prefix("room="));
        let from_path = path.strip_prefix("/ws/");
        let room = from_query
            .or(from_path)
            .ok_or_else(|| not_room("no room id"))?;
        if room.len() != 32
            || !room
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        {
            return Err(not_room("a room id is 32 hexadecimal digits"));
        }
        Ok(RoomAddress {
            authority,
            room: room.to_string(),
        })
    }
}

/// A room's state as the server sends it (fields this client reads; the
/// others are ignored).
#[derive(Clone, Debug, Deserialize)]
pub struct State {
    pub variant: String,
    pub game: u32,
    /// Every ply, passes included as `pass`.
    pub moves: Vec<String>,
    pub to_move: Option<String>,
    pub legal: Vec<String>,
    pub undo: Option<UndoRequest>,
    pub clock: Option<Clock>,
    /// `waiting`, `playing` or `over`.
    pub status: String,
    pub result: Option<GameResult>,
}

#[derive(Clone, Debug, Deserialize)]
pub struct UndoRequest {
    pub by: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Clock {
    pub black_ms: u64,
    pub white_ms: u64,
    pub increment_ms: u64,
}

#[derive(Clone, Debug, Deserialize)]
pub struct GameResult {
    pub winner: Option<String>,
    pub black: u32,
    pub white: u32,
    pub reason: String,
}

/// What the server says.
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMessage {
    Welcome {
        seat: String,
        token: Option<String>,
        state: State,
    },
    State {
        seat: String,
        state: State,
    },
    Error {
        code: String,
        message: String,
    },
    Pong,
}

/// One seat's connection to a room: hello on every (re)connect with the
/// seat's token, then states in and actions out.
pub struct RoomConnection {
    address: RoomAddress,
    socket: WebSocket<TcpStream>,
    /// The seat's token once the server gave or accepted one.
    pub token: Option<String>,
}

impl RoomConnection {
    /// Connects and says hello (`token` None: take the free seat, if any);
    /// returns the connection with the server's welcome.
    pub fn join(
        address: &RoomAddress,
        token: Option<String>,
    ) -> Result<(RoomConnection, String, State), String> {
        let socket = open(address)?;
        let mut conn = RoomConnection {
            address: address.clone(),
            socket,
            token,
        };
        let (seat, state) = conn.hello()?;
        Ok((conn, seat, state))
    }

    fn hello(&mut self) -> Result<(String, State), String> {
        let token = serde_json::to_string(&self.token).expect("a string or null");
        self.send(&format!(r#"{{"type":"hello","token":{token}}}"#))?;
        match self.read()? {
            ServerMessage::Welcome { seat, token, state } => {
                if token.is_some() {
                    self.token = token;
                }
                Ok((seat, state))
            }
            ServerMessage::Error { message, .. } => {
                Err(format!("the room refused hello: {message}"))
            }
            other => Err(format!("the room answered hello with {other:?}")),
        }
    }

    /// Sends one message (JSON text); a dropped connection is an error here
    /// and is opened again by the next read.
    pub fn send(&mut self, text: &str) -> Result<(), String> {
        if let Err(e) = self.socket.send(Message::text(text)) {
            // The read that follows reconnects; what was sent is lost, and
            // the welcome's state says whether it must be sent again.
            eprintln!("room-play: lost the room connection: {e}");
        }
        Ok(())
    }

    /// The next message; a dropped connection is opened again (with hello
    /// and the seat's token), and the new welcome comes back: what was sent
    /// before the drop may have been lost.
    pub fn next(&mut self) -> Result<ServerMessage, String> {
        match self.read() {
            Ok(m) => Ok(m),
            Err(why) => {
                eprintln!("room-play: {why}; reconnecting");
                let (seat, state) = self.rejoin()?;
                Ok(ServerMessage::Welcome {
                    seat,
                    token: None,
                    state,
                })
            }
        }
    }

    fn read(&mut self) -> Result<ServerMessage, String> {
        loop {
            let msg = self
                .socket
                .read()
                .map_err(|e| format!("lost the room connection: {e}"))?;
            match msg {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).map_err(|e| {
                        format!(
                            "the room server sent what is not the rooms protocol ({e}): {}",
                            text.as_str()
                        )
                    });
                }
                Message::Close(_) => {
                    return Err("the room server closed the connection".to_string())
                }
                // Pings are answered by tungstenite itself.
                _ => {}
            }
        }
    }

    /// Connects again (hello with the seat's token): the welcome's seat and
    /// a fresh state, after a drop or when the state seen may be old.
    pub fn rejoin(&mut self) -> Result<(String, State), String> {
        let give_up = Instant::now() + RECONNECT_FOR;
        let mut wait = RECONNECT_WAIT.0;
        loop {
            std::thread::sleep(wait);
            match open(&self.address)
                .map(|s| self.socket = s)
                .and_then(|()| self.hello())
            {
                Ok(joined) => return Ok(joined),
                Err(why) if Instant::now() >= give_up => {
                    return Err(format!(
                        "the room server is gone ({why}); gave up after {} s",
                        RECONNECT_FOR.as_secs()
                    ))
                }
                Err(_) => wait = (wait * 2).min(RECONNECT_WAIT.1),
            }
        }
    }
}

/// The WebSocket to `/ws/ROOM`: a refused or unreachable server and a room
/// that does not exist (404) are told apart.
fn open(address: &RoomAddress) -> Result<WebSocket<TcpStream>, String> {
    let authority = &address.authority;
    let addrs: Vec<SocketAddr> = authority
        .to_socket_addrs()
        .map_err(|e| format!("cannot find the room server {authority}: {e}"))?
        .collect();
    let mut last = None;
    let stream = addrs
        .iter()
        .find_map(|a| {
            TcpStream::connect_timeout(a, CONNECT_TIMEOUT)
                .map_err(|e| last = Some(e))
                .ok()
        })
        .ok_or_else(|| {
            let why = last.map_or("no address".to_string(), |e| e.to_string());
            format!("cannot reach the room server at {authority}: {why}")
        })?;
    let _ = stream.set_nodelay(true);
    let url = format!("ws://{authority}/ws/{}", address.room);
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    match tungstenite::client::client_with_config(url.as_str(), stream, Some(config)) {
        Ok((socket, _)) => Ok(socket),
        Err(HandshakeError::Failure(tungstenite::Error::Http(response)))
            if response.status() == 404 =>
        {
            Err(format!("no such room at {authority}: {}", address.room))
        }
        Err(HandshakeError::Failure(tungstenite::Error::Io(e)))
            if e.kind() == ErrorKind::ConnectionReset =>
        {
            Err(format!("the server at {authority} dropped the connection"))
        }
        Err(e) => Err(format!("{authority} is not a room server: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn room_links() {
        let id = "0123456789abcdef0123456789abcdef";
        let a = RoomAddress::parse(&format!("http://127.0.0.1:8000/?room={id}")).unwrap();
        assert_eq!(
            (a.authority.as_str(), a.room.as_str()),
            ("127.0.0.1:8000", id)
        );
        let a = RoomAddress::parse(&format!("ws://example.org/ws/{id}")).unwrap();
        assert_eq!(a.authority, "example.org:80");
        let a = RoomAddress::parse(&format!("http://h:1/?variant=modern&room={id}#x")).unwrap();
        assert_eq!(a.room, id);
        for bad in [
            "127.0.0.1:8000",
            "http://h:1/",
            "http://h:1/?room=new",
            "https://h/?room=0123456789abcdef0123456789abcdef",
            "ftp://h/ws/x",
            "http:///?room=0123456789abcdef0123456789abcdef",
        ] {
            assert!(RoomAddress::parse(bad).is_err(), "{bad}");
        }
    }
}
