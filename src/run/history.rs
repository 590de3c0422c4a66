//! The TUI's link to the local history store: it starts the background recorder
//! (`run::recorder`: every node health transition of the feed, the fleet answers; its own
//! SQLite connection, off the UI task), and is the UI-side handle that records audit rows and
//! dismissals from the reducer's effects, reads a node's rows for the node detail's timeline
//! and hands the recorder's fleet answers to the Nodes view. A demo run keys its history by
//! its start and forgets the earlier runs of its seed.
//!
//! Owns: `HistoryHook`. Composition glue between `history`, `app` types and tokio; no business
//! logic. Reads no clock itself (the composition root passes one).

use std::path::Path;
use std::sync::Arc;

use tokio::sync::watch;

use crate::app::state::HealthTransition;
use crate::app::Effect;
use crate::engine::model::Time;
use crate::engine::timeline::FleetHealth;
use crate::history::audit::{AuditEntry, AuditResult, ObjectRef};
use crate::history::dismissals::{Dismissal, RecommendationKey};
use crate::history::{default_path, ClusterKey, HistoryStore, StoreOptions};
use crate::protocol::{Feed, Op, OpOutcome};
use crate::run::recorder::{record_feeds, Digest};

/// The UI task's history connection for one cluster.
pub struct HistoryHook {
    store: HistoryStore,
    cluster: ClusterKey,
    /// Who acts: the Kubernetes user from SelfSubjectReview (`demo` in the demo).
    actor: String,
    /// Why the store was moved aside or what went wrong while opening it, for the notice bar.
    pub notices: Vec<String>,
    /// What the recorder has computed (`None` without a recorder).
    digest: Option<watch::Receiver<Digest>>,
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

    /// The demo run of `seed` that started at `started` (its own world): opens the default
    /// store, forgets the earlier runs of the seed, then records like `open`.
    pub fn open_demo(
        seed: u64,
        started: Time,
        retention_days: u32,
        clock: fn() -> Time,
        feed: watch::Receiver<Arc<Feed>>,
    ) -> Option<HistoryHook> {
        let key = ClusterKey::demo_run(seed, started);
        let path = default_path()?;
        if let Ok(mut opened) = HistoryStore::open_at(&path, Self::options(retention_days), clock())
        {
            match opened.store.forget_demo_runs(seed, &key) {
                Ok(0) => {}
                Ok(n) => tracing::info!(runs = n, seed, "earlier demo runs forgotten"),
                Err(e) => tracing::warn!("earlier demo runs not forgotten: {e:#}"),
            }
        }
        Self::open_at(&path, key, retention_days, clock, Some(feed))
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
                let Ok(recorder) = HistoryStore::open_at(&path, options, clock()) else {
                    return;
                };
                record_feeds(recorder.store, key, feed, tx).await;
            });
            rx
        });
        Some(HistoryHook {
            store: opened.store,
            cluster,
            actor: UNKNOWN_ACTOR.to_string(),
            notices: opened.notices,
            digest,
        })
    }

    /// The fleet answers the recorder computed since the last call, if new (after it wrote
    /// rows, and at least once a minute of feed time: `run::recorder`).
    pub fn fleet_update(&mut self) -> Option<Arc<FleetHealth>> {
        let rx = self.digest.as_mut()?;
        if !rx.has_changed().unwrap_or(false) {
            return None;
        }
        rx.borrow_and_update().fleet.clone()
    }

    /// The cluster this hook records for.
    pub fn cluster(&self) -> &ClusterKey {
        &self.cluster
    }

    /// Wraps an open store (tests, or a caller that opened it elsewhere).
    pub fn with_store(store: HistoryStore, cluster: ClusterKey) -> HistoryHook {
        HistoryHook {
            store,
            cluster,
            actor: UNKNOWN_ACTOR.to_string(),
            notices: Vec::new(),
            digest: None,
        }
    }

    /// The same hook recording `actor` as who did each action.
    pub fn with_actor(mut self, actor: String) -> HistoryHook {
        self.actor = actor;
        self
    }

    /// The moves dismissed earlier, as the app's `(identity key, fingerprint)` pairs: restored
    /// at start so a dismissal survives a restart (and still ends when the content changes).
    pub fn dismissed(&self) -> Vec<(String, String)> {
        let rows = self.store.dismissals(&self.cluster).unwrap_or_default();
        rows.into_iter()
            .filter_map(|d| {
                let (key, fp) = d.content_hash.split_once(SEP)?;
                Some((current_dismissal_key(key), fp.to_string()))
            })
            .collect()
    }

    /// The node's recorded transitions, oldest first (empty when the store fails).
    pub fn node_rows(&self, node: &str) -> Vec<HealthTransition> {
        self.store
            .node_timeline(&self.cluster, node)
            .unwrap_or_default()
    }

    /// Records what an effect asks to be remembered; failures are dropped (history is an aid,
    /// never a reason to stop the TUI).
    pub fn apply(&mut self, effect: &Effect) {
        match effect {
            Effect::RecordAudit { op, outcome, at } => {
                let _ = self
                    .store
                    .record_audit(&self.cluster, &audit_entry(&self.actor, op, outcome, *at));
            }
            Effect::RecordDismissal {
                key,
                fingerprint,
                reason,
                at,
            } => {
                // The store writes the dismissal and its audit row in one transaction.
                let _ = self.store.dismiss(
                    &self.cluster,
                    &Dismissal {
                        key: recommendation_key(key),
                        content_hash: format!("{key}{SEP}{fingerprint}"),
                        reason: reason.clone(),
                        actor: self.actor.clone(),
                        at: *at,
                    },
                );
            }
            _ => {}
        }
    }
}

