//! The what-if of moving one Instance, computed on demand for any Instance (advice included):
//! the surge plan Alfred would make (`alfred.md` §6.4, the same target list and greedy
//! placement as the decision pass), the pool's weighted fragmentation before and after it,
//! and the candidate targets with their free GPUs against the Instance's footprint — what an
//! operator reads to judge a `NoSurgeHeadroom` or to approve a move the engine called advice.
//!
//! Costs one pool's target list and bins, not a decision pass. Owns: `WhatIfInput`, `WhatIf`,
//! `what_if`. Pure.

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::model::ClusterSnapshot;
use crate::engine::nodes::NodeState;
use crate::engine::planning::benefit::PoolProfile;
use crate::engine::planning::surge::PoolTargets;
use crate::engine::pools::{pool_bins, PoolReport};
use crate::engine::workloads::Workloads;

/// Candidate targets listed at most.
pub const CANDIDATES_SHOWN: usize = 5;

/// What the what-if reads: one analysis' node states, node order, pools and workloads.
#[derive(Debug, Clone, Copy)]
pub struct WhatIfInput<'a> {
    /// The snapshot analysed.
    pub snap: &'a ClusterSnapshot,
    /// Node states aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Node indices sorted by name.
    pub node_order: &'a [usize],
    /// Pool reports sorted by name.
    pub pools: &'a [PoolReport],
    /// Components and Instances.
    pub workloads: &'a Workloads,
    /// The effective Alfred config (spot policy).
    pub cfg: &'a AlfredConfig,
}

/// The what-if of one Instance.
#[derive(Debug, Clone, PartialEq)]
pub struct WhatIf {
    /// The Instance's pool.
    pub pool: String,
    /// The pool's weighted fragmentation now.
    pub before: f64,
    /// After the planned move (`None` without a plan, or when a target is not a bin).
    pub after: Option<f64>,
    /// Source node index (the node with most of the Instance's GPUs).
    pub from: Option<usize>,
    /// GPUs of each pod with GPUs, largest first: what a target must take.
    pub footprints: Vec<u32>,
    /// `(pod index, target node index)` per footprint; `None` = no room (`NoSurgeHeadroom`).
    pub placements: Option<Vec<(usize, usize)>>,
    /// Candidate targets `(node index, free GPUs)`, most free first, at most
    /// [`CANDIDATES_SHOWN`].
    pub candidates: Vec<(usize, u32)>,
    /// Every candidate target of the pool for this Instance.
    pub candidate_count: usize,
}

impl WhatIfInput<'_> {
    /// The node named `name` (by the name order).
    fn node(&self, name: &str) -> Option<usize> {
        let nodes = &self.snap.nodes;
        let at = self
            .node_order
            .partition_point(|n| nodes[*n].name.as_ref() < name);
        let n = *self.node_order.get(at)?;
        (nodes[n].name.as_ref() == name).then_some(n)
    }

    fn node_of(&self, pod: usize) -> Option<usize> {
        self.node(self.snap.pods.get(pod)?.node.as_deref()?)
    }

    fn pool_of(&self, node: usize) -> Option<usize> {
        let name = self.states.get(node)?.pool.as_deref()?;
        self.pools.iter().position(|p| p.name == name)
    }
}

