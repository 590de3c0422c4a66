//! Per-pool fragmentation (`alfred.md` §6.1–§6.3): bins, pending attribution, demand weights,
//! observed/best/reclaimable, pending pressure, score and threshold, plus the operator extras
//! (whole free nodes, stuck fragmentation, largest fit now and after a repack, the pending
//! GPU pods by requested size).
//!
//! Owns: `PoolReport`, `score_pools` (`PendingSize`, `room` in `pending`). Pure.

mod fit;
mod fragmentation;
mod pending;
mod score;

pub use fragmentation::{frag, profile, weights, Bin};
pub use pending::{room, PendingSize};
pub use score::{drifts, retime_pool, score_pool};

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::ScoringRules;
use crate::engine::fast::PairsByAddress;
use crate::engine::fast::PodKey;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Time};
use crate::engine::nodes::NodeState;
use crate::engine::nodes::PoolMembership;
use crate::engine::pools::fragmentation::snap;

/// Per-size figures of one pool.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeReport {
    /// Ladder size, GPUs.
    pub size: u32,
    /// Demand weight `w(s)`.
    pub weight: f64,
    /// Slots on the observed bins.
    pub slots_observed: u64,
    /// Slots on the repacked bins.
    pub slots_best: u64,
    /// `frag(s)` observed, in [0, 1].
    pub frag_observed: f64,
    /// `frag(s)` after the repack, in [0, 1].
    pub frag_best: f64,
}

/// One GPU pool's fragmentation report.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolReport {
    /// Pool key.
    pub name: String,
    /// The most common GPU resource of the pool's nodes.
    pub gpu_resource: String,
    /// Indices of every node of the pool (into `ClusterSnapshot::nodes`), name-sorted.
    pub nodes: Vec<usize>,
    /// Σ allocatable GPUs over all the pool's nodes.
    pub total_gpus: u64,
    /// `TotalFree`: free GPUs on the schedulable bins.
    pub free_gpus: u64,
    /// Free GPUs on all the pool's nodes.
    pub free_gpus_all_nodes: u64,
    /// Schedulable bins with every GPU free.
    pub whole_free_nodes: u64,
    /// Weighted fragmentation observed.
    pub observed: f64,
    /// Weighted fragmentation after the first-fit repack of movable Instances.
    pub best: f64,
    /// `max(0, observed − best)`.
    pub reclaimable: f64,
    /// `observed − reclaimable`: fragmentation no move can fix.
    pub stuck: f64,
    /// Pending pressure in [0, 1].
    pub pending_pressure: f64,
    /// `S = 1 − (1 − reclaimable)(1 − pressure)`.
    pub score: f64,
    /// `S > threshold` (execution open).
    pub above_threshold: bool,
    /// `stuck > threshold` (advisory open).
    pub advisory_open: bool,
    /// Per ladder size.
    pub sizes: Vec<SizeReport>,
    /// Pending GPU pods counted in this pool (attributed or unattributed).
    pub pending_pods: u64,
    /// Longest pending wait, minutes.
    pub oldest_pending_minutes: f64,
    /// Largest free block on one bin now, GPUs.
    pub largest_fit_now: u32,
    /// Largest free block on one bin after the repack, GPUs.
    pub largest_fit_after: u32,
    /// The most GPUs any node of the pool has (allocatable): a pod asking more never runs here.
    pub largest_node_gpus: u32,
    /// The pending GPU pods by requested size, largest first, with their room now and after
    /// the repack (`pending`).
    pub pending_sizes: Vec<PendingSize>,
    /// Movable pod footprints used for the repack.
    pub movable_pods: u64,
    /// Pending GPU pods counted in this pool (snapshot indices).
    pub pending: Vec<usize>,
}

/// Inputs to the pool scoring besides the snapshot.
pub struct PoolInputs<'a> {
    /// The snapshot's cross-references.
    pub index: &'a SnapshotIndex,
    /// Node states, aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// The pools of `states`.
    pub membership: &'a PoolMembership<'a>,
    /// Pods of OME Instances that count as demand (snapshot indices).
    pub demand_pods: &'a [usize],
    /// Pods of Instances executable for defragmentation (snapshot indices).
    pub movable_pods: &'a [usize],
    /// Scoring rules.
    pub rules: &'a ScoringRules,
    /// Observation time.
    pub now: Time,
}