/// The actor recorded before (or without) an identity: never shown for a live action, whose
/// caller sets the reviewed user name.
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
    }
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
mod tests {
    use super::*;

    #[test]
    fn dismissals_recorded_under_the_old_source_prefixes_keep_their_moves_hidden() {
        let old = "alfred|defrag|team/llama|engine|llama-0|gpu-3|Fragmented";
        let want = "move|defrag|team/llama|engine|llama-0|gpu-3|Fragmented";
        assert_eq!(current_dismissal_key(old), want);
        assert_eq!(
            current_dismissal_key(&old.replacen("alfred", "computed", 1)),
            want
        );
        assert_eq!(current_dismissal_key(want), want);
        assert_eq!(current_dismissal_key("no-separator"), "no-separator");
    }
    use crate::protocol::OpOutcome;
    use std::sync::Arc;

    fn at() -> Time {
        "2026-09-28T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn dismissals_and_audit_rows_survive_a_reopen() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.sqlite3");
        let key = ClusterKey::demo(1);
        let open = || HistoryStore::open_at(&path, StoreOptions::default(), at()).unwrap();
        let mut hook = HistoryHook::with_store(open().store, key.clone());
        let move_key = "move|defragmentation|prod/a|engine|0|gpu-1|Fragmentation";
        hook.apply(&Effect::RecordDismissal {
            key: move_key.into(),
            fingerprint: "gpu-2|gpu-2".into(),
            reason: "peak hours".into(),
            at: at(),
        });
        let op = Op::Cordon {
            node: Arc::from("gpu-1"),
            resource_version: Arc::from("7"),
            reason: None,
        };
        let outcome = OpOutcome::Done {
            message: "cordoned".into(),
            resource_version: Some("8".into()),
        };
        hook.apply(&Effect::RecordAudit {
            op,
            outcome,
            at: at(),
        });
        drop(hook);
        let again = HistoryHook::with_store(open().store, key.clone());
        assert_eq!(
            again.dismissed(),
            vec![(move_key.to_string(), "gpu-2|gpu-2".to_string())]
        );
        let audit = again.store.audit_for_object(&key, "Node", "gpu-1").unwrap();
        assert_eq!(audit.len(), 1);
        assert_eq!(audit[0].rv_before.as_deref(), Some("7"));
        assert_eq!(audit[0].rv_after.as_deref(), Some("8"));
    }

    #[test]
    fn an_approval_against_the_verdict_records_its_override() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.sqlite3");
        let key = ClusterKey::demo(1);
        let store = HistoryStore::open_at(&path, StoreOptions::default(), at()).unwrap();
        let mut hook = HistoryHook::with_store(store.store, key.clone());
        let approve = |uuid: &str, overrode: Option<&str>| Op::ApproveMove {
            namespace: Arc::from("prod"),
            name: Arc::from("chat"),
            uid: Arc::from("u"),
            resource_version: Arc::from("7"),
            uuid: uuid.into(),
            value: "{}".into(),
            overrode: overrode.map(String::from),
        };
        for op in [approve("1", Some("NoSurgeHeadroom")), approve("2", None)] {
            hook.apply(&Effect::RecordAudit {
                op,
                outcome: OpOutcome::Done {
                    message: "written".into(),
                    resource_version: Some("8".into()),
                },
                at: at(),
            });
        }
        let rows = hook
            .store
            .audit_for_object(&key, "InferenceService", "chat")
            .unwrap();
        let overrides: Vec<Option<&str>> = rows.iter().map(|r| r.overrode.as_deref()).collect();
        assert_eq!(overrides, [Some("NoSurgeHeadroom"), None]);
        assert!(rows.iter().all(|r| r.action == "approve-move"));
    }

    #[test]
    fn a_node_timeline_survives_a_reopen() {
        use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
        use crate::sim::fleet::{generate_fleet, FleetSpec};
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.sqlite3");
        let key = ClusterKey::demo(3);
        let spec = FleetSpec {
            seed: 3,
            nodes: 12,
            pods: 60,
        };
        let mut snap = generate_fleet(&spec, at());
        snap.nodes[0].unschedulable = true;
        let opts = AnalysisOptions {
            now: at(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
        };
        let analysis = analyze(&snap, &opts);
        let mut store = HistoryStore::open_at(&path, StoreOptions::default(), at())
            .unwrap()
            .store;
        store
            .record_observation(&key, &analysis, &snap, at())
            .unwrap();
        drop(store);
        let reopened = HistoryStore::open_at(&path, StoreOptions::default(), at()).unwrap();
        let hook = HistoryHook::with_store(reopened.store, key);
        let rows = hook.node_rows(&snap.nodes[0].name);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0].at, at());
        assert!(rows[0].observed.cordoned, "{rows:?}");
    }
}
