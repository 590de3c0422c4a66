//! Alfred's node-health policy (`alfred.md` §7.2): evacuation findings for Instances with a
//! pod on an Unhealthy node (`NodeUnhealthy`) or on a node due for maintenance
//! (`NodeMaintenance`), planned like defragmentation but without threshold, cost or windows,
//! scored by the workload's priority.
//!
//! Owns: `health_rows_keyed`, `health_rows_possible`, `priority`. Pure.

use std::collections::BTreeSet;

use crate::engine::fast::{identity_key, identity_keys, permute, IdentityKey};
use crate::engine::model::vocab::{AdvisoryReason, Outcome, Policy, Reason};
use crate::engine::model::{InferenceService, Name};
use crate::engine::nodes::HealthState;
use crate::engine::nodes::NodeState;
use crate::engine::planning::moves::MoveRow;
use crate::engine::planning::PlanContext;
use crate::engine::workloads::{Component, DeploymentMode, Instance};

/// The node-health score of a workload: `alfred.ome.io/priority` in [0, 1], default 0.5.
pub fn priority(isvc: &InferenceService) -> f64 {
    isvc.annotation("alfred.ome.io/priority")
        .and_then(|v| v.parse::<f64>().ok())
        .filter(|p| (0.0..=1.0).contains(p))
        .unwrap_or(0.5)
}

/// Why a node's pods are evacuated; a later variant outranks an earlier one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Cause {
    None,
    Maintenance,
    Unhealthy,
}

impl Cause {
    /// The cause of `state`'s node.
    fn of(state: &NodeState) -> Self {
        if state.health == HealthState::Unhealthy {
            Cause::Unhealthy
        } else if !state.maintenance.is_empty() {
            Cause::Maintenance
        } else {
            Cause::None
        }
    }

    /// The row reason of a cause.
    fn reason(self) -> Option<Reason> {
        match self {
            Cause::Unhealthy => Some(Reason::NodeUnhealthy),
            Cause::Maintenance => Some(Reason::NodeMaintenance),
            Cause::None => None,
        }
    }
}

/// Each node's cause, one byte per node: the per-pod checks then read a list that stays
/// in cache instead of each pod's node state.
fn evacuation_causes(ctx: &PlanContext<'_>) -> Vec<Cause> {
    ctx.states.iter().map(Cause::of).collect()
}

/// The evacuation reason and source node of an Instance, if it has a pod on an Unhealthy or
/// maintenance node (the Unhealthy member is preferred, then name order).
fn evacuation(ctx: &PlanContext<'_>, causes: &[Cause], inst: &Instance) -> Option<(Reason, usize)> {
    let mut best: Option<(Cause, usize)> = None;
    for pod in &inst.pods {
        let Some(n) = ctx.node_of(*pod) else { continue };
        let cause = causes.get(n).copied().unwrap_or(Cause::None);
        if cause == Cause::None {
            continue;
        }
        let better = best
            .is_none_or(|(c, b)| cause > c || (cause == c && ctx.index.cmp_nodes(n, b).is_lt()));
        if better {
            best = Some((cause, n));
        }
    }
    best.and_then(|(cause, n)| Some((cause.reason()?, n)))
}

/// Whether the node-health policy can emit any row over `states`: it is on (not signal
/// only) and some node is Unhealthy or due for maintenance.
pub fn health_rows_possible(
    cfg: &crate::engine::alfred_config::AlfredConfig,
    states: &[NodeState],
) -> bool {
    let h = &cfg.policies.node_health;
    h.enabled && !h.signal_only && states.iter().any(|s| Cause::of(s) != Cause::None)
}

/// Health rows ranked, each with its identity key and component (aligned; `None` for rows
/// of pods no ISVC component covers, whose identity is ranked from the text).
pub type KeyedHealthRows = (Vec<MoveRow>, Vec<Option<IdentityKey>>, Vec<Option<usize>>);

/// `health_rows` with each row's identity key and component (see `KeyedHealthRows`).
pub fn health_rows_keyed(ctx: &PlanContext<'_>) -> KeyedHealthRows {
    if !health_rows_possible(ctx.cfg, ctx.states) {
        // Off, or no node to evacuate (a healthy fleet): no row can come from any pod, so no
        // pod and no Instance is read.
        return (Vec::new(), Vec::new(), Vec::new());
    }
    let causes = evacuation_causes(ctx);
    let mut rows = Vec::new();
    let mut known = Vec::new();
    let mut owners = Vec::new();
    for (c, comp) in ctx.workloads.components.iter().enumerate() {
        if comp.mode == DeploymentMode::VirtualDeployment {
            continue;
        }
        for (i, inst) in comp.instances.iter().enumerate() {
            if inst.gpus == 0 {
                continue;
            }
            if let Some((reason, from)) = evacuation(ctx, &causes, inst) {
                rows.push(instance_row(ctx, (c, i), comp, inst, (reason, from)));
                known.push(Some(identity_key(ctx.workload_ranks, comp, inst.index)));
                owners.push(Some(c));
            }
        }
    }
    let uncovered = uncovered_rows(ctx, &causes);
    known.extend(uncovered.iter().map(|_| None));
    owners.extend(uncovered.iter().map(|_| None));
    rows.extend(uncovered);
    let keys = identity_keys(&rows, known.clone());
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|a, b| {
        let (x, y) = (&rows[*a], &rows[*b]);
        y.class()
            .cmp(&x.class())
            .then_with(|| y.plan.is_some().cmp(&x.plan.is_some()))
            .then_with(|| y.score.total_cmp(&x.score))
            .then_with(|| x.footprint.cmp(&y.footprint))
            .then_with(|| keys[*a].cmp(&keys[*b]))
    });
    let known = order.iter().map(|i| known[*i]).collect();
    let owners = order.iter().map(|i| owners[*i]).collect();
    (permute(rows, &order), known, owners)
}

