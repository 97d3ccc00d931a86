//! One WebSocket connection: reads frames (size- and rate-limited), turns
//! them into room requests, and writes the room's frames back; closes one
//! that says no hello in time or stops answering the server's pings.

use crate::hub::{Hub, QUEUE};
use crate::limits::Bucket;
use crate::wire::{self, WireError, MAX_FRAME};
use axum::extract::ws::{CloseFrame, Message, WebSocket};
use mollett::rooms::wire::{ClientIn, ClientOut};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// Messages a connection may send per second (contract: more is `rate-limited`).
pub const RATE: f64 = 20.0;
/// Refused messages in a row after which a flooding connection is closed.
const STRIKES: u32 = 200;

/// A connection's messages: a token bucket of `RATE` a second, bursts of
/// up to `RATE`, and the refusals in a row.
struct RateLimit {
    bucket: Bucket,
    strikes: u32,
}

impl RateLimit {
    fn new() -> RateLimit {
        RateLimit {
            bucket: Bucket::full(RATE, Instant::now()),
            strikes: 0,
        }
    }

    /// True when one more message is allowed now.
    fn allow(&mut self) -> bool {
        let every = Duration::from_secs_f64(1.0 / RATE);
        if self.bucket.take(RATE, every, Instant::now()).is_ok() {
            self.strikes = 0;
            true
        } else {
            self.strikes += 1;
            false
        }
    }
}

/// Where a connection is: before its hello (holding the sender the room
/// will get), or in the room as connection `n`.
enum Phase {
    Greeting(mpsc::Sender<String>),
    In(u64),
    Gone,
}

/// Sends one frame, giving up after `within` (`Limits::write_timeout`: a
/// peer that reads nothing would otherwise hold the connection's task, and
/// its place, once the buffers are full).
async fn send(socket: &mut WebSocket, msg: Message, within: Duration) -> bool {
    matches!(
        tokio::time::timeout(within, socket.send(msg)).await,
        Ok(Ok(()))
    )
}

/// Serves one connection to room `id` until either side closes it.
pub async fn serve(mut socket: WebSocket, hub: Arc<Hub>, id: String) {
    let limits = hub.limits().clone();
    let within = limits.write_timeout;
    let (tx, mut rx) = mpsc::channel(QUEUE);
    let mut phase = Phase::Greeting(tx);
    let mut limit = RateLimit::new();
    let hello_by = tokio::time::Instant::now() + limits.hello;
    let mut heard = Instant::now();
    let start = tokio::time::Instant::now() + limits.ping_every;
    let mut ping = tokio::time::interval_at(start, limits.ping_every);
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                heard = Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(t))) => Some(t),
                    Some(Ok(Message::Binary(_))) => None,
                    // Pings are answered by the library and a Pong answers
                    // ours, but each is a frame read and maybe one written:
                    // they count against the rate as messages do, unanswered,
                    // so a flood of them is closed (one that sent pings and
                    // never read kept a core 89 % busy).
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                        if !limit.allow() && limit.strikes > STRIKES { break }
                        continue;
                    }
                    // Closed, or a frame past the library's own limit.
                    _ => break,
                };
                // Every data frame counts, binary ones too.
                if !limit.allow() {
                    if limit.strikes > STRIKES { break }
                    let e = WireError::new("rate-limited", format!("more than {RATE} messages a second"));
                    if !send(&mut socket, Message::Text(e.frame().into()), within).await { break }
                    continue;
                }
                let Some(text) = text else {
                    let e = WireError::new("bad-message", "frames are JSON text");
                    if !send(&mut socket, Message::Text(e.frame().into()), within).await { break }
                    continue;
                };
                if text.len() > MAX_FRAME {
                    let e = WireError::new("too-large", format!("a frame may hold {MAX_FRAME} bytes"));
                    let _ = send(&mut socket, Message::Text(e.frame().into()), within).await;
                    break;
                }
                let replies = answer(&hub, &id, &mut phase, text.as_str());
                for r in replies {
                    if !send(&mut socket, Message::Text(r.into()), within).await { break }
                }
                if matches!(phase, Phase::Gone) { break }
            }
            out = rx.recv() => match out {
                Some(frame) => if !send(&mut socket, Message::Text(frame.into()), within).await { break },
                // The room cut this connection off (too far behind).
                None => break,
            },
            _ = tokio::time::sleep_until(hello_by), if matches!(phase, Phase::Greeting(_)) => {
                let why = format!("no hello within {} s", limits.hello.as_secs_f64());
                let e = WireError::new("timeout", why.clone());
                if send(&mut socket, Message::Text(e.frame().into()), within).await {
                    // 1008: policy violation.
                    let close = CloseFrame { code: 1008, reason: why.into() };
                    let _ = send(&mut socket, Message::Close(Some(close)), within).await;
                }
                break;
            }
            _ = ping.tick() => {
                if heard.elapsed() >= limits.ping_timeout {
                    log::info!("room {id}: a connection silent for {} s closed", heard.elapsed().as_secs());
                    break;
                }
                if !send(&mut socket, Message::Ping(Default::default()), within).await { break }
            }
        }
    }
    if let Phase::In(n) = phase {
        hub.disconnect(&id, n);
    }
}

/// The frames that answer one message directly (the room's own frames
/// reach the connection through its queue).
fn answer(hub: &Hub, id: &str, phase: &mut Phase, text: &str) -> Vec<String> {
    let msg = match wire::parse(text) {
        Ok(m) => m,
        Err(e) => return vec![e.frame()],
    };
    if msg == ClientIn::Ping {
        return vec![wire::frame(&ClientOut::Pong)];
    }
    match (std::mem::replace(phase, Phase::Gone), msg) {
        (Phase::Greeting(tx), ClientIn::Hello { token }) => match hub.connect(id, token, tx) {
            Ok(j) => {
                *phase = Phase::In(j.conn);
                vec![j.welcome]
            }
            // The room is gone or the seat could not be stored: close.
            Err(e) => vec![e.frame()],
        },
        (Phase::Greeting(tx), _) => {
            *phase = Phase::Greeting(tx);
            vec![WireError::new("bad-message", "the first message must be hello").frame()]
        }
        (Phase::In(n), ClientIn::Hello { .. }) => {
            *phase = Phase::In(n);
            vec![WireError::new("bad-message", "hello was already said").frame()]
        }
        (Phase::In(n), msg) => {
            *phase = Phase::In(n);
            let result = wire::command(&msg)
                .and_then(|cmd| cmd.map_or(Ok(None), |cmd| hub.command(id, n, cmd)));
            match result {
                Ok(reply) => reply.into_iter().collect(),
                Err(e) => {
                    let mut out = vec![e.frame()];
                    // A stale board gets the current state at once.
                    if e.code == "stale" {
                        out.extend(hub.state_for(id, n));
                    }
                    out
                }
            }
        }
        (Phase::Gone, _) => Vec::new(),
    }
}
