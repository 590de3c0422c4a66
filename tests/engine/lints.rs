//! Placement lints on a `kubectl get -o json`-shaped fixture: a Gaudi 2 pool (g1–g4) and an
//! H100 pool (h1–h3, cordoned c1), with one positive case per rule; each test also edits the
//! fixture into a negative case.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::engine::lints::reservation_cordons;
use ome_top::engine::lints::LintRule;
use ome_top::engine::model::ClusterSnapshot;
use ome_top::engine::nodes::HealthState;
use ome_top::report::json::{analysis_json, Source};

const FIXTURE: &str = include_str!("../fixtures/k8s/lints.json");

fn now() -> DateTime<Utc> {
    "2026-09-28T10:15:00Z".parse().unwrap()
}

fn snapshot(edit: impl FnOnce(&mut Value)) -> ClusterSnapshot {
    let mut doc: Value = serde_json::from_str(FIXTURE).unwrap();
    edit(&mut doc);
    read_snapshot(serde_json::to_string(&doc).unwrap().as_bytes())
        .unwrap()
        .0
}

fn run_with(edit: impl FnOnce(&mut Value), threshold: u32) -> Analysis {
    analyze(
        &snapshot(edit),
        &AnalysisOptions {
            now: now(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions {
                repack_threshold_percent: threshold,
                ..Default::default()
            },
            instance_types: Default::default(),
        },
    )
}

fn run(edit: impl FnOnce(&mut Value)) -> Analysis {
    run_with(edit, 40)
}

/// Objects flagged by `rule`, sorted.
fn flagged(a: &Analysis, rule: LintRule) -> Vec<&str> {
    a.lints
        .iter()
        .filter(|l| l.rule == rule)
        .map(|l| l.object.as_str())
        .collect()
}

fn message<'a>(a: &'a Analysis, rule: LintRule, object: &str) -> &'a str {
    &a.lints
        .iter()
        .find(|l| l.rule == rule && l.object == object)
        .unwrap()
        .message
}

fn pod<'a>(doc: &'a mut Value, name: &str) -> &'a mut Value {
    doc["items"]
        .as_array_mut()
        .unwrap()
        .iter_mut()
        .find(|i| i["kind"] == "Pod" && i["metadata"]["name"] == name)
        .unwrap()
}

#[test]
fn host_pins_by_selector_affinity_and_user_node_name() {
    let a = run(|_| {});
    assert_eq!(
        flagged(&a, LintRule::HostPinnedPod),
        vec![
            "Pod serving/pinned-aff",
            "Pod serving/pinned-name",
            "Pod serving/pinned-sel"
        ]
    );
    let m = message(&a, LintRule::HostPinnedPod, "Pod serving/pinned-aff");
    assert!(m.contains("[h2, h3]") && m.contains("Fix:"), "{m}");
    assert!(
        message(&a, LintRule::HostPinnedPod, "Pod serving/pinned-name")
            .contains("nodeName gone-node")
    );
}

