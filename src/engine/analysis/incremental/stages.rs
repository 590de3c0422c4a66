//! Re-running the stale parts of an analysis, in pipeline order: node allocations, then the
//! components of stale ISVCs (Instances, migration state, verdicts, demand and repack pods),
//! then stale pools, then the fleet-wide stages. Each part is rebuilt by the function the full
//! analysis runs for it, so a rebuilt part equals the full analysis's; a part that changed
//! marks what reads it stale in turn.
//!
//! Owns: `Stale`, `refresh`, `Rerun`. Pure.

use crate::engine::analysis::incremental::moves::{full_pass, refresh_moves};
use crate::engine::analysis::incremental::parts::{planned, Parts};
use crate::engine::analysis::{component_verdicts, Analysis, AnalysisOptions};
use crate::engine::gangs::{compute_gangs, reads_node_capacity};
use std::sync::Arc;

use crate::engine::lints::{
    placement_lints, placement_lints_after_node_edit, placement_lints_after_unbound_pod_edit,
    PodVersions,
};
use crate::engine::model::{ClusterSnapshot, Pod};
use crate::engine::planning::same_plan_inputs;
use crate::engine::pools::{pool_data, score_pool, PoolReport, PoolScoring};
use crate::engine::workloads::isvc_components;

/// The parts of an analysis a change made stale.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Stale {
    /// Nodes whose allocation may have changed.
    pub nodes: Vec<usize>,
    /// ISVCs whose components may have changed.
    pub isvcs: Vec<usize>,
    /// Pools whose report may have changed.
    pub pools: Vec<usize>,
    /// The decision pass (moves).
    pub plan: bool,
    /// The whole decision pass, whatever the components and pools say (something every row
    /// reads changed).
    pub plan_full: bool,
    /// Components whose move rows may have changed.
    pub plan_components: Vec<usize>,
    /// Pools whose nodes or open and above-threshold flags changed: every row of a component
    /// with pods there may have changed.
    pub plan_pools: Vec<usize>,
    /// Pools whose node states or what else the pass reads of their report (profile, pending
    /// pods) changed: the rows of the components there that read more than the two flags
    /// (`planning::rows_read_pool_profile`) may have changed. `pools` rescores them, and moves
    /// one to `plan_pools` when its flags changed.
    pub plan_profiles: Vec<usize>,
    /// The gang report.
    pub gangs: bool,
    /// The placement lints.
    pub lints: bool,
    /// Only the pod rules of the lints: the pods changed were bound to no known node
    /// (`lints::placement_lints_after_unbound_pod_edit`).
    pub pod_lints: bool,
    /// Every pod edited, before and after (what `pod_lints` re-reads).
    pub pod_versions: Vec<EditedPod>,
    /// Only the lints that read node states, after nodes changed in place (`Some(per_card)`:
    /// whether a node's allocatable changed too): `lints::placement_lints_after_node_edit`.
    pub node_lints: Option<bool>,
}

/// One pod's versions before and after an edit (`None`: absent then).
pub type EditedPod = (Option<Arc<Pod>>, Option<Arc<Pod>>);

/// What one change re-ran (for tests and benchmarks: results never depend on it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rerun {
    /// The whole analysis ran.
    pub full: bool,
    /// Node states whose allocation was summed again.
    pub nodes: usize,
    /// Components rebuilt (with their verdicts).
    pub components: usize,
    /// Pools rescored.
    pub pools: usize,
    /// The move rows.
    pub moves: MovesRerun,
    /// The gang report ran.
    pub gangs: bool,
    /// The placement lints ran.
    pub lints: bool,
}

/// How the move rows were brought up to date.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum MovesRerun {
    /// Reused as they were.
    #[default]
    Reused,
    /// The rows of this many components rebuilt and merged in.
    Components(usize),
    /// The whole decision pass ran.
    Full,
}

