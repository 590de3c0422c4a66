//! The unblock plan on a hand-built pool and hand-built planner rows: the fewest approvable
//! moves, what a gate changes, and each reason there is no plan.

use super::*;
use crate::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use crate::engine::model::testkit::{at, node, pod};
use crate::engine::model::vocab::{Outcome, Policy, Reason, RejectReason};
use crate::engine::model::Name;
use crate::engine::planning::PlannedMove;

fn analysed(snap: &ClusterSnapshot) -> Analysis {
    let opts = AnalysisOptions {
        now: at(10, 0, 0),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Available,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    analyze(snap, &opts)
}

/// An admitted row moving pod `pod` (on node `from`) to node `to`.
fn planned_row(workload: &str, (pod, from): (usize, usize), to: usize, gpus: u32) -> MoveRow {
    MoveRow {
        workload: Name::from(workload),
        component: Name::from("engine"),
        instance: 0,
        policy: Policy::Defragmentation,
        reason: Reason::Fragmentation,
        outcome: Outcome::Admitted,
        advisory_reason: None,
        reject_reason: None,
        dispatch_reason: None,
        from_node: None,
        target: None,
        hint_targets: Vec::new(),
        score: 1.0,
        emergency: false,
        cooldown_overridden: false,
        footprint: gpus,
        plan: Some(Box::new(PlannedMove {
            component: usize::MAX,
            instance: 0,
            pool: "H100".into(),
            placements: vec![(pod, to)],
            footprints: vec![(pod, gpus)],
            from,
            before: 0.0,
            after: None,
        })),
    }
}

/// Nodes a (pods x1: 4, x2: 2 → 2 free), b (y1: 6 → 2 free), c (z: 8 → full); pending pods
/// asking 6 (index 4), 8 (5), 16 (6) and 2 (7).
fn pool() -> ClusterSnapshot {
    ClusterSnapshot {
        nodes: vec![node("a", 8), node("b", 8), node("c", 8)].into(),
        pods: vec![
            pod("w", "x1", Some("a"), 4),
            pod("w", "x2", Some("a"), 2),
            pod("w", "y1", Some("b"), 6),
            pod("w", "z", Some("c"), 8),
            pod("ml", "six", None, 6),
            pod("ml", "eight", None, 8),
            pod("ml", "sixteen", None, 16),
            pod("ml", "two", None, 2),
        ]
        .into(),
        replicas_listed: true,
        ..Default::default()
    }
}

/// r0: x1 a → b; r1: x2 a → b; r2: y1 b → a.
fn rows() -> Vec<MoveRow> {
    vec![
        planned_row("w/x1", (0, 0), 1, 4),
        planned_row("w/x2", (1, 0), 1, 2),
        planned_row("w/y1", (2, 1), 0, 6),
    ]
}

fn answer(snap: &ClusterSnapshot, rows: &[MoveRow], pod: usize) -> Unblock {
    let a = analysed(snap);
    let ex = Explainer::new(a.pending_input(snap));
    let input = UnblockInput {
        moves: rows,
        workloads: &a.workloads,
        journal: None,
        cfg: &a.config,
        now: at(10, 0, 0),
    };
    unblock(&ex, &input, pod).unwrap()
}

fn plan_rows(u: &Unblock) -> (PlanTarget, Vec<usize>) {
    let Unblock::Plan(p) = u else {
        panic!("no plan: {u:?}")
    };
    (p.target.clone(), p.moves.iter().map(|m| m.row).collect())
}

#[test]
fn one_move_frees_a_node_and_the_fewer_gpus_moved_wins_a_tie() {
    // Node a: moving x1 frees 4 → 6 free. Node b: moving y1 frees 6 → 8. One move each; x1
    // moves fewer GPUs.
    let snap = pool();
    assert_eq!(
        plan_rows(&answer(&snap, &rows(), 4)),
        (PlanTarget::Node(0), vec![0])
    );
    // The 8-GPU pod needs x1 and x2 off a (2 moves), or y1 off b (1 move).
    assert_eq!(
        plan_rows(&answer(&snap, &rows(), 5)),
        (PlanTarget::Node(1), vec![2])
    );
}

#[test]
fn a_gated_move_is_left_out_and_named_when_only_it_would_help() {
    let snap = pool();
    let mut gated = rows();
    gated[0].outcome = Outcome::Rejected;
    gated[0].reject_reason = Some(RejectReason::NotMovable);
    assert_eq!(
        plan_rows(&answer(&snap, &gated, 4)),
        (PlanTarget::Node(1), vec![2])
    );
    gated[2].outcome = Outcome::Rejected;
    gated[2].reject_reason = Some(RejectReason::WorkloadBusy);
    assert_eq!(
        answer(&snap, &gated, 4),
        Unblock::NoPlan(NoPlan::Gated { gated: 1 })
    );
}

#[test]
fn a_paced_move_stays_in_the_plan_with_its_hold() {
    let snap = pool();
    let mut paced = rows();
    paced[0].outcome = Outcome::Rejected;
    paced[0].reject_reason = Some(RejectReason::HourlyCap);
    let Unblock::Plan(p) = answer(&snap, &paced, 4) else {
        panic!("a pacing gate keeps the move approvable")
    };
    assert_eq!(p.moves[0].row, 0);
    assert_eq!(p.moves[0].frees, 4);
    assert_eq!(
        p.moves[0].hold,
        Hold::Paced {
            gate: RejectReason::HourlyCap,
            until: None
        },
        "no move in the last hour: the cap is not what a clock decides"
    );
}

#[test]
fn no_plan_says_why_and_a_pod_that_fits_needs_none() {
    let snap = pool();
    assert_eq!(answer(&snap, &rows(), 7), Unblock::FitsNow);
    assert_eq!(
        answer(&snap, &rows(), 6),
        Unblock::NoPlan(NoPlan::TooFewGpus),
        "16 GPUs on 8-GPU nodes"
    );
    // Only x2 can move: a reaches 4 free; the 8-GPU pod needs pods no row moves.
    let few = vec![rows().remove(1)];
    assert_eq!(
        answer(&snap, &few, 5),
        Unblock::NoPlan(NoPlan::PinnedWorkloads)
    );
}

#[test]
fn applying_the_plan_binds_the_moved_pods_to_their_targets_and_the_pod_fits() {
    let snap = pool();
    let rows = rows();
    let Unblock::Plan(p) = answer(&snap, &rows, 5) else {
        panic!("plan expected")
    };
    let after = apply_plan(&snap, &rows, &p);
    assert_eq!(after.pods[2].node.as_deref(), Some("a"));
    let a = analysed(&snap);
    let mut input = a.pending_input(&after);
    input.snap = &after;
    assert!(Explainer::new(input).explain(5).unwrap().fits_somewhere());
}

mod property;
