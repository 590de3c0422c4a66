//! One full analysis of a snapshot: the effective Alfred config, node states, workloads and
//! per-pool fragmentation — everything a view or `ome-top analyze` shows.
//!
//! Owns: `Analysis`, `AnalysisOptions`, `analyze`. Pure and deterministic: time arrives in the
//! options.

mod approval;
mod compare;
mod deadlines;
mod incremental;
mod pending;
pub mod scenario;

pub use crate::engine::workloads::InstanceVerdict;
pub use approval::{InstanceRef, MoveQuery};
pub use compare::compare_moves;
pub use deadlines::{analysis_drifts, Deadlines};
pub use incremental::{
    changes_between, changes_in, Advance, Change, Changed, Incremental, MovesRerun, Rerun,
    MAX_CHANGES,
};

use crate::engine::alfred_config::ScoringRules;
use crate::engine::alfred_config::{effective_alfred_config, AlfredConfig};

use crate::engine::gangs::{compute_gangs, GangReport, PlacementOptions};
use crate::engine::index::SnapshotIndex;
use crate::engine::journal::stalled_verdicts;
use crate::engine::journal::ClearingVerdict;
use crate::engine::lints::{placement_lints, Lint};
use crate::engine::model::{ClusterSnapshot, Shared, Time};
use crate::engine::nodes::PoolMembership;
use crate::engine::nodes::{node_states_with, NodeState, ShapeTable};
use crate::engine::planning::MoveRow;
use crate::engine::planning::PlanContext;
use crate::engine::planning::{decision_pass, decision_pass_owned, JournalView};
use crate::engine::planning::{what_if, WhatIf, WhatIfInput};
use crate::engine::pools::{score_pools, PoolInputs, PoolReport};
use crate::engine::recommendations::{parse_recommendations, Recommendations};
use crate::engine::workloads::{build_workloads_with, Component, DeploymentMode, Workloads};
use crate::engine::workloads::{
    component_baseline, defrag_prechecks, instance_baseline, EligibilityRules,
};

/// Whether the OMENative executor (chart `migration.apiVersion: v1`) is available. The chart
/// value is not readable from the cluster; `Auto` infers it from the dispatch journal, which
/// the chart renders only with `migration.apiVersion: v1` (`alfred.md` §2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExecutorSetting {
    /// Available iff `alfred-dispatch-state` exists in Alfred's namespace.
    #[default]
    Auto,
    /// Assume `migration.apiVersion: v1`.
    Available,
    /// Assume the default install (no executor).
    Unavailable,
}

/// Inputs of an analysis besides the snapshot.
#[derive(Debug, Clone)]
pub struct AnalysisOptions {
    /// Observation time.
    pub now: Time,
    /// Alfred's namespace (default `ome`).
    pub alfred_namespace: String,
    /// Executor availability.
    pub executor: ExecutorSetting,
    /// Gang and placement-lint options (scheduler namespace, capacity model, threshold).
    pub placement: PlacementOptions,
    /// The instance-type table naming the pools of nodes without a GPU product label
    /// (Alfred's `INSTANCE_TYPE_MAP`; `Default`: its built-in table).
    pub instance_types: std::sync::Arc<ShapeTable>,
}

/// The stages `analyze_observed` reports, in order.
pub const STAGES: [&str; 12] = [
    "index",
    "node states",
    "workloads",
    "verdicts",
    "demand",
    "pools",
    "journal",
    "plan context",
    "decision pass",
    "recommendations",
    "gangs",
    "lints",
];

/// Name of Alfred's config ConfigMap.
pub const ALFRED_CONFIG: &str = "alfred-config";
/// Name of Alfred's recommendations ConfigMap.
pub const ALFRED_RECOMMENDATIONS: &str = "alfred-recommendations";
/// Name of Alfred's dispatch journal ConfigMap.
pub const ALFRED_JOURNAL: &str = "alfred-dispatch-state";

