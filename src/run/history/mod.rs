//! The TUI's link to the local history store: it starts the background recorder
//! (`run::recorder`: every node health transition of the feed, the health answers; its own
//! SQLite connection) and the writer (`writer`: the audit rows and dismissals of the reducer's
//! effects, a node's rows for the node detail's timeline; a thread of its own), so the UI task
//! never waits on the disk, and turns what both report into the reducer's events. A demo run
//! keys its history by its start; earlier runs of its seed keep their rows under their own keys. Composition glue:
//! no business logic, and no clock of its own (the composition root passes one).

use std::path::Path;
use std::sync::Arc;

use tokio::sync::watch;

use crate::app::state::Dismissed;
use crate::app::state::NodeAction;
use crate::app::{Effect, Event};
use crate::engine::model::Time;
use crate::engine::timeline::NodesHealth;
use crate::history::audit::{AuditEntry, AuditResult, ObjectRef};
use crate::history::dismissals::{Dismissal, RecommendationKey};
use crate::history::{default_path, ClusterKey, HistoryStore, StoreOptions};
use crate::protocol::{Feed, Op, OpOutcome};
use crate::run::recorder::{record_feeds, Digest};

mod writer;
pub use writer::Reply;
use writer::{Job, Writer};

/// The UI task's history connection for one cluster.
pub struct HistoryHook {
    writer: Writer,
    cluster: ClusterKey,
    /// Who acts: the Kubernetes user from SelfSubjectReview (`demo` in the demo).
    actor: String,
    /// Why the store was moved aside or what went wrong while opening it, for the notice bar.
    pub notices: Vec<String>,
    /// What the recorder has computed (`None` without a recorder).
    digest: Option<watch::Receiver<Digest>>,
    /// The node whose rows were asked and not yet answered.
    asked: Option<String>,
}

impl HistoryHook {
    /// Opens the default store for `cluster` and, given a feed, spawns the recorder on the
    /// current runtime. `None` when the store cannot be opened (the TUI runs without history).
    pub fn open(
        cluster: ClusterKey,
        retention_days: u32,
        clock: fn() -> Time,
        feed: Option<watch::Receiver<Arc<Feed>>>,
    ) -> Option<HistoryHook> {
        let path = match default_path() {
            Some(p) => p,
            None => {
                tracing::warn!("history store not opened: no home directory");
                return None;
            }
        };
        Self::open_at(&path, cluster, retention_days, clock, feed)
    }

    /// The demo run of `seed` that started at `started` (its own world, keyed by its start so
    /// that its rows never mix with an earlier run's): opens the default store and records
    /// like `open`. Earlier runs' rows are kept (`ome-top history` shows each run under its
    /// own key, with its start) until retention ends them.
    pub fn open_demo(
        seed: u64,
        started: Time,
        retention_days: u32,
        clock: fn() -> Time,
        feed: watch::Receiver<Arc<Feed>>,
    ) -> Option<HistoryHook> {
        let path = default_path()?;
        Self::open_demo_at(&path, (seed, started), retention_days, clock, feed)
    }

    /// `open_demo` on the store at `path` (tests).
    pub fn open_demo_at(
        path: &Path,
        (seed, started): (u64, Time),
        retention_days: u32,
        clock: fn() -> Time,
        feed: watch::Receiver<Arc<Feed>>,
    ) -> Option<HistoryHook> {
        let key = ClusterKey::demo_run(seed, started);
        Self::open_at(path, key, retention_days, clock, Some(feed))
    }

    fn options(retention_days: u32) -> StoreOptions {
        StoreOptions::with_retention_days(retention_days)
    }

    /// `open` on the store at `path` (tests; `--db` of a future flag).
    pub fn open_at(
        path: &Path,
        cluster: ClusterKey,
        retention_days: u32,
        clock: fn() -> Time,
        feed: Option<watch::Receiver<Arc<Feed>>>,
    ) -> Option<HistoryHook> {
        let options = Self::options(retention_days);
        let opened = match HistoryStore::open_at(path, options, clock()) {
            Ok(opened) => opened,
            Err(e) => {
                tracing::warn!("history store not opened, running without it: {e:#}");
                return None;
            }
        };
        tracing::info!(file = %opened.store.path().display(), cluster = cluster.as_str(), "history store opened");
        for notice in &opened.notices {
            tracing::warn!("history store: {notice}");
        }
        let digest = feed.map(|feed| {
            let (tx, rx) = watch::channel(Digest::default());
            let path = opened.store.path().to_path_buf();
            let key = cluster.clone();
            tokio::spawn(async move {
                // SQLite blocks (its checks, its prune, another opener's lock): not on a
                // runtime worker, where every session's watchers run.
                let opened = tokio::task::spawn_blocking(move || {
                    HistoryStore::open_at(&path, options, clock())
                })
                .await;
                let Ok(Ok(recorder)) = opened else {
                    return;
                };
                record_feeds(recorder.store, key, feed, tx).await;
            });
            rx
        });
        let mut hook = Self::with_store(opened.store, cluster)?;
        hook.notices = opened.notices;
        hook.digest = digest;
        Some(hook)
    }

