//! Gang reconstruction (gangpack.md §7.2) and the predicted pin (§7.3) on a
//! `kubectl get -o json`-shaped fixture: racks a (a1, a2) and b (b1, b2, b3) under the label
//! `ome.io/rack`, an unlabelled node x1, the chart's scheduler ConfigMap, and the 2-member
//! 8-GPU gang `serving/llm-engine-0` with both pods Pending. States, domains, predictions and
//! reservations here; pending reasons and blocking PodGroup facts in `reasons`; the
//! scheduler's config, other schedulers and the JSON array in `config`; the FailedScheduling
//! message table in `classify`. The helpers below serve every module.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns

mod classify;
mod config;
mod events;
mod explain;
mod fleet;
mod reasons;
mod resources;

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::CapacityModel;
use ome_top::engine::gangs::PredictedOutcome;
use ome_top::engine::gangs::{Gang, GangState, PinSource, PlacementOptions, Reservation};

const FIXTURE: &str = include_str!("../../fixtures/k8s/gangs.json");
const GANG: &str = "serving/llm-engine-0";
const LEADER: &str = "llm-engine-0-leader-0";
const WORKER: &str = "llm-engine-0-worker-0";
/// The observation time of every gang test, as `analyzed_doc` reads it.
const GANG_NOW: &str = "2026-09-28T10:15:00Z";

fn now() -> DateTime<Utc> {
    "2026-09-28T10:15:00Z".parse().unwrap()
}

fn run_with(edit: impl FnOnce(&mut Value), model: CapacityModel) -> Analysis {
    let mut doc: Value = serde_json::from_str(FIXTURE).unwrap();
    edit(&mut doc);
    let (snap, _) = read_snapshot(serde_json::to_string(&doc).unwrap().as_bytes()).unwrap();
    analyze(
        &snap,
        &AnalysisOptions {
            now: now(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions {
                capacity_model: model,
                ..Default::default()
            },
            instance_types: Default::default(),
        },
    )
}

fn run(edit: impl FnOnce(&mut Value)) -> Analysis {
    run_with(edit, CapacityModel::MemberRoom)
}

fn gang<'a>(a: &'a Analysis, key: &str) -> &'a Gang {
    a.gangs.gangs.iter().find(|g| g.key() == key).unwrap()
}

fn items(doc: &mut Value) -> &mut Vec<Value> {
    doc["items"].as_array_mut().unwrap()
}

fn item<'a>(doc: &'a mut Value, kind: &str, name: &str) -> &'a mut Value {
    items(doc)
        .iter_mut()
        .find(|i| i["kind"] == kind && i["metadata"]["name"] == name)
        .unwrap()
}

/// Binds a pod of the fixture to `node`.
fn bind(doc: &mut Value, pod: &str, node: &str) {
    let p = item(doc, "Pod", pod);
    p["spec"]["nodeName"] = node.into();
    p["status"] =
        json!({"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}]});
}

/// A pod like the fixture's, in gang `group`, requesting `gpus`.
fn member(name: &str, group: &str, gpus: u32, node: Option<&str>) -> Value {
    let mut p = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "serving", "uid": format!("uid-{name}"),
                     "creationTimestamp": "2026-09-28T10:00:00Z",
                     "labels": {"scheduling.x-k8s.io/pod-group": group}},
        "spec": {"schedulerName": "ome-scheduler", "containers": [{"name": "main",
                 "resources": {"limits": {"nvidia.com/gpu": gpus.to_string()}}}]},
        "status": {"phase": "Pending"}
    });
    if let Some(n) = node {
        p["spec"]["nodeName"] = n.into();
        p["status"] =
            json!({"phase": "Running", "conditions": [{"type": "PodScheduled", "status": "True"}]});
    }
    p
}

fn pod_group(name: &str, min: i64) -> Value {
    json!({"apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
           "metadata": {"name": name, "namespace": "serving", "uid": format!("uid-pg-{name}"),
                        "annotations": {"ome.io/topology-key": "ome.io/rack"}},
           "spec": {"minMember": min}})
}

fn unschedulable(doc: &mut Value, pod: &str, at: &str, message: &str) {
    item(doc, "Pod", pod)["status"]["conditions"] = json!([{
        "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
        "lastTransitionTime": at, "message": message}]);
}

fn event(pod: &str, at: &str, message: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Event",
           "metadata": {"name": format!("{pod}.1"), "namespace": "serving"},
           "involvedObject": {"kind": "Pod", "namespace": "serving", "name": pod},
           "reason": "FailedScheduling", "message": message, "type": "Warning",
           "reportingComponent": "ome-scheduler", "eventTime": at})
}

#[test]
fn forming_gang_predicts_domain_a_over_b_as_in_the_integration_test() {
    // gangpack.md §3.4: domain a (2 free nodes) and b (3) with a 2-member gang → a.
    for model in [CapacityModel::MemberRoom, CapacityModel::WholeNode] {
        let a = run_with(|_| {}, model);
        let g = gang(&a, GANG);
        assert_eq!(g.state, GangState::Forming);
        assert_eq!(
            (g.domain.as_deref(), g.pin_source),
            (Some("a"), Some(PinSource::Predicted))
        );
        let p = g.prediction.as_ref().unwrap();
        assert_eq!(
            (p.need, p.capacity, p.outcome),
            (2, 2, PredictedOutcome::Fits)
        );
        assert_eq!(p.current, "serving/llm-engine-0-leader-0");
        assert_eq!(p.model, model);
        assert_eq!((g.placed, g.remaining), (0, Some(2)));
    }
}

