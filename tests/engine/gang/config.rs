//! The scheduler's side: the config's topology key as the fallback, a malformed scheduler
//! config (a warning, defaults), gangs of another scheduler, a changing topology key, and the
//! contract fields of the `gangs` array of `analyze -o json`.

use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::gangs::GangState;
use ome_top::report::json::{analysis_json, Source};

use super::{gang, item, items, member, pod_group, run, FIXTURE, GANG, LEADER, WORKER};

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
