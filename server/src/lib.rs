//! Mollett rooms: two people (or engines) play one game through this
//! server, each move checked by the `mollett` rules core, stored, then sent
//! to both seats and the spectators. The wire contract is docs/rooms.md.
//!
//! Layers: [`room`] (the pure state machine) and [`event`] (what is stored);
//! [`store`] / [`sqlite`] (durability); [`hub`] (live rooms: lock, store,
//! apply, publish; flag timers); [`wire`], [`ws`], [`http`] and [`listen`]
//! (the network), held to [`limits`].

pub mod download;
pub mod event;
pub mod http;
pub mod hub;
pub mod ids;
pub mod limits;
pub mod listen;
pub mod postgres;
pub mod room;
pub mod sqlite;
pub mod store;
pub mod wire;
pub mod ws;
