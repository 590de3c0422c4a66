//! Unit tests of the what-if: the budget's arithmetic, the policy values read back through
//! the copy's `alfred-config`, and a cordon and an evacuation on a small pool.

use super::*;
use crate::engine::analysis::ExecutorSetting;
use crate::engine::model::testkit::{at, node, pod};

fn opts() -> AnalysisOptions {
    AnalysisOptions {
        now: at(10, 0, 0),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

fn pool() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![node("a", 8), node("b", 8)].into(),
        pods: vec![pod("x", "a1", Some("a"), 2), pod("x", "b1", Some("b"), 6)].into(),
        replicas_listed: true,
        ..Default::default()
    }
}

#[test]
fn the_budget_is_the_smaller_room_under_both_caps() {
    // alfred.md §8: the in-flight cap counts every migration in progress, the hourly cap the
    // moves of the last hour.
    let b = Budget {
        moves: 5,
        in_flight: 1,
        in_flight_cap: 3,
        last_hour: 7,
        hourly_cap: 10,
    };
    assert_eq!(b.startable_now(), 2);
    assert_eq!(Budget { last_hour: 9, ..b }.startable_now(), 1);
    assert_eq!(Budget { moves: 0, ..b }.startable_now(), 0);
    assert_eq!(Budget { in_flight: 4, ..b }.startable_now(), 0);
}

#[test]
fn policy_values_are_read_back_by_the_analysis_of_the_copy() {
    let snap = pool();
    let before = analyze(&snap, &opts());
    let values = PolicyValues {
        threshold: Some(0.0),
        max_in_flight: Some(1),
        max_per_hour: Some(2),
        windows: None,
    };
    let s = what_if_change(&snap, &opts(), &before, &Change::Policy(values.clone()));
    assert_eq!((s.budget.in_flight_cap, s.budget.hourly_cap), (1, 2));
    let changed = apply_change(&snap, &Change::Policy(values), &before.config, "ome");
    let after = analyze(&changed, &opts());
    assert_eq!(after.config_error, None, "the copy's config reads back");
    assert_eq!(
        after
            .config
            .policies
            .defragmentation
            .fragmentation_threshold,
        0.0
    );
    assert!(
        snap.config_maps.is_empty(),
        "nothing is written to the snapshot itself"
    );
}

#[test]
fn a_cordon_shrinks_the_largest_fit_and_an_evacuation_puts_pods_back_to_pending() {
    // Node a has 6 free, b 2: one node fits 6 now. Cordoning a leaves b's 2.
    let snap = pool();
    let before = analyze(&snap, &opts());
    let s = what_if_change(&snap, &opts(), &before, &Change::Cordon(vec!["a".into()]));
    assert_eq!(s.pools.len(), 1);
    assert_eq!(
        (s.pools[0].largest_fit_before, s.pools[0].largest_fit_after),
        (6, 2)
    );
    assert!(s.displaced.is_empty(), "a cordon moves nothing");
    let changed = apply_change(
        &snap,
        &Change::Evacuate(vec!["a".into()]),
        &before.config,
        "ome",
    );
    assert!(changed.nodes[0].unschedulable);
    assert!(changed.pods[0].is_pending_gpu());
    assert_eq!(changed.pods[1].node.as_deref(), Some("b"));
    let s = what_if_change(
        &snap,
        &opts(),
        &before,
        &Change::Evacuate(vec!["zz".into()]),
    );
    assert_eq!(s.unknown_nodes, vec!["zz".to_string()]);
}
