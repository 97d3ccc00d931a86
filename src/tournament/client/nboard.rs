//! The NBoard client: `ping`/`pong` to keep in step, and a move asked for
//! by sending the whole game (`set game`) before `go`.

use super::gtp::parse_value;
use super::process::{parse_reply, EngineError, EngineProcess, Reply};
use crate::rules::ggf::ggf_game;
use crate::rules::position::Position;
use crate::rules::square::Move;
use crate::tournament::types::TimeControl;
use std::time::{Duration, Instant};

impl EngineProcess {
    /// NBoard: `ping n` and wait for `pong n`, reading `set myname` on the way.
    pub(super) fn nboard_sync(&mut self, limit: Duration) -> Result<(), EngineError> {
        let n = self.next_id;
        self.next_id += 1;
        self.write_line(&format!("ping {n}"))?;
        let deadline = Instant::now() + limit;
        let want = format!("pong {n}");
        loop {
            if self.recv(deadline)?.trim() == want {
                return Ok(());
            }
        }
    }

    /// [`EngineProcess::genmove`] in NBoard: the game so far, a ping, `go`.
    pub(super) fn nboard_genmove(
        &mut self,
        start: &Position,
        moves: &[Move],
        time_left: Option<(f64, TimeControl)>,
        limit: Duration,
    ) -> Result<(Reply, Option<f64>), EngineError> {
        let ti = time_left.map(|(left, _)| left);
        let ggf = ggf_game(start, moves, &[], &[], "black", "white", None, ti);
        self.write_line(&format!("set game {ggf}"))?;
        let hang = self.hang;
        self.nboard_sync(hang)?;
        self.write_line("go")?;
        let deadline = Instant::now() + limit;
        loop {
            let line = self.recv(deadline)?;
            if let Some(rest) = line.trim().strip_prefix("===") {
                let mut fields = rest.trim().split('/');
                let reply = parse_reply(fields.next().unwrap_or(""))?;
                // No value (`=== F5`, `=== F5//1.2`) is none; a value that is
                // not a number of discs is a malformed answer.
                let eval = match fields.next().map(str::trim) {
                    None | Some("") => None,
                    Some(v) => Some(parse_value(v).map_err(|why| {
                        EngineError::Malformed(format!("{}: {why}", line.trim()))
                    })?),
                };
                return Ok((reply, eval));
            }
        }
    }
}
