//! OMENative eligibility on the worked example of inferencereplica.md §6 and the variants its
//! §7 checklist names, read from a real `kubectl get -o json`-shaped fixture.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use chrono::{DateTime, Utc};
use serde_json::Value;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};

const FIXTURE: &str = include_str!("../fixtures/k8s/ir-example-6.json");

fn now() -> DateTime<Utc> {
    "2026-09-28T10:15:02Z".parse().unwrap()
}

fn run(edit: impl FnOnce(&mut Value), executor: ExecutorSetting) -> Analysis {
    let mut doc: Value = serde_json::from_str(FIXTURE).unwrap();
    edit(&mut doc);
    let (snap, _) = read_snapshot(serde_json::to_string(&doc).unwrap().as_bytes()).unwrap();
    analyze(
        &snap,
        &AnalysisOptions {
            now: now(),
            alfred_namespace: "ome".into(),
            executor,
            placement: Default::default(),
            instance_types: Default::default(),
        },
    )
}

fn item<'a>(doc: &'a mut Value, kind: &str, name: &str) -> &'a mut Value {
    doc["items"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|i| i["kind"] == kind && i["metadata"]["name"] == name)
        .unwrap()
}

/// Baseline verdicts of instances 0 and 1 (`None` = eligible).
fn verdicts(a: &Analysis) -> Vec<(i64, Option<&str>)> {
    a.verdicts
        .iter()
        .map(|v| {
            let inst = &a.workloads.components[v.component].instances[v.instance];
            (inst.index, v.baseline.as_ref().err().map(|r| r.as_str()))
        })
        .collect()
}

#[test]
fn instance_0_eligible_instance_1_restarting() {
    let a = run(|_| {}, ExecutorSetting::Auto);
    assert!(a.executor_available, "journal present ⇒ executor available");
    assert_eq!(
        verdicts(&a),
        vec![(0, None), (1, Some("OMENativeStateIneligible"))]
    );
}

