//! Tests of the history store on real files: transitions across restarts, audit, dismissals
//! and retention (the file-level cases are in `files.rs`).

mod files;
mod replay;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use chrono::Duration;

use super::audit::{AuditEntry, AuditResult, ObjectRef};
use super::dismissals::{Dismissal, RecommendationKey, DISMISS_ACTION, UNDISMISS_ACTION};
use super::*;
use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node};
use crate::engine::model::{ClusterSnapshot, NodeCondition};
use crate::engine::nodes::HealthState;

pub(super) fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join(FILE_NAME);
    (dir, path)
}

pub(super) fn open(path: &Path, now: Time) -> HistoryStore {
    let opened = HistoryStore::open_at(path, StoreOptions::default(), now).unwrap();
    assert!(opened.notices.is_empty(), "{:?}", opened.notices);
    opened.store
}

pub(super) fn nodes(unhealthy: bool, cordoned: bool) -> ClusterSnapshot {
    let mut a = node("gpu-a", 8);
    if unhealthy {
        a.conditions = vec![NodeCondition {
            kind: Arc::from("GpuUnhealthy"),
            status: Arc::from("True"),
            last_transition: Some(at(9, 0, 0)),
        }];
    }
    a.unschedulable = cordoned;
    ClusterSnapshot {
        nodes: vec![a, node("gpu-b", 8)].into(),
        pods: Default::default(),
        isvcs: Default::default(),
        replicas: Default::default(),
        replicas_listed: true,
        pod_groups: Default::default(),
        config_maps: Default::default(),
        events: Default::default(),
        ..ClusterSnapshot::default()
    }
}

pub(super) fn analysis(snap: &ClusterSnapshot, now: Time) -> Analysis {
    analyze(
        snap,
        &AnalysisOptions {
            now,
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        },
    )
}

pub(super) fn record(
    store: &mut HistoryStore,
    key: &ClusterKey,
    snap: &ClusterSnapshot,
    now: Time,
) -> usize {
    store
        .record_observation(key, &analysis(snap, now), snap, now)
        .unwrap()
}

pub(super) fn count(store: &HistoryStore, table: &str) -> i64 {
    store
        .conn
        .query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
        .unwrap()
}

#[test]
fn only_changes_are_recorded_and_a_restart_does_not_duplicate() {
    let (_dir, path) = temp();
    let key = ClusterKey::live("https://10.0.0.1:6443", "prod");
    let mut store = open(&path, at(10, 0, 0));
    assert_eq!(
        record(&mut store, &key, &nodes(false, false), at(10, 0, 0)),
        2
    );
    assert_eq!(
        record(&mut store, &key, &nodes(false, false), at(10, 1, 0)),
        0
    );
    assert_eq!(
        record(&mut store, &key, &nodes(true, false), at(10, 2, 0)),
        1
    );
    drop(store);

    let mut store = open(&path, at(10, 3, 0));
    assert_eq!(
        record(&mut store, &key, &nodes(true, false), at(10, 3, 0)),
        0
    );
    assert_eq!(
        record(&mut store, &key, &nodes(true, true), at(10, 4, 0)),
        1
    );
    let timeline = store.node_timeline(&key, "gpu-a").unwrap();
    let states: Vec<(Time, &str, bool)> = timeline
        .iter()
        .map(|t| (t.at, t.observed.health.name(), t.observed.cordoned))
        .collect();
    assert_eq!(
        states,
        [
            (at(10, 0, 0), "Clear", false),
            (at(10, 2, 0), "Unhealthy", false),
            (at(10, 4, 0), "Unhealthy", true),
        ]
    );
    assert_eq!(timeline[1].observed.reason, "GpuUnhealthy=True");
    assert_eq!(store.node_timeline(&key, "gpu-b").unwrap().len(), 1);
    // Another cluster's key sees nothing of these rows.
    assert!(store
        .node_timeline(&ClusterKey::demo(7), "gpu-a")
        .unwrap()
        .is_empty());
}

