//! Per-pool fragmentation (`alfred.md` §6.1–§6.3): bins, pending attribution, demand weights,
//! observed/best/reclaimable, pending pressure, score and threshold, plus the operator extras
//! (whole free nodes, stuck fragmentation, largest fit now and after a repack).
//!
//! Owns: `PoolReport`, `score_pools`. Pure; must not import anything outside `std`, `chrono`
//! types and `engine`.

use std::collections::{BTreeMap, HashMap};

use crate::engine::fragmentation::{self, snap, Bin, RepackItem};
use crate::engine::model::{ClusterSnapshot, Name, Time};
use crate::engine::nodes::NodeState;
use crate::engine::scoring::ScoringRules;

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
    /// Movable pod footprints used for the repack.
    pub movable_pods: u64,
    /// Pending GPU pods counted in this pool (snapshot indices).
    pub pending: Vec<usize>,
}

/// Inputs to the pool scoring besides the snapshot.
pub struct PoolInputs<'a> {
    /// Node states, aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Pods of OME Instances that count as demand (snapshot indices).
    pub demand_pods: &'a [usize],
    /// Pods of Instances executable for defragmentation (snapshot indices).
    pub movable_pods: &'a [usize],
    /// Scoring rules.
    pub rules: &'a ScoringRules,
    /// Observation time.
    pub now: Time,
}

/// The pool each pending GPU pod belongs to (`None` = unattributed, counted in every pool).
pub fn attribute_pending(
    snap: &ClusterSnapshot,
    states: &[NodeState],
    pools: &[String],
) -> Vec<(usize, Option<usize>)> {
    let mut cache: HashMap<&[(Name, Name)], Option<usize>> = HashMap::new();
    let pool_index: HashMap<&str, usize> = pools
        .iter()
        .enumerate()
        .map(|(i, p)| (p.as_str(), i))
        .collect();
    let mut out = Vec::new();
    for (i, pod) in snap.pods.iter().enumerate() {
        if !pod.is_pending_gpu() {
            continue;
        }
        let pool = if pools.len() == 1 {
            Some(0)
        } else if pod.node_selector.is_empty() {
            None
        } else {
            *cache.entry(&pod.node_selector).or_insert_with(|| {
                let mut matching = snap
                    .nodes
                    .iter()
                    .zip(states)
                    .filter(|(n, _)| n.labels.matches_all(&pod.node_selector))
                    .filter_map(|(_, s)| s.pool.as_deref().and_then(|p| pool_index.get(p)))
                    .copied();
                let first = matching.next()?;
                matching.all(|p| p == first).then_some(first)
            })
        };
        out.push((i, pool));
    }
    out
}

/// Scores every pool. Pools are sorted by name.
pub fn score_pools(snap: &ClusterSnapshot, input: &PoolInputs<'_>) -> Vec<PoolReport> {
    let mut by_pool: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, s) in input.states.iter().enumerate() {
        if let Some(p) = &s.pool {
            by_pool.entry(p.as_str()).or_default().push(i);
        }
    }
    let names: Vec<String> = by_pool.keys().map(|k| k.to_string()).collect();
    let pending = attribute_pending(snap, input.states, &names);
    let node_pool: HashMap<usize, usize> = by_pool
        .values()
        .enumerate()
        .flat_map(|(p, nodes)| nodes.iter().map(move |n| (*n, p)))
        .collect();
    let node_index: HashMap<&str, usize> = snap
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_ref(), i))
        .collect();
    let pod_pool = |p: usize| {
        let node = snap.pods[p].node.as_deref()?;
        let n = *node_index.get(node)?;
        Some((n, *node_pool.get(&n)?))
    };
    let ladder = &input.rules.ladder;
    let mut demand = vec![vec![0u64; ladder.len()]; names.len()];
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
    let mut items: Vec<Vec<(usize, RepackItem)>> = vec![Vec::new(); names.len()];
    for p in input.movable_pods {
        let pod = &snap.pods[*p];
        if let (Some((node, pool)), true) = (pod_pool(*p), pod.gpus > 0) {
            let item = RepackItem {
                gpus: pod.gpus,
                home: None,
                key: pod.key(),
            };
            items[pool].push((node, item));
        }
    }
    by_pool
        .into_iter()
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
                nodes,
                demand,
                items,
                pending: pending_here,
            };
            crate::engine::pool_score::score_pool(snap, input, pool)
        })
        .collect()
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
    pub items: Vec<(usize, RepackItem)>,
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

/// Re-exported so callers can compute a what-if with the same math.
pub use fragmentation::profile;
