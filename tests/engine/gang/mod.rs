//! Gang reconstruction (gangpack.md §7.2) and the predicted pin (§7.3) on a
//! `kubectl get -o json`-shaped fixture: racks a (a1, a2) and b (b1, b2, b3) under the label
//! `ome.io/rack`, an unlabelled node x1, the chart's scheduler ConfigMap, and the 2-member
//! 8-GPU gang `serving/llm-engine-0` with both pods Pending.

#![allow(clippy::unwrap_used)] // test helpers outside #[test] fns

mod classify;

use chrono::{DateTime, Utc};
use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::capacity::CapacityModel;
use ome_top::engine::gangs::classify::ReasonCode;
use ome_top::engine::gangs::predict::PredictedOutcome;
use ome_top::engine::gangs::reasons::ReasonSource;
use ome_top::engine::gangs::{Gang, GangState, PinSource, PlacementOptions, Reservation};
use ome_top::report::json::{analysis_json, Source};

const FIXTURE: &str = include_str!("../../fixtures/k8s/gangs.json");
const GANG: &str = "serving/llm-engine-0";
const LEADER: &str = "llm-engine-0-leader-0";
const WORKER: &str = "llm-engine-0-worker-0";

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
fn a_message_naming_the_domain_is_an_event_pin() {
    let a = run(|doc| {
        unschedulable(
            doc,
            WORKER,
            "2026-09-28T10:05:00Z",
            "0/6 nodes are available: pinned domain b cannot fit all remaining gang members serving/llm-engine-0.",
        );
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Pinned);
    assert_eq!(
        (g.domain.as_deref(), g.pin_source),
        (Some("b"), Some(PinSource::Event))
    );
    assert_eq!(g.pin_as_of, Some("2026-09-28T10:05:00Z".parse().unwrap()));
    assert_eq!(g.reservation, Some(Reservation::Inferred));
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!(
        (r.source, r.primary.code),
        (ReasonSource::Condition, ReasonCode::PinnedDomainFull)
    );
}

#[test]
fn a_current_reason_without_a_domain_is_waiting_and_unwinds_release_the_pin() {
    let a = run(|doc| {
        items(doc).push(event(
            LEADER,
            "2026-09-28T10:06:00.000000Z",
            "0/6 nodes are available: no domain has room for gang serving/llm-engine-0.",
        ));
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!((r.source, r.primary.code.row()), (ReasonSource::Event, 17));
    // A later unwind replaces an earlier event pin: no pin, Waiting.
    let a = run(|doc| {
        unschedulable(doc, WORKER, "2026-09-28T10:05:00Z", "0/6 nodes are available: pinned domain b cannot fit all remaining gang members serving/llm-engine-0.");
        items(doc).push(event(
            LEADER,
            "2026-09-28T10:07:00.000000Z",
            "gang serving/llm-engine-0 unwound after a member failed to schedule",
        ));
    });
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    assert_eq!(
        g.pin_source,
        Some(PinSource::Predicted),
        "only a prediction remains"
    );
    assert!(g.pending_reason.as_ref().unwrap().primary.code.unwound());
}

#[test]
fn a_reason_older_than_the_newest_member_is_stale_so_the_gang_is_forming() {
    let a = run(|doc| {
        unschedulable(
            doc,
            WORKER,
            "2026-09-28T09:00:00Z",
            "0/6 nodes are available: no domain has room for gang serving/llm-engine-0.",
        );
    });
    assert_eq!(gang(&a, GANG).state, GangState::Forming);
}

#[test]
fn too_few_member_pods_wait_for_templates() {
    let a = run(|doc| item(doc, "PodGroup", "llm-engine-0")["spec"]["minMember"] = 3.into());
    let g = gang(&a, GANG);
    assert_eq!(g.state, GangState::Waiting);
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!(
        (r.source, r.primary.code.row()),
        (ReasonSource::Inferred, 12)
    );
    assert!(g.prediction.is_none());
}

fn blocked_row(a: &Analysis) -> u8 {
    let g = gang(a, GANG);
    assert_eq!(g.state, GangState::Blocked);
    assert!(g.prediction.is_none() && g.pin_source.is_none());
    g.pending_reason.as_ref().unwrap().primary.code.row()
}

#[test]
fn podgroup_facts_block_gangs_with_the_schedulers_reason() {
    let drop_pg = |doc: &mut Value| items(doc).retain(|i| i["kind"] != "PodGroup");
    assert_eq!(
        blocked_row(&run(drop_pg)),
        2,
        "pods naming a missing PodGroup"
    );
    let no_min = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["spec"]
            .as_object_mut()
            .unwrap()
            .remove("minMember");
    };
    assert_eq!(blocked_row(&run(no_min)), 3, "PodGroup without minMember");
    assert_eq!(gang(&run(no_min), GANG).remaining, None);
    let no_key = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["annotations"] = json!({})
    };
    assert_eq!(blocked_row(&run(no_key)), 5);
    let no_annotation_arg = |doc: &mut Value| {
        no_key(doc);
        let cm = item(doc, "ConfigMap", "ome-scheduler-config");
        let text = cm["data"]["config.yaml"].as_str().unwrap().replace(
            "podGroupTopologyKeyAnnotation: \"ome.io/topology-key\"",
            "podGroupTopologyKeyAnnotation: \"\"",
        );
        cm["data"]["config.yaml"] = text.into();
    };
    assert_eq!(blocked_row(&run(no_annotation_arg)), 4);
    let pod_label = |doc: &mut Value| {
        item(doc, "Pod", WORKER)["metadata"]["labels"]["ome.io/placement-group"] = "".into();
    };
    assert_eq!(blocked_row(&run(pod_label)), 6);
    let pg_label = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["labels"] =
            json!({"ome.io/placement-group": "x"});
    };
    assert_eq!(blocked_row(&run(pg_label)), 6);
    let no_timeout = |doc: &mut Value| {
        item(doc, "PodGroup", "llm-engine-0")["spec"]["scheduleTimeoutSeconds"] = 0.into();
        let cm = item(doc, "ConfigMap", "ome-scheduler-config");
        let text = cm["data"]["config.yaml"]
            .as_str()
            .unwrap()
            .replace("          defaultPermitTimeoutSeconds: 600\n", "");
        cm["data"]["config.yaml"] = text.into();
    };
    assert_eq!(blocked_row(&run(no_timeout)), 7);
}