#[test]
fn columnar_v2_encoding_gives_the_same_verdicts() {
    let a = run(
        |doc| {
            let status = &mut item(doc, "InferenceReplica", "chat-engine")["status"];
            let obj = status.as_object_mut().unwrap();
            obj.remove("instanceStatuses");
            obj.insert("instanceStatusEncoding".into(), "ColumnarV2".into());
            obj.insert(
                "instanceStatusColumns".into(),
                serde_json::json!({
                    "members": "0-1",
                    "phases": [{"value": "Ready", "indexes": "0"}, {"value": "Restarting", "indexes": "1"}],
                    "runningRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "0-1"}],
                    "incarnations": [{"value": 1, "indexes": "0"}, {"value": 3, "indexes": "1"}],
                    "podCounts": [{"value": 2, "indexes": "0-1"}],
                    "servingPodCounts": [{"value": 2, "indexes": "0-1"}],
                    "availablePodCounts": [{"value": 2, "indexes": "0-1"}],
                    "admitted": "0-1",
                    "entries": [
                        {"index": 0, "readySince": "2026-09-28T08:02:11Z"},
                        {"index": 1, "readySince": "2026-09-28T09:40:57Z",
                         "operation": {"id": "restart-1-3", "type": "Restart", "step": "Drain",
                           "startedAt": "2026-09-28T10:14:58Z", "lastProgressAt": "2026-09-28T10:14:58Z",
                           "deadline": "2026-09-28T10:44:58Z", "reason": "PodRestarted"}}
                    ]
                }),
            );
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(
        verdicts(&a),
        vec![(0, None), (1, Some("OMENativeStateIneligible"))]
    );
}

#[test]
fn executor_unavailable_makes_both_unavailable() {
    let a = run(|_| {}, ExecutorSetting::Unavailable);
    assert_eq!(
        verdicts(&a),
        vec![
            (0, Some("OMENativeUnavailable")),
            (1, Some("OMENativeUnavailable"))
        ]
    );
    // Nothing movable ⇒ reclaimable, pressure and score are exactly 0.
    assert!(a
        .pools
        .iter()
        .all(|p| p.reclaimable == 0.0 && p.score == 0.0));
}

#[test]
fn worker_not_ready_on_a_steady_instance_invalidates_the_component() {
    let a = run(
        |doc| {
            let ir = item(doc, "InferenceReplica", "chat-engine");
            let row = &mut ir["status"]["instanceStatuses"][1];
            row["phase"] = "Ready".into();
            row.as_object_mut().unwrap().remove("operation");
            let pod = item(doc, "Pod", "chat-engine-1-worker-0");
            pod["status"]["conditions"][2]["status"] = "False".into();
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(
        verdicts(&a),
        vec![
            (0, Some("OMENativeObservationInvalid")),
            (1, Some("OMENativeObservationInvalid"))
        ]
    );
}

#[test]
fn serving_replicas_below_desired_makes_both_state_ineligible() {
    let a = run(
        |doc| item(doc, "InferenceReplica", "chat-engine")["status"]["servingReplicas"] = 1.into(),
        ExecutorSetting::Auto,
    );
    assert_eq!(
        verdicts(&a),
        vec![
            (0, Some("OMENativeStateIneligible")),
            (1, Some("OMENativeStateIneligible"))
        ]
    );
}

fn defrag(a: &Analysis) -> Vec<(i64, Option<&str>)> {
    a.verdicts
        .iter()
        .map(|v| {
            let inst = &a.workloads.components[v.component].instances[v.instance];
            (inst.index, v.defrag.as_ref().err().map(|r| r.as_str()))
        })
        .collect()
}

#[test]
fn seed_table_not_movable() {
    let a = run(
        |doc| {
            item(doc, "InferenceService", "chat")["metadata"]["annotations"]
                ["alfred.ome.io/movable"] = "f".into()
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(verdicts(&a)[0], (0, Some("OMENativeStateIneligible")));
}

#[test]
fn seed_table_migration_policy_never() {
    let a = run(
        |doc| {
            item(doc, "InferenceReplica", "chat-engine")["spec"]["lifecycle"]["migrationPolicy"]
                ["mode"] = "Never".into()
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(verdicts(&a)[0], (0, Some("OMENativeStateIneligible")));
}

fn completed_migration(doc: &mut Value, completed_at: &str) {
    item(doc, "InferenceReplica", "chat-engine")["status"]["migrations"] = serde_json::json!([{
        "requestUUID": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "trigger": "Manual",
        "sourceInstance": 0, "phase": "Completed", "startedAt": "2026-09-28T09:30:00Z",
        "deadline": "2026-09-28T10:00:00Z", "completedAt": completed_at
    }]);
}

#[test]
fn seed_table_defragmentation_cooldown() {
    // Completed 10 minutes ago: inside the default 30-minute per-workload cooldown.
    let a = run(
        |doc| completed_migration(doc, "2026-09-28T10:05:02Z"),
        ExecutorSetting::Auto,
    );
    assert_eq!(
        verdicts(&a)[0],
        (0, None),
        "the baseline itself ignores the cooldown"
    );
    assert_eq!(defrag(&a)[0], (0, Some("OMENativeStateIneligible")));
    // Exactly 30 minutes ago: `now − last < window` is false, the cooldown is over.
    let a = run(
        |doc| completed_migration(doc, "2026-09-28T09:45:02Z"),
        ExecutorSetting::Auto,
    );
    assert_eq!(defrag(&a)[0], (0, None));
    // A `cooldown-minutes: "0"` annotation disables the cooldown.
    let a = run(
        |doc| {
            completed_migration(doc, "2026-09-28T10:05:02Z");
            item(doc, "InferenceService", "chat")["metadata"]["annotations"]
                ["alfred.ome.io/cooldown-minutes"] = "0".into();
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(defrag(&a)[0], (0, None));
}

#[test]
fn active_migration_anywhere_in_the_workload_blocks_every_instance() {
    let a = run(
        |doc| {
            item(doc, "InferenceReplica", "chat-engine")["status"]["migrations"] = serde_json::json!([{
                "requestUUID": "7c9e6679-7425-40de-944b-e07fc1f90ae7", "trigger": "Manual",
                "sourceInstance": 0, "phase": "SurgePending", "startedAt": "2026-09-28T10:10:00Z",
                "deadline": "2026-09-28T10:40:00Z"
            }]);
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(verdicts(&a)[0], (0, Some("OMENativeStateIneligible")));
    let state = &a.workloads.migrations[0];
    assert_eq!(state.active, 1);
    assert!(state.state_valid);
}

#[test]
fn malformed_request_annotation_is_state_ineligible() {
    let a = run(
        |doc| {
            item(doc, "InferenceService", "chat")["metadata"]["annotations"]
                ["ome.io/migration-request-v1-7c9e6679-7425-40de-944b-e07fc1f90ae7"] =
                "{not json".into();
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(verdicts(&a)[0], (0, Some("OMENativeStateIneligible")));
    assert!(a.workloads.migrations[0].malformed_request);
}

#[test]
fn stale_replica_status_is_observation_invalid() {
    let a = run(
        |doc| {
            item(doc, "InferenceReplica", "chat-engine")["status"]["observedGeneration"] = 4.into()
        },
        ExecutorSetting::Auto,
    );
    assert_eq!(
        verdicts(&a),
        Vec::<(i64, Option<&str>)>::new(),
        "an unbound IR leaves the component without Instances"
    );
    let comp = &a.workloads.components[0];
    assert_eq!(
        comp.observation.as_ref().map_err(ToString::to_string),
        Err("inference replica chat-engine status is stale".to_string())
    );
}
