//! One seat's WebSocket to a room, `ws://` or `wss://`: the room link read
//! into an address, the socket opened with its failures told apart, hello
//! with the seat's token, and a reconnect by itself after a drop.
//!
//! A blocking client (`tungstenite` over a `TcpStream`, rustls for TLS):
//! the engine binary gains no async runtime, and one connection needs none.

use super::tls;
use super::wire::{ClientIn, ClientOut, Seat, State};
use rustls::ClientConfig;
use std::io::ErrorKind;
use std::net::{SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tungstenite::handshake::HandshakeError;
use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Connector, Message, WebSocket};

/// How long one TCP connect may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);
/// How long the WebSocket (and TLS) handshake may take once connected.
const HANDSHAKE_TIMEOUT: Duration = Duration::from_secs(10);
/// After a dropped connection, retries for this long (a server restarted
/// from its database takes a second or two), waiting from 250 ms doubling
/// to 4 s between tries.
const RECONNECT_FOR: Duration = Duration::from_secs(60);
const RECONNECT_WAIT: (Duration, Duration) = (Duration::from_millis(250), Duration::from_secs(4));
/// Longest message the contract allows either way; more is not a room server.
const MAX_MESSAGE: usize = 64 * 1024;
/// While the engine thinks, how often the socket is read: the server pings
/// every 10 s and closes a connection silent for 20 s (docs/rooms.md,
/// "Limits"), so each ping is answered within this.
const KEEP_ALIVE_POLL: Duration = Duration::from_millis(200);

/// A room link (`http://HOST:PORT/?room=ID` or `https://…`, as the page
/// shows it, or the socket's own `ws://HOST:PORT/ws/ID` or `wss://…`) read
/// into where to connect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoomAddress {
    /// `HOST:PORT` (the port the scheme implies when the link has none).
    pub authority: String,
    /// `https://` or `wss://`.
    pub tls: bool,
    pub room: String,
}

impl RoomAddress {
    pub fn parse(link: &str) -> Result<RoomAddress, String> {
        let not_room = |why: &str| {
            format!("--room '{link}' is not a room link ({why}): give the address the board shows, http(s)://HOST[:PORT]/?room=ID")
        };
        let (scheme, rest) = link
            .split_once("://")
            .ok_or_else(|| not_room("no http:// or https://"))?;
        let tls = match scheme.to_ascii_lowercase().as_str() {
            "http" | "ws" => false,
            "https" | "wss" => true,
            _ => return Err(not_room("not http or https")),
        };
        let (authority, path) = rest.split_at(rest.find(['/', '?', '#']).unwrap_or(rest.len()));
        if authority.is_empty() || authority.contains('@') {
            return Err(not_room("no host"));
        }
        let has_port = authority
            .rsplit_once(':')
            .is_some_and(|(_, p)| p.parse::<u16>().is_ok());
        let authority = match (has_port, tls) {
            (true, _) => authority.to_string(),
            (false, false) => format!("{authority}:80"),
            (false, true) => format!("{authority}:443"),
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
            tls,
            room: room.to_string(),
        })
    }

    /// The socket's URL.
    fn url(&self) -> String {
        let scheme = if self.tls { "wss" } else { "ws" };
        format!("{scheme}://{}/ws/{}", self.authority, self.room)
    }
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

/// One seat's connection to a room: hello on every (re)connect with the
/// seat's token, then states in and actions out.
pub struct RoomConnection {
    address: RoomAddress,
    tls: Option<Arc<ClientConfig>>,
    socket: Socket,
    /// The seat's token once the server gave or accepted one.
    pub token: Option<String>,
    /// What came while the engine thought ([`RoomConnection::keep_alive_while`]),
    /// for [`RoomConnection::receive`] in order, and why the socket went, if it did.
    pending: std::collections::VecDeque<ClientOut>,
    lost: Option<String>,
}

impl RoomConnection {
    /// Opens the room's socket without saying hello: the server, TLS and the
    /// room are checked, and no seat is taken yet. `tls` is required for a
    /// `wss://` address ([`tls::client_config`]).
    pub fn open(
        address: &RoomAddress,
        tls: Option<Arc<ClientConfig>>,
    ) -> Result<RoomConnection, String> {
        let socket = open(address, tls.as_ref())?;
        Ok(RoomConnection {
            address: address.clone(),
            tls,
            socket,
            token: None,
            pending: Default::default(),
            lost: None,
        })
    }

