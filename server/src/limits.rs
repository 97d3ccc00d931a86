//! Every limit the server holds its clients to (docs/rooms.md "Limits"):
//! the defaults, the settings `main.rs` makes flags of, and the
//! per-address token buckets.

use std::collections::HashMap;
use std::net::{IpAddr, Ipv6Addr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// A WebSocket that has not said hello by then is closed (the page says it at once).
pub const HELLO_TIMEOUT: Duration = Duration::from_secs(10);
/// The server sends a WebSocket Ping this often (browsers answer by themselves).
pub const PING_EVERY: Duration = Duration::from_secs(10);
/// A connection silent this long (no frame, no Pong) is closed, and its
/// seat shows offline: between this and this plus `PING_EVERY` after the
/// last frame, so within 30 s.
pub const PING_TIMEOUT: Duration = Duration::from_secs(20);
/// An HTTP request's header (and a kept-alive connection's next one) must
/// arrive within this.
pub const HEADER_TIMEOUT: Duration = Duration::from_secs(10);
/// `POST /api/rooms`'s body must arrive within this.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);
/// A WebSocket frame the peer's socket cannot take within this closes the
/// connection: a reader that stopped reading, whose frames would otherwise
/// sit in the kernel's buffers (`SEND_BUFFER`).
pub const WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// The kernel's send buffer asked for on each accepted socket (Linux
/// doubles it), in place of loopback's autotuning up to 4 MiB: 200
/// watchers that never read took 145 MB of kernel memory (issue 77). A
/// state frame is a few KiB; the site's files take a few more round trips.
pub const SEND_BUFFER: usize = 64 * 1024;
/// Open connections (HTTP and WebSocket) in all; lowered to the process's
/// open-file limit less `FD_RESERVE` at start.
pub const MAX_CONNECTIONS: usize = 10_000;
/// Open connections from one address group (an IPv4 /24, an IPv6 /64),
/// well under the total, so one address cannot lock out another. A
/// classroom behind one NAT watching a game is a few dozen.
pub const PER_ADDRESS: usize = 256;
/// No address group holds more than this share of the total, whatever
/// `--per-address` says: with 1,024 open files, 4 addresses of 245
/// watchers each held every place (issue 77).
pub const GROUP_SHARE: usize = 8;
/// Files kept free for the database, its log, logs and the listener.
pub const FD_RESERVE: usize = 64;
/// Rooms one address may make at once, and then one per `ROOM_EVERY`.
pub const ROOMS_BURST: u32 = 10;
pub const ROOM_EVERY: Duration = Duration::from_secs(6);
/// Spectators in one room; seats always get in. Each move is one frame
/// to each of them.
pub const SPECTATORS: usize = 500;
/// Stored changes one room may hold (moves, takebacks, rematches over all
/// its games); past it the room refuses more with `too-many`, so no client
/// can grow the database without bound. A game is about 60 to 200.
pub const ROOM_EVENTS: u64 = 10_000;
/// A room with nobody connected and no clock running leaves memory after
/// this (`FINISHED_IDLE` once its game is over); it stays in the database
/// and comes back on the next request for it.
pub const ROOM_IDLE: Duration = Duration::from_secs(10 * 60);
pub const FINISHED_IDLE: Duration = Duration::from_secs(2 * 60);
/// A room whose second seat nobody took within this after it was made is
/// deleted from the database (its link then finds no room); a room once
/// joined is kept for good, every game of it downloadable.
pub const UNJOINED_KEEP: Duration = Duration::from_secs(7 * 24 * 3600);
/// A seat offline this long lets the one who stayed claim the game
/// (`room::CLAIM_AFTER`); a clocked game's flag may end it sooner.
pub const CLAIM_AFTER: Duration = Duration::from_millis(crate::room::CLAIM_AFTER);
/// How often idle rooms and full buckets are looked for.
pub const SWEEP_EVERY: Duration = Duration::from_secs(30);
/// Comings and goings within this are sent as one state: 300 spectators
/// arriving are one frame each, not 300.
pub const PRESENCE_DELAY: Duration = Duration::from_millis(500);

/// The limits in force (tests shorten the times).
#[derive(Clone, Debug)]
pub struct Limits {
    pub hello: Duration,
    pub ping_every: Duration,
    pub ping_timeout: Duration,
    pub header_timeout: Duration,
    pub body_timeout: Duration,
    pub write_timeout: Duration,
    pub connections: usize,
    pub per_address: usize,
    pub rooms_burst: u32,
    pub room_every: Duration,
    pub spectators: usize,
    pub room_events: u64,
    pub room_idle: Duration,
    pub finished_idle: Duration,
    pub sweep_every: Duration,
    pub presence_delay: Duration,
    pub unjoined_keep: Duration,
    pub claim_after: Duration,
    /// Origins besides the server's own host whose pages may make rooms and
    /// open WebSockets (`https://example.org`, compared without case).
    pub allowed_origins: Vec<String>,
    /// Reverse proxies whose `X-Forwarded-For` names the client for the
    /// per-address room limit (none: every address is the TCP peer's).
    pub trusted_proxies: Vec<IpAddr>,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            hello: HELLO_TIMEOUT,
            ping_every: PING_EVERY,
            ping_timeout: PING_TIMEOUT,
            header_timeout: HEADER_TIMEOUT,
            body_timeout: BODY_TIMEOUT,
            write_timeout: WRITE_TIMEOUT,
            connections: MAX_CONNECTIONS,
            per_address: PER_ADDRESS,
            rooms_burst: ROOMS_BURST,
            room_every: ROOM_EVERY,
            spectators: SPECTATORS,
            room_events: ROOM_EVENTS,
            room_idle: ROOM_IDLE,
            finished_idle: FINISHED_IDLE,
            sweep_every: SWEEP_EVERY,
            presence_delay: PRESENCE_DELAY,
            unjoined_keep: UNJOINED_KEEP,
            claim_after: CLAIM_AFTER,
            allowed_origins: Vec::new(),
            trusted_proxies: Vec::new(),
        }
    }
}

