//! Unit tests of `engine::pools`.

use super::*;
use crate::engine::alfred_config::AlfredConfig;
use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node, pod};
use std::sync::Arc;

fn run(snap: &ClusterSnapshot, executor: ExecutorSetting) -> crate::engine::analysis::Analysis {
    analyze(
        snap,
        &AnalysisOptions {
            now: at(10, 0, 0),
            alfred_namespace: "ome".into(),
            executor,
            placement: Default::default(),
            instance_types: Default::default(),
        },
    )
}

fn a100(name: &str) -> crate::engine::model::Node {
    let mut n = node(name, 8);
    n.labels = crate::engine::model::Labels::from_pairs(vec![(
        Arc::from("nvidia.com/gpu.product"),
        Arc::from("A100"),
    )]);
    n
}

#[test]
fn a_pool_whose_nodes_are_all_excluded_scores_zero() {
    let mut n = node("gpu-a", 8);
    n.unschedulable = true;
    let snap = ClusterSnapshot {
        nodes: vec![n].into(),
        replicas_listed: true,
        ..Default::default()
    };
    let a = run(&snap, ExecutorSetting::Available);
    let p = &a.pools[0];
    assert_eq!(
        (p.free_gpus, p.free_gpus_all_nodes, p.total_gpus),
        (0, 8, 8)
    );
    assert_eq!((p.observed, p.best, p.score), (0.0, 0.0, 0.0));
    assert!(p
        .sizes
        .iter()
        .all(|s| s.frag_observed == 0.0 && s.slots_observed == 0));
}

#[test]
fn a_pool_without_demand_weighs_by_lambda_times_prior() {
    // One node with 3 free GPUs: frag(1)=0, frag(2)=1−2/3, frag(4)=1, frag(8)=1.
    let snap = ClusterSnapshot {
        nodes: vec![node("gpu-a", 8)].into(),
        pods: vec![pod("batch", "job", Some("gpu-a"), 5)].into(),
        replicas_listed: true,
        ..Default::default()
    };
    let a = run(&snap, ExecutorSetting::Available);
    let p = &a.pools[0];
    let want = 0.3 * (0.1 * 0.0 + 0.1 * (1.0 / 3.0) + 0.2 + 0.6);
    assert!(
        (p.observed - want).abs() < 1e-12,
        "{} vs {want}",
        p.observed
    );
    let weights: f64 = p.sizes.iter().map(|s| s.weight).sum();
    assert!((weights - 0.3).abs() < 1e-12, "non-OME pods are not demand");
}

#[test]
fn pending_attribution_by_node_selector() {
    let mut unique = pod("ml", "unique", None, 8);
    unique.node_selector = vec![(Arc::from("nvidia.com/gpu.product"), Arc::from("A100"))];
    let mut both = pod("ml", "both", None, 8);
    both.node_selector = vec![(Arc::from("nvidia.com/gpu.product"), Arc::from("nope"))];
    let plain = pod("ml", "plain", None, 8);
    let snap = ClusterSnapshot {
        nodes: vec![node("h-1", 8), a100("a-1")].into(),
        pods: vec![unique, both, plain].into(),
        replicas_listed: true,
        ..Default::default()
    };
    let states = crate::engine::nodes::node_states(&snap, &AlfredConfig::default(), at(10, 0, 0)).0;
    let pools = vec!["A100".to_string(), "H100".to_string()];
    let got = attribute_pending(&snap, &states, &pools);
    assert_eq!(got, vec![(0, Some(0)), (1, None), (2, None)]);
    let a = run(&snap, ExecutorSetting::Available);
    assert_eq!(a.pools[0].pending_pods, 3);
    assert_eq!(
        a.pools[1].pending_pods, 2,
        "unattributed pods count in every pool"
    );
    // With a single GPU pool every pending pod belongs to it.
    let one = ClusterSnapshot {
        nodes: vec![node("h-1", 8)].into(),
        pods: snap.pods.clone(),
        replicas_listed: true,
        ..Default::default()
    };
    assert_eq!(
        run(&one, ExecutorSetting::Available).pools[0].pending_pods,
        3
    );
}

#[test]
fn pending_pressure_needs_room_after_the_repack() {
    // A pending 8-GPU pod in a pool with no movable Instances: slots_best(8) = 0 too.
    let mut p = pod("ml", "big", None, 8);
    p.created = Some(at(9, 0, 0));
    let snap = ClusterSnapshot {
        nodes: vec![node("gpu-a", 8), node("gpu-b", 8)].into(),
        pods: vec![
            pod("x", "a", Some("gpu-a"), 4),
            pod("x", "b", Some("gpu-b"), 4),
            p,
        ]
        .into(),
        replicas_listed: true,
        ..Default::default()
    };
    let a = run(&snap, ExecutorSetting::Available);
    assert_eq!(a.pools[0].pending_pressure, 0.0);
    assert!((a.pools[0].oldest_pending_minutes - 60.0).abs() < 1e-9);
}
