//! The records an incremental analysis keeps beside the `Analysis`, built from a full one:
//! the snapshot's index, each node's GPU allocation sums, the per-component pod lists
//! (`Routes`), where each ISVC's components and each component's verdicts sit, each
//! component's demand and repack pods and the pools they sit in, the pools' nodes and the
//! attributed pending pods.
//!
//! Owns: `Parts`. Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::ScoringRules;
use crate::engine::analysis::incremental::lists::FlatLists;
use crate::engine::analysis::incremental::members::{ComponentPools, PoolMembers};
use crate::engine::analysis::incremental::routes::Routes;
use crate::engine::analysis::incremental::stages::Stale;
use crate::engine::analysis::{component_demand, component_movable, Analysis};
use crate::engine::fast::IsvcKeys;
use crate::engine::gangs::reads_node_capacity;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::vocab::Policy;
use crate::engine::model::{ClusterSnapshot, Name};
use crate::engine::nodes::{pod_allocation, PoolMembership};
use crate::engine::planning::MoveRow;
use crate::engine::pools::attribute_pending_in;
use crate::engine::workloads::{DeploymentMode, EligibilityRules, ReplicaIndex};

/// Positions of the rows of `moves` that carry a plan.
pub fn planned(moves: &[MoveRow]) -> Vec<usize> {
    moves
        .iter()
        .enumerate()
        .filter_map(|(i, m)| m.plan.as_ref().map(|_| i))
        .collect()
}

/// Whether some row of `moves` is a node-health row.
pub fn has_health_rows(moves: &[MoveRow]) -> bool {
    moves.iter().any(|r| r.policy == Policy::NodeHealth)
}

/// GPUs and OME GPU occupants of the live pods bound to one node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    /// Σ GPUs (the state's `allocated` is this, saturated at `u32::MAX`, as a saturating sum
    /// of the pods' counts is).
    pub gpus: u64,
    /// OME GPU occupant pods.
    pub occupants: u32,
}

/// See the module doc.
#[derive(Debug, Clone)]
pub struct Parts {
    /// The index of the current snapshot.
    pub index: SnapshotIndex,
    /// Node index by name (the last node of a duplicated name, as the index resolves it).
    pub node_by_name: HashMap<Name, usize>,
    /// Allocation per node.
    pub tallies: Vec<Tally>,
    /// The pods each component is built from.
    pub routes: Routes,
    /// InferenceReplicas by ISVC component.
    pub replicas: ReplicaIndex,
    /// Eligibility switches of the config in force.
    pub rules: EligibilityRules,
    /// Scoring rules of the config in force.
    pub scoring: ScoringRules,
    /// Node indices of each pool (pools in name order), ascending.
    pub pool_nodes: Vec<Vec<usize>>,
    /// Pool of each node.
    pub node_pool: Vec<Option<usize>>,
    /// Pending GPU pods (ascending) and the pool each is attributed to (`None`: every pool).
    pub pending: Vec<(usize, Option<usize>)>,
    /// Per ISVC: `(first, count)` of its components in `Workloads::components`.
    pub isvc_components: Vec<(usize, usize)>,
    /// Per component: where its verdicts start in `Analysis::verdicts` (plus the end).
    pub verdict_starts: Vec<usize>,
    /// Per component: its demand pods (`component_demand`).
    pub demand: FlatLists,
    /// Per component: its repack pods (`component_movable`).
    pub movable: FlatLists,
    /// The components with demand or repack pods in each pool.
    pub members: PoolMembers,
    /// Positions of the move rows that carry a plan (the only rows holding pod indices).
    pub planned_moves: Vec<usize>,
    /// Some move row is a node-health row.
    pub health_moves: bool,
    /// Warnings of the analysis before the gang engine's.
    pub base_warnings: usize,
    /// The gang report read every node's free resources (`reads_node_capacity`).
    pub gangs_read_capacity: bool,
    /// The component each move row was built for (aligned with `Analysis::moves`).
    pub move_owners: Vec<Option<usize>>,
}