#[test]
fn no_host_pin_for_agents_preferred_affinity_or_scheduled_pods() {
    let a = run(|doc| {
        // A pod without GPUs or OME labels is no model pod.
        let sel = pod(doc, "pinned-sel");
        sel["metadata"]["labels"] = json!({});
        sel["spec"]["containers"][0]["resources"] = json!({});
        // A DaemonSet pod is a node agent.
        pod(doc, "pinned-aff")["metadata"]["ownerReferences"] = json!([{"apiVersion": "apps/v1",
            "kind": "DaemonSet", "name": "agent", "uid": "uid-ds", "controller": true}]);
        // Bound by the scheduler: PodScheduled is present.
        pod(doc, "pinned-name")["status"] = json!({"phase": "Pending",
            "conditions": [{"type": "PodScheduled", "status": "True"}]});
    });
    assert!(flagged(&a, LintRule::HostPinnedPod).is_empty());
    let preferred = run(|doc| {
        let aff = &mut pod(doc, "pinned-aff")["spec"]["affinity"]["nodeAffinity"];
        let term =
            aff["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"][0].clone();
        *aff = json!({"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "preference": term}]});
    });
    assert!(!flagged(&preferred, LintRule::HostPinnedPod).contains(&"Pod serving/pinned-aff"));
    let mixed_terms = run(|doc| {
        let terms = &mut pod(doc, "pinned-aff")["spec"]["affinity"]["nodeAffinity"]
            ["requiredDuringSchedulingIgnoredDuringExecution"]["nodeSelectorTerms"];
        terms
            .as_array_mut()
            .unwrap()
            .push(json!({"matchExpressions": [
            {"key": "nvidia.com/gpu.product", "operator": "Exists"}]}));
    });
    assert!(
        !flagged(&mixed_terms, LintRule::HostPinnedPod).contains(&"Pod serving/pinned-aff"),
        "a term that is not a host list leaves other hosts open"
    );
}

#[test]
fn cordon_without_reason_is_flagged_but_not_with_a_reason() {
    let a = run(|_| {});
    assert_eq!(flagged(&a, LintRule::ReservationCordon), vec!["Node c1"]);
    assert!(message(&a, LintRule::ReservationCordon, "Node c1").contains("8 GPU(s)"));
    let not_ready = run(|doc| {
        let c1 = doc["items"]
            .as_array_mut()
            .unwrap()
            .iter_mut()
            .find(|i| i["metadata"]["name"] == "c1")
            .unwrap();
        c1["status"]["conditions"][0]["status"] = "False".into();
    });
    assert!(flagged(&not_ready, LintRule::ReservationCordon).is_empty());
    // Health and maintenance come from the analysis's node states.
    let snap = snapshot(|_| {});
    let c1 = snap
        .nodes
        .iter()
        .position(|n| n.name.as_ref() == "c1")
        .unwrap();
    let mut states = a.nodes.clone();
    states[c1].health = HealthState::Unhealthy;
    assert!(reservation_cordons(&snap, &states).is_empty());
    let mut states = a.nodes.clone();
    states[c1].maintenance = vec!["maintenance-label".into()];
    assert!(reservation_cordons(&snap, &states).is_empty());
    let mut states = a.nodes.clone();
    states[c1].cordoned = false;
    assert!(reservation_cordons(&snap, &states).is_empty());
}

#[test]
fn two_schedulers_in_one_pool_are_flagged_one_is_not() {
    let a = run(|_| {});
    assert_eq!(flagged(&a, LintRule::MixedSchedulers), vec!["Pool gaudi2"]);
    let m = message(&a, LintRule::MixedSchedulers, "Pool gaudi2");
    assert!(
        m.contains("default-scheduler (3 pods), gaudi-binpack (1 pod)"),
        "{m}"
    );
    let same = run(|doc| pod(doc, "tiny-0")["spec"]["schedulerName"] = "default-scheduler".into());
    assert!(flagged(&same, LintRule::MixedSchedulers).is_empty());
}

#[test]
fn required_anti_affinity_is_flagged_per_owner_preferred_is_not() {
    let a = run(|_| {});
    assert_eq!(
        flagged(&a, LintRule::RequiredAntiAffinity),
        vec!["ReplicaSet serving/anti-5f7"]
    );
    assert!(message(
        &a,
        LintRule::RequiredAntiAffinity,
        "ReplicaSet serving/anti-5f7"
    )
    .starts_with("2 model pod(s)"));
    let preferred = run(|doc| {
        for name in ["anti-0", "anti-1"] {
            let aff = &mut pod(doc, name)["spec"]["affinity"]["podAntiAffinity"];
            let term = aff["requiredDuringSchedulingIgnoredDuringExecution"][0].clone();
            *aff = json!({"preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 100, "podAffinityTerm": term}]});
        }
    });
    assert!(flagged(&preferred, LintRule::RequiredAntiAffinity).is_empty());
}

#[test]
fn memory_above_the_per_card_share_is_flagged_proportional_is_not() {
    let a = run(|_| {});
    assert_eq!(
        flagged(&a, LintRule::RequestsNotProportional),
        vec!["ReplicaSet serving/hungry-7d9"]
    );
    let m = message(
        &a,
        LintRule::RequestsNotProportional,
        "ReplicaSet serving/hungry-7d9",
    );
    assert!(
        m.contains("512Gi memory per card") && m.contains("128Gi per card"),
        "{m}"
    );
    let fixed = run(|doc| {
        pod(doc, "hungry-0")["spec"]["containers"][0]["resources"]["requests"]["memory"] =
            "128Gi".into();
    });
    assert!(flagged(&fixed, LintRule::RequestsNotProportional).is_empty());
    let cpu = run(|doc| {
        pod(doc, "hungry-0")["spec"]["containers"][0]["resources"]["requests"] =
            json!({"cpu": "40", "memory": "1Gi"});
    });
    assert_eq!(
        flagged(&cpu, LintRule::RequestsNotProportional),
        vec!["ReplicaSet serving/hungry-7d9"]
    );
}

#[test]
fn small_pods_on_nearly_empty_nodes_are_ranked_like_high_node_utilization() {
    let a = run(|_| {});
    assert_eq!(
        flagged(&a, LintRule::SmallPodsHoldEmptyNode),
        vec!["Node g1", "Node g3", "Node h1", "Node h2"]
    );
    let g1 = message(&a, LintRule::SmallPodsHoldEmptyNode, "Node g1");
    assert!(
        g1.contains("rank 1 in pool gaudi2") && g1.contains("on g2 (score 87)"),
        "{g1}"
    );
    assert!(message(&a, LintRule::SmallPodsHoldEmptyNode, "Node g3").contains("rank 2"));
    // No H100 node is at or above the threshold with a free card: nothing to move to.
    assert!(message(&a, LintRule::SmallPodsHoldEmptyNode, "Node h1").contains("evict nothing"));
    // At a 10% threshold 1 of 8 cards (12.5%) is no longer underutilised.
    let strict = run_with(|_| {}, 10);
    assert!(flagged(&strict, LintRule::SmallPodsHoldEmptyNode).is_empty());
    // A node with a 3-card pod is a source, but no pod on it is small enough to evict.
    let three = run(|doc| {
        let c = &mut pod(doc, "tiny-0")["spec"]["containers"][0]["resources"];
        c["requests"]["habana.ai/gaudi"] = "3".into();
        c["limits"]["habana.ai/gaudi"] = "3".into();
    });
    assert!(message(&three, LintRule::SmallPodsHoldEmptyNode, "Node g1")
        .contains("none of its pods is small enough"));
}

#[test]
fn json_lints_array_is_sorted_with_rule_object_message() {
    let a = run(|_| {});
    let snap = snapshot(|_| {});
    let out = analysis_json(&snap, &a, Source::Snapshot, &[]);
    let lints = out["lints"].as_array().unwrap();
    assert_eq!(lints.len(), a.lints.len());
    let keys: Vec<(String, String)> = lints
        .iter()
        .map(|l| {
            (
                l["rule"].as_str().unwrap().to_string(),
                l["object"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(keys, sorted);
    assert!(lints
        .iter()
        .all(|l| l["message"].as_str().unwrap().contains("Fix:")));
}