    /// Waits for what the history store has for the reducer: a node's rows asked with
    /// `ask_node_rows`, a failed write (as a notice), or the recorder's new health answers
    /// (after it wrote rows, and at least once a minute of feed time: `run::recorder`).
    /// Never ends when there is nothing more to come.
    pub async fn next_event(&mut self) -> Event {
        loop {
            tokio::select! {
                Some(reply) = self.writer.replies.recv() => return self.reply_event(reply),
                Some(health) = health_changed(&mut self.digest) => {
                    // The recorder may have written the open node's rows: read them again.
                    self.asked = None;
                    return Event::NodesHealth(health);
                }
                else => std::future::pending::<()>().await,
            }
        }
    }

    /// The events already waiting (replies and failures), without waiting.
    pub fn ready_events(&mut self) -> Vec<Event> {
        let mut events = Vec::new();
        while let Ok(reply) = self.writer.replies.try_recv() {
            events.push(self.reply_event(reply));
        }
        events
    }

    fn reply_event(&mut self, reply: Reply) -> Event {
        match reply {
            Reply::NodeRows { node, rows } => {
                if self.asked.as_deref() == Some(node.as_str()) {
                    self.asked = None;
                }
                Event::NodeHistory { node, rows }
            }
            Reply::NodeActions { node, actions } => Event::NodeActions {
                node,
                actions: actions.into_iter().map(node_action).collect(),
            },
            Reply::Failed(text) => Event::HistoryFailed(text),
        }
    }

    /// Asks for `node`'s recorded rows (answered through `next_event` as
    /// `Event::NodeHistory`) unless they were asked already and not yet answered.
    pub fn ask_node_rows(&mut self, node: &str) {
        if self.asked.as_deref() == Some(node) {
            return;
        }
        if self.writer.send(Job::NodeRows(node.to_string())) {
            self.asked = Some(node.to_string());
        }
    }

    /// The cluster this hook records for.
    pub fn cluster(&self) -> &ClusterKey {
        &self.cluster
    }

    /// Wraps an open store (tests, or a caller that opened it elsewhere) and starts its
    /// writer thread; `None` when the thread cannot start (the TUI runs without history).
    pub fn with_store(store: HistoryStore, cluster: ClusterKey) -> Option<HistoryHook> {
        let writer = match Writer::start(store, cluster.clone()) {
            Ok(w) => w,
            Err(e) => {
                tracing::warn!("history store not used, its writer did not start: {e}");
                return None;
            }
        };
        Some(HistoryHook {
            writer,
            cluster,
            actor: UNKNOWN_ACTOR.to_string(),
            notices: Vec::new(),
            digest: None,
            asked: None,
        })
    }

    /// The same hook recording `actor` as who did each action.
    pub fn with_actor(mut self, actor: String) -> HistoryHook {
        self.actor = actor;
        self
    }

    /// The moves dismissed earlier, by the app's identity key: restored at start so a
    /// dismissal survives a restart (and still ends when the content changes).
    pub fn dismissed(&self) -> Vec<(String, Dismissed)> {
        let rows = self.writer.dismissed();
        rows.into_iter()
            .filter_map(|d| {
                let (key, fp) = d.content_hash.split_once(SEP)?;
                let note = Dismissed {
                    fingerprint: fp.to_string(),
                    by: Some(d.actor.clone()),
                    reason: d.reason.clone(),
                    at: d.at,
                };
                Some((current_dismissal_key(key), note))
            })
            .collect()
    }

    /// Queues what an effect asks to be remembered for the writer thread; a failure comes
    /// back through `next_event` as a notice (history is an aid, never a reason to stop the
    /// TUI).
    pub fn record(&mut self, effect: &Effect) {
        let job = match effect {
            Effect::RecordAudit { op, outcome, at } => {
                Job::Audit(audit_entry(&self.actor, op, outcome, *at))
            }
            // The store writes the dismissal and its audit row in one transaction.
            Effect::RecordDismissal {
                key,
                fingerprint,
                reason,
                at,
            } => Job::Dismiss(Dismissal {
                key: recommendation_key(key),
                content_hash: format!("{key}{SEP}{fingerprint}"),
                reason: reason.clone(),
                actor: self.actor.clone(),
                at: *at,
            }),
            Effect::ForgetDismissal { key, at } => Job::Undismiss {
                key: recommendation_key(key),
                actor: self.actor.clone(),
                at: *at,
            },
            _ => return,
        };
        if !self.writer.send(job) {
            tracing::warn!("history not recorded: its writer has stopped");
        }
    }
}

/// The recorder's health answers when they change; never ready without a recorder or after it
/// ended.
async fn health_changed(digest: &mut Option<watch::Receiver<Digest>>) -> Option<Arc<NodesHealth>> {
    let Some(rx) = digest.as_mut() else {
        return std::future::pending().await;
    };
    loop {
        if rx.changed().await.is_err() {
            *digest = None;
            return std::future::pending().await;
        }
        if let Some(health) = rx.borrow_and_update().health.clone() {
            return Some(health);
        }
    }
}