/// The result of one analysis. Its large parts are `Shared`: a copy (the incremental
/// analysis's, while a published feed still holds the last one) copies only the parts a
/// change then edits.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// Observation time.
    pub now: Time,
    /// The effective Alfred config (defaults applied).
    pub config: Shared<AlfredConfig>,
    /// Why `alfred-config` was rejected (defaults are then in force), if it was.
    pub config_error: Option<String>,
    /// Whether `alfred-config` exists in Alfred's namespace.
    pub config_present: bool,
    /// Whether the executor is considered available.
    pub executor_available: bool,
    /// Node states, aligned with `snapshot.nodes`.
    pub nodes: Shared<Vec<NodeState>>,
    /// Node indices sorted by name.
    pub node_order: Shared<Vec<usize>>,
    /// Pools sorted by name.
    pub pools: Shared<Vec<PoolReport>>,
    /// Components and Instances.
    pub workloads: Shared<Workloads>,
    /// Eligibility of every OMENative Instance (in component, then Instance order).
    pub verdicts: Shared<Vec<InstanceVerdict>>,
    /// Alfred's dispatch journal.
    pub journal: JournalView,
    /// The §2.4 clearing verdict of every stalled journal entry, by UUID.
    pub clearing: Shared<Vec<(String, ClearingVerdict)>>,
    /// The rows ome-top computes for this pass, in arbitration order.
    pub moves: Shared<Vec<MoveRow>>,
    /// What Alfred published in `alfred-recommendations` (`None` when the ConfigMap is absent).
    pub published: Option<Recommendations>,
    /// Gang pins (gangpack.md §7), sorted by gang.
    pub gangs: Shared<GangReport>,
    /// Placement lints, sorted by (rule, object, message).
    pub lints: Shared<Vec<Lint>>,
    /// Analysis warnings (conversion warnings are added by the caller).
    pub warnings: Vec<String>,
}

impl Analysis {
    /// The eligibility switches this analysis ran with.
    pub fn eligibility_rules(&self) -> EligibilityRules {
        EligibilityRules::from_config(&self.config, self.executor_available)
    }

    /// The what-if of moving Instance `i` of component `c` of `snap` (the snapshot analysed).
    pub fn what_if(&self, snap: &ClusterSnapshot, c: usize, i: usize) -> Option<WhatIf> {
        let input = WhatIfInput {
            snap,
            states: &self.nodes,
            node_order: &self.node_order,
            pools: &self.pools,
            workloads: &self.workloads,
            cfg: &self.config,
        };
        what_if(&input, c, i)
    }
}

/// Runs every engine of this analysis over `snap`.
pub fn analyze(snap: &ClusterSnapshot, opts: &AnalysisOptions) -> Analysis {
    analyze_observed(snap, opts, &mut |_| {})
}