/// What scoring one pool reads besides its `PoolData`.
pub struct PoolScoring<'a> {
    /// The snapshot's cross-references.
    pub index: &'a SnapshotIndex,
    /// Node states, aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Scoring rules.
    pub rules: &'a ScoringRules,
    /// Observation time.
    pub now: Time,
}

impl PoolInputs<'_> {
    /// The inputs every pool's score reads.
    pub fn scoring(&self) -> PoolScoring<'_> {
        PoolScoring {
            index: self.index,
            states: self.states,
            rules: self.rules,
            now: self.now,
        }
    }
}

/// The pool each pending GPU pod belongs to (`None` = unattributed, counted in every pool).
pub fn attribute_pending(
    snap: &ClusterSnapshot,
    states: &[NodeState],
    pools: &[String],
) -> Vec<(usize, Option<usize>)> {
    let pool_index: HashMap<&str, usize> = pools
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut pool_nodes = vec![Vec::new(); pools.len()];
    for (n, s) in states.iter().enumerate() {
        if let Some(p) = s.pool.as_deref().and_then(|k| pool_index.get(k)) {
            pool_nodes[*p].push(n);
        }
    }
    attribute_pending_in(snap, 0..snap.pods.len(), &pool_nodes)
}

/// `attribute_pending` over the candidate pods `pods` (ascending), with the nodes of each
/// pool in `pool_nodes`.
pub fn attribute_pending_in(
    snap: &ClusterSnapshot,
    pods: impl Iterator<Item = usize>,
    pool_nodes: &[Vec<usize>],
) -> Vec<(usize, Option<usize>)> {
    let pool_count = pool_nodes.len();
    // The one pool holding every node that matches `selector` (nodes outside pools do not
    // count): a pool needs one matching node to count, so its scan stops at the first.
    let pool_of_selector = |selector: &[(Name, Name)]| {
        let mut found = None;
        for (p, nodes) in pool_nodes.iter().enumerate() {
            let labels = |n: &usize| &snap.nodes[*n].labels;
            if nodes.iter().any(|n| labels(n).matches_all(selector)) {
                if found.is_some() {
                    return None;
                }
                found = Some(p);
            }
        }
        found
    };
    // Keyed by the selector's shared names: no text is hashed or compared per pending pod.
    let mut cache: HashMap<PairsByAddress<'_>, Option<usize>> = HashMap::default();
    let mut out = Vec::new();
    for i in pods {
        let pod = &snap.pods[i];
        if !pod.is_pending_gpu() {
            continue;
        }
        let pool = if pool_count == 1 {
            Some(0)
        } else if pod.node_selector.is_empty() {
            None
        } else {
            *cache
                .entry(PairsByAddress(&pod.node_selector))
                .or_insert_with(|| pool_of_selector(&pod.node_selector))
        };
        out.push((i, pool));
    }
    out
}

/// A movable pod footprint of a pool, ordered by its `ns/name` key in the repack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PoolItem<'a> {
    /// GPUs of the pod (> 0).
    pub gpus: u32,
    /// Index of the bin the pod runs on (set by `score_pool`).
    pub home: Option<usize>,
    /// `ns/podName`, the tie-break of the item order.
    pub key: PodKey<'a>,
}

