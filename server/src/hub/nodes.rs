//! Several nodes on one shared store (docs/rooms.md "Several nodes"): the
//! events other nodes commit, who they hold in each room, and which nodes
//! are alive, all from the store's [`Notice`]s.
//!
//! - An event notice of a room in memory is applied and sent to this node's
//!   connections; one that skips ahead (a notice lost) reads the missing
//!   events from the store. Notices of rooms not in memory are remembered a
//!   moment, for a room being read just then.
//! - Each node tells the others its connections in a room whenever they
//!   change, and when asked (a node that has just read the room asks); the
//!   room's presence is every node's together, so a seat held on another
//!   node is online here and cannot be claimed.
//! - Each node says it is alive every [`HEARTBEAT`]; one silent for
//!   [`NODE_TIMEOUT`] (killed, or cut off from the store) is taken for gone
//!   and its connections with it: its seats are away from then on.

use super::{lock, now_ms, Hub, Live};
use crate::event::Event;
use crate::store::Notice;
use crate::wire::{self, Presence};
use mollett::rooms::wire::ClientOut;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc::UnboundedReceiver;

/// How often a node says it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(2);
/// Silence after which a node is taken for gone.
pub const NODE_TIMEOUT: Duration = Duration::from_secs(6);

impl Hub {
    /// Starts hearing the other nodes, and telling them this one is alive.
    pub(super) fn listen(&self, mut notices: UnboundedReceiver<Notice>) {
        let hub = self.me.clone();
        tokio::spawn(async move {
            while let Some(notice) = notices.recv().await {
                match hub.upgrade() {
                    Some(hub) => hub.on_notice(notice),
                    None => return,
                }
            }
        });
        let hub = self.me.clone();
        tokio::spawn(async move {
            let mut beat = tokio::time::interval(HEARTBEAT);
            loop {
                beat.tick().await;
                let Some(hub) = hub.upgrade() else { return };
                let alive = Notice::Alive {
                    node: hub.node.clone(),
                };
                if let Err(e) = lock(&hub.store).announce(&alive) {
                    log::warn!("telling the other nodes this one is alive: {e}");
                }
                hub.forget_silent_nodes();
            }
        });
    }

    /// This node's name among the nodes of a shared store.
    pub fn node(&self) -> &str {
        &self.node
    }

    /// The other nodes heard from within [`NODE_TIMEOUT`].
    pub fn other_nodes(&self) -> usize {
        lock(&self.nodes).len()
    }

    fn heard(&self, node: &str) {
        let mut nodes = lock(&self.nodes);
        match nodes.get_mut(node) {
            Some(at) => *at = Instant::now(),
            None => {
                log::info!("node {node} is up");
                nodes.insert(node.to_string(), Instant::now());
            }
        }
    }

    fn on_notice(&self, notice: Notice) {
        if let Some(node) = notice.node() {
            if node == self.node {
                return;
            }
            self.heard(node);
        }
        match notice {
            Notice::Event {
                room, seq, event, ..
            } => {
                let cached = {
                    let rooms = lock(&self.rooms);
                    let cached = rooms.get(&room).cloned();
                    if cached.is_none() {
                        let mut recent = lock(&self.recent);
                        let n = recent.entry(room.clone()).or_insert((0, Instant::now()));
                        *n = (n.0.max(seq + 1), Instant::now());
                    }
                    cached
                };
                if let Some(live) = cached {
                    let mut live = lock(&live);
                    if !live.gone {
                        self.take_event(&room, &mut live, seq, &event);
                    }
                }
            }
            Notice::Presence {
                node,
                room,
                online,
                spectators,
            } => {
                if let Some(live) = self.cached(&room) {
                    let mut live = lock(&live);
                    let p = Presence {
                        online,
                        spectators: spectators as usize,
                    };
                    if p == Presence::default() {
                        live.remote.remove(&node);
                    } else {
                        live.remote.insert(node, p);
                    }
                    live.mark_away(now_ms());
                    self.presence_changed(&room, &mut live);
                }
            }
            Notice::Ask { room, .. } => {
                if let Some(live) = self.cached(&room) {
                    let mut live = lock(&live);
                    if live.local_presence() != Presence::default() {
                        // Told again even if unchanged: the asker knows nothing.
                        live.announced = Presence::default();
                        self.announce_presence(&room, &mut live);
                    }
                }
            }
            Notice::Alive { .. } => {}
            Notice::Resync => {
                log::info!(
                    "listening to the other nodes again: every room in memory is read again"
                );
                let lives: Vec<_> = lock(&self.rooms)
                    .iter()
                    .map(|(id, live)| (id.clone(), live.clone()))
                    .collect();
                for (id, live) in lives {
                    self.read_back(&id, &live, None);
                }
            }
        }
    }