fn instance_row(
    ctx: &PlanContext<'_>,
    (c, i): (usize, usize),
    comp: &Component,
    inst: &Instance,
    (reason, from): (Reason, usize),
) -> MoveRow {
    let isvc = &ctx.snap.isvcs[comp.isvc];
    let score = priority(isvc);
    let from_name = Some(ctx.node_name(from));
    let id = (
        ctx.workload_key(comp.isvc),
        ctx.component_name(comp.component),
        inst.index,
    );
    let advice = |why: AdvisoryReason| {
        let mut row = MoveRow::advice(
            Policy::NodeHealth,
            reason.clone(),
            id.clone(),
            why,
            from_name.clone(),
            score,
        );
        row.footprint = inst.gpus;
        row
    };
    match comp.mode {
        DeploymentMode::RawDeployment => {
            return advice(AdvisoryReason::RawDeploymentMigrationUnsupported)
        }
        DeploymentMode::MultiNode => return advice(AdvisoryReason::LwsMigrationUnsupported),
        _ => {}
    }
    if !ctx.rules.omenative_migration_enabled {
        return advice(AdvisoryReason::MigrationSurfaceDisabled);
    }
    if let Some(Err(why)) = ctx.verdict(c, i).map(|v| &v.baseline) {
        return advice(why.clone());
    }
    let facts = ctx.facts_of(c, i);
    let planned = facts.and_then(|facts| {
        let pool = facts.pool?;
        let plan = ctx.plan(comp, facts, pool)?;
        let mut planned = ctx.planned_move((c, i), facts, pool, &plan)?;
        planned.from = from;
        Some((plan, planned))
    });
    let Some((plan, planned)) = planned else {
        return advice(AdvisoryReason::NoSurgeHeadroom);
    };
    let mut row = advice(AdvisoryReason::OmeNativeObservationInvalid);
    row.hint_targets = ctx.names(&plan.hints);
    match ctx.recommend_only_reason(inst) {
        Some(why) => row.advisory_reason = Some(why),
        None => {
            row.outcome = Outcome::Candidate;
            row.advisory_reason = None;
        }
    }
    row.plan = Some(Box::new(planned));
    row
}

/// OMENative GPU pods on evacuation nodes that no resolvable Instance covers: one
/// component-wide `OMENativeObservationInvalid` row per `(workload, component)`.
fn uncovered_rows(ctx: &PlanContext<'_>, causes: &[Cause]) -> Vec<MoveRow> {
    let mut covered = vec![false; ctx.snap.pods.len()];
    for c in &ctx.workloads.components {
        for p in c.instances.iter().flat_map(|i| i.pods.iter()) {
            if let Some(slot) = covered.get_mut(*p) {
                *slot = true;
            }
        }
    }
    let mut seen: BTreeSet<(String, String)> = BTreeSet::new();
    let mut rows = Vec::new();
    // Only live pods can qualify (a GPU pod that is not terminal).
    for &p in &ctx.index.live {
        // The index's integers first: most pods sit on healthy nodes and are never loaded.
        if ctx.index.gpus(p) == 0 || covered[p] {
            continue;
        }
        let Some(n) = ctx.node_of(p) else { continue };
        let Some(reason) = causes.get(n).and_then(|c| c.reason()) else {
            continue;
        };
        let pod = &ctx.snap.pods[p];
        let omenative = pod.ome.managed_by.as_deref() == Some("OMENative")
            || pod
                .controller
                .as_ref()
                .is_some_and(|o| o.kind.as_ref() == "InferenceReplica");
        if !omenative || pod.phase.is_terminal() {
            continue;
        }
        let workload = format!(
            "{}/{}",
            pod.namespace,
            pod.ome.isvc.as_deref().unwrap_or("")
        );
        let component = pod.ome.component.as_deref().unwrap_or("").to_string();
        if seen.insert((workload.clone(), component.clone())) {
            let from = Some(ctx.node_name(n));
            let id = (Name::from(workload), Name::from(component), -1);
            rows.push(MoveRow::advice(
                Policy::NodeHealth,
                reason,
                id,
                AdvisoryReason::OmeNativeObservationInvalid,
                from,
                0.5,
            ));
        }
    }
    rows
}