/// `analyze`, calling `stage_done` with each stage's name as it finishes (in `STAGES` order).
/// The engine has no clock: a benchmark times the stages from its own callback.
pub fn analyze_observed(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    stage_done: &mut dyn FnMut(&'static str),
) -> Analysis {
    pipeline(snap, opts, stage_done, false).0
}

/// `analyze_observed`, with the component each move row was built for when `owners` is set
/// (aligned with `Analysis::moves`; `None` for a row no component covers), else nothing.
fn pipeline(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    stage_done: &mut dyn FnMut(&'static str),
    owners: bool,
) -> (Analysis, Vec<Option<usize>>) {
    let ns = opts.alfred_namespace.as_str();
    let config_cm = snap.config_map(ns, ALFRED_CONFIG);
    let yaml = config_cm
        .and_then(|c| c.data.get("config.yaml"))
        .map(String::as_str);
    let (config, config_error) = effective_alfred_config(yaml);
    // Alfred treats a missing key as a failed load (defaults, or its last good config): the
    // operator sees it as rejected like a config that does not parse.
    let config_error = match (config_cm, yaml) {
        (Some(_), None) => Some(format!("{ns}/{ALFRED_CONFIG} has no config.yaml key")),
        _ => config_error.map(|e| e.to_string()),
    };
    let mut warnings = Vec::new();
    let executor_available = match opts.executor {
        ExecutorSetting::Auto => snap.config_map(ns, ALFRED_JOURNAL).is_some(),
        ExecutorSetting::Available => true,
        ExecutorSetting::Unavailable => false,
    };
    let idx = SnapshotIndex::new(snap);
    stage_done("index");
    let states = node_states_with(snap, &idx, &config, &opts.instance_types, opts.now);
    stage_done("node states");
    let workloads = build_workloads_with(snap, &idx);
    stage_done("workloads");
    let rules = EligibilityRules::from_config(&config, executor_available);
    let verdicts = instance_verdicts(snap, &workloads, &rules, opts.now);
    stage_done("verdicts");
    let membership = PoolMembership::new(&states);
    let (demand_pods, movable_pods) = demand_and_movable(&idx, &membership, &workloads, &verdicts);
    stage_done("demand");
    let scoring = ScoringRules::from_config(&config);
    let pools = score_pools(
        snap,
        &PoolInputs {
            index: &idx,
            states: &states,
            membership: &membership,
            demand_pods: &demand_pods,
            movable_pods: &movable_pods,
            rules: &scoring,
            now: opts.now,
        },
    );
    stage_done("pools");
    let journal = JournalView::read(snap, ns);
    let clearing = journal
        .journal()
        .map(|j| stalled_verdicts(snap, j))
        .unwrap_or_default();
    stage_done("journal");
    let ctx = PlanContext::new(
        snap,
        &idx,
        &states,
        &workloads,
        &pools,
        &verdicts,
        (&config, &rules, opts.now),
    );
    stage_done("plan context");
    let (moves, owners) = match owners {
        true => decision_pass_owned(&ctx, &journal),
        false => (decision_pass(&ctx, &journal), Vec::new()),
    };
    stage_done("decision pass");
    let published = snap
        .config_map(ns, ALFRED_RECOMMENDATIONS)
        .map(|c| parse_recommendations(&c.data));
    warnings.extend(published.iter().flat_map(|p| p.warnings.iter().cloned()));
    stage_done("recommendations");
    let gangs = compute_gangs(snap, &idx, &opts.placement);
    warnings.extend(gangs.warnings.iter().cloned());
    stage_done("gangs");
    let lints = placement_lints(snap, &idx, &states, &opts.placement);
    stage_done("lints");
    let analysis = Analysis {
        now: opts.now,
        config: config.into(),
        config_error,
        config_present: config_cm.is_some(),
        executor_available,
        nodes: states.into(),
        node_order: idx.node_order.into(),
        pools: pools.into(),
        workloads: workloads.into(),
        verdicts: verdicts.into(),
        journal,
        clearing: clearing.into(),
        moves: moves.into(),
        published,
        gangs: gangs.into(),
        lints: lints.into(),
        warnings,
    };
    (analysis, owners)
}

/// The eligibility of every OMENative Instance.
pub fn instance_verdicts(
    snap: &ClusterSnapshot,
    workloads: &Workloads,
    rules: &EligibilityRules,
    now: Time,
) -> Vec<InstanceVerdict> {
    // One verdict per OMENative Instance: sized once instead of regrown.
    let omenative = workloads
        .components
        .iter()
        .filter(|c| c.mode == DeploymentMode::OMENative);
    let mut out = Vec::with_capacity(omenative.map(|c| c.instances.len()).sum());
    for c in 0..workloads.components.len() {
        component_verdicts(snap, workloads, c, (rules, now), &mut out);
    }
    out
}

/// Appends the verdicts of component `c`'s Instances (none unless it is OMENative).
pub fn component_verdicts(
    snap: &ClusterSnapshot,
    workloads: &Workloads,
    c: usize,
    (rules, now): (&EligibilityRules, Time),
    out: &mut Vec<InstanceVerdict>,
) {
    let Some(comp) = workloads.components.get(c) else {
        return;
    };
    if comp.mode != DeploymentMode::OMENative {
        return;
    }
    // Both verdicts start with per-component checks: run once, not per Instance.
    let shared = component_baseline(snap, workloads, comp, rules);
    let prechecks = defrag_prechecks(snap, workloads, comp, rules, now);
    for (i, inst) in comp.instances.iter().enumerate() {
        // Cloning a known reason copies its tag: nothing is allocated.
        let baseline = shared
            .clone()
            .and_then(|rev| instance_baseline(snap, comp, inst, rev));
        out.push(InstanceVerdict {
            component: c,
            instance: i,
            defrag: prechecks.clone().and(baseline.clone()),
            baseline,
        });
    }
}

/// Pods of every Instance with GPUs (demand), and pods of OMENative Instances executable for
/// defragmentation whose pods all sit in one pool (repack items).
pub fn demand_and_movable(
    idx: &SnapshotIndex,
    membership: &PoolMembership<'_>,
    workloads: &Workloads,
    verdicts: &[InstanceVerdict],
) -> (Vec<usize>, Vec<usize>) {
    // Pools compare by index: equal indices are equal pool keys.
    let pool_of = |node: usize| membership.of_node(node);
    let instance_pods = workloads.components.iter().flat_map(|c| &c.instances);
    let instance_pods: usize = instance_pods.map(|i| i.pods.len()).sum();
    // Both lists hold at most every Instance pod: sized once, never regrown.
    let mut demand = Vec::with_capacity(instance_pods);
    for comp in &workloads.components {
        component_demand(idx, &pool_of, comp, &mut demand);
    }
    let mut movable = Vec::with_capacity(instance_pods);
    component_movable(idx, &pool_of, workloads, verdicts, &mut movable);
    (demand, movable)
}

/// Appends the pods of `comp`'s Instances that count as demand: with GPUs, on a pool's node
/// (`pool_of` a node index).
pub fn component_demand(
    idx: &SnapshotIndex,
    pool_of: &impl Fn(usize) -> Option<usize>,
    comp: &Component,
    demand: &mut Vec<usize>,
) {
    for inst in &comp.instances {
        demand.extend(
            inst.pods
                .iter()
                .copied()
                .filter(|p| idx.gpus(*p) > 0 && idx.node_of(*p).and_then(pool_of).is_some()),
        );
    }
}

/// Appends the repack items of the Instances `verdicts` judge (any run of verdicts): pods
/// with GPUs of Instances executable for defragmentation whose pods all sit in one pool.
pub fn component_movable(
    idx: &SnapshotIndex,
    pool_of: &impl Fn(usize) -> Option<usize>,
    workloads: &Workloads,
    verdicts: &[InstanceVerdict],
    movable: &mut Vec<usize>,
) {
    let pod_pool = |pod: usize| idx.node_of(pod).and_then(pool_of);
    for v in verdicts.iter().filter(|v| v.defrag.is_ok()) {
        let inst = &workloads.components[v.component].instances[v.instance];
        let mut pools = inst.pods.iter().map(|p| pod_pool(*p));
        let first = pools.next().flatten();
        if inst.gpus > 0 && first.is_some() && pools.all(|p| p == first) {
            movable.extend(inst.pods.iter().copied().filter(|p| idx.gpus(*p) > 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn observer_sees_every_stage_in_order() {
        let opts = AnalysisOptions {
            now: Time::default(),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        };
        let mut seen = Vec::new();
        let observed = analyze_observed(&ClusterSnapshot::default(), &opts, &mut |s| seen.push(s));
        assert_eq!(seen, STAGES);
        let plain = analyze(&ClusterSnapshot::default(), &opts);
        assert_eq!(observed.moves, plain.moves);
        assert_eq!(observed.nodes, plain.nodes);
    }
}