const UNKNOWN_ACTOR: &str = "unknown";

/// Separates the app's identity key from its fingerprint in the stored content hash.
const SEP: char = '#';

/// The store's key from the app's `source|policy|workload|component|instance|from|reason`.
fn recommendation_key(key: &str) -> RecommendationKey {
    let parts: Vec<&str> = key.split('|').collect();
    let part = |i: usize| parts.get(i).copied().unwrap_or_default().to_string();
    RecommendationKey {
        workload: part(2),
        component: part(3),
        instance: part(4).parse().unwrap_or(-1),
    }
}

fn object_ref(op: &Op) -> ObjectRef {
    match op {
        Op::Cordon { node, .. } | Op::Uncordon { node, .. } => ObjectRef::node(node),
        Op::ApproveMove {
            namespace, name, ..
        }
        | Op::OptOut {
            namespace, name, ..
        }
        | Op::OptIn {
            namespace, name, ..
        } => ObjectRef {
            kind: "InferenceService".into(),
            namespace: namespace.to_string(),
            name: name.to_string(),
        },
        Op::ClearJournalEntry { namespace, .. } => ObjectRef {
            kind: "ConfigMap".into(),
            namespace: namespace.to_string(),
            name: "alfred-dispatch-state".into(),
        },
    }
}

fn op_action(op: &Op) -> &'static str {
    match op {
        Op::Cordon { .. } => "cordon-node",
        Op::Uncordon { .. } => "uncordon-node",
        Op::ApproveMove { .. } => "approve-move",
        Op::OptOut { .. } => "opt-out-workload",
        Op::OptIn { .. } => "opt-in-workload",
        Op::ClearJournalEntry { .. } => "clear-journal-entry",
    }
}

fn rv_before(op: &Op) -> String {
    match op {
        Op::Cordon {
            resource_version, ..
        }
        | Op::Uncordon {
            resource_version, ..
        }
        | Op::ApproveMove {
            resource_version, ..
        }
        | Op::OptOut {
            resource_version, ..
        }
        | Op::OptIn {
            resource_version, ..
        }
        | Op::ClearJournalEntry {
            resource_version, ..
        } => resource_version.to_string(),
    }
}

fn audit_entry(actor: &str, op: &Op, outcome: &OpOutcome, at: Time) -> AuditEntry {
    let (result, message, rv_after) = match outcome {
        OpOutcome::Done {
            message,
            resource_version,
        } => (AuditResult::Done, message.clone(), resource_version.clone()),
        OpOutcome::Conflict { message } => (AuditResult::Conflict, message.clone(), None),
        OpOutcome::Refused { message } => (AuditResult::Refused, message.clone(), None),
        OpOutcome::Failed { message } => (AuditResult::Failed, message.clone(), None),
    };
    AuditEntry {
        at,
        actor: actor.to_string(),
        action: op_action(op).into(),
        object: object_ref(op),
        rv_before: Some(rv_before(op)),
        rv_after,
        result,
        message,
        overrode: overrode(op),
        reason: op_reason(op),
    }
}

/// An audit row as the node detail lists it.
fn node_action(a: AuditEntry) -> NodeAction {
    NodeAction {
        at: a.at,
        actor: a.actor,
        action: a.action,
        result: a.result.as_str().to_string(),
        reason: a.reason,
        message: a.message,
    }
}

/// The reason the operator wrote for `op` (trimmed), `None` when the op takes none or it was
/// left empty: it goes into the audit row as the live path writes it into the Event.
fn op_reason(op: &Op) -> Option<String> {
    let text = match op {
        Op::Cordon { reason, .. } | Op::Uncordon { reason, .. } => reason.as_deref(),
        Op::OptOut { reason, .. } => Some(reason.as_str()),
        Op::ApproveMove { .. } | Op::OptIn { .. } | Op::ClearJournalEntry { .. } => None,
    };
    text.map(str::trim)
        .filter(|r| !r.is_empty())
        .map(str::to_string)
}

/// What confirming `op` overrode: the approval's override, or failing clearing checks.
fn overrode(op: &Op) -> Option<String> {
    match op {
        Op::ApproveMove { overrode, .. } => overrode.clone(),
        Op::ClearJournalEntry {
            override_checks: true,
            ..
        } => Some("ClearingChecks".into()),
        _ => None,
    }
}

/// A dismissal key as the Moves view builds it now: keys recorded before one row merged
/// Alfred's and ome-top's outcome began with the row's source (`alfred|` or `computed|`)
/// instead of `move|`; the rest of the key and the fingerprint are unchanged, so those
/// dismissals keep hiding their moves.
fn current_dismissal_key(key: &str) -> String {
    match key.split_once('|') {
        Some(("alfred" | "computed", rest)) => format!("move|{rest}"),
        _ => key.to_string(),
    }
}

#[cfg(test)]
mod tests;