#[test]
fn member_room_counts_node_sharing_and_whole_node_does_not() {
    // 1-GPU members: C gives a 4 slots (2 per node) and b 6; A gives a 2 and b 3.
    let small = |doc: &mut Value| {
        for p in [LEADER, WORKER] {
            let c = &mut item(doc, "Pod", p)["spec"]["containers"][0]["resources"];
            c["requests"]["nvidia.com/gpu"] = "1".into();
            c["limits"]["nvidia.com/gpu"] = "1".into();
        }
    };
    let c = run_with(small, CapacityModel::MemberRoom);
    assert_eq!(gang(&c, GANG).prediction.as_ref().unwrap().capacity, 4);
    let a = run_with(small, CapacityModel::WholeNode);
    assert_eq!(gang(&a, GANG).prediction.as_ref().unwrap().capacity, 2);
    assert_eq!(gang(&a, GANG).domain.as_deref(), Some("a"));
}

#[test]
fn all_members_bound_in_one_domain_is_pinned_from_bound_pods() {
    let a = run(|doc| {
        bind(doc, LEADER, "b1");
        bind(doc, WORKER, "b3");
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Pinned);
    assert_eq!(
        (g.domain.as_deref(), g.pin_source),
        (Some("b"), Some(PinSource::Bound))
    );
    assert_eq!((g.placed, g.remaining, g.reservation), (2, Some(0), None));
    assert!(g.prediction.is_none());
}

#[test]
fn partly_bound_gang_reserves_its_domain_and_others_predict_around_it() {
    let a = run(|doc| {
        bind(doc, LEADER, "a1");
        // A second forming 2-member gang of 4-GPU pods: a (a1 has 4 free, a2 8) would fit it
        // best, but a is reserved by the partly bound gang.
        items(doc).push(pod_group("other", 2));
        items(doc).push(member("other-0", "other", 4, None));
        items(doc).push(member("other-1", "other", 4, None));
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::BoundPartial);
    assert_eq!(
        (g.domain.as_deref(), g.placed, g.remaining),
        (Some("a"), 1, Some(1))
    );
    assert_eq!(g.reservation, Some(Reservation::Inferred));
    let other = gang(&a, "serving/other");
    assert_eq!(other.state, GangState::Forming);
    assert_eq!(other.domain.as_deref(), Some("b"));
}

#[test]
fn only_reserved_domains_fitting_predicts_the_reserved_message() {
    let a = run(|doc| {
        bind(doc, LEADER, "b1");
        items(doc).push(pod_group("big", 3));
        for n in 0..3 {
            items(doc).push(member(&format!("big-{n}"), "big", 8, None));
        }
    });
    let big = gang(&a, "serving/big");
    let p = big.prediction.as_ref().unwrap();
    // Only b could ever hold 3 nodes, and b1 is taken anyway: no fit at all.
    assert_eq!(p.outcome, PredictedOutcome::NoFit);
    let a = run(|doc| {
        // A CPU-only member of a 2-gang bound on b1 reserves b without using its GPUs.
        items(doc).push(pod_group("tiny", 2));
        items(doc).push(member("tiny-0", "tiny", 0, Some("b1")));
        items(doc).push(member("tiny-1", "tiny", 0, None));
        items(doc).push(pod_group("big", 3));
        for n in 0..3 {
            items(doc).push(member(&format!("big-{n}"), "big", 8, None));
        }
    });
    let p = gang(&a, "serving/big").prediction.clone().unwrap();
    assert_eq!((p.outcome, p.domain), (PredictedOutcome::AllReserved, None));
    let whole = run_with(
        |doc| {
            items(doc).push(pod_group("tiny", 2));
            items(doc).push(member("tiny-0", "tiny", 0, Some("b1")));
            items(doc).push(member("tiny-1", "tiny", 0, None));
            items(doc).push(pod_group("big", 3));
            for n in 0..3 {
                items(doc).push(member(&format!("big-{n}"), "big", 8, None));
            }
        },
        CapacityModel::WholeNode,
    );
    let p = gang(&whole, "serving/big").prediction.clone().unwrap();
    assert_eq!(p.outcome, PredictedOutcome::NoFit, "lineage A reports #17");
}

#[test]
fn members_in_two_domains_or_on_unlabelled_nodes_are_split() {
    let a = run(|doc| {
        bind(doc, LEADER, "a1");
        bind(doc, WORKER, "b1");
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Split);
    assert_eq!(g.split_domains, vec!["a", "b"]);
    let a = run(|doc| bind(doc, LEADER, "x1"));
    assert_eq!(gang(&a, GANG).split_domains, vec!["<unlabelled>"]);
    let a = run(|doc| bind(doc, LEADER, "gone-node"));
    assert_eq!(
        gang(&a, GANG).state,
        GangState::Split,
        "missing node ⇒ unlabelled"
    );
}

#[test]
fn reservation_evidence_is_attributed_to_the_single_candidate() {
    let a = run(|doc| {
        bind(doc, LEADER, "b2");
        let mut solo = member("solo", "x", 1, None);
        solo["metadata"]["labels"] = json!({});
        solo["status"]["conditions"] = json!([{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "lastTransitionTime": "2026-09-28T10:10:00Z",
            "message": "0/6 nodes are available: 3 node is reserved for a forming gang, 3 Insufficient nvidia.com/gpu."}]);
        items(doc).push(solo);
    });
    let hint = &a.gangs.hints[0];
    assert_eq!(hint.nodes, Some(3));
    assert_eq!(hint.evidence, vec!["serving/solo"]);
    assert_eq!(hint.attributed.as_deref(), Some(GANG));
    assert_eq!(gang(&a, GANG).reservation, Some(Reservation::Inferred));
}
