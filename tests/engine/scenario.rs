//! The what-if of a change on demo worlds, and the unblock plan on the planner's own rows of
//! demo worlds: an evacuation displaces the Instances on the node and says whether each
//! finds room elsewhere; a maintenance label displaces them only when Alfred's trigger
//! matches; a plan from real rows, applied, makes the pending pod fit.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use chrono::{Duration, TimeZone, Utc};

use ome_top::engine::analysis::scenario::{what_if_change, Change};
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::explain::{pending_subjects, Explainer};
use ome_top::engine::model::{ClusterSnapshot, Time};
use ome_top::engine::unblock::{apply_plan, unblock, Unblock, UnblockInput};
use ome_top::sim::demo::DemoWorld;

/// The maintenance trigger label of the demo's Alfred config.
const MAINTENANCE_LABEL: &str = "maintenance.ome.io/os-patching";

fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

fn opts(now: Time) -> AnalysisOptions {
    AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

fn demo() -> (ClusterSnapshot, Analysis, Time) {
    let mut w = DemoWorld::new(1, 90, start());
    let mut t = start();
    for _ in 0..6 {
        t += Duration::seconds(10);
        w.step(t);
    }
    let snap = w.snapshot();
    let a = analyze(&snap, &opts(t));
    (snap, a, t)
}

/// The name of a node running a GPU pod of some Instance.
fn busy_node(snap: &ClusterSnapshot, a: &Analysis) -> String {
    let comp = a
        .workloads
        .components
        .iter()
        .find(|c| c.instances.iter().any(|i| i.gpus > 0))
        .unwrap();
    let inst = comp.instances.iter().find(|i| i.gpus > 0).unwrap();
    let pod = inst.pods.iter().find(|p| snap.pods[**p].gpus > 0).unwrap();
    snap.pods[*pod].node.as_deref().unwrap().to_string()
}

#[test]
fn an_evacuation_displaces_the_instances_on_the_node_and_uses_the_budget() {
    let (snap, a, t) = demo();
    let node = busy_node(&snap, &a);
    let s = what_if_change(&snap, &opts(t), &a, &Change::Evacuate(vec![node.clone()]));
    assert!(!s.displaced.is_empty());
    assert!(s.displaced.iter().all(|d| d.gpus > 0 || d.pods > 0));
    assert!(s.displaced.iter().all(|d| d.room_elsewhere.is_some()));
    assert_eq!(s.budget.moves as usize, s.displaced.len());
    assert_eq!(s.budget.in_flight_cap, a.config.max_in_flight_migrations);
    assert!(s.budget.startable_now() <= s.budget.moves);
    let on_node: u32 = a
        .workloads
        .components
        .iter()
        .flat_map(|c| &c.instances)
        .flat_map(|i| i.pods.iter())
        .filter(|p| snap.pods[**p].node.as_deref() == Some(node.as_str()))
        .map(|p| snap.pods[*p].gpus)
        .sum();
    assert_eq!(s.displaced.iter().map(|d| d.gpus).sum::<u32>(), on_node);
    // Nothing is written: the snapshot still has the pods on the node.
    assert!(snap
        .pods
        .iter()
        .any(|p| p.node.as_deref() == Some(node.as_str())));
}

#[test]
fn a_maintenance_label_displaces_only_when_alfreds_trigger_matches() {
    let (snap, a, t) = demo();
    let node = busy_node(&snap, &a);
    let value = |v: &str| Change::MaintenanceLabel {
        nodes: vec![node.clone()],
        key: MAINTENANCE_LABEL.into(),
        value: v.into(),
    };
    let matched = what_if_change(&snap, &opts(t), &a, &value("true"));
    assert!(
        !matched.displaced.is_empty(),
        "the demo's trigger matches the label"
    );
    assert!(matched.displaced.iter().all(|d| d.room_elsewhere.is_none()));
    let other = Change::MaintenanceLabel {
        nodes: vec![node.clone()],
        key: "example.com/unrelated".into(),
        value: "true".into(),
    };
    assert!(what_if_change(&snap, &opts(t), &a, &other)
        .displaced
        .is_empty());
}

#[test]
fn a_plan_from_the_planners_own_rows_makes_the_pending_pod_fit() {
    let mut planned = 0;
    for seed in [1, 2, 5] {
        let mut w = DemoWorld::new(seed, 90, start());
        let mut t = start();
        for _ in 0..30 {
            t += Duration::seconds(10);
            w.step(t);
        }
        let snap = w.snapshot();
        let a = analyze(&snap, &opts(t));
        let ex = Explainer::new(a.pending_input(&snap));
        let input = UnblockInput {
            moves: &a.moves,
            workloads: &a.workloads,
            journal: a.journal.journal(),
            cfg: &a.config,
            now: a.now,
        };
        for pod in pending_subjects(&a.pending_input(&snap)) {
            let u = unblock(&ex, &input, pod);
            let Some(Unblock::Plan(plan)) = u else {
                continue;
            };
            let after = apply_plan(&snap, &a.moves, &plan);
            let mut moved = a.pending_input(&after);
            moved.snap = &after;
            let e = Explainer::new(moved).explain(pod).unwrap();
            assert!(e.fits_somewhere(), "seed {seed} pod {pod}: {plan:?}");
            planned += 1;
        }
    }
    assert!(
        planned > 0,
        "some generated fleet has a pending pod a move unblocks"
    );
}
