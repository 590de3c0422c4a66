//! Per-node facts at one observation (`alfred.md` §6.1, §7.1): GPU allocation, health state,
//! maintenance triggers, spot, and whether the node is excluded as a migration target.
//!
//! Owns: `NodeState`, `node_states`, `node_state`. Pure.

mod gpus;
mod health;
mod membership;
mod readiness;
mod schedulable;
mod shape_table;
mod shapes;

pub use gpus::is_gpu_resource;
pub use health::HealthState;
pub use membership::PoolMembership;
pub use readiness::{not_ready, NotReady};
pub use schedulable::takes_new_pods;
pub use shape_table::{ShapeTable, ShapeTableError};
pub use shapes::same_pool_inputs;

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::fast::{ByAddress, LastAnswer};
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Node, Pod, Time};
use crate::engine::nodes::gpus::pool_key_str;
use crate::engine::nodes::health::node_health;
use crate::engine::nodes::shapes::ShapeProducts;

/// Taint key that marks a node for scale-down by the cluster autoscaler (excluded as target).
pub const TO_BE_DELETED_TAINT: &str = "ToBeDeletedByClusterAutoscaler";

/// What one node looks like to Alfred's rules at `now`.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeState {
    /// Pool key (`None` for nodes without GPUs); shared between the nodes of a pool.
    pub pool: Option<Name>,
    /// Health state.
    pub health: HealthState,
    /// Names of the matching maintenance triggers, sorted.
    pub maintenance: Vec<String>,
    /// `spec.unschedulable`.
    pub cordoned: bool,
    /// Carries the `ToBeDeletedByClusterAutoscaler` taint.
    pub to_be_deleted: bool,
    /// Has one of `spotPolicy.preemptibleLabels` with a value other than `"false"`.
    pub preemptible: bool,
    /// `UnavailableAsTarget`: health ≠ Clear, maintenance requested, cordoned or to be deleted.
    pub excluded_as_target: bool,
    /// Allocatable GPUs.
    pub total: u32,
    /// Σ GPUs of non-terminal pods bound to the node.
    pub allocated: u32,
    /// `max(0, total − allocated)`.
    pub free: u32,
    /// OME GPU occupant pods bound to the node.
    pub ome_occupants: u32,
    /// The pool was adopted from the node's instance-type shape group: the node has no GPU
    /// product label, the labelled nodes of its shape agree on one (`nodes::shapes`).
    pub reconciled: bool,
}

/// Computes the state of every node (same order as `snap.nodes`) and a name → index map.
pub fn node_states<'a>(
    snap: &'a ClusterSnapshot,
    cfg: &AlfredConfig,
    now: Time,
) -> (Vec<NodeState>, HashMap<&'a str, usize>) {
    let index: HashMap<&str, usize> = snap
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_ref(), i))
        .collect();
    let table = ShapeTable::default();
    let states = node_states_with(snap, &SnapshotIndex::new(snap), cfg, &table, now);
    (states, index)
}

/// Computes the state of every node (same order as `snap.nodes`) with a prebuilt index.
pub fn node_states_with(
    snap: &ClusterSnapshot,
    idx: &SnapshotIndex,
    cfg: &AlfredConfig,
    table: &ShapeTable,
    now: Time,
) -> Vec<NodeState> {
    let mut allocated = vec![0u32; snap.nodes.len()];
    let mut occupants = vec![0u32; snap.nodes.len()];
    // Terminal pods and pods without GPUs allocate nothing: only live pods can count, and the
    // index's GPU counts skip those without GPUs before their pod is loaded.
    for p in &idx.live {
        if idx.gpus(*p) == 0 {
            continue;
        }
        let pod = &snap.pods[*p];
        if let Some(i) = idx.node_of(*p) {
            allocated[i] = allocated[i].saturating_add(pod.gpus);
            occupants[i] += u32::from(pod.is_ome_gpu_occupant());
        }
    }
    // Pool keys are shared: a fleet has a handful of pools and thousands of nodes. A key
    // at the address of the previous node's (the shared label text of a live snapshot, nodes
    // of a pool side by side) is the same key and is not hashed again.
    let mut pools: HashMap<&str, Name> = HashMap::default();
    let mut last = LastAnswer::default();
    let shapes = ShapeProducts::new(&snap.nodes);
    snap.nodes
        .iter()
        .enumerate()
        .map(|(i, node)| {
            let adopted = shapes.adopted(node);
            let key =
                adopted.or_else(|| pool_key_str(&node.labels, node.gpu_resource.as_deref(), table));
            let pool = key.map(|k| {
                last.get(ByAddress(k), || {
                    pools.entry(k).or_insert_with(|| Name::from(k)).clone()
                })
            });
            let mut s = node_state_in(node, cfg, now, pool);
            s.reconciled = adopted.is_some();
            s.set_allocation(allocated[i], occupants[i]);
            s
        })
        .collect()
}

/// What pod `pod` adds to the allocation of the node it is bound to: its GPUs and whether it
/// is an OME GPU occupant; `None` when it adds nothing (terminal, no GPUs). The sums
/// `node_states_with` takes over the index's live pods.
pub fn pod_allocation(pod: &Pod) -> Option<(u32, bool)> {
    (pod.gpus > 0 && crate::engine::index::is_live(pod))
        .then(|| (pod.gpus, pod.is_ome_gpu_occupant()))
}

/// The allocation-independent state of one node, its pool from its own labels (the shape
/// group's product, which only the whole snapshot knows, is `node_states_with`'s).
pub fn node_state(node: &Node, cfg: &AlfredConfig, table: &ShapeTable, now: Time) -> NodeState {
    let pool = pool_key_str(&node.labels, node.gpu_resource.as_deref(), table).map(Name::from);
    node_state_in(node, cfg, now, pool)
}

/// `node_state` with the node's pool key already resolved.
fn node_state_in(node: &Node, cfg: &AlfredConfig, now: Time, pool: Option<Name>) -> NodeState {
    let (triggers, window) = crate::engine::alfred_config::health_rules(cfg);
    let health = node_health(&node.conditions, triggers, window, now);
    let mut maintenance = crate::engine::alfred_config::maintenance_triggers(cfg, node, now);
    maintenance.sort();
    let to_be_deleted = node
        .taints
        .iter()
        .any(|t| t.key.as_ref() == TO_BE_DELETED_TAINT);
    let preemptible = crate::engine::alfred_config::is_preemptible(cfg, &node.labels);
    let excluded_as_target =
        health.excludes_target() || !maintenance.is_empty() || node.unschedulable || to_be_deleted;
    NodeState {
        pool,
        health,
        maintenance,
        cordoned: node.unschedulable,
        to_be_deleted,
        preemptible,
        excluded_as_target,
        total: node.gpu_allocatable,
        allocated: 0,
        free: node.gpu_allocatable,
        ome_occupants: 0,
        reconciled: false,
    }
}

impl NodeState {
    /// Sets the allocation: `allocated` GPUs of the node in use, by `occupants` OME GPU
    /// occupant pods and others.
    pub fn set_allocation(&mut self, allocated: u32, occupants: u32) {
        self.allocated = allocated;
        self.free = self.total.saturating_sub(allocated);
        self.ome_occupants = occupants;
    }

    /// Whether the node is a schedulable bin of its pool: GPUs > 0, not excluded, and not spot
    /// when `avoid_spot` (`spotPolicy.avoidAsTarget`).
    pub fn is_bin(&self, avoid_spot: bool) -> bool {
        self.total > 0 && !self.excluded_as_target && !(avoid_spot && self.preemptible)
    }
}