#[test]
fn suspect_deadline_survives_the_round_trip() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(1);
    let mut snap = nodes(false, false);
    snap.nodes[0].conditions = vec![NodeCondition {
        kind: Arc::from("GpuUnhealthy"),
        status: Arc::from("False"),
        last_transition: Some(at(9, 50, 0)),
    }];
    let mut store = open(&path, at(10, 0, 0));
    record(&mut store, &key, &snap, at(10, 0, 0));
    drop(store);
    let mut store = open(&path, at(10, 5, 0));
    assert_eq!(record(&mut store, &key, &snap, at(10, 5, 0)), 0);
    let rows = store.node_timeline(&key, "gpu-a").unwrap();
    assert_eq!(
        rows[0].observed.health,
        HealthState::Suspect {
            until: at(10, 20, 0)
        }
    );
}

#[test]
fn two_connections_do_not_record_the_same_change_twice() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(3);
    let mut first = open(&path, at(10, 0, 0));
    let mut second = open(&path, at(10, 0, 0));
    assert_eq!(
        record(&mut first, &key, &nodes(false, false), at(10, 0, 0)),
        2
    );
    // `second` loaded nothing yet for this cluster: it loads on first use and sees the rows.
    assert_eq!(
        record(&mut second, &key, &nodes(false, false), at(10, 0, 5)),
        0
    );
    // Both observe the same change; the in-transaction check writes it once.
    assert_eq!(
        record(&mut first, &key, &nodes(true, false), at(10, 1, 0)),
        1
    );
    assert_eq!(
        record(&mut second, &key, &nodes(true, false), at(10, 1, 2)),
        0
    );
    assert_eq!(count(&first, "node_transitions"), 3);
}

pub(super) fn cordon_entry(minute: u32, result: AuditResult) -> AuditEntry {
    AuditEntry {
        at: at(11, minute, 0),
        actor: "alice@example.com".into(),
        action: "cordon-node".into(),
        object: ObjectRef::node("gpu-a"),
        rv_before: Some("100".into()),
        rv_after: (result == AuditResult::Done).then(|| "101".into()),
        result,
        message: "cordoned gpu-a: GPU errors".into(),
        overrode: None,
        reason: Some("GPU errors".into()),
    }
}

#[test]
fn audit_rows_round_trip() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(1);
    let mut store = open(&path, at(11, 0, 0));
    let done = cordon_entry(1, AuditResult::Done);
    let conflict = cordon_entry(0, AuditResult::Conflict);
    let mut other = cordon_entry(2, AuditResult::Other("partial".into()));
    other.overrode = Some("NoSurgeHeadroom".into());
    other.object = ObjectRef {
        kind: "ConfigMap".into(),
        namespace: "ome".into(),
        name: "alfred-dispatch-state".into(),
    };
    for e in [&done, &conflict, &other] {
        store.record_audit(&key, e).unwrap();
    }
    drop(store);
    let store = open(&path, at(11, 5, 0));
    // Oldest first, only the Node's rows.
    assert_eq!(
        store.audit_for_object(&key, "Node", "gpu-a").unwrap(),
        vec![conflict, done]
    );
    let recent = store.recent_audit(&key, 1).unwrap();
    assert_eq!(recent, vec![other]);
    assert_eq!(
        recent[0].object.display(),
        "ConfigMap ome/alfred-dispatch-state"
    );
    assert!(store
        .audit_for_object(&ClusterKey::demo(2), "Node", "gpu-a")
        .unwrap()
        .is_empty());
}

fn dismissal(hash: &str, minute: u32) -> Dismissal {
    Dismissal {
        key: RecommendationKey {
            workload: "llm/llama".into(),
            component: "engine".into(),
            instance: 2,
        },
        content_hash: hash.into(),
        reason: "keep it on this rack".into(),
        actor: "alice".into(),
        at: at(12, minute, 0),
    }
}

