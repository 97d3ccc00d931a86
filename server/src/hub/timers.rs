//! A room's timers: its flag (the running clock falls), the moment a seat's
//! claim becomes available, and the gathered presence send. Each acts under
//! the room's lock, as a request does.

use super::{lock, now_ms, Hub, Live, Refused};
use crate::room::Millis;
use std::time::Duration;

impl Hub {
    /// Schedules a state for when a seat's claim becomes available, so the
    /// one who stayed is told at that moment.
    pub(super) fn arm_claim(&self, id: &str, live: &mut Live, now: Millis) {
        if let Some(t) = live.claim_timer.take() {
            t.abort();
        }
        let Some((_, from)) = live.room.claim_from() else {
            return;
        };
        if from <= now {
            return;
        }
        let hub = self.me.clone();
        let id = id.to_string();
        let wait = Duration::from_millis(from - now);
        let task = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let Some(hub) = hub.upgrade() else { return };
            if let Some(live) = hub.cached(&id) {
                let mut live = lock(&live);
                live.claim_timer = None;
                hub.publish(&id, &mut live, now_ms(), None);
            }
        });
        live.claim_timer = Some(task.abort_handle());
    }

    /// Someone came or went: the others are told within
    /// `limits.presence_delay`, once for all who did meanwhile (a state
    /// sent for another reason tells them sooner).
    pub(super) fn presence_changed(&self, id: &str, live: &mut Live) {
        if live.presence_due {
            return;
        }
        live.presence_due = true;
        let hub = self.me.clone();
        let id = id.to_string();
        let wait = self.limits.presence_delay;
        tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            let Some(hub) = hub.upgrade() else { return };
            if let Some(live) = hub.cached(&id) {
                let mut live = lock(&live);
                if live.presence_due {
                    hub.publish(&id, &mut live, now_ms(), None);
                }
            }
        });
    }

    /// Applies a flag fall due at `now`, if any (before any request is checked).
    pub(super) fn settle_clock(
        &self,
        id: &str,
        live: &mut Live,
        now: Millis,
    ) -> Result<bool, Refused> {
        match live.room.flag(now) {
            Some(flag) => self.commit(id, live, &flag).map(|_| true),
            None => Ok(false),
        }
    }

    /// The flag timer fired: end the game if the time is really up.
    pub(super) fn tick(&self, id: &str) {
        if let Some(live) = self.cached(id) {
            let mut live = lock(&live);
            let now = now_ms();
            match self.settle_clock(id, &mut live, now) {
                Ok(true) => {
                    self.publish(id, &mut live, now, None);
                }
                Ok(false) => self.arm_timer(id, &mut live),
                // Another node's event came first: the room was read again
                // and its timers armed anew.
                Err(Refused::Behind) => {}
                // The store failed: try again shortly rather than lose the flag.
                Err(Refused::Wire(_)) => self.arm_at(id, &mut live, now + 1000),
            }
        }
    }

    /// Schedules a [`Hub::tick`] for when the running clock falls.
    pub(super) fn arm_timer(&self, id: &str, live: &mut Live) {
        match live.room.flag_due() {
            Some(due) => self.arm_at(id, live, due),
            None => {
                if let Some(t) = live.timer.take() {
                    t.abort();
                }
            }
        }
    }

    pub(super) fn arm_at(&self, id: &str, live: &mut Live, due: Millis) {
        if let Some(t) = live.timer.take() {
            t.abort();
        }
        let hub = self.me.clone();
        let id = id.to_string();
        let wait = Duration::from_millis(due.saturating_sub(now_ms()));
        let task = tokio::spawn(async move {
            tokio::time::sleep(wait).await;
            if let Some(hub) = hub.upgrade() {
                hub.tick(&id);
            }
        });
        live.timer = Some(task.abort_handle());
    }
}