#[test]
fn the_config_key_is_the_fallback_topology_key() {
    let a = run(|doc| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["annotations"] = json!({});
        let cm = item(doc, "ConfigMap", "ome-scheduler-config");
        let text = cm["data"]["config.yaml"].as_str().unwrap().replace(
            "gcIntervalSeconds: 60",
            "gcIntervalSeconds: 60\n          topologyKey: ome.io/rack",
        );
        cm["data"]["config.yaml"] = text.into();
    });
    let g = gang(&a, GANG);
    assert_eq!(
        (g.state, g.topology_key.as_deref()),
        (GangState::Forming, Some("ome.io/rack"))
    );
}

#[test]
fn a_malformed_scheduler_config_is_a_warning_and_defaults() {
    let a = run(|doc| {
        item(doc, "ConfigMap", "ome-scheduler-config")["data"]["config.yaml"] = "profiles: [".into()
    });
    assert!(
        a.warnings
            .iter()
            .any(|w| w.contains("ome-scheduler-config")),
        "{:?}",
        a.warnings
    );
    assert!(!a.gangs.config.from_config_map);
    assert_eq!(gang(&a, GANG).state, GangState::Forming);
}

#[test]
fn gangs_of_another_scheduler_are_marked_and_not_predicted() {
    let a = run(|doc| {
        for p in [LEADER, WORKER] {
            item(doc, "Pod", p)["spec"]["schedulerName"] = "default-scheduler".into();
        }
    });
    let g = gang(&a, GANG);
    assert!(!g.on_ome_scheduler);
    assert!(g.prediction.is_none());
    let mixed =
        run(|doc| item(doc, "Pod", LEADER)["spec"]["schedulerName"] = "default-scheduler".into());
    assert!(mixed
        .warnings
        .iter()
        .any(|w| w.contains("mixes schedulers")));
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

#[test]
fn a_changing_topology_key_is_reported() {
    let a = run(|doc| {
        item(doc, "PodGroup", "llm-engine-0")["metadata"]["labels"] =
            json!({"ome.io/inferenceservice": "llm", "component": "engine"});
        items(doc).push(
            json!({"apiVersion": "ome.io/v1beta1", "kind": "InferenceReplica",
            "metadata": {"name": "llm-engine", "namespace": "serving", "uid": "uid-ir"},
            "spec": {"component": "engine", "topologyKey": "ome.io/zone"}}),
        );
    });
    assert!(
        a.warnings.iter().any(|w| w.contains("topology_replan")),
        "{:?}",
        a.warnings
    );
}

#[test]
fn json_gangs_array_has_the_contract_fields_sorted() {
    let a = run(|doc| {
        items(doc).push(pod_group("aaa", 1));
        items(doc).push(member("aaa-0", "aaa", 8, Some("b1")));
    });
    let mut doc: Value = serde_json::from_str(FIXTURE).unwrap();
    items(&mut doc).push(pod_group("aaa", 1));
    items(&mut doc).push(member("aaa-0", "aaa", 8, Some("b1")));
    let (snap, w) = read_snapshot(serde_json::to_string(&doc).unwrap().as_bytes()).unwrap();
    let out = analysis_json(&snap, &a, Source::Snapshot, &w);
    let gangs = out["gangs"].as_array().unwrap();
    assert_eq!(gangs.len(), 2);
    assert_eq!(gangs[0]["gang"], "serving/aaa");
    for key in [
        "gang",
        "minMember",
        "topologyKey",
        "state",
        "domain",
        "pinSource",
        "placed",
        "remaining",
        "pendingReason",
    ] {
        assert!(gangs[1].get(key).is_some(), "{key}");
    }
    assert_eq!(gangs[1]["pinSource"], "predicted");
    assert_eq!(gangs[0]["state"], "Pinned");
    assert!(out["lints"].is_array());
}
