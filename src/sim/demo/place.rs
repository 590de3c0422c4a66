//! The demo's pools and its scheduler stand-in: per-node free devices, LeastAllocated placement
//! (the default kube-scheduler's spreading, which fragments a GPU cluster) and packed placement
//! (used for the initial cluster and for surge pods that follow Alfred's fullest-first hints).
//!
//! Pure.

use std::sync::Arc;

use crate::engine::model::{ClusterSnapshot, Name};
use crate::sim::rng::Rng;

/// One pool: display name, node label key, label value (pool key), GPU resource, node prefix,
/// share of nodes in percent.
pub struct PoolDef {
    /// Label that carries the pool key.
    pub label: &'static str,
    /// The pool key (product label or instance type).
    pub key: &'static str,
    /// The accelerator resource name.
    pub resource: &'static str,
    /// Node name prefix.
    pub prefix: &'static str,
    /// Share of the cluster's nodes, percent.
    pub share: usize,
}

/// The three pools of product.md §8: H100, A100 (8-device nodes) and Gaudi 2 (8 cards).
pub const POOLS: [PoolDef; 3] = [
    PoolDef {
        label: "nvidia.com/gpu.product",
        key: "NVIDIA-H100-80GB-HBM3",
        resource: "nvidia.com/gpu",
        prefix: "h100",
        share: 50,
    },
    PoolDef {
        label: "nvidia.com/gpu.product",
        key: "NVIDIA-A100-SXM4-80GB",
        resource: "nvidia.com/gpu",
        prefix: "a100",
        share: 30,
    },
    PoolDef {
        label: "node.kubernetes.io/instance-type",
        key: "gaudi2-hl225h",
        resource: "habana.ai/gaudi",
        prefix: "gaudi",
        share: 20,
    },
];

/// Devices per node in every pool.
pub const DEVICES: u32 = 8;
/// The node label of the topology domain gangs pin to.
pub const RACK_LABEL: &str = "ome.io/rack";
/// Nodes per rack.
pub const RACK_SIZE: usize = 4;

/// The nodeSelector that pins a pod to pool `pool`, as OME deployments do.
pub fn pool_selector(pool: usize) -> Vec<(Name, Name)> {
    let p = &POOLS[pool.min(POOLS.len() - 1)];
    vec![(Arc::from(p.label), Arc::from(p.key))]
}

/// How to choose among feasible nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// The emptiest node (random tie-break): kube-scheduler's default spreading.
    LeastAllocated,
    /// The fullest node that fits (random tie-break): bin-packing.
    MostAllocated,
}

/// Free devices per node (allocatable − Σ GPU requests of non-terminal bound pods).
pub fn free_devices(snap: &ClusterSnapshot) -> Vec<u32> {
    let mut free: Vec<u32> = snap.nodes.iter().map(|n| n.gpu_allocatable).collect();
    let index: std::collections::BTreeMap<&str, usize> = snap
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_ref(), i))
        .collect();
    for pod in &snap.pods {
        if pod.phase.is_terminal() || pod.gpus == 0 {
            continue;
        }
        if let Some(i) = pod.node.as_deref().and_then(|n| index.get(n)) {
            free[*i] = free[*i].saturating_sub(pod.gpus);
        }
    }
    free
}

/// The pool index of node `node` (by its pool label), if it is one of the demo's pools.
pub fn pool_of(snap: &ClusterSnapshot, node: usize) -> Option<usize> {
    let labels = &snap.nodes.get(node)?.labels;
    POOLS
        .iter()
        .position(|p| labels.get(p.label) == Some(p.key))
}

/// Chooses a node of `pool` for `gpus` devices under `strategy`, skipping cordoned nodes and
/// those in `avoid`. Ties are broken by the rng so that equal nodes are not always filled in
/// name order.
pub fn choose(
    snap: &ClusterSnapshot,
    free: &[u32],
    rng: &mut Rng,
    (pool, gpus): (usize, u32),
    strategy: Strategy,
    avoid: &[usize],
) -> Option<usize> {
    let mut best: Option<(u32, u64, usize)> = None;
    for (i, node) in snap.nodes.iter().enumerate() {
        if node.unschedulable || free[i] < gpus || avoid.contains(&i) {
            continue;
        }
        if pool_of(snap, i) != Some(pool) {
            continue;
        }
        let rank = match strategy {
            Strategy::LeastAllocated => free[i],
            Strategy::MostAllocated => DEVICES.saturating_sub(free[i]),
        };
        let tie = rng.next_u64();
        if best.is_none_or(|(r, t, _)| (rank, tie) > (r, t)) {
            best = Some((rank, tie, i));
        }
    }
    best.map(|(_, _, i)| i)
}
