//! How a watcher lists its resource: a streaming list, or paginated lists where the server
//! refuses streaming (`ListMode`, `refuses_streaming`), and when a list in progress wakes the
//! snapshot task so the header can count what arrived (`Progress`).
//!
//! Owns: `ListMode`, `PAGE_SIZE`, `PROGRESS_INTERVAL`, `Progress`, `refuses_streaming`. Pure:
//! time arrives as an argument.

use kube::runtime::watcher;

use crate::engine::model::Time;

/// Objects per page of a paginated list (the API server's cost per request stays bounded).
pub const PAGE_SIZE: u32 = 500;

/// Least time between two progress wake-ups of the snapshot task while a list runs.
pub const PROGRESS_INTERVAL: chrono::TimeDelta = chrono::TimeDelta::milliseconds(500);

/// How a watcher lists its resource (at the start, after a 410 and after an outage).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ListMode {
    /// A watch with `sendInitialEvents=true`: the current state as one stream from the watch
    /// cache, ended by a bookmark, then the changes on the same connection (Kubernetes'
    /// WatchList feature, on by default in 1.32 and from 1.34 on).
    Streaming,
    /// Paginated LISTs of `PAGE_SIZE`, then a watch from the list's resourceVersion: for a
    /// server that refuses streaming lists (the feature gate off, or older than 1.27, whose
    /// validation rejects `resourceVersionMatch` on a watch).
    Paged,
}

impl ListMode {
    /// The watcher configuration `base` in this mode.
    pub fn config(self, base: watcher::Config) -> watcher::Config {
        match self {
            ListMode::Streaming => base.streaming_lists(),
            ListMode::Paged => base.page_size(PAGE_SIZE),
        }
    }
}

/// Whether `err` is a server refusing the streaming list itself (400 Bad Request or 422
/// Invalid on starting it), as opposed to an outage, a refusal of the identity or a 404.
pub(super) fn refuses_streaming(err: &watcher::Error) -> bool {
    matches!(err, watcher::Error::WatchStartFailed(kube::Error::Api(s)) if s.code == 400 || s.code == 422)
}

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

    #[test]
    fn only_a_bad_request_or_invalid_on_starting_refuses_streaming() {
        let status = |code| {
            Box::new(kube::core::Status {
                code,
                ..kube::core::Status::default()
            })
        };
        let start = |code| watcher::Error::WatchStartFailed(kube::Error::Api(status(code)));
        assert!(refuses_streaming(&start(422)));
        assert!(refuses_streaming(&start(400)));
        for code in [403, 404, 410, 500] {
            assert!(!refuses_streaming(&start(code)), "{code}");
        }
        assert!(!refuses_streaming(&watcher::Error::WatchError(status(422))));
    }
}