#[test]
fn a_dismissal_hides_the_recommendation_until_its_hash_changes() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(1);
    let mut store = open(&path, at(12, 0, 0));
    let d = dismissal("aaaa", 0);
    store.dismiss(&key, &d).unwrap();
    assert!(store.is_dismissed(&key, &d.key, "aaaa").unwrap());
    assert!(!store.is_dismissed(&key, &d.key, "bbbb").unwrap());
    assert!(!store
        .is_dismissed(&ClusterKey::demo(2), &d.key, "aaaa")
        .unwrap());
    // Dismissing the changed recommendation replaces the row.
    store.dismiss(&key, &dismissal("bbbb", 5)).unwrap();
    assert!(!store.is_dismissed(&key, &d.key, "aaaa").unwrap());
    assert!(store.is_dismissed(&key, &d.key, "bbbb").unwrap());
    assert_eq!(store.dismissals(&key).unwrap(), vec![dismissal("bbbb", 5)]);
    // Each dismissal is audited on the InferenceService.
    let audit = store
        .audit_for_object(&key, "InferenceService", "llama")
        .unwrap();
    assert_eq!(audit.len(), 2);
    assert_eq!(audit[0].action, DISMISS_ACTION);
    assert_eq!(audit[0].object.namespace, "llm");
    assert!(store
        .undismiss(&key, &d.key, "ops@x", at(12, 9, 0))
        .unwrap());
    assert!(!store.is_dismissed(&key, &d.key, "bbbb").unwrap());
    // Undoing is audited too; undoing nothing writes nothing.
    assert!(!store
        .undismiss(&key, &d.key, "ops@x", at(12, 10, 0))
        .unwrap());
    let audit = store
        .audit_for_object(&key, "InferenceService", "llama")
        .unwrap();
    let undone: Vec<_> = audit
        .iter()
        .filter(|a| a.action == UNDISMISS_ACTION)
        .collect();
    assert_eq!(undone.len(), 1, "{audit:?}");
    assert_eq!(undone[0].actor, "ops@x");
    assert_eq!(undone[0].at, at(12, 9, 0));
}

#[test]
fn retention_deletes_old_rows_on_open_and_on_prune() {
    let (_dir, path) = temp();
    let key = ClusterKey::demo(1);
    let mut store = open(&path, at(10, 0, 0));
    record(&mut store, &key, &nodes(false, false), at(10, 0, 0));
    store
        .record_audit(&key, &cordon_entry(0, AuditResult::Done))
        .unwrap();
    store.dismiss(&key, &dismissal("aaaa", 0)).unwrap();
    drop(store);

    // 29 days later nothing is old enough.
    let day29 = at(10, 0, 0) + Duration::days(29);
    let mut store = open(&path, day29);
    assert_eq!(count(&store, "node_transitions"), 2);
    // A read-only tool keeps everything whatever the time.
    let keep = HistoryStore::open_at(
        &path,
        StoreOptions::keep_everything(),
        day29 + Duration::days(400),
    )
    .unwrap();
    assert_eq!(count(&keep.store, "node_transitions"), 2);
    drop(keep);
    // 31 days later: the transitions, the audit rows (2: cordon + dismissal) and the dismissal.
    let pruned = store.prune(at(12, 1, 0) + Duration::days(30)).unwrap();
    assert_eq!(
        pruned,
        Pruned {
            transitions: 2,
            audit: 2,
            dismissals: 1
        }
    );
    // The pruned nodes are observed afresh.
    let later = at(13, 0, 0) + Duration::days(30);
    assert_eq!(record(&mut store, &key, &nodes(false, false), later), 2);
    drop(store);
    // A shorter retention prunes on open.
    let opened = HistoryStore::open_at(
        &path,
        StoreOptions::with_retention_days(1),
        later + Duration::days(2),
    )
    .unwrap();
    assert_eq!(count(&opened.store, "node_transitions"), 0);
}
