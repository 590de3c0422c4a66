//! Each kind of the benchmarks' events (`sim::events`) against the full analysis, and what it
//! re-runs.

use ome_top::engine::analysis::{analyze, Change, Incremental, MovesRerun};

use super::{event_fleet, first_difference, options};

/// Every kind of the benchmarks' events (`sim::events`), applied and undone on a 3,000-pod
/// fleet, leaves the full analysis; none of them but a node's health condition (whose
/// evacuation rows the health policy ranks over the fleet) runs the whole decision pass, and
/// none runs the whole analysis. A service's annotation re-runs its own components only; a
/// cordon leaves the gang report alone.
#[test]
fn every_benchmarked_event_kind_equals_the_full_analysis() {
    let snap = event_fleet();
    let mut inc = Incremental::new(snap, options());
    let kinds = ome_top::sim::events::event_kinds(inc.snapshot(), inc.analysis());
    let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
    assert_eq!(names.len(), 10, "{names:?}");
    for kind in kinds {
        for (step, change) in [&kind.change, &kind.undo].into_iter().enumerate() {
            inc.apply(change.clone());
            let r = inc.last_rerun();
            let full = analyze(inc.snapshot(), &options());
            assert_eq!(
                first_difference(inc.analysis(), &full),
                None,
                "{} step {step}",
                kind.name
            );
            assert!(!r.full, "{} step {step}: {r:?}", kind.name);
            if kind.name != "node_condition_change" {
                assert_ne!(r.moves, MovesRerun::Full, "{} step {step}", kind.name);
            }
            match kind.name {
                "isvc_annotation_change" | "isvc_migration_request" => {
                    assert!(r.components >= 1 && !r.gangs && !r.lints, "{r:?}")
                }
                "node_cordon" => assert!(!r.gangs && r.lints, "{r:?}"),
                _ => {}
            }
        }
    }
}

/// Nodes of the largest pool cordoned one after another, then given back: every step equals
/// the full analysis, whether the pool's open and above-threshold flags hold (only the rows
/// that read its profile are rebuilt: fewer components than the pool holds) or flip (every
/// row of the pool).
#[test]
fn cordons_in_one_pool_equal_the_full_analysis() {
    let snap = event_fleet();
    let mut inc = Incremental::new(snap, options());
    let pools = &inc.analysis().pools;
    let pool = pools.iter().max_by_key(|p| p.nodes.len()).unwrap().clone();
    // Components with a pod on the pool's nodes.
    let in_pool = (inc.analysis().workloads.components.iter())
        .filter(|c| {
            let pods = c.instances.iter().flat_map(|i| i.pods.iter());
            pods.filter_map(|p| inc.index().node_of(*p))
                .any(|n| pool.nodes.contains(&n))
        })
        .count();
    let nodes: Vec<_> = (pool.nodes.iter().take(60))
        .map(|n| inc.snapshot().nodes[*n].clone())
        .collect();
    let cordoned = nodes.iter().map(|n| {
        let mut n = n.clone();
        n.unschedulable = true;
        n
    });
    let mut narrowed = false;
    let steps: Vec<_> = cordoned.chain(nodes.iter().rev().cloned()).collect();
    for (step, node) in steps.into_iter().enumerate() {
        inc.apply(Change::Node(node));
        let full = analyze(inc.snapshot(), &options());
        assert_eq!(first_difference(inc.analysis(), &full), None, "step {step}");
        let r = inc.last_rerun();
        assert!(!r.full, "step {step}: {r:?}");
        narrowed |= matches!(r.moves, MovesRerun::Components(n) if n < in_pool);
    }
    assert!(narrowed, "{in_pool} components in the pool");
}
