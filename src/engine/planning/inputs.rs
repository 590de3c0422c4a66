//! Building the context of one decision pass: what the pass reads (`PlanInputs`), which of a
//! pool report's fields it reads (`same_plan_inputs`), the target lists and benefit profiles
//! per pool, and the Instance facts — of every component, or of a few for their rows alone (`Focus`).
//!
//! Owns: `PlanInputs`, `same_plan_inputs`, `PlanContext::new`, `PlanContext::for_components`. Pure.

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Time, COMPONENTS};
use crate::engine::nodes::NodeState;
use crate::engine::planning::benefit::PoolProfile;
use crate::engine::planning::layout::{Focus, Layout};
use crate::engine::planning::surge::PoolTargets;
use crate::engine::planning::PlanContext;
use crate::engine::pools::Bin;
use crate::engine::pools::{pool_bins, PoolReport};
use crate::engine::workloads::EligibilityRules;
use crate::engine::workloads::{InstanceVerdict, Workloads};

/// Whether a pass reads the same of two reports of one pool: they differ at most in figures
/// no policy reads (the repack's results, the score, the operator extras). Every field is
/// named, so a new `PoolReport` field does not compile here until it is sorted in.
pub fn same_plan_inputs(a: &PoolReport, b: &PoolReport) -> bool {
    let PoolReport {
        name,
        gpu_resource: _,
        nodes,
        total_gpus: _,
        free_gpus: _,
        free_gpus_all_nodes: _,
        whole_free_nodes: _,
        observed: _,
        best: _,
        reclaimable: _,
        stuck: _,
        pending_pressure: _,
        score: _,
        above_threshold,
        advisory_open,
        sizes,
        pending_pods: _,
        oldest_pending_minutes: _,
        largest_fit_now: _,
        largest_fit_after: _,
        largest_node_gpus: _,
        pending_sizes: _,
        movable_pods: _,
        pending,
    } = a;
    let profile = |s: &[crate::engine::pools::SizeReport]| -> Vec<(u32, u64, u64)> {
        s.iter()
            .map(|s| (s.size, s.weight.to_bits(), s.slots_observed))
            .collect()
    };
    (name, nodes, above_threshold, advisory_open, pending)
        == (
            &b.name,
            &b.nodes,
            &b.above_threshold,
            &b.advisory_open,
            &b.pending,
        )
        && profile(sizes) == profile(&b.sizes)
}

/// What a pass reads besides the snapshot, its index and the config.
pub struct PlanInputs<'a> {
    /// Node states aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Components and Instances.
    pub workloads: &'a Workloads,
    /// Pool reports, sorted by name.
    pub pools: &'a [PoolReport],
    /// Eligibility of every OMENative Instance.
    pub verdicts: &'a [InstanceVerdict],
}

/// The pools whose targets and profiles a context needs: every pool, or only those holding
/// pods of the `focus` components (their rows read no other pool).
fn needed_pools(
    index: &SnapshotIndex,
    workloads: &Workloads,
    node_pool: &[Option<usize>],
    count: usize,
    focus: Option<&[usize]>,
) -> Vec<bool> {
    let Some(focus) = focus else {
        return vec![true; count];
    };
    let mut needed = vec![false; count];
    for comp in focus.iter().filter_map(|&c| workloads.components.get(c)) {
        let pods = comp.instances.iter().flat_map(|i| i.pods.iter());
        for n in pods.filter_map(|p| index.node_of(*p)) {
            if let Some(p) = node_pool.get(n).copied().flatten() {
                needed[p] = true;
            }
        }
    }
    needed
}

impl<'a> PlanContext<'a> {
    /// Builds the indices, target lists and profiles.
    pub fn new(
        snap: &'a ClusterSnapshot,
        index: &'a SnapshotIndex,
        states: &'a [NodeState],
        workloads: &'a Workloads,
        pools: &'a [PoolReport],
        verdicts: &'a [InstanceVerdict],
        settings: (&'a AlfredConfig, &'a EligibilityRules, Time),
    ) -> Self {
        let inputs = PlanInputs {
            states,
            workloads,
            pools,
            verdicts,
        };
        Self::for_components(snap, index, inputs, settings, None)
    }