    /// Event `seq` of a room in memory, committed by another node.
    fn take_event(&self, id: &str, live: &mut Live, seq: u64, event: &Event) {
        if seq < live.seq {
            // Already here (read with the room, or this node's own).
            return;
        }
        if seq > live.seq {
            // Notices were missed: the store has them all.
            self.catch_up(id, live);
            return;
        }
        self.apply_other(live, event);
        self.publish(id, live, now_ms(), None);
    }

    /// Applies an event another node stored; the connections here that held
    /// a seat it moved to another device are told so (as on the node that
    /// stored it).
    fn apply_other(&self, live: &mut Live, event: &Event) {
        let moved = match event {
            Event::Transfer { color, .. } => live.room.seats[color.index()]
                .clone()
                .map(|old| (old, *color)),
            _ => None,
        };
        live.seq += 1;
        live.room.apply(event);
        if let Some((old, color)) = moved {
            let frame = wire::frame(&ClientOut::SeatMoved {
                seat: wire::side(color),
            });
            for c in live.conns.values() {
                if c.token.as_deref() == Some(old.as_str()) {
                    let _ = c.tx.try_send(frame.clone());
                }
            }
        }
    }

    /// Reads the events other nodes stored since this copy of the room was
    /// made or last brought up to date, applies them and tells the room's
    /// connections. False when there were none (or the store failed).
    pub(super) fn catch_up(&self, id: &str, live: &mut Live) -> bool {
        let events = lock(&self.store).load_since(id, live.seq);
        match events {
            Ok(events) if !events.is_empty() => {
                for e in &events {
                    self.apply_other(live, e);
                }
                self.publish(id, live, now_ms(), None);
                true
            }
            Ok(_) => false,
            Err(e) => {
                log::error!("room {id}: {e}");
                false
            }
        }
    }

    /// A room just read into memory on a shared store: the events it missed
    /// while it was read (`behind`: the count a notice named meanwhile, or
    /// `None` to look anyway), and the other nodes asked who they hold in it.
    pub(super) fn read_back(&self, id: &str, live: &Arc<Mutex<Live>>, behind: Option<u64>) {
        if !self.shared {
            return;
        }
        {
            let mut live = lock(live);
            if behind.is_none_or(|n| n > live.seq) {
                self.catch_up(id, &mut live);
            }
        }
        let ask = Notice::Ask {
            node: self.node.clone(),
            room: id.to_string(),
        };
        if let Err(e) = lock(&self.store).announce(&ask) {
            log::warn!("room {id}: asking the other nodes who is here: {e}");
        }
    }

    /// Tells the other nodes this node's connections in the room, if they
    /// changed since last told.
    pub(super) fn announce_presence(&self, id: &str, live: &mut Live) {
        if !self.shared {
            return;
        }
        let local = live.local_presence();
        if local == live.announced {
            return;
        }
        let notice = Notice::Presence {
            node: self.node.clone(),
            room: id.to_string(),
            online: local.online,
            spectators: local.spectators as u32,
        };
        match lock(&self.store).announce(&notice) {
            Ok(()) => live.announced = local,
            Err(e) => log::warn!("room {id}: telling the other nodes who is here: {e}"),
        }
    }

    /// Forgets the nodes silent for [`NODE_TIMEOUT`], and their connections.
    fn forget_silent_nodes(&self) {
        let gone: Vec<String> = {
            let mut nodes = lock(&self.nodes);
            let gone = nodes
                .iter()
                .filter(|(_, at)| at.elapsed() >= NODE_TIMEOUT)
                .map(|(n, _)| n.clone())
                .collect::<Vec<_>>();
            for n in &gone {
                nodes.remove(n);
            }
            gone
        };
        if gone.is_empty() {
            return;
        }
        log::warn!(
            "nodes {} silent for {} s: taken for gone",
            gone.join(", "),
            NODE_TIMEOUT.as_secs()
        );
        let lives: Vec<_> = lock(&self.rooms)
            .iter()
            .map(|(id, live)| (id.clone(), live.clone()))
            .collect();
        for (id, live) in lives {
            let mut live = lock(&live);
            let before = live.remote.len();
            live.remote.retain(|n, _| !gone.contains(n));
            if live.remote.len() != before {
                live.mark_away(now_ms());
                self.presence_changed(&id, &mut live);
            }
        }
    }
}
