//! A seat in a room of `mollett-server` from the engine's side (`mollett
//! room-play`, docs/rooms.md and docs/deploy.md): the wire's typed
//! messages, one `ws://` or `wss://` connection, and the loop that plays an
//! engine process's moves there.

pub mod connection;
pub mod play;
pub mod tls;
pub mod wire;

pub use play::RoomPlay;