impl Limits {
    /// Connections one address group may hold: `per_address`, but never
    /// more than a `GROUP_SHARE`th of `connections` (at least one).
    pub fn per_group(&self) -> usize {
        self.per_address.min(self.connections / GROUP_SHARE).max(1)
    }
}

/// The group the address limits are counted by: an IPv4 /24, or an IPv6
/// /64 (one household's or one machine's whole prefix, which it can rotate
/// through at will; a /24 is as easily had by one hand).
pub fn client_key(ip: IpAddr) -> IpAddr {
    let v4 = |a: std::net::Ipv4Addr| {
        let [a, b, c, _] = a.octets();
        IpAddr::V4(std::net::Ipv4Addr::new(a, b, c, 0))
    };
    match ip {
        IpAddr::V4(a) => v4(a),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(a) => v4(a),
            None => {
                let s = v6.segments();
                IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// The client's address: the TCP peer's, unless the peer is one of the
/// `trusted` proxies, whose `X-Forwarded-For` is read: its last entry is
/// the address the proxy itself saw (entries before it are the client's
/// own words, and anyone can write them). A trusted proxy that sends no
/// readable header leaves its own address.
pub fn client_ip(peer: IpAddr, forwarded_for: Option<&str>, trusted: &[IpAddr]) -> IpAddr {
    if !trusted.contains(&peer) {
        return peer;
    }
    forwarded_for
        .and_then(|h| h.rsplit(',').next())
        .and_then(|last| last.trim().parse().ok())
        .unwrap_or(peer)
}

/// One token bucket: at most `burst` tokens, one more every `every`; a
/// connection's messages and an address's rooms are both counted by it.
#[derive(Clone, Copy, Debug)]
pub struct Bucket {
    tokens: f64,
    at: Instant,
}

impl Bucket {
    /// A full bucket.
    pub fn full(burst: f64, now: Instant) -> Bucket {
        Bucket {
            tokens: burst,
            at: now,
        }
    }

    /// Its tokens at `now`.
    pub fn level(&self, burst: f64, every: Duration, now: Instant) -> f64 {
        (self.tokens + now.duration_since(self.at).as_secs_f64() / every.as_secs_f64()).min(burst)
    }

    /// Takes a token at `now`; when there is none, how long until one.
    pub fn take(&mut self, burst: f64, every: Duration, now: Instant) -> Result<(), Duration> {
        let tokens = self.level(burst, every, now);
        self.at = now;
        if tokens >= 1.0 {
            self.tokens = tokens - 1.0;
            Ok(())
        } else {
            self.tokens = tokens;
            Err(every.mul_f64(1.0 - tokens))
        }
    }
}

/// Token buckets by address: `burst` at once, then one per `every`.
pub struct Buckets {
    burst: f64,
    every: Duration,
    map: Mutex<HashMap<IpAddr, Bucket>>,
}

impl Buckets {
    pub fn new(burst: u32, every: Duration) -> Buckets {
        Buckets {
            burst: f64::from(burst.max(1)),
            every: every.max(Duration::from_millis(1)),
            map: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`; when there is none, how long until one.
    pub fn take(&self, ip: IpAddr) -> Result<(), Duration> {
        let now = Instant::now();
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.entry(client_key(ip))
            .or_insert(Bucket::full(self.burst, now))
            .take(self.burst, self.every, now)
    }

    /// Forgets the addresses whose bucket has filled again (the sweep), so
    /// the map holds only recent makers.
    pub fn prune(&self) {
        let now = Instant::now();
        let mut map = self.map.lock().unwrap_or_else(|e| e.into_inner());
        map.retain(|_, b| b.level(self.burst, self.every, now) < self.burst);
    }

    pub fn len(&self) -> usize {
        self.map.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_gives_its_burst_then_says_when() {
        let b = Buckets::new(3, Duration::from_secs(10));
        let a: IpAddr = "192.0.2.1".parse().unwrap();
        for _ in 0..3 {
            b.take(a).unwrap();
        }
        let wait = b.take(a).unwrap_err();
        assert!(wait > Duration::from_secs(9) && wait <= Duration::from_secs(10));
        // Another group has its own bucket; one /24 is one group, as is one /64.
        assert!(b.take("192.0.2.200".parse().unwrap()).is_err());
        assert!(b.take("::ffff:192.0.2.7".parse().unwrap()).is_err());
        b.take("192.0.3.1".parse().unwrap()).unwrap();
        let v6 = |s: &str| s.parse::<IpAddr>().unwrap();
        for i in 1..=3 {
            b.take(v6(&format!("2001:db8::{i}"))).unwrap();
        }
        assert!(b.take(v6("2001:db8::ffff")).is_err());
        assert!(b.take(v6("2001:db8:0:1::1")).is_ok());
        b.prune();
        assert_eq!(b.len(), 4, "no bucket has filled again");
        let quick = Buckets::new(1, Duration::from_millis(1));
        quick.take(a).unwrap();
        std::thread::sleep(Duration::from_millis(5));
        quick.prune();
        assert!(quick.is_empty(), "a bucket full again is forgotten");
    }
}