/// Scores every pool. Pools are sorted by name.
pub fn score_pools(snap: &ClusterSnapshot, input: &PoolInputs<'_>) -> Vec<PoolReport> {
    let (idx, m) = (input.index, input.membership);
    // A pending GPU pod has no `spec.nodeName`: the unbound pods (a few thousand, ascending)
    // hold every one, so the other ~100,000 pods are never loaded here.
    let pending = attribute_pending_in(snap, idx.unbound.iter().copied(), &m.nodes);
    let pod_pool = |p: usize| {
        let n = idx.node_of(p)?;
        Some((n, m.of_node(n)?))
    };
    let ladder = &input.rules.ladder;
    let mut demand = vec![vec![0u64; ladder.len()]; m.len()];
    for p in input.demand_pods {
        if let Some((_, pool)) = pod_pool(*p) {
            add_demand(&mut demand[pool], ladder, snap.pods[*p].gpus);
        }
    }
    for (p, pool) in &pending {
        let gpus = snap.pods[*p].gpus;
        match pool {
            Some(pool) => add_demand(&mut demand[*pool], ladder, gpus),
            None => demand.iter_mut().for_each(|d| add_demand(d, ladder, gpus)),
        }
    }
    let mut items: Vec<Vec<(usize, PoolItem<'_>)>> = vec![Vec::new(); m.len()];
    for p in input.movable_pods {
        if let Some((node, pool, item)) = pool_item(snap, &pod_pool, *p) {
            items[pool].push((node, item));
        }
    }
    let scoring = input.scoring();
    m.names
        .iter()
        .zip(&m.nodes)
        .zip(demand)
        .zip(items)
        .enumerate()
        .map(|(i, (((name, nodes), demand), items))| {
            let pending_here: Vec<usize> = pending
                .iter()
                .filter(|(_, pool)| pool.is_none_or(|p| p == i))
                .map(|(p, _)| *p)
                .collect();
            let pool = PoolData {
                name,
                nodes: nodes.clone(),
                demand,
                items,
                pending: pending_here,
            };
            score_pool(snap, &scoring, pool)
        })
        .collect()
}

/// The repack item of movable pod `p` with its node and pool (`pod_pool`: a pod's node and
/// pool), when it has GPUs and sits in a pool.
fn pool_item<'a>(
    snap: &'a ClusterSnapshot,
    pod_pool: &impl Fn(usize) -> Option<(usize, usize)>,
    p: usize,
) -> Option<(usize, usize, PoolItem<'a>)> {
    let pod = &snap.pods[p];
    let (node, pool) = pod_pool(p).filter(|_| pod.gpus > 0)?;
    let item = PoolItem {
        gpus: pod.gpus,
        home: None,
        key: PodKey::of(pod),
    };
    Some((node, pool, item))
}

/// One pool's `PoolData` as `score_pools` gathers it: pool `pool` of `pool_nodes` (named
/// `name`), its share of the demand pods, movable pods and attributed pending pods (`pending`,
/// ascending), with `pool_of` a node's pool.
pub fn pool_data<'a>(
    snap: &'a ClusterSnapshot,
    (index, pool_of, ladder): (&SnapshotIndex, &dyn Fn(usize) -> Option<usize>, &[u32]),
    (pool, name, nodes): (usize, &'a str, &[usize]),
    (demand_pods, movable_pods): (
        &mut dyn Iterator<Item = usize>,
        &mut dyn Iterator<Item = usize>,
    ),
    pending: &[(usize, Option<usize>)],
) -> PoolData<'a> {
    let pod_pool = |p: usize| {
        let n = index.node_of(p)?;
        Some((n, pool_of(n)?))
    };
    let mut demand = vec![0u64; ladder.len()];
    for p in demand_pods {
        if pod_pool(p).is_some_and(|(_, q)| q == pool) {
            add_demand(&mut demand, ladder, snap.pods[p].gpus);
        }
    }
    let pending: Vec<usize> = pending
        .iter()
        .filter(|(_, q)| q.is_none_or(|q| q == pool))
        .map(|(p, _)| *p)
        .collect();
    for p in &pending {
        add_demand(&mut demand, ladder, snap.pods[*p].gpus);
    }
    let items = movable_pods
        .filter_map(|p| pool_item(snap, &pod_pool, p))
        .filter(|(_, q, _)| *q == pool)
        .map(|(node, _, item)| (node, item))
        .collect();
    PoolData {
        name,
        nodes: nodes.to_vec(),
        demand,
        items,
        pending,
    }
}

fn add_demand(demand: &mut [u64], ladder: &[u32], gpus: u32) {
    if gpus == 0 {
        return;
    }
    let s = snap(gpus, ladder);
    if let Some(i) = ladder.iter().position(|l| *l == s) {
        demand[i] += u64::from(gpus);
    }
}

/// One pool's raw inputs, gathered by `score_pools`.
pub struct PoolData<'a> {
    /// Pool key.
    pub name: &'a str,
    /// Node indices of the pool.
    pub nodes: Vec<usize>,
    /// GPUs per ladder size.
    pub demand: Vec<u64>,
    /// Movable footprints with their node index (home resolved later).
    pub items: Vec<(usize, PoolItem<'a>)>,
    /// Pending pods counted in the pool.
    pub pending: Vec<usize>,
}

/// Builds the observed bins of a pool: `(node index, bin)` of every schedulable node.
pub fn pool_bins(nodes: &[usize], states: &[NodeState], avoid_spot: bool) -> Vec<(usize, Bin)> {
    nodes
        .iter()
        .filter(|n| states[**n].is_bin(avoid_spot))
        .map(|n| {
            let s = &states[*n];
            (
                *n,
                Bin {
                    free: s.free,
                    cap: s.total,
                },
            )
        })
        .collect()
}

#[cfg(test)]
mod tests;