/// The what-if of Instance `i` of component `c`; `None` when it has no GPUs, or its GPU pods
/// are not all in one pool.
pub fn what_if(input: &WhatIfInput<'_>, c: usize, i: usize) -> Option<WhatIf> {
    let comp = input.workloads.components.get(c)?;
    let inst = comp.instances.get(i)?;
    let pods = &input.snap.pods;
    let mut footprints: Vec<(usize, u32)> = inst
        .pods
        .iter()
        .filter_map(|p| Some((*p, pods.get(*p)?.gpus)))
        .filter(|(_, g)| *g > 0)
        .collect();
    let key = |p: usize| (pods[p].namespace.as_ref(), pods[p].name.as_ref());
    footprints.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| key(a.0).cmp(&key(b.0))));
    let used: Vec<usize> = inst.pods.iter().filter_map(|p| input.node_of(*p)).collect();
    let first = input
        .node_of(footprints.first()?.0)
        .and_then(|n| input.pool_of(n));
    let one_pool = footprints
        .iter()
        .all(|(p, _)| input.node_of(*p).and_then(|n| input.pool_of(n)) == first);
    let pool = first.filter(|_| one_pool)?;
    let report = &input.pools[pool];
    let avoid_spot = input.cfg.spot_policy.avoid_as_target;
    let ranks = name_ranks(input);
    let targets = PoolTargets::build(&report.nodes, input.states, &ranks, avoid_spot);
    let isvc = input.snap.isvcs.get(comp.isvc);
    let avoid = isvc.and_then(|w| w.annotation("alfred.ome.io/spot-policy")) == Some("avoid");
    let skip = |n: usize| avoid && input.states[n].preemptible;
    let placements = targets.placements(&footprints, &used, &skip);
    let from = source_node(input, &footprints, &ranks);
    let profile = profile(report, input.states, avoid_spot);
    let after = placements.as_ref().and_then(|pl| {
        let moves = pl.iter().filter_map(|(pod, target)| {
            Some((input.node_of(*pod)?, *target, pods.get(*pod)?.gpus))
        });
        profile.after_moves_iter(moves)
    });
    let mut candidates: Vec<(usize, u32)> = targets
        .candidates(0)
        .filter(|(_, n)| !used.contains(n) && !skip(*n))
        .map(|(free, n)| (n, free))
        .collect();
    // Most free first, then by name.
    candidates.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| ranks[a.0].cmp(&ranks[b.0])));
    let candidate_count = candidates.len();
    candidates.truncate(CANDIDATES_SHOWN);
    Some(WhatIf {
        pool: report.name.clone(),
        before: profile.observed,
        after,
        from,
        footprints: footprints.iter().map(|(_, g)| *g).collect(),
        placements,
        candidates,
        candidate_count,
    })
}

/// Each node's rank in name order (aligned with `snap.nodes`).
fn name_ranks(input: &WhatIfInput<'_>) -> Vec<usize> {
    let mut ranks = vec![usize::MAX; input.snap.nodes.len()];
    for (rank, n) in input.node_order.iter().enumerate() {
        if let Some(r) = ranks.get_mut(*n) {
            *r = rank;
        }
    }
    ranks
}

/// The node holding most of the footprints' GPUs (ties: the first name), as the pass picks it.
fn source_node(
    input: &WhatIfInput<'_>,
    footprints: &[(usize, u32)],
    ranks: &[usize],
) -> Option<usize> {
    let mut per_node: Vec<(usize, u32)> = Vec::new();
    for (pod, gpus) in footprints {
        let Some(n) = input.node_of(*pod) else {
            continue;
        };
        match per_node.iter_mut().find(|(m, _)| *m == n) {
            Some((_, g)) => *g += gpus,
            None => per_node.push((n, *gpus)),
        }
    }
    per_node
        .iter()
        .max_by(|a, b| a.1.cmp(&b.1).then_with(|| ranks[b.0].cmp(&ranks[a.0])))
        .map(|(n, _)| *n)
}

/// The pool's benefit profile, as the pass builds it.
fn profile(report: &PoolReport, states: &[NodeState], avoid_spot: bool) -> PoolProfile {
    let bins = pool_bins(&report.nodes, states, avoid_spot);
    let ladder: Vec<u32> = report.sizes.iter().map(|s| s.size).collect();
    let weights: Vec<f64> = report.sizes.iter().map(|s| s.weight).collect();
    let slots: Vec<u64> = report.sizes.iter().map(|s| s.slots_observed).collect();
    PoolProfile::new(&bins, &ladder, &weights, &slots)
}