/// Brings the stale parts of `analysis` (of `snap`, with `parts` up to date for `snap`) up to
/// date. `None` when a part cannot be rebuilt alone (the caller then runs a full analysis).
#[must_use]
pub fn refresh(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    mut stale: Stale,
) -> Option<Rerun> {
    let mut rerun = Rerun::default();
    allocations(analysis, parts, &mut stale);
    rerun.nodes = stale.nodes.len();
    if !components(snap, opts, analysis, parts, &mut stale) {
        return None;
    }
    rerun.components = stale.plan_components.len();
    pools(snap, opts, analysis, parts, &mut stale);
    rerun.pools = stale.pools.len();
    if stale.plan_full {
        full_pass(snap, opts, analysis, parts);
        parts.planned_moves = planned(&analysis.moves);
        rerun.moves = MovesRerun::Full;
    } else if stale.plan {
        let scope = (stale.plan_components, stale.plan_pools, stale.plan_profiles);
        rerun.moves = refresh_moves(snap, opts, analysis, parts, scope);
    }
    rerun.gangs = stale.gangs;
    rerun.lints = stale.lints;
    if stale.gangs {
        analysis.gangs = compute_gangs(snap, &parts.index, &opts.placement).into();
        analysis.warnings.truncate(parts.base_warnings);
        analysis
            .warnings
            .extend(analysis.gangs.warnings.iter().cloned());
        parts.gangs_read_capacity = reads_node_capacity(&analysis.gangs);
    }
    if stale.lints || (stale.pod_lints && stale.node_lints.is_some()) {
        analysis.lints =
            placement_lints(snap, &parts.index, &analysis.nodes, &opts.placement).into();
        rerun.lints = true;
    } else if stale.pod_lints {
        let previous = std::mem::take(&mut *analysis.lints);
        let edits: Vec<PodVersions<'_>> = (stale.pod_versions.iter())
            .map(|(old, new)| (old.as_deref(), new.as_deref()))
            .collect();
        analysis.lints =
            placement_lints_after_unbound_pod_edit(snap, &parts.index, previous, &edits).into();
        rerun.lints = true;
    } else if let Some(per_card) = stale.node_lints {
        let inputs = (snap, &parts.index, &analysis.nodes[..]);
        let previous = std::mem::take(&mut *analysis.lints);
        analysis.lints =
            placement_lints_after_node_edit(inputs, &opts.placement, previous, per_card).into();
        rerun.lints = true;
    }
    Some(rerun)
}

/// New allocations of stale nodes: a changed state makes its pool, the moves and the lints
/// stale (the rest of a state reads the node alone).
fn allocations(analysis: &mut Analysis, parts: &Parts, stale: &mut Stale) {
    stale.nodes.sort_unstable();
    stale.nodes.dedup();
    for &n in &stale.nodes {
        let (allocated, occupants) = parts.allocation(n);
        let Some(state) = analysis.nodes.get_mut(n) else {
            continue;
        };
        let mut next = state.clone();
        next.set_allocation(allocated, occupants);
        if next != *state {
            *state = next;
            stale.pools.extend(parts.pool_of(n));
            stale.plan_profiles.extend(parts.pool_of(n));
            stale.plan = true;
            stale.lints = true;
        }
    }
}

