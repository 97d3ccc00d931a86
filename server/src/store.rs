//! Where rooms are kept: one small trait, so that another backend (say
//! Postgres, docs/rooms.md "Beyond one machine") is a file, not a rewrite.

use crate::event::{Event, RoomSpec};

/// A room as stored: its spec and its events in order.
pub type StoredRoom = (RoomSpec, Vec<Event>);

/// Durable storage of rooms. Each call returns only once the change is
/// durable against the process being killed: the server tells nobody of a
/// change before its call here has returned `Ok`.
pub trait Store: Send {
    /// A new room with its first events (the creator's seat).
    fn create(&mut self, spec: &RoomSpec, events: &[Event]) -> Result<(), String>;
    /// Event number `seq` (0-based, counting the ones given to `create`) of room `id`.
    fn append(&mut self, id: &str, seq: u64, event: &Event) -> Result<(), String>;
    /// Every room, to rebuild them at start.
    fn load_all(&mut self) -> Result<Vec<StoredRoom>, String>;
    /// One room (`None`: no such room), when a request wants a room that
    /// was let go from memory.
    fn load(&mut self, id: &str) -> Result<Option<StoredRoom>, String>;
    /// Deletes the rooms made before `created_before` (Unix ms) whose second
    /// seat was never taken (one `Seat` event: the creator's), with their
    /// events; returns their ids. It may delete only some of them in one
    /// call (the rest on the next).
    fn delete_unjoined(&mut self, created_before: u64) -> Result<Vec<String>, String>;
}