    /// Reads the socket until `done()` (the engine's move is ready), so that
    /// the server's pings are answered while an engine thinks for minutes:
    /// what comes is kept for [`RoomConnection::receive`], and a drop is
    /// told there too (the reconnect waits for the move).
    pub fn keep_alive_while(&mut self, done: impl Fn() -> bool) {
        if self.lost.is_some() {
            return;
        }
        set_read_timeout(&self.socket, Some(KEEP_ALIVE_POLL));
        while !done() {
            match self.socket.read() {
                Ok(Message::Text(text)) => match serde_json::from_str(text.as_str()) {
                    Ok(msg) => self.pending.push_back(msg),
                    Err(e) => {
                        self.lost = Some(format!(
                            "the room server sent what is not the rooms protocol ({e})"
                        ));
                        break;
                    }
                },
                Ok(Message::Close(_)) => {
                    self.lost = Some("the room server closed the connection".into());
                    break;
                }
                // A ping: tungstenite queued its pong; the next read sends it.
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) =>
                {
                    let _ = self.socket.flush();
                }
                Err(e) => {
                    self.lost = Some(format!("lost the room connection ({e})"));
                    break;
                }
            }
        }
        set_read_timeout(&self.socket, None);
    }

    /// Says hello (`token` None: take the free seat, if any) and returns
    /// the server's welcome. A socket the server closed meanwhile (a slow
    /// engine start past its hello timeout) is opened again once.
    pub fn join(&mut self, token: Option<String>) -> Result<(Seat, State), String> {
        self.token = token;
        match self.hello() {
            Err(Hello::Lost(_)) => {
                self.socket = open(&self.address, self.tls.as_ref())?;
                self.hello().map_err(Hello::into_words)
            }
            other => other.map_err(Hello::into_words),
        }
    }

    fn hello(&mut self) -> Result<(Seat, State), Hello> {
        let hello = ClientIn::Hello {
            token: self.token.clone(),
        };
        self.socket
            .send(frame(&hello))
            .map_err(|e| Hello::Lost(e.to_string()))?;
        match self.read().map_err(Hello::Lost)? {
            ClientOut::Welcome { seat, token, state } => {
                if token.is_some() {
                    self.token = token;
                }
                Ok((seat, state))
            }
            ClientOut::Error { message, .. } => {
                Err(Hello::Refused(format!("the room refused hello: {message}")))
            }
            _ => Err(Hello::Refused(
                "the room answered hello with something other than a welcome".to_string(),
            )),
        }
    }

    /// Sends one message. A dropped connection is not an error here: the
    /// next read opens it again, and the welcome's state says whether what
    /// was sent must be sent again.
    pub fn send(&mut self, msg: &ClientIn) {
        if let Err(e) = self.socket.send(frame(msg)) {
            log::debug!("room-play: a send failed: {e}");
        }
    }

    /// The next message; a dropped connection is opened again (with hello
    /// and the seat's token), and the new welcome comes back: what was sent
    /// before the drop may have been lost.
    pub fn receive(&mut self) -> Result<ClientOut, String> {
        match self.read() {
            Ok(m) => Ok(m),
            Err(why) => {
                eprintln!("room-play: {why}; reconnecting");
                let (seat, state) = self.rejoin()?;
                Ok(ClientOut::Welcome {
                    seat,
                    token: None,
                    state,
                })
            }
        }
    }

    fn read(&mut self) -> Result<ClientOut, String> {
        if let Some(msg) = self.pending.pop_front() {
            return Ok(msg);
        }
        if let Some(why) = self.lost.take() {
            return Err(why);
        }
        loop {
            let msg = self
                .socket
                .read()
                .map_err(|e| format!("lost the room connection ({e})"))?;
            match msg {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str()).map_err(|e| {
                        format!("the room server sent what is not the rooms protocol ({e})")
                    });
                }
                Message::Close(_) => return Err("the room server closed the connection".into()),
                // Pings are answered by tungstenite itself.
                _ => {}
            }
        }
    }

    /// Connects again (hello with the seat's token): the welcome's seat and
    /// a fresh state, after a drop or when the state seen may be old.
    pub fn rejoin(&mut self) -> Result<(Seat, State), String> {
        let give_up = Instant::now() + RECONNECT_FOR;
        let mut wait = RECONNECT_WAIT.0;
        loop {
            std::thread::sleep(wait);
            let joined = open(&self.address, self.tls.as_ref())
                .map(|s| {
                    self.socket = s;
                    self.pending.clear();
                    self.lost = None;
                })
                .and_then(|()| self.hello().map_err(Hello::into_words));
            match joined {
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

/// Why hello failed: the socket went (worth one new one), or the room said no.
enum Hello {
    Lost(String),
    Refused(String),
}

impl Hello {
    fn into_words(self) -> String {
        match self {
            Hello::Lost(why) => format!("lost the room connection before its welcome ({why})"),
            Hello::Refused(why) => why,
        }
    }
}

fn frame(msg: &ClientIn) -> Message {
    Message::text(serde_json::to_string(msg).expect("a message serialises"))
}

/// The WebSocket to `/ws/ROOM`: an unreachable server, a TLS failure, a
/// room that does not exist (404) and a server that is not a room server
/// are told apart, each in one sentence.
fn open(address: &RoomAddress, tls: Option<&Arc<ClientConfig>>) -> Result<Socket, String> {
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
            let why = match last {
                None => "the name has no address".to_string(),
                Some(e) if e.kind() == ErrorKind::ConnectionRefused => {
                    "nothing listens there (connection refused)".to_string()
                }
                Some(e) if e.kind() == ErrorKind::TimedOut => {
                    format!("no answer in {} s", CONNECT_TIMEOUT.as_secs())
                }
                Some(e) => e.to_string(),
            };
            format!("cannot reach the room server at {authority}: {why}")
        })?;
    let _ = stream.set_nodelay(true);
    // A server that accepts and says nothing must not hang the handshake.
    let _ = stream.set_read_timeout(Some(HANDSHAKE_TIMEOUT));
    let config = tungstenite::protocol::WebSocketConfig::default()
        .max_message_size(Some(MAX_MESSAGE))
        .max_frame_size(Some(MAX_MESSAGE));
    let connector = match (address.tls, tls) {
        (false, _) => Connector::Plain,
        (true, Some(config)) => Connector::Rustls(config.clone()),
        (true, None) => return Err("a wss:// room needs the TLS settings".to_string()),
    };
    let url = address.url();
    let socket = match tungstenite::client_tls_with_config(
        url.as_str(),
        stream,
        Some(config),
        Some(connector),
    ) {
        Ok((socket, _)) => socket,
        Err(HandshakeError::Failure(e)) => return Err(handshake_failure(address, e)),
        Err(HandshakeError::Interrupted(_)) => {
            return Err(format!(
                "the room server at {authority} did not answer in {} s",
                HANDSHAKE_TIMEOUT.as_secs()
            ))
        }
    };
    // From here a read waits for as long as the game takes.
    set_read_timeout(&socket, None);
    Ok(socket)
}

/// The socket's read timeout (None: a read waits as long as it takes).
fn set_read_timeout(socket: &Socket, timeout: Option<Duration>) {
    let _ = match socket.get_ref() {
        MaybeTlsStream::Plain(s) => s.set_read_timeout(timeout),
        MaybeTlsStream::Rustls(s) => s.sock.set_read_timeout(timeout),
        _ => Ok(()),
    };
}

fn handshake_failure(address: &RoomAddress, e: tungstenite::Error) -> String {
    let authority = &address.authority;
    match e {
        tungstenite::Error::Http(response) if response.status() == 404 => {
            format!("no such room at {authority}: {}", address.room)
        }
        tungstenite::Error::Http(response) => format!(
            "{authority} is not a room server: it answered the WebSocket request with HTTP {}",
            response.status()
        ),
        tungstenite::Error::Io(e) => {
            if let Some(tls) = e.get_ref().and_then(|i| i.downcast_ref::<rustls::Error>()) {
                return format!(
                    "the room server at {authority} fails TLS: {}",
                    tls::explain(tls)
                );
            }
            match e.kind() {
                ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::UnexpectedEof => {
                    format!("the server at {authority} dropped the connection")
                }
                ErrorKind::WouldBlock | ErrorKind::TimedOut => format!(
                    "the room server at {authority} did not answer in {} s",
                    HANDSHAKE_TIMEOUT.as_secs()
                ),
                _ => format!("cannot talk to the room server at {authority}: {e}"),
            }
        }
        tungstenite::Error::Tls(e) => format!("TLS to {authority}: {e}"),
        other => format!("{authority} is not a room server: {other}"),
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
            (a.authority.as_str(), a.room.as_str(), a.tls),
            ("127.0.0.1:8000", id, false)
        );
        let a = RoomAddress::parse(&format!("ws://example.org/ws/{id}")).unwrap();
        assert_eq!(a.authority, "example.org:80");
        let a = RoomAddress::parse(&format!("https://example.org/?room={id}")).unwrap();
        assert_eq!((a.authority.as_str(), a.tls), ("example.org:443", true));
        assert_eq!(a.url(), format!("wss://example.org:443/ws/{id}"));
        let a = RoomAddress::parse(&format!("WSS://h:8443/ws/{id}")).unwrap();
        assert_eq!((a.authority.as_str(), a.tls), ("h:8443", true));
        let a = RoomAddress::parse(&format!("http://h:1/?variant=modern&room={id}#x")).unwrap();
        assert_eq!(a.room, id);
        for bad in [
            "127.0.0.1:8000",
            "http://h:1/",
            "http://h:1/?room=new",
            "ftp://h/ws/x",
            "http:///?room=0123456789abcdef0123456789abcdef",
        ] {
            assert!(RoomAddress::parse(bad).is_err(), "{bad}");
        }
    }
}
