//! Node- and pool-level placement lints: "reservation" cordons and two schedulers binding into
//! one GPU pool. Small pods holding otherwise empty nodes are in `small_pods`.
//!
//! Owns: `reservation_cordons`, `mixed_schedulers`. Pure.

use std::collections::BTreeMap;

use crate::engine::fast::same_str;
use crate::engine::gangs::effective_scheduler;
use crate::engine::lints::{BoundGpuPod, Lint, LintRule, Pools};
use crate::engine::model::ClusterSnapshot;
use crate::engine::nodes::HealthState;
use crate::engine::nodes::NodeState;

/// Cordoned nodes that are healthy, have no maintenance trigger, are not being scaled down and
/// are Ready: a cordon used as a reservation hides their capacity from every scheduler.
pub fn reservation_cordons(snap: &ClusterSnapshot, states: &[NodeState]) -> Vec<Lint> {
    snap.nodes
        .iter()
        .zip(states)
        .filter(|(n, s)| {
            let ready = n
                .conditions
                .iter()
                .find(|c| c.kind.as_ref() == "Ready")
                .is_none_or(|c| c.status.as_ref() == "True");
            s.cordoned
                && s.health == HealthState::Clear
                && s.maintenance.is_empty()
                && !s.to_be_deleted
                && ready
        })
        .map(|(n, s)| Lint {
            rule: LintRule::ReservationCordon,
            object: format!("Node {}", n.name),
            message: format!(
                "node is cordoned but healthy, Ready and without a maintenance trigger: its {} \
                 GPU(s) are hidden from every scheduler. A cordon is a temporary step, not a \
                 hold. Fix: uncordon it; reserve capacity by raising the model's autoscaler \
                 floor, and record real maintenance with a maintenance label, taint or condition.",
                s.total
            ),
        })
        .collect()
}

/// GPU pools where bound GPU pods come from two or more schedulers: both keep their own cache
/// and can bind to the same freed cards (`UnexpectedAdmissionError`).
pub fn mixed_schedulers(pools: &Pools<'_>, bound: &[BoundGpuPod<'_>]) -> Vec<Lint> {
    let mut counts: Vec<Vec<(&str, usize)>> = vec![Vec::new(); pools.names.len()];
    for &(pod, node) in bound {
        let Some(pool) = pools.of_node[node] else {
            continue;
        };
        let scheduler = effective_scheduler(pod);
        // Scheduler names are shared strings: equal addresses skip the byte compare.
        match counts[pool]
            .iter_mut()
            .find(|(s, _)| same_str(s, scheduler))
        {
            Some((_, n)) => *n += 1,
            None => counts[pool].push((scheduler, 1)),
        }
    }
    let pools: BTreeMap<&str, BTreeMap<&str, usize>> = pools
        .names
        .iter()
        .zip(counts)
        .map(|(name, c)| (*name, c.into_iter().collect()))
        .collect();
    pools
        .into_iter()
        .filter(|(_, s)| s.len() >= 2)
        .map(|(pool, schedulers)| {
            let list: Vec<String> = schedulers
                .iter()
                .map(|(s, n)| format!("{s} ({n} pod{})", if *n == 1 { "" } else { "s" }))
                .collect();
            Lint {
                rule: LintRule::MixedSchedulers,
                object: format!("Pool {pool}"),
                message: format!(
                    "GPU pods of this pool are bound by {}: each scheduler keeps its own cache \
                     and both can bind pods to the same freed cards; the kubelet admits one and \
                     the other fails with UnexpectedAdmissionError. Fix: move every GPU workload \
                     of the pool to the same scheduler.",
                    list.join(", ")
                ),
            }
        })
        .collect()
}
