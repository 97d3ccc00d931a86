//! Letting rooms go: from memory when nobody has used them for a while
//! (the database keeps them), and from the database when nobody joined them
//! within `limits.unjoined_keep`.

use super::{lock, now_ms, Hub, NODE_TIMEOUT};
use crate::room::{Millis, Status};

impl Hub {
    /// Lets go of the rooms nobody has used for a while (nobody connected,
    /// no clock running), and of the room makers' full buckets; deletes the
    /// rooms nobody joined within `limits.unjoined_keep`.
    pub fn sweep(&self) {
        self.delete_unjoined();
        let mut rooms = lock(&self.rooms);
        let before = rooms.len();
        rooms.retain(|_, live| {
            // A room busy right now is in use.
            let Ok(mut live) = live.try_lock() else {
                return true;
            };
            let idle = match live.room.status() {
                Status::Over => self.limits.finished_idle,
                _ => self.limits.room_idle,
            };
            let keep = !live.conns.is_empty()
                || live.room.flag_due().is_some()
                || live.touched.elapsed() < idle;
            if !keep {
                live.gone = true;
                for t in [live.timer.take(), live.claim_timer.take()]
                    .into_iter()
                    .flatten()
                {
                    t.abort();
                }
            }
            keep
        });
        let dropped = before - rooms.len();
        if dropped > 0 {
            log::info!(
                "{dropped} idle rooms let go from memory, {} kept",
                rooms.len()
            );
        }
        drop(rooms);
        self.makers.prune();
        lock(&self.recent).retain(|_, (_, at)| at.elapsed() < NODE_TIMEOUT);
    }

    /// Deletes from the database (and memory) the rooms made longer than
    /// `limits.unjoined_keep` ago whose second seat was never taken.
    fn delete_unjoined(&self) {
        let before = now_ms().saturating_sub(self.limits.unjoined_keep.as_millis() as Millis);
        let deleted = match lock(&self.store).delete_unjoined(before) {
            Ok(ids) => ids,
            Err(e) => {
                log::error!("deleting rooms nobody joined: {e}");
                return;
            }
        };
        if deleted.is_empty() {
            return;
        }
        log::info!("{} rooms nobody joined deleted", deleted.len());
        let lives: Vec<_> = {
            let mut rooms = lock(&self.rooms);
            deleted.iter().filter_map(|id| rooms.remove(id)).collect()
        };
        for live in lives {
            let mut live = lock(&live);
            live.gone = true;
            for t in [live.timer.take(), live.claim_timer.take()]
                .into_iter()
                .flatten()
            {
                t.abort();
            }
            // Its connections end: the room is gone.
            live.conns.clear();
        }
    }

    /// Rooms in memory now.
    pub fn rooms_in_memory(&self) -> usize {
        lock(&self.rooms).len()
    }
}
