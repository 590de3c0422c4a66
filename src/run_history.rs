//! The TUI's link to the local history store: a background recorder that writes every node
//! health transition seen in the feed (its own SQLite connection, off the UI task), and a
//! UI-side handle that records audit rows and dismissals from the reducer's effects and reads a
//! node's timeline for the node detail.
//!
//! Owns: `HistoryHook`. Composition glue between `history`, `app` types and tokio; no business
//! logic. Reads no clock itself (the composition root passes one).

use std::sync::Arc;

use tokio::sync::watch;

use crate::app::state::HealthTransition;
use crate::app::Effect;
use crate::engine::model::Time;
use crate::history::audit::{AuditEntry, AuditResult, ObjectRef};
use crate::history::{ClusterKey, HistoryStore, StoreOptions};
use crate::protocol::{Feed, Op, OpOutcome};

/// The UI task's history connection for one cluster.
pub struct HistoryHook {
    store: HistoryStore,
    cluster: ClusterKey,
    /// Why the store was moved aside or what went wrong while opening it, for the notice bar.
    pub notices: Vec<String>,
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
        let options = StoreOptions::with_retention_days(retention_days);
        let opened = HistoryStore::open_default(options, clock()).ok()?;
        if let Some(feed) = feed {
            let path = opened.store.path().to_path_buf();
            let key = cluster.clone();
            tokio::spawn(async move {
                let Ok(recorder) = HistoryStore::open_at(&path, options, clock()) else {
                    return;
                };
                record_feeds(recorder.store, key, feed).await;
            });
        }
        Some(HistoryHook {
            store: opened.store,
            cluster,
            notices: opened.notices,
        })
    }

    /// The node's recorded transitions, oldest first (empty when the store fails).
    pub fn node_rows(&self, node: &str) -> Vec<HealthTransition> {
        let rows = self
            .store
            .node_timeline(&self.cluster, node)
            .unwrap_or_default();
        rows.into_iter()
            .map(|r| HealthTransition {
                at: r.at,
                state: r.observed.health.name().to_string(),
                detail: transition_detail(&r.observed),
            })
            .collect()
    }

    /// Records what an effect asks to be remembered; failures are dropped (history is an aid,
    /// never a reason to stop the TUI).
    pub fn apply(&mut self, effect: &Effect) {
        match effect {
            Effect::RecordAudit { op, outcome, at } => {
                let _ = self
                    .store
                    .record_audit(&self.cluster, &audit_entry(op, outcome, *at));
            }
            Effect::RecordDismissal {
                key, reason, at, ..
            } => {
                let entry = AuditEntry {
                    at: *at,
                    actor: "ome-top".into(),
                    action: "reject-move".into(),
                    object: ObjectRef {
                        kind: "Recommendation".into(),
                        namespace: String::new(),
                        name: key.clone(),
                    },
                    rv_before: None,
                    rv_after: None,
                    result: AuditResult::Done,
                    message: format!("dismissed: {reason}"),
                };
                let _ = self.store.record_audit(&self.cluster, &entry);
            }
            _ => {}
        }
    }
}

fn transition_detail(o: &crate::history::transitions::NodeObservation) -> String {
    let mut parts = Vec::new();
    if !o.reason.is_empty() {
        parts.push(o.reason.clone());
    }
    if !o.triggers.is_empty() {
        parts.push(format!("maintenance: {}", o.triggers.join(", ")));
    }
    if o.cordoned {
        parts.push("cordoned".into());
    }
    parts.join("; ")
}

async fn record_feeds(
    mut store: HistoryStore,
    cluster: ClusterKey,
    mut feed: watch::Receiver<Arc<Feed>>,
) {
    loop {
        let latest = feed.borrow_and_update().clone();
        let key = cluster.clone();
        // SQLite is blocking; the store moves into the blocking task and back.
        let joined = tokio::task::spawn_blocking(move || {
            let a = &latest.analysis;
            let _ = store.record_observation(&key, a, &latest.snapshot, a.now);
            store
        })
        .await;
        let Ok(back) = joined else { return };
        store = back;
        if feed.changed().await.is_err() {
            return;
        }
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
        | Op::ClearJournalEntry {
            resource_version, ..
        } => resource_version.to_string(),
    }
}

fn audit_entry(op: &Op, outcome: &OpOutcome, at: Time) -> AuditEntry {
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
        actor: "ome-top".into(),
        action: op_action(op).into(),
        object: object_ref(op),
        rv_before: Some(rv_before(op)),
        rv_after,
        result,
        message,
    }
}