impl Parts {
    /// The records of `analysis`, the full analysis of `snap` (`move_owners`: the component
    /// of each of its move rows).
    pub fn new(
        snap: &ClusterSnapshot,
        analysis: &Analysis,
        move_owners: Vec<Option<usize>>,
    ) -> Self {
        let index = SnapshotIndex::new(snap);
        let mut node_by_name = HashMap::default();
        for (i, n) in snap.nodes.iter().enumerate() {
            node_by_name.insert(n.name.clone(), i);
        }
        let mut tallies = vec![Tally::default(); snap.nodes.len()];
        for &p in &index.live {
            let (Some((gpus, occupant)), Some(n)) =
                (pod_allocation(&snap.pods[p]), index.node_of(p))
            else {
                continue;
            };
            tallies[n].gpus += u64::from(gpus);
            tallies[n].occupants += u32::from(occupant);
        }
        let membership = PoolMembership::new(&analysis.nodes);
        let node_pool: Vec<Option<usize>> = (0..snap.nodes.len())
            .map(|n| membership.of_node(n))
            .collect();
        let pending = attribute_pending_in(snap, index.unbound.iter().copied(), &membership.nodes);
        let mut parts = Parts {
            routes: Routes::new(snap, &index),
            replicas: ReplicaIndex::new(snap, &IsvcKeys::new(&snap.isvcs)),
            node_by_name,
            tallies,
            rules: EligibilityRules::from_config(&analysis.config, analysis.executor_available),
            scoring: ScoringRules::from_config(&analysis.config),
            pool_nodes: membership.nodes,
            node_pool,
            pending,
            isvc_components: vec![(0, 0); snap.isvcs.len()],
            verdict_starts: Vec::new(),
            demand: FlatLists::default(),
            movable: FlatLists::default(),
            members: PoolMembers::default(),
            planned_moves: planned(&analysis.moves),
            health_moves: has_health_rows(&analysis.moves),
            base_warnings: (analysis.warnings.len()).saturating_sub(analysis.gangs.warnings.len()),
            gangs_read_capacity: reads_node_capacity(&analysis.gangs),
            move_owners,
            index,
        };
        for (c, comp) in analysis.workloads.components.iter().enumerate() {
            if let Some(range) = parts.isvc_components.get_mut(comp.isvc) {
                if range.1 == 0 {
                    range.0 = c;
                }
                range.1 += 1;
            }
        }
        parts.count_verdicts(analysis);
        let count = analysis.workloads.components.len();
        let (mut demand, mut movable) = (Vec::new(), Vec::new());
        for c in 0..count {
            let (d, m) = parts.contributions(analysis, c);
            demand.extend(d.into_iter().map(|p| (c, p)));
            movable.extend(m.into_iter().map(|p| (c, p)));
        }
        parts.demand = FlatLists::from_pairs(count, &demand);
        parts.movable = FlatLists::from_pairs(count, &movable);
        parts.members = PoolMembers::new(parts.pool_nodes.len(), count);
        for c in 0..count {
            parts.members.set(c, parts.component_pools(c));
        }
        parts
    }

    /// The pools component `c`'s demand and repack pods sit in (as its lists stand).
    pub fn component_pools(&self, c: usize) -> ComponentPools {
        let pods = self.demand.get(c).iter().chain(self.movable.get(c));
        pods.filter_map(|p| self.pod_pool(*p)).collect()
    }

    /// Recomputes `verdict_starts` from the components' modes and Instances.
    pub fn count_verdicts(&mut self, analysis: &Analysis) {
        let comps = &analysis.workloads.components;
        self.verdict_starts.clear();
        self.verdict_starts.reserve(comps.len() + 1);
        let mut at = 0;
        for comp in comps {
            self.verdict_starts.push(at);
            if comp.mode == DeploymentMode::OMENative {
                at += comp.instances.len();
            }
        }
        self.verdict_starts.push(at);
    }

    /// Component `c`'s demand and repack pods in `analysis`.
    pub fn contributions(&self, analysis: &Analysis, c: usize) -> (Vec<usize>, Vec<usize>) {
        let pool_of = |n: usize| self.node_pool.get(n).copied().flatten();
        let (mut demand, mut movable) = (Vec::new(), Vec::new());
        let Some(comp) = analysis.workloads.components.get(c) else {
            return (demand, movable);
        };
        component_demand(&self.index, &pool_of, comp, &mut demand);
        let (start, end) = (self.verdict_starts[c], self.verdict_starts[c + 1]);
        let verdicts = analysis.verdicts.get(start..end).unwrap_or(&[]);
        let w = &analysis.workloads;
        component_movable(&self.index, &pool_of, w, verdicts, &mut movable);
        (demand, movable)
    }

    /// The allocation of node `n`: `(allocated GPUs, OME GPU occupants)`.
    pub fn allocation(&self, n: usize) -> (u32, u32) {
        let t = self.tallies.get(n).copied().unwrap_or_default();
        (u32::try_from(t.gpus).unwrap_or(u32::MAX), t.occupants)
    }

    /// The pool of node `n`.
    pub fn pool_of(&self, n: usize) -> Option<usize> {
        self.node_pool.get(n).copied().flatten()
    }

    /// The pool of pod `p`'s node.
    pub fn pod_pool(&self, p: usize) -> Option<usize> {
        self.index.node_of(p).and_then(|n| self.pool_of(n))
    }

    /// Attributes every pending pod again (after node labels changed); every pool is stale
    /// when an attribution moved.
    pub fn reattribute_pending(&mut self, snap: &ClusterSnapshot) -> Stale {
        let unbound = self.index.unbound.iter().copied();
        let pending = attribute_pending_in(snap, unbound, &self.pool_nodes);
        let mut stale = Stale::default();
        if pending != self.pending {
            stale.pools.extend(0..self.pool_nodes.len());
            self.pending = pending;
        }
        stale
    }
}
