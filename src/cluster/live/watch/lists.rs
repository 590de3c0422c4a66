//! When a list in progress wakes the snapshot task so the header can count what arrived
//! (`Progress`), and the page size of the one-off lists (`dump`).
//!
//! Owns: `PAGE_SIZE`, `PROGRESS_INTERVAL`, `Progress`. Pure: time arrives as an argument.

use kube::runtime::watcher;

use crate::engine::model::Time;

/// Objects per page of a one-off paginated list (`dump`: the API server's cost per request
/// stays bounded).
pub const PAGE_SIZE: u32 = 500;

/// Least time between two progress wake-ups of the snapshot task while a list runs.
pub const PROGRESS_INTERVAL: chrono::TimeDelta = chrono::TimeDelta::milliseconds(500);

/// When the snapshot task was last woken for a list's progress.
pub(super) struct Progress {
    objects: usize,
    woken: Time,
}

impl Progress {
    /// No list counted yet, last woken `now`.
    pub(super) fn new(now: Time) -> Self {
        Progress {
            objects: 0,
            woken: now,
        }
    }

    /// Counts one event; whether the snapshot task is due a wake-up to show progress.
    pub(super) fn count<K>(&mut self, event: &watcher::Event<K>, now: Time) -> bool {
        match event {
            watcher::Event::Init => {
                self.objects = 0;
                self.woken = now;
                false
            }
            watcher::Event::InitApply(_) => {
                self.objects += 1;
                // The clock is read for every event anyway; the check costs a subtraction.
                let due = now - self.woken >= PROGRESS_INTERVAL;
                if due {
                    self.woken = now;
                }
                due
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn progress_wakes_the_snapshot_task_at_most_every_interval_while_listing() {
        let t0 = chrono::DateTime::UNIX_EPOCH;
        let at = |ms| t0 + chrono::TimeDelta::milliseconds(ms);
        let mut p = Progress::new(t0);
        let apply = watcher::Event::InitApply(());
        assert!(!p.count(&watcher::Event::<()>::Init, at(0)));
        assert!(!p.count(&apply, at(100)));
        assert!(p.count(&apply, at(600)));
        assert!(!p.count(&apply, at(700)));
        assert!(p.count(&apply, at(1100)));
        assert_eq!(p.objects, 4);
        // Changes after the list are the snapshot task's business, not progress.
        assert!(!p.count(&watcher::Event::Apply(()), at(5000)));
        assert!(!p.count(&watcher::Event::<()>::Init, at(6000)));
        assert_eq!(p.objects, 0);
    }
}
