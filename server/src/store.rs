//! Where rooms are kept: one trait, two backends. [`crate::sqlite`] is the
//! embedded default (one server, one file); [`crate::postgres`] is shared
//! by several servers ("nodes"), which then also tell each other what they
//! commit through it ([`Notice`], docs/rooms.md "Several nodes").

use crate::event::{Event, RoomSpec};
use serde::{Deserialize, Serialize};
use tokio::sync::mpsc::UnboundedReceiver;

/// A room as stored: its spec and its events in order.
pub type StoredRoom = (RoomSpec, Vec<Event>);

/// Why an event was not stored.
#[derive(Debug)]
pub enum AppendError {
    /// The room already has event `seq`: another node wrote it first. This
    /// node's copy of the room is behind; it reads the room again.
    Taken,
    /// The store could not be written (nothing was stored).
    Failed(String),
}

impl std::fmt::Display for AppendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AppendError::Taken => f.write_str("that event number is stored already"),
            AppendError::Failed(e) => f.write_str(e),
        }
    }
}

/// What one node tells the others through a shared store. Best effort:
/// a notice can be lost (a node's listening connection drops), so nothing
/// durable depends on one; [`Notice::Resync`] says some may have been.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "k", rename_all = "kebab-case")]
pub enum Notice {
    /// Event `seq` of `room` was committed by `node`.
    Event {
        node: String,
        room: String,
        seq: u64,
        event: Event,
    },
    /// `node`'s connections in `room` now: seats online by colour index,
    /// and spectators.
    Presence {
        node: String,
        room: String,
        online: [bool; 2],
        spectators: u32,
    },
    /// `node` has just read `room`: the others say who they hold in it.
    Ask { node: String, room: String },
    /// `node` is up (sent every [`crate::hub::HEARTBEAT`]).
    Alive { node: String },
    /// Not from a node: this node's listening connection was lost and is
    /// back, so notices may have been missed meanwhile.
    Resync,
}

impl Notice {
    /// The node that sent it (`None` for [`Notice::Resync`]).
    pub fn node(&self) -> Option<&str> {
        match self {
            Notice::Event { node, .. }
            | Notice::Presence { node, .. }
            | Notice::Ask { node, .. }
            | Notice::Alive { node } => Some(node),
            Notice::Resync => None,
        }
    }
}

/// Durable storage of rooms. Each call returns only once the change is
/// durable against the process being killed: the server tells nobody of a
/// change before its call here has returned `Ok`.
pub trait Store: Send {
    /// A new room with its first events (the creator's seat).
    fn create(&mut self, spec: &RoomSpec, events: &[Event]) -> Result<(), String>;
    /// Event number `seq` (0-based, counting the ones given to `create`) of
    /// room `id`. `(room, seq)` is the key: a second event with the same
    /// number is refused with [`AppendError::Taken`], whoever writes it.
    fn append(&mut self, id: &str, seq: u64, event: &Event) -> Result<(), AppendError>;
    /// Every room, to rebuild them at start.
    fn load_all(&mut self) -> Result<Vec<StoredRoom>, String>;
    /// One room (`None`: no such room), when a request wants a room that
    /// was let go from memory.
    fn load(&mut self, id: &str) -> Result<Option<StoredRoom>, String>;
    /// Room `id`'s events from number `seq` on, in order (none when there
    /// are none yet, or no such room).
    fn load_since(&mut self, id: &str, seq: u64) -> Result<Vec<Event>, String>;
    /// Deletes the rooms made before `created_before` (Unix ms) whose second
    /// seat was never taken (one `Seat` event: the creator's), with their
    /// events; returns their ids. It may delete only some of them in one
    /// call (the rest on the next).
    fn delete_unjoined(&mut self, created_before: u64) -> Result<Vec<String>, String>;

    /// Other nodes may write this store too: rooms are not resumed at start
    /// (their clocks ran on elsewhere) and every change is announced.
    fn shared(&self) -> bool {
        false
    }
    /// This node's name among the nodes of a shared store.
    fn node(&self) -> &str {
        "local"
    }
    /// The other nodes' notices, once (`None`: a store of one node).
    fn notices(&mut self) -> Option<UnboundedReceiver<Notice>> {
        None
    }
    /// Sends a notice to every node (this one too). Not durable.
    fn announce(&mut self, _notice: &Notice) -> Result<(), String> {
        Ok(())
    }
}
