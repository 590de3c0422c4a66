//! Per-pool fragmentation (`alfred.md` §6.1–§6.3): bins, pending attribution, demand weights,
//! observed/best/reclaimable, pending pressure, score and threshold, plus the operator extras
//! (whole free nodes, stuck fragmentation, largest fit now and after a repack).
//!
//! Owns: `PoolReport`, `score_pools`. Pure; must not import anything outside `std`, `chrono`
//! types and `engine`.

mod fit;
mod fragmentation;
mod score;

pub use fragmentation::{frag, profile, weights, Bin};

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
fn attribute_pending_in(
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
        let pod = &snap.pods[*p];
        if let (Some((node, pool)), true) = (pod_pool(*p), pod.gpus > 0) {
            let item = PoolItem {
                gpus: pod.gpus,
                home: None,
                key: PodKey::of(pod),
            };
            items[pool].push((node, item));
        }
    }
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
            crate::engine::pools::score::score_pool(snap, input, pool)
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
mod tests {
    use super::*;
    use crate::engine::alfred_config::AlfredConfig;
    use crate::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
    use crate::engine::model::testkit::{at, node, pod};
    use std::sync::Arc;

    fn run(snap: &ClusterSnapshot, executor: ExecutorSetting) -> crate::engine::analysis::Analysis {
        analyze(
            snap,
            &AnalysisOptions {
                now: at(10, 0, 0),
                alfred_namespace: "ome".into(),
                executor,
                placement: Default::default(),
            },
        )
    }

    fn a100(name: &str) -> crate::engine::model::Node {
        let mut n = node(name, 8);
        n.labels = crate::engine::model::Labels::from_pairs(vec![(
            Arc::from("nvidia.com/gpu.product"),
            Arc::from("A100"),
        )]);
        n
    }

    #[test]
    fn a_pool_whose_nodes_are_all_excluded_scores_zero() {
        let mut n = node("gpu-a", 8);
        n.unschedulable = true;
        let snap = ClusterSnapshot {
            nodes: vec![n],
            replicas_listed: true,
            ..Default::default()
        };
        let a = run(&snap, ExecutorSetting::Available);
        let p = &a.pools[0];
        assert_eq!(
            (p.free_gpus, p.free_gpus_all_nodes, p.total_gpus),
            (0, 8, 8)
        );
        assert_eq!((p.observed, p.best, p.score), (0.0, 0.0, 0.0));
        assert!(p
            .sizes
            .iter()
            .all(|s| s.frag_observed == 0.0 && s.slots_observed == 0));
    }

    #[test]
    fn a_pool_without_demand_weighs_by_lambda_times_prior() {
        // One node with 3 free GPUs: frag(1)=0, frag(2)=1−2/3, frag(4)=1, frag(8)=1.
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8)],
            pods: vec![pod("batch", "job", Some("gpu-a"), 5)].into(),
            replicas_listed: true,
            ..Default::default()
        };
        let a = run(&snap, ExecutorSetting::Available);
        let p = &a.pools[0];
        let want = 0.3 * (0.1 * 0.0 + 0.1 * (1.0 / 3.0) + 0.2 + 0.6);
        assert!(
            (p.observed - want).abs() < 1e-12,
            "{} vs {want}",
            p.observed
        );
        let weights: f64 = p.sizes.iter().map(|s| s.weight).sum();
        assert!((weights - 0.3).abs() < 1e-12, "non-OME pods are not demand");
    }

    #[test]
    fn pending_attribution_by_node_selector() {
        let mut unique = pod("ml", "unique", None, 8);
        unique.node_selector = vec![(Arc::from("nvidia.com/gpu.product"), Arc::from("A100"))];
        let mut both = pod("ml", "both", None, 8);
        both.node_selector = vec![(Arc::from("nvidia.com/gpu.product"), Arc::from("nope"))];
        let plain = pod("ml", "plain", None, 8);
        let snap = ClusterSnapshot {
            nodes: vec![node("h-1", 8), a100("a-1")],
            pods: vec![unique, both, plain].into(),
            replicas_listed: true,
            ..Default::default()
        };
        let states =
            crate::engine::nodes::node_states(&snap, &AlfredConfig::default(), at(10, 0, 0)).0;
        let pools = vec!["A100".to_string(), "H100".to_string()];
        let got = attribute_pending(&snap, &states, &pools);
        assert_eq!(got, vec![(0, Some(0)), (1, None), (2, None)]);
        let a = run(&snap, ExecutorSetting::Available);
        assert_eq!(a.pools[0].pending_pods, 3);
        assert_eq!(
            a.pools[1].pending_pods, 2,
            "unattributed pods count in every pool"
        );
        // With a single GPU pool every pending pod belongs to it.
        let one = ClusterSnapshot {
            nodes: vec![node("h-1", 8)],
            pods: snap.pods.clone(),
            replicas_listed: true,
            ..Default::default()
        };
        assert_eq!(
            run(&one, ExecutorSetting::Available).pools[0].pending_pods,
            3
        );
    }

    #[test]
    fn pending_pressure_needs_room_after_the_repack() {
        // A pending 8-GPU pod in a pool with no movable Instances: slots_best(8) = 0 too.
        let mut p = pod("ml", "big", None, 8);
        p.created = Some(at(9, 0, 0));
        let snap = ClusterSnapshot {
            nodes: vec![node("gpu-a", 8), node("gpu-b", 8)],
            pods: vec![
                pod("x", "a", Some("gpu-a"), 4),
                pod("x", "b", Some("gpu-b"), 4),
                p,
            ]
            .into(),
            replicas_listed: true,
            ..Default::default()
        };
        let a = run(&snap, ExecutorSetting::Available);
        assert_eq!(a.pools[0].pending_pressure, 0.0);
        assert!((a.pools[0].oldest_pending_minutes - 60.0).abs() < 1e-9);
    }
}
