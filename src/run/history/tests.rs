//! The history hook: dismissals, audit rows and node timelines recorded through the writer
//! survive a reopen; old dismissal keys still hide their moves; a demo restart keeps the
//! earlier runs' rows with their reasons.
use super::*;
use crate::history::audit::AuditEntry as AuditRow;

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
    let mut hook = HistoryHook::with_store(open().store, key.clone()).unwrap();
    let move_key = "move|defragmentation|prod/a|engine|0|gpu-1|Fragmentation";
    hook.record(&Effect::RecordDismissal {
        key: move_key.into(),
        fingerprint: "gpu-2|gpu-2".into(),
        reason: "peak hours".into(),
        at: at(),
    });
    let op = Op::Cordon {
        node: Arc::from("gpu-1"),
        resource_version: Arc::from("7"),
        reason: Some(" disk errors ".into()),
    };
    let outcome = OpOutcome::Done {
        message: "cordoned".into(),
        resource_version: Some("8".into()),
    };
    hook.record(&Effect::RecordAudit {
        op,
        outcome,
        at: at(),
    });
    drop(hook);
    // Dropping the hook waits for its writes.
    let again = HistoryHook::with_store(open().store, key.clone()).unwrap();
    let restored = again.dismissed();
    assert_eq!(restored.len(), 1);
    assert_eq!(restored[0].0, move_key);
    assert_eq!(restored[0].1.fingerprint, "gpu-2|gpu-2");
    assert_eq!(restored[0].1.reason, "peak hours");
    assert!(restored[0].1.by.is_some());
    assert_eq!(restored[0].1.at, at());
    let audit = audit_rows(&path, &key, "Node", "gpu-1");
    assert_eq!(audit.len(), 1);
    assert_eq!(audit[0].rv_before.as_deref(), Some("7"));
    assert_eq!(audit[0].rv_after.as_deref(), Some("8"));
    assert_eq!(
        audit[0].reason.as_deref(),
        Some("disk errors"),
        "the reason kept"
    );
    let dismissal = audit_rows(&path, &key, "InferenceService", "a");
    assert_eq!(dismissal[0].reason.as_deref(), Some("peak hours"));
}

#[test]
fn an_approval_against_the_verdict_records_its_override() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite3");
    let key = ClusterKey::demo(1);
    let store = HistoryStore::open_at(&path, StoreOptions::default(), at()).unwrap();
    let mut hook = HistoryHook::with_store(store.store, key.clone()).unwrap();
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
        hook.record(&Effect::RecordAudit {
            op,
            outcome: OpOutcome::Done {
                message: "written".into(),
                resource_version: Some("8".into()),
            },
            at: at(),
        });
    }
    drop(hook);
    let rows = audit_rows(&path, &key, "InferenceService", "chat");
    let overrides: Vec<Option<&str>> = rows.iter().map(|r| r.overrode.as_deref()).collect();
    assert_eq!(overrides, [Some("NoSurgeHeadroom"), None]);
    assert!(rows.iter().all(|r| r.action == "approve-move"));
}

#[test]
fn a_node_timeline_survives_a_reopen() {
    use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
    use crate::sim::cluster::{generate_cluster, ClusterSpec};
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite3");
    let key = ClusterKey::demo(3);
    let spec = ClusterSpec {
        seed: 3,
        nodes: 12,
        pods: 60,
    };
    let mut snap = generate_cluster(&spec, at());
    snap.nodes[0].unschedulable = true;
    let opts = AnalysisOptions {
        now: at(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
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
    let mut hook = HistoryHook::with_store(reopened.store, key).unwrap();
    hook.ask_node_rows(&snap.nodes[0].name);
    hook.ask_node_rows(&snap.nodes[0].name);
    let rows = match hook.writer.replies.blocking_recv() {
        Some(Reply::NodeRows { rows, .. }) => rows,
        other => panic!("{other:?}"),
    };
    // The node's audit rows follow its transitions (none were recorded here).
    match hook.writer.replies.blocking_recv() {
        Some(Reply::NodeActions { actions, .. }) => assert!(actions.is_empty()),
        other => panic!("{other:?}"),
    }
    assert!(
        hook.writer.replies.try_recv().is_err(),
        "asked twice before the answer: read once"
    );
    assert_eq!(rows.len(), 1, "{rows:?}");
    assert_eq!(rows[0].at, at());
    assert!(rows[0].observed.cordoned, "{rows:?}");
}

fn audit_rows(path: &std::path::Path, key: &ClusterKey, kind: &str, name: &str) -> Vec<AuditRow> {
    let store = HistoryStore::open_at(path, StoreOptions::default(), at()).unwrap();
    store.store.audit_for_object(key, kind, name).unwrap()
}

#[test]
fn a_write_that_fails_reaches_the_reducer_as_a_notice() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite3");
    let opened = HistoryStore::open_at(&path, StoreOptions::default(), at()).unwrap();
    // The store's tables gone under it: every write fails.
    let raw = rusqlite::Connection::open(&path).unwrap();
    raw.execute_batch("DROP TABLE audit_log;").unwrap();
    let mut hook = HistoryHook::with_store(opened.store, ClusterKey::demo(1)).unwrap();
    hook.record(&Effect::RecordAudit {
        op: Op::Cordon {
            node: Arc::from("gpu-1"),
            resource_version: Arc::from("7"),
            reason: None,
        },
        outcome: OpOutcome::Done {
            message: "cordoned".into(),
            resource_version: Some("8".into()),
        },
        at: at(),
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let event = rt.block_on(async {
        tokio::time::timeout(std::time::Duration::from_secs(10), hook.next_event()).await
    });
    match event {
        Ok(Event::HistoryFailed(text)) => {
            assert!(
                text.contains("cordon-node on Node gpu-1 not recorded"),
                "{text}"
            );
        }
        other => panic!("{other:?}"),
    }
}

/// A demo restart keeps the earlier runs' rows, each under its own run's key.
#[tokio::test]
async fn a_demo_restart_keeps_the_earlier_runs_rows() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("h.sqlite3");
    let world = crate::sim::demo::DemoWorld::new(1, 20, at());
    let starts = [at(), at() + chrono::Duration::minutes(30)];
    for (run, started) in starts.iter().enumerate() {
        let (_tx, feed) = watch::channel(Arc::new(world.feed_default(1, *started)));
        let mut hook = HistoryHook::open_demo_at(&path, (1, *started), 7, at, feed).unwrap();
        let op = Op::Cordon {
            node: Arc::from("gpu-1"),
            resource_version: Arc::from("7"),
            reason: Some(format!("run {run}")),
        };
        let outcome = OpOutcome::Done {
            message: "cordoned".into(),
            resource_version: Some("8".into()),
        };
        hook.record(&Effect::RecordAudit {
            op,
            outcome,
            at: *started,
        });
        // Dropping the hook waits for its writes.
        drop(hook);
    }
    for (run, started) in starts.iter().enumerate() {
        let key = ClusterKey::demo_run(1, *started);
        let rows = audit_rows(&path, &key, "Node", "gpu-1");
        let reasons: Vec<Option<String>> = rows.into_iter().map(|r| r.reason).collect();
        assert_eq!(reasons, [Some(format!("run {run}"))], "run {run} kept");
        assert_eq!(key.demo_run_started(), Some((1, *started)));
    }
}
