//! Explanations of pending pods on a small pool: the first refusing check per node.

use std::sync::Arc;

use super::*;
use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node, pod};
use crate::engine::model::Taint;

pub(crate) fn analysed(snap: &ClusterSnapshot) -> Analysis {
    let opts = AnalysisOptions {
        now: at(10, 0, 0),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    analyze(snap, &opts)
}

fn fleet() -> ClusterSnapshot {
    // Four 8-GPU H100 nodes: a cordoned, b with 6 GPUs used, c tainted, d with 2 used.
    let mut a = node("gpu-a", 8);
    a.unschedulable = true;
    let mut c = node("gpu-c", 8);
    c.taints = vec![Taint {
        key: Arc::from("team"),
        value: Arc::from("research"),
        effect: Arc::from("NoSchedule"),
    }];
    ClusterSnapshot {
        nodes: vec![a, node("gpu-b", 8), c, node("gpu-d", 8)].into(),
        pods: vec![
            pod("x", "b1", Some("gpu-b"), 6),
            pod("x", "d1", Some("gpu-d"), 2),
            pod("ml", "wants-4", None, 4),
            pod("ml", "wants-8", None, 8),
        ]
        .into(),
        replicas_listed: true,
        ..Default::default()
    }
}

#[test]
fn each_node_of_the_pool_gives_the_first_check_that_refuses_the_pod() {
    // gangpack.md §3.3: cordon, taints, then resources; the node with room fits.
    let snap = fleet();
    let a = analysed(&snap);
    let ex = Explainer::new(a.pending_input(&snap));
    let e = ex.explain(2).unwrap();
    assert_eq!(e.pool.as_deref(), Some("H100"));
    let got: Vec<(&str, Verdict)> = e
        .nodes
        .iter()
        .map(|n| (snap.nodes[n.node].name.as_ref(), n.verdict.clone()))
        .collect();
    assert_eq!(
        got,
        vec![
            ("gpu-a", Verdict::Refused(FitCheck::Cordoned)),
            ("gpu-b", Verdict::Refused(FitCheck::TooFewFreeGpus)),
            (
                "gpu-c",
                Verdict::Refused(FitCheck::Taint(Arc::from("team")))
            ),
            ("gpu-d", Verdict::Fits),
        ]
    );
    assert!(e.fits_somewhere());
    let big = ex.explain(3).unwrap();
    assert!(!big.fits_somewhere());
    assert_eq!(
        big.groups[0],
        VerdictCount {
            verdict: Verdict::Refused(FitCheck::TooFewFreeGpus),
            nodes: 2
        },
        "b and d lack free GPUs; the cordon and the taint come one each"
    );
    assert_eq!(big.groups.len(), 3);
}

#[test]
fn a_bound_or_cpu_only_pod_has_no_explanation_and_subjects_list_pending_pods() {
    let snap = fleet();
    let a = analysed(&snap);
    let ex = Explainer::new(a.pending_input(&snap));
    assert!(ex.explain(0).is_none(), "bound");
    assert!(ex.explain(99).is_none(), "no such pod");
    assert_eq!(pending_subjects(&a.pending_input(&snap)), vec![2, 3]);
}

#[test]
fn copies_fitting_takes_each_members_requests_in_turn() {
    // gangpack.md §3.3 lineage C: several members per node, every request divides the room.
    let snap = fleet();
    let a = analysed(&snap);
    let ex = Explainer::new(a.pending_input(&snap));
    let two = pod("ml", "m", None, 2);
    assert_eq!(copies_fitting(&snap.nodes[3], &ex.fit.free[3], &two, 10), 3);
    assert_eq!(copies_fitting(&snap.nodes[3], &ex.fit.free[3], &two, 2), 2);
    assert_eq!(copies_fitting(&snap.nodes[0], &ex.fit.free[0], &two, 10), 0);
}
