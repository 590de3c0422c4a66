//! The history recorder: a task that writes every node health transition seen in the feed
//! into the history store (its own SQLite connection, on a blocking thread, off the UI task)
//! and answers the health questions after it writes and at least once a minute of feed time,
//! publishing the answers to the UI task.
//!
//! Owns: `Digest`, `record_feeds`. Composition glue between `history` and tokio; no business
//! logic. Reads no clock (times are the feed's).

use std::sync::Arc;

use chrono::Duration;
use tokio::sync::watch;

use crate::engine::model::Time;
use crate::engine::timeline::{NodesHealth, DEFAULT_FLAPS, DEFAULT_WINDOW_DAYS};
use crate::history::{ClusterKey, HistoryStore};
use crate::protocol::Feed;

/// What the recorder tells the UI task: the latest health answers (sent after it wrote rows,
/// and every `HEALTH_EVERY`).
#[derive(Debug, Clone, Default)]
pub(super) struct Digest {
    pub(super) health: Option<Arc<NodesHealth>>,
}

/// How often (in feed time) the recorder answers the health questions again without new rows:
/// open episodes grow and the window moves.
const HEALTH_EVERY: Duration = Duration::minutes(1);

/// Records every feed of `feed` for `cluster` into `store` until the feed ends, publishing
/// the health answers on `digest`.
pub(super) async fn record_feeds(
    mut store: HistoryStore,
    cluster: ClusterKey,
    mut feed: watch::Receiver<Arc<Feed>>,
    digest: watch::Sender<Digest>,
) {
    let mut answered: Option<Time> = None;
    let mut failing = false;
    loop {
        let latest = feed.borrow_and_update().clone();
        let key = cluster.clone();
        // SQLite is blocking; the store moves into the blocking task and back.
        let joined = tokio::task::spawn_blocking(move || {
            let a = &latest.analysis;
            let written = match store.record_observation(&key, a, &latest.snapshot, a.now) {
                Ok(n) => {
                    failing = false;
                    n
                }
                Err(e) => {
                    // Once per run of failures: the store is an aid, the TUI goes on.
                    if !failing {
                        tracing::warn!("history not recorded: {e:#}");
                    }
                    failing = true;
                    0
                }
            };
            let due = written > 0 || answered.is_none_or(|t| a.now - t >= HEALTH_EVERY);
            let from = a.now - Duration::days(DEFAULT_WINDOW_DAYS);
            let health = due
                .then(|| store.nodes_health(&key, from, a.now, DEFAULT_FLAPS).ok())
                .flatten();
            (store, health, a.now, failing)
        })
        .await;
        let Ok((back, health, now, still_failing)) = joined else {
            return;
        };
        store = back;
        failing = still_failing;
        if let Some(health) = health {
            answered = Some(now);
            digest.send_modify(|d| d.health = Some(Arc::new(health)));
        }
        if feed.changed().await.is_err() {
            return;
        }
    }
}
