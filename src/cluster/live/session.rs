//! A running live session: its feed, client and tasks (dropped together), and `connect`, which
//! starts the watchers, the RBAC probe and the snapshot task on a reachable server.
//!
//! Owns: `LiveSession`, `EventCounts`, `connect`.

use std::sync::atomic::Ordering;
use std::sync::{Arc, PoisonError};
use std::time::Duration;

use kube::Client;
use tokio::sync::watch as channel;
use tokio::task::JoinHandle;
use tracing::Instrument;

use crate::cluster::live::kubeconfig::without_userinfo;
use crate::cluster::live::kubeconfig::{answers, configured};
use crate::cluster::live::{rbac, snapshot, watch, LiveError, LiveOptions};
use crate::protocol::{ApiStatus, Feed, Permissions, SourceKind};

/// A running live session. Dropping it stops every task.
pub struct LiveSession {
    /// The latest feed (newest value wins).
    pub feed: channel::Receiver<Arc<Feed>>,
    /// The client, for the ops worker and on-demand reads.
    pub client: Client,
    /// The kubeconfig context in use.
    pub context: String,
    /// The API server URL (with the context, the history store's cluster key).
    pub server: String,
    hub: Arc<crate::cluster::live::hub::Hub>,
    tasks: Vec<JoinHandle<()>>,
}

/// How far the analyses are behind the watchers, in object events.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EventCounts {
    /// Object events applied to the stores since the session started.
    pub applied: u64,
    /// Of those, the events included in the latest published feed.
    pub in_feed: u64,
}

impl Drop for LiveSession {
    fn drop(&mut self) {
        for t in &self.tasks {
            t.abort();
        }
    }
}

impl LiveSession {
    /// The event counters of the watchers and the snapshot task (read now, not atomically
    /// together: `in_feed` may lag `applied` by the events of one analysis).
    pub fn event_counts(&self) -> EventCounts {
        EventCounts {
            applied: self.hub.events_applied.load(Ordering::Relaxed),
            in_feed: self.hub.events_in_feed.load(Ordering::Relaxed),
        }
    }

    /// Waits until a feed satisfies `done`, at most `timeout`; returns it, or `None` on
    /// timeout (or when the snapshot task ended).
    pub async fn wait_for(
        &mut self,
        timeout: Duration,
        done: impl Fn(&Feed) -> bool,
    ) -> Option<Arc<Feed>> {
        let wait = async {
            loop {
                let feed = self.feed.borrow_and_update().clone();
                if done(&feed) {
                    return Some(feed);
                }
                self.feed.changed().await.ok()?;
            }
        };
        tokio::time::timeout(timeout, wait).await.ok().flatten()
    }

    /// Waits for the first complete sync (every source listed, no outage) and returns that
    /// feed. A refused Node or Pod list is `Forbidden`; no sync within `timeout` is
    /// `Unreachable` with the last error seen.
    pub async fn wait_synced(&mut self, timeout: Duration) -> Result<Arc<Feed>, LiveError> {
        let done = |f: &Feed| matches!(f.api, ApiStatus::Connected | ApiStatus::Forbidden { .. });
        match self.wait_for(timeout, done).await {
            Some(feed) => match &feed.api {
                ApiStatus::Forbidden { what } => Err(LiveError::MayNot(what.clone())),
                _ => Ok(feed),
            },
            None => {
                let last = self.feed.borrow().api.clone();
                let server = without_userinfo(&self.server);
                Err(match last {
                    ApiStatus::Reconnecting { error, .. } => {
                        LiveError::Reconnecting { server, error }
                    }
                    _ => LiveError::NotSynced {
                        server,
                        within: timeout,
                    },
                })
            }
        }
    }
}

/// Connects: loads the kubeconfig, starts the watchers, the RBAC probe (unless read-only) and
/// the snapshot task, and checks that the server answers. The check runs beside the watchers'
/// first requests rather than before them (one round trip less before the lists start); a
/// server that does not answer ends the session, its tasks stopped, with the check's error.
/// Must run inside a tokio runtime.
pub async fn connect(opts: LiveOptions) -> Result<LiveSession, LiveError> {
    let (client, context, server) =
        configured(opts.kubeconfig.as_deref(), opts.context.as_deref()).await?;
    let session = start(opts, client, context, server);
    answers(&session.client, &session.context, &session.server).await?;
    Ok(session)
}

/// Starts the watchers, the RBAC probe (unless read-only) and the snapshot task on `client`.
fn start(opts: LiveOptions, client: Client, context: String, server: String) -> LiveSession {
    let permissions = match &opts.read_only {
        Some(why) => Permissions::read_only(why.clone()),
        None => rbac::pending(),
    };
    tracing::info!(
        namespace = opts.namespace.as_deref().unwrap_or("(all)"),
        alfred_namespace = opts.alfred_namespace,
        scheduler_namespace = opts.scheduler_namespace,
        read_only = opts.read_only.as_deref().unwrap_or("no"),
        "watching"
    );
    let hub = Arc::new(crate::cluster::live::hub::Hub::new(opts.clock, permissions));
    let scope = watch::Scope {
        namespace: opts.namespace.clone(),
        alfred_namespace: opts.alfred_namespace.clone(),
        scheduler_namespace: opts.scheduler_namespace.clone(),
    };
    let mut tasks = watch::spawn_watchers(&client, &scope, &hub);
    if opts.read_only.is_none() {
        let (hub, client, scope) = (hub.clone(), client.clone(), scope.clone());
        tasks.push(tokio::spawn(
            async move {
                let found =
                    rbac::probe(&client, &scope.alfred_namespace, scope.namespace.as_deref()).await;
                tracing::info!(permissions = ?found.entries, "RBAC probe answered");
                *hub.permissions
                    .lock()
                    .unwrap_or_else(PoisonError::into_inner) = found;
                hub.changed.notify_one();
            }
            .in_current_span(),
        ));
    }
    let mut analysis = opts.analysis.clone();
    analysis.alfred_namespace = opts.alfred_namespace.clone();
    analysis.placement.scheduler_namespace = opts.scheduler_namespace.clone();
    let source = SourceKind::Live(context.clone());
    let first = snapshot::initial_feed(&hub, source.clone(), &analysis);
    let (tx, feed) = channel::channel(Arc::new(first));
    tasks.push(snapshot::spawn_snapshot_task(
        hub.clone(),
        source,
        analysis,
        tx,
    ));
    LiveSession {
        feed,
        client,
        context,
        server,
        hub,
        tasks,
    }
}
