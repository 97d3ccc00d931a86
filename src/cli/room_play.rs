//! `mollett room-play`'s arguments; the work is `mollett::rooms::RoomPlay`.

use super::stop::CtrlC;
use clap::Args;
use mollett::rooms::RoomPlay;
use mollett::tournament::client::EngineSpec;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Args)]
pub struct RoomPlayArgs {
    /// The room's link, as the board shows it: http(s)://HOST[:PORT]/?room=ID.
    #[arg(long)]
    room: String,
    /// The engine, as `mollett match` takes it: "cmd=PROGRAM [ARGS] [proto=nboard] [init=...] [st=SECS]".
    #[arg(long, value_parser = |s: &str| s.parse::<EngineSpec>())]
    engine: EngineSpec,
    /// The seat's token (printed when the seat was taken): rejoin that seat.
    #[arg(long)]
    token: Option<String>,
    /// Seconds an engine may take for a move in a room without a clock
    /// (with a clock: the time it has left).
    #[arg(long, default_value_t = 300.0, value_parser = seconds)]
    move_limit: f64,
    /// For an https:// room: a PEM file of certificates to trust besides the
    /// web's usual authorities (a private CA, or the server's self-signed one).
    #[arg(long)]
    ca: Option<PathBuf>,
}

fn seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if x.is_finite() && (1.0..=86_400.0).contains(&x) => Ok(x),
        _ => Err(format!("'{s}': seconds, from 1 to 86400")),
    }
}

impl RoomPlayArgs {
    pub fn run(self, stop: CtrlC) -> Result<(), String> {
        RoomPlay {
            link: self.room,
            engine: self.engine,
            token: self.token,
            move_limit: Duration::from_secs_f64(self.move_limit),
            ca: self.ca,
        }
        .run(stop())
    }
}
