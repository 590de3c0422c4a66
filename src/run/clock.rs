//! Where time and randomness enter the TUI: the wall clock, the monotonic clock for frame
//! pacing, the app's clock (wall, or the demo's sim clock driven by it) and request UUIDs.
//! With `main.rs`, the only place under `src/` that reads a clock.
//!
//! Owns: `wall_now`, `mono_now`, `AppClock`, `RandomIds`.

use std::time::Instant;

use crate::app::state::IdSource;
use crate::engine::model::Time;
use crate::sim::demo::DemoClock;

/// The wall clock: read here (and in `main.rs`) only.
#[allow(clippy::disallowed_methods)] // The composition root is where time enters the app.
pub(super) fn wall_now() -> Time {
    chrono::Utc::now()
}

#[allow(clippy::disallowed_methods)] // Frame pacing needs a monotonic clock.
pub(super) fn mono_now() -> Instant {
    Instant::now()
}

/// The app's time: the wall clock, the demo's sim clock driven by it, or a snapshot's own
/// time, which stands still (a replayed snapshot is aged against when it was taken).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct AppClock {
    demo: Option<DemoClock>,
    fixed: Option<Time>,
}

impl AppClock {
    /// The wall clock.
    pub fn wall() -> Self {
        AppClock::default()
    }

    /// The demo's sim clock (`None`: the wall clock).
    pub fn demo(clock: Option<DemoClock>) -> Self {
        AppClock {
            demo: clock,
            fixed: None,
        }
    }

    /// A clock that always reads `at`.
    pub fn fixed(at: Time) -> Self {
        AppClock {
            demo: None,
            fixed: Some(at),
        }
    }

    /// Now, on this clock.
    pub fn now(self) -> Time {
        if let Some(at) = self.fixed {
            return at;
        }
        let wall = wall_now();
        self.demo.map_or(wall, |sim| sim.sim_time(wall))
    }
}

/// Request UUIDs: random (v4) UUIDs, hyphenated lower-case, from the `uuid` crate, which reads
/// the operating system's random source (and panics only if that source fails).
#[derive(Debug, Default)]
pub struct RandomIds;

impl RandomIds {
    /// A fresh generator.
    pub fn new() -> Self {
        RandomIds
    }
}

impl IdSource for RandomIds {
    fn next_uuid(&mut self) -> String {
        uuid::Uuid::new_v4().hyphenated().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_runs_the_app_on_its_sim_clock() {
        let wall = AppClock::wall().now();
        let t0: Time = "2026-09-28T10:00:00Z".parse().unwrap();
        let sim = DemoClock {
            start: t0,
            wall_start: wall - chrono::Duration::seconds(10),
            speed: 5.0,
        };
        let now = AppClock::demo(Some(sim)).now();
        // 10 wall seconds at 5× are 50 sim seconds (plus the instants this test takes).
        assert!(now >= t0 + chrono::Duration::seconds(50), "{now}");
        assert!(now < t0 + chrono::Duration::seconds(60), "{now}");
    }

    #[test]
    fn a_snapshot_clock_stands_at_its_time() {
        let t0: Time = "2026-09-28T10:00:00Z".parse().unwrap();
        assert_eq!(AppClock::fixed(t0).now(), t0);
    }

    #[test]
    fn request_ids_are_distinct_v4_uuids() {
        let mut ids = RandomIds::new();
        let (a, b) = (ids.next_uuid(), ids.next_uuid());
        assert_ne!(a, b);
        for u in [&a, &b] {
            let parts: Vec<&str> = u.split('-').collect();
            let lens: Vec<usize> = parts.iter().map(|p| p.len()).collect();
            assert_eq!(lens, [8, 4, 4, 4, 12]);
            assert!(parts[2].starts_with('4'));
            assert!(matches!(parts[3].as_bytes()[0], b'8' | b'9' | b'a' | b'b'));
            assert!(u
                .chars()
                .all(|c| c == '-' || c.is_ascii_hexdigit() && !c.is_ascii_uppercase()));
        }
    }
}
