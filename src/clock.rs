//! The time the engine reads: `std::time::Instant` natively; in the browser
//! build (wasm32, where `Instant::now` and `SystemTime::now` panic) a clock
//! the page provides. A leaf utility, like `rng`: any layer may use it.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

#[cfg(target_arch = "wasm32")]
pub use page::Instant;

/// Seconds since the Unix epoch, 0 where the clock cannot tell.
pub fn unix_secs() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs())
    }
    #[cfg(target_arch = "wasm32")]
    {
        (page::epoch_ms() / 1e3) as u64
    }
}

#[cfg(target_arch = "wasm32")]
mod page {
    use std::ops::{Add, Sub};
    use std::time::Duration;

    #[link(wasm_import_module = "mollett")]
    extern "C" {
        /// `performance.now()`: milliseconds, monotonic.
        fn now_ms() -> f64;
        /// `Date.now()`: milliseconds since the Unix epoch.
        fn date_ms() -> f64;
    }

    pub(super) fn epoch_ms() -> f64 {
        // SAFETY: the page's glue (web/www/worker.js) provides both imports;
        // they take nothing and return a number.
        unsafe { date_ms() }
    }

    /// A monotonic instant: the page's milliseconds, with the parts of
    /// `std::time::Instant`'s interface the engine uses.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        pub fn now() -> Instant {
            // SAFETY: as in `epoch_ms`.
            Instant(unsafe { now_ms() })
        }

        pub fn duration_since(&self, earlier: Instant) -> Duration {
            Duration::from_secs_f64(((self.0 - earlier.0) / 1e3).max(0.0))
        }

        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }
    }

    impl Add<Duration> for Instant {
        type Output = Instant;
        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1e3)
        }
    }

    impl Sub for Instant {
        type Output = Duration;
        fn sub(self, earlier: Instant) -> Duration {
            self.duration_since(earlier)
        }
    }
}