/// Rebuilds the components of stale ISVCs with their verdicts and pool contributions; the
/// pools they fed before and after are stale, and the moves.
fn components(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    stale: &mut Stale,
) -> bool {
    stale.isvcs.sort_unstable();
    stale.isvcs.dedup();
    for &i in &stale.isvcs {
        let Some(&(first, count)) = parts.isvc_components.get(i) else {
            return false;
        };
        if count == 0 {
            continue;
        }
        stale.plan = true;
        let range = first..first + count;
        let mut built = Vec::with_capacity(count);
        let migrations = {
            let routes = &parts.routes;
            let pods = crate::engine::workloads::IsvcPods {
                routed: |c| routes.routed(i, c),
                labelled: |c| routes.labelled(i, c),
            };
            isvc_components(snap, &parts.index, &parts.replicas, &pods, i, &mut built)
        };
        if built.len() != count {
            return false;
        }
        let w = &mut analysis.workloads;
        w.components.splice(range.clone(), built);
        if let Some(m) = w.migrations.get_mut(i) {
            *m = migrations;
        }
        stale.plan_components.extend(range.clone());
        for c in range {
            verdicts(snap, opts, analysis, parts, c);
            let (demand, movable) = parts.contributions(analysis, c);
            // The same pods feed the same pools: their GPUs and nodes, had they changed, made
            // their nodes' states (and so their pools) stale already.
            if demand != parts.demand.get(c) || movable != parts.movable.get(c) {
                contribution_pools(parts, c, &mut stale.pools);
                parts.demand.replace(c, demand);
                parts.movable.replace(c, movable);
                contribution_pools(parts, c, &mut stale.pools);
            }
            // Its pods may have moved between pools with its lists the same.
            let pools = parts.component_pools(c);
            parts.members.set(c, pools);
        }
    }
    true
}

/// Replaces component `c`'s verdicts.
fn verdicts(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &mut Parts,
    c: usize,
) {
    let mut fresh = Vec::new();
    let rules = (&parts.rules, opts.now);
    component_verdicts(snap, &analysis.workloads, c, rules, &mut fresh);
    let (start, end) = (parts.verdict_starts[c], parts.verdict_starts[c + 1]);
    let resized = fresh.len() != end - start;
    analysis.verdicts.splice(start..end, fresh);
    if resized {
        parts.count_verdicts(analysis);
    }
}

/// Pushes the pools component `c`'s demand and repack pods sit in.
fn contribution_pools(parts: &Parts, c: usize, out: &mut Vec<usize>) {
    let pods = parts.demand.get(c).iter().chain(parts.movable.get(c));
    out.extend(pods.filter_map(|p| parts.pod_pool(*p)));
}

/// Rescores stale pools; a changed report makes the moves stale: every row of the pool when
/// its flags changed, else the rows that read its profile.
fn pools(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    analysis: &mut Analysis,
    parts: &Parts,
    stale: &mut Stale,
) {
    stale.pools.sort_unstable();
    stale.pools.dedup();
    let pool_of = |n: usize| parts.pool_of(n);
    for &q in &stale.pools {
        let (Some(report), Some(nodes)) = (analysis.pools.get(q), parts.pool_nodes.get(q)) else {
            continue;
        };
        let name = report.name.clone();
        // The pods of the components there, in the order of the full walk (`PoolMembers`).
        let members = parts.members.of_pool(q);
        let mut demand = members.iter().flat_map(|&c| parts.demand.get(c)).copied();
        let mut movable = members.iter().flat_map(|&c| parts.movable.get(c)).copied();
        let data = pool_data(
            snap,
            (&parts.index, &pool_of, &parts.scoring.ladder),
            (q, &name, nodes),
            (&mut demand, &mut movable),
            &parts.pending,
        );
        let scoring = PoolScoring {
            index: &parts.index,
            states: &analysis.nodes,
            rules: &parts.scoring,
            now: opts.now,
        };
        let fresh = score_pool(snap, &scoring, data);
        let old = &analysis.pools[q];
        if row_flags(old) != row_flags(&fresh) {
            stale.plan_pools.push(q);
            stale.plan = true;
        } else if !same_plan_inputs(old, &fresh) {
            stale.plan_profiles.push(q);
            stale.plan = true;
        }
        analysis.pools[q] = fresh;
    }
}

/// What every defragmentation row of a pool reads of its report: which nodes it has and
/// whether it is open and above its threshold.
fn row_flags(r: &PoolReport) -> (&str, &[usize], bool, bool) {
    (&r.name, &r.nodes, r.above_threshold, r.advisory_open)
}
