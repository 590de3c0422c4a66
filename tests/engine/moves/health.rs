//! Node-health evacuations: they rank first and score the workload's priority, the health
//! cooldown floor and its override, the emergency boost for a long-pending pod a move seats,
//! and the advice for RawDeployment workloads.

use serde_json::{json, Value};

use ome_top::engine::planning::MoveRow;

use super::{close, example, item, items, row, run, set_config, terminal_migration, text, PROFILE};

fn unhealthy(doc: &mut Value, node: &str, since: &str) {
    let n = item(doc, "Node", node);
    n["status"]["conditions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "GpuUnhealthy", "status": "True", "lastTransitionTime": since}));
}

#[test]
fn node_health_evacuation_ranks_first_and_scores_priority() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    item(&mut doc, "InferenceService", "gamma")["metadata"]["annotations"]
        ["alfred.ome.io/priority"] = "0.8".into();
    let a = run(&doc);
    let first = &a.moves[0];
    assert_eq!(
        (
            first.workload.as_ref(),
            first.policy.as_str(),
            first.reason.as_str()
        ),
        ("prod/gamma", "nodehealth", "NodeUnhealthy")
    );
    close(first.score, 0.8);
    assert_eq!(first.outcome, "admitted");
    assert_eq!(first.target.as_deref(), Some("gpu-a"));
}

#[test]
fn health_cooldown_floor_and_override() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    // 3 minutes ago: inside the 5-minute health floor.
    terminal_migration(&mut doc, "gamma-engine", "2026-09-28T10:12:00Z");
    let a = run(&doc);
    let r = a.moves.iter().find(|r| r.policy == "nodehealth").unwrap();
    assert_eq!(
        (r.outcome.as_str(), text(&r.reject_reason)),
        ("rejected", Some("Cooldown"))
    );
    // 7 minutes ago: past the floor, inside the 30-minute normal window ⇒ overridden.
    terminal_migration(&mut doc, "gamma-engine", "2026-09-28T10:08:00Z");
    let a = run(&doc);
    let r = a.moves.iter().find(|r| r.policy == "nodehealth").unwrap();
    assert_eq!(r.outcome, "admitted");
    assert!(r.cooldown_overridden);
}

#[test]
fn emergency_boost_for_a_long_pending_pod_the_move_seats() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    items(&mut doc).push(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "big-2", "namespace": "prod", "creationTimestamp": "2026-09-28T09:50:00Z"},
        "spec": {"containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "8"}}}]},
        "status": {"phase": "Pending"}
    }));
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert!(gamma.emergency);
    let plan = gamma.plan.as_ref().unwrap();
    let benefit = plan.before - plan.after.unwrap();
    close(gamma.score, 2.0 * (benefit - 0.15));
}

#[test]
fn raw_and_lws_workloads_get_their_advice() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    items(&mut doc).push(
        json!({"apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": "legacy", "namespace": "prod", "uid": "u-legacy"},
        "spec": {"deploymentMode": "RawDeployment", "engine": {}}}),
    );
    items(&mut doc).push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "legacy-engine-abc", "namespace": "prod",
            "labels": {"ome.io/inferenceservice": "legacy", "component": "engine"}},
        "spec": {"nodeName": "gpu-b", "containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
        "status": {"phase": "Running"}}));
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    let a = run(&doc);
    let raw: Vec<&MoveRow> = a
        .moves
        .iter()
        .filter(|r| r.workload.as_ref() == "prod/legacy")
        .collect();
    assert!(raw.iter().any(|r| r.policy == "nodehealth"
        && text(&r.advisory_reason) == Some("RawDeploymentMigrationUnsupported")));
}