    /// `new` with the Instance facts of the `focus` components alone (all when `None`): a
    /// context for the rows of those components (`component_rows`), whose cost is what
    /// they hold, not what the fleet holds. The node names are then read from the nodes as
    /// rows need them.
    pub fn for_components(
        snap: &'a ClusterSnapshot,
        index: &'a SnapshotIndex,
        inputs: PlanInputs<'a>,
        (cfg, rules, now): (&'a AlfredConfig, &'a EligibilityRules, Time),
        focus: Option<Focus<'a>>,
    ) -> Self {
        let PlanInputs {
            states,
            workloads,
            pools,
            verdicts,
        } = inputs;
        let avoid_spot = cfg.spot_policy.avoid_as_target;
        let ranks = index.node_ranks();
        let node_pool = match focus {
            Some(f) => Cow::Borrowed(f.node_pool),
            None => Cow::Owned(node_pools(pools, states.len())),
        };
        let listed = focus.map(|f| f.components);
        let needed = needed_pools(index, workloads, &node_pool, pools.len(), listed);
        let targets = pools
            .iter()
            .zip(&needed)
            .map(|(p, needed)| match needed {
                true => PoolTargets::build(&p.nodes, states, ranks, avoid_spot),
                false => PoolTargets::default(),
            })
            .collect();
        let profiles = pools
            .iter()
            .zip(&needed)
            .map(|(p, needed)| {
                if !needed {
                    return PoolProfile::default();
                }
                let bins: Vec<(usize, Bin)> = pool_bins(&p.nodes, states, avoid_spot);
                let ladder: Vec<u32> = p.sizes.iter().map(|s| s.size).collect();
                let weights: Vec<f64> = p.sizes.iter().map(|s| s.weight).collect();
                let slots: Vec<u64> = p.sizes.iter().map(|s| s.slots_observed).collect();
                PoolProfile::new(&bins, &ladder, &weights, &slots)
            })
            .collect();
        let pool_index: HashMap<&str, usize> = pools
            .iter()
            .enumerate()
            .map(|(i, p)| (p.name.as_str(), i))
            .collect();
        let comps = &workloads.components;
        let layout = Layout::new(comps.len(), |c| comps[c].instances.len(), listed);
        let total = layout.total();
        // Sized once for the components laid out: regrowing lists of ~100,000 entries copies
        // them over and over, and a few components' lists need no more.
        let pods: usize = (layout.components(comps.len()))
            .flat_map(|c| &comps[c].instances)
            .map(|i| i.pods.len())
            .sum();
        let mut ctx = PlanContext {
            snap,
            states,
            workloads,
            pools,
            cfg,
            rules,
            now,
            index,
            pool_index,
            targets,
            profiles,
            node_pool,
            layout,
            facts: Vec::with_capacity(total),
            footprint_list: Vec::with_capacity(pods),
            used_list: Vec::with_capacity(pods),
            verdicts: vec![None; total],
            component_names: COMPONENTS.map(Name::from),
            node_names: match focus {
                None => snap.nodes.iter().map(|n| n.name.clone()).collect(),
                Some(_) => Vec::new(),
            },
            workload_ranks: &workloads.workload_ranks,
        };
        // An Instance's last verdict counts; those of components not laid out have no slot.
        for v in verdicts {
            if let Some(slot) = ctx.slot(v.component, v.instance) {
                ctx.verdicts[slot] = Some(v);
            }
        }
        let laid_out: Vec<usize> = ctx.layout.components(comps.len()).collect();
        for c in laid_out {
            for inst in &comps[c].instances {
                let f = ctx.push_facts(inst);
                ctx.facts.push(f);
            }
        }
        ctx
    }
}

/// The pool of each of `nodes` nodes: a pool report lists every node whose state names that
/// pool.
fn node_pools(pools: &[PoolReport], nodes: usize) -> Vec<Option<usize>> {
    let mut node_pool = vec![None; nodes];
    for (p, report) in pools.iter().enumerate() {
        for n in &report.nodes {
            if let Some(slot) = node_pool.get_mut(*n) {
                *slot = Some(p);
            }
        }
    }
    node_pool
}
