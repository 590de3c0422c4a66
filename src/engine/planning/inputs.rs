//! Building the context of one decision pass: what the pass reads (`PlanInputs`), which of a
//! pool report's fields it reads (`same_plan_inputs`), the target lists and benefit profiles
//! per pool, and the Instance facts — of every component, or of a few for their rows alone.
//!
//! Owns: `PlanInputs`, `same_plan_inputs`, `PlanContext::new`, `PlanContext::for_components`. Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Time, COMPONENTS};
use crate::engine::nodes::NodeState;
use crate::engine::planning::benefit::PoolProfile;
use crate::engine::planning::surge::PoolTargets;
use crate::engine::planning::{InstanceFacts, PlanContext};
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
/// pods of the components `only` marks (their rows read no other pool).
fn needed_pools(
    index: &SnapshotIndex,
    workloads: &Workloads,
    node_pool: &[Option<usize>],
    count: usize,
    only: Option<&[bool]>,
) -> Vec<bool> {
    let Some(only) = only else {
        return vec![true; count];
    };
    let mut needed = vec![false; count];
    let marked = workloads.components.iter().zip(only).filter(|(_, o)| **o);
    for (comp, _) in marked {
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

    /// `new` with the Instance facts of the components `only` marks (all when `None`): a
    /// context for the rows of those components alone (`component_rows`). The node names are
    /// then read from the nodes as rows need them.
    pub fn for_components(
        snap: &'a ClusterSnapshot,
        index: &'a SnapshotIndex,
        inputs: PlanInputs<'a>,
        (cfg, rules, now): (&'a AlfredConfig, &'a EligibilityRules, Time),
        only: Option<&[bool]>,
    ) -> Self {
        let PlanInputs {
            states,
            workloads,
            pools,
            verdicts,
        } = inputs;
        let avoid_spot = cfg.spot_policy.avoid_as_target;
        let ranks = index.node_ranks();
        // A pool report lists every node whose state names that pool.
        let mut node_pool = vec![None; states.len()];
        for (p, report) in pools.iter().enumerate() {
            for n in &report.nodes {
                if let Some(slot) = node_pool.get_mut(*n) {
                    *slot = Some(p);
                }
            }
        }
        let needed = needed_pools(index, workloads, &node_pool, pools.len(), only);
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
        let mut offsets = Vec::with_capacity(workloads.components.len() + 1);
        offsets.push(0);
        for c in &workloads.components {
            offsets.push(offsets[offsets.len() - 1] + c.instances.len());
        }
        let total = offsets[offsets.len() - 1];
        // Sized once for the components whose facts are wanted: regrowing lists of ~100,000
        // entries copies them over and over, and a few components' lists need no more.
        let wanted = |c: usize| only.is_none_or(|o| o.get(c).copied().unwrap_or(false));
        let pods: usize = (workloads.components.iter().enumerate())
            .filter(|(c, _)| wanted(*c))
            .flat_map(|(_, c)| &c.instances)
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
            offsets,
            facts: Vec::with_capacity(total),
            footprint_list: Vec::with_capacity(pods),
            used_list: Vec::with_capacity(pods),
            verdicts: vec![None; total],
            component_names: COMPONENTS.map(Name::from),
            node_names: match only {
                None => snap.nodes.iter().map(|n| n.name.clone()).collect(),
                Some(_) => Vec::new(),
            },
            workload_ranks: &workloads.workload_ranks,
        };
        for v in verdicts {
            if let Some(slot) = ctx.slot(v.component, v.instance) {
                ctx.verdicts[slot] = Some(v);
            }
        }
        for (c, comp) in workloads.components.iter().enumerate() {
            let want = wanted(c);
            for inst in &comp.instances {
                let f = if want {
                    ctx.push_facts(inst)
                } else {
                    InstanceFacts::default()
                };
                ctx.facts.push(f);
            }
        }
        ctx
    }
}
