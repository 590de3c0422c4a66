//! The property test of the unblock search on random small pools: whenever a plan exists,
//! binding its moved pods to their targets makes the pod fit on some node, and the plain
//! reference (every subset of the approvable moves) needs no fewer moves; when the answer is
//! "no plan" (gated or pinned), no subset of the approvable moves makes room either.

use proptest::prelude::*;

use super::*;

/// A random pool: per node the GPUs of its bound pods, the pending pod's request, per row the
/// (pod position, target offset, gate) of a move.
/// Per row: (pod position, target offset, gate).
type RowSpec = (usize, usize, u8);

fn case() -> impl Strategy<Value = (Vec<Vec<u32>>, u32, Vec<RowSpec>)> {
    let node = proptest::collection::vec(prop_oneof![Just(1u32), Just(2), Just(4)], 2..6).prop_map(
        |mut pods| {
            while pods.iter().sum::<u32>() > 8 {
                pods.pop();
            }
            pods
        },
    );
    (
        proptest::collection::vec(node, 2..5),
        2u32..10,
        proptest::collection::vec((0usize..16, 1usize..4, 0u8..5), 0..9),
    )
}

fn build(
    nodes: &[Vec<u32>],
    want: u32,
    rows: &[RowSpec],
) -> (ClusterSnapshot, Vec<MoveRow>, usize) {
    let names: Vec<String> = (0..nodes.len()).map(|n| format!("n{n}")).collect();
    let mut snap = ClusterSnapshot {
        nodes: names.iter().map(|n| node(n, 8)).collect::<Vec<_>>().into(),
        replicas_listed: true,
        ..Default::default()
    };
    let mut bound: Vec<(usize, usize, u32)> = Vec::new();
    for (n, pods) in nodes.iter().enumerate() {
        for (k, gpus) in pods.iter().enumerate() {
            bound.push((snap.pods.len(), n, *gpus));
            snap.pods
                .push(pod("w", &format!("p{n}-{k}"), Some(&names[n]), *gpus));
        }
    }
    let pending = snap.pods.len();
    snap.pods.push(pod("ml", "pending", None, want));
    let mut used: Vec<usize> = Vec::new();
    let mut out = Vec::new();
    for (at, offset, gate) in rows {
        let Some(&(p, from, gpus)) = bound.get(*at % bound.len().max(1)) else {
            continue;
        };
        if used.contains(&p) {
            continue; // one row per Instance, as the pass makes them
        }
        used.push(p);
        let to = (from + offset) % nodes.len();
        let mut row = planned_row(&format!("w/p{p}"), (p, from), to, gpus);
        match gate {
            0 => {
                row.outcome = Outcome::Rejected;
                row.reject_reason = Some(RejectReason::NotMovable);
            }
            1 => {
                row.outcome = Outcome::Rejected;
                row.reject_reason = Some(RejectReason::HourlyCap);
            }
            _ => {}
        }
        out.push(row);
    }
    (snap, out, pending)
}

proptest! {
    #[test]
    fn a_plan_makes_the_pod_fit_and_needs_no_more_moves_than_the_reference(
        (nodes, want, rows) in case()
    ) {
        let (snap, rows, pending) = build(&nodes, want, &rows);
        let a = analysed(&snap);
        let ex = Explainer::new(a.pending_input(&snap));
        let input = UnblockInput {
            moves: &rows,
            workloads: &a.workloads,
            journal: None,
            cfg: &a.config,
            now: at(10, 0, 0),
        };
        let got = unblock(&ex, &input, pending).unwrap();
        let reference = plan_by_brute_force(&ex, &input, pending, rows.len());
        match &got {
            Unblock::FitsNow => prop_assert_eq!(reference, Some(0)),
            Unblock::Plan(plan) => {
                prop_assert_eq!(reference, Some(plan.moves.len()));
                let after = apply_plan(&snap, &rows, plan);
                let mut moved = a.pending_input(&after);
                moved.snap = &after;
                prop_assert!(Explainer::new(moved).explain(pending).unwrap().fits_somewhere());
            }
            Unblock::NoPlan(NoPlan::TooFewGpus) => prop_assert!(want > 8),
            Unblock::NoPlan(_) => prop_assert_eq!(reference, None),
        }
    }
}
