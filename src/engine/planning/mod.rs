//! Shared context of Alfred's policies for one decision pass: node and pool indices, per-pool
//! target lists and benefit profiles, Instance facts (pool, source node, footprints), the
//! surge plan of one Instance (the scheduling gate is in `scheduling_gate`).
//!
//! Owns: `PlanContext`, `InstanceFacts`. Pure; must not import anything outside `std`,
//! `chrono` types and `engine`.

mod arbiter;
mod benefit;
mod defrag;
mod gate;
mod health;
mod moves;
mod pass;
mod surge;
mod what_if;

pub use defrag::component_rows;
pub use health::health_rows_possible;
pub use moves::{MoveRow, MOVE_COST};
pub use pass::{decision_pass, decision_pass_owned, row_order_key, JournalView, RowOrderKey};
pub use what_if::{what_if, WhatIf, WhatIfInput, CANDIDATES_SHOWN};

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Time, COMPONENTS};
use crate::engine::nodes::NodeState;
use crate::engine::planning::benefit::PoolProfile;
use crate::engine::planning::moves::PlannedMove;
use crate::engine::planning::surge::{PoolTargets, SurgePlan};
use crate::engine::pools::Bin;
use crate::engine::pools::{pool_bins, PoolReport};
use crate::engine::workloads::EligibilityRules;
use crate::engine::workloads::{Component, Instance, InstanceVerdict, Workloads};

/// Everything the policies read in one pass.
pub struct PlanContext<'a> {
    /// The snapshot.
    pub snap: &'a ClusterSnapshot,
    /// Node states aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Components and Instances.
    pub workloads: &'a Workloads,
    /// Pool reports, sorted by name.
    pub pools: &'a [PoolReport],
    /// The effective Alfred config.
    pub cfg: &'a AlfredConfig,
    /// Eligibility switches.
    pub rules: &'a EligibilityRules,
    /// Observation time.
    pub now: Time,
    /// The snapshot's cross-references (pod → node, node name ranks).
    pub index: &'a SnapshotIndex,
    /// Pool name → index into `pools`.
    pub pool_index: HashMap<&'a str, usize>,
    /// Candidate targets per pool.
    pub targets: Vec<PoolTargets>,
    /// Benefit profiles per pool.
    pub profiles: Vec<PoolProfile>,
    /// Pool of each node (index into `pools`).
    node_pool: Vec<Option<usize>>,
    /// Start of each component's Instances in `facts` and `verdicts`, plus the end.
    offsets: Vec<usize>,
    /// Facts of every Instance, component after component.
    facts: Vec<InstanceFacts>,
    /// `(pod, GPUs)` of every Instance's pods with GPUs, GPUs desc then `ns/name` within one.
    footprint_list: Vec<(usize, u32)>,
    /// Nodes each Instance uses.
    used_list: Vec<usize>,
    /// Verdict of every Instance (OMENative only), aligned with `facts`.
    verdicts: Vec<Option<&'a InstanceVerdict>>,
    /// `COMPONENTS` as shared names.
    component_names: [Name; 3],
    /// Node names aligned with `snap.nodes`, cloned in node order when the context is built.
    /// Rows clone their node names from here: a clone in row order is an atomic
    /// count increment on a name allocation, cost a memory round trip apiece when the
    /// allocations are cold (locked increments do not overlap); this pass reads them in
    /// allocation order, where the prefetcher runs ahead, and leaves them in cache.
    node_names: Vec<Name>,
    /// Rank of each ISVC's `ns/name` (`Workloads::workload_ranks`), for row sort keys.
    pub workload_ranks: &'a [u32],
}

/// Where an Instance sits and what it would move. Its footprints and used nodes live in the
/// context's shared lists (`PlanContext::footprints`, `PlanContext::used`), so building the
/// facts of every Instance allocates nothing per Instance.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct InstanceFacts {
    /// Index into the pool reports when every GPU pod's node is in one pool.
    pub pool: Option<usize>,
    /// Source node: the node with most GPUs of the Instance (ties by name).
    pub from: Option<usize>,
    /// Range of the footprints in `PlanContext::footprint_list`.
    footprints: (usize, usize),
    /// Range of the used nodes in `PlanContext::used_list`.
    used: (usize, usize),
}

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
        let pods: usize = workloads
            .components
            .iter()
            .flat_map(|c| &c.instances)
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
            // Sized once: regrowing lists of ~100,000 entries copies them over and over.
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
            let wanted = only.is_none_or(|o| o.get(c).copied().unwrap_or(false));
            for inst in &comp.instances {
                let f = if wanted {
                    ctx.push_facts(inst)
                } else {
                    InstanceFacts::default()
                };
                ctx.facts.push(f);
            }
        }
        ctx
    }

    /// Position of Instance `i` of component `c` in the flat per-Instance lists.
    fn slot(&self, c: usize, i: usize) -> Option<usize> {
        let (start, end) = (*self.offsets.get(c)?, *self.offsets.get(c + 1)?);
        (start + i < end).then_some(start + i)
    }

    /// The precomputed facts of Instance `i` of component `c`.
    pub fn facts_of(&self, c: usize, i: usize) -> Option<&InstanceFacts> {
        self.facts.get(self.slot(c, i)?)
    }

    /// The facts of every Instance of component `c`.
    pub fn component_facts(&self, c: usize) -> &[InstanceFacts] {
        match (self.offsets.get(c), self.offsets.get(c + 1)) {
            (Some(a), Some(b)) => self.facts.get(*a..*b).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// The eligibility verdict of Instance `i` of component `c` (OMENative only).
    pub fn verdict(&self, c: usize, i: usize) -> Option<&'a InstanceVerdict> {
        *self.verdicts.get(self.slot(c, i)?)?
    }

    /// `ns/name` of ISVC `isvc`: the object's own shared key (built with it, so it always
    /// matches its namespace and name).
    pub fn workload_key(&self, isvc: usize) -> Name {
        self.snap
            .isvcs
            .get(isvc)
            .map_or_else(|| Name::from(""), |w| w.ns_name().clone())
    }

    /// The shared name of component `c` (`engine` when out of range, like `Component::name`).
    pub fn component_name(&self, c: usize) -> Name {
        self.component_names
            .get(c)
            .unwrap_or(&self.component_names[0])
            .clone()
    }

    /// The name of node `n`.
    pub fn node_name(&self, n: usize) -> Name {
        match self.node_names.get(n) {
            Some(name) => name.clone(),
            None => self.snap.nodes[n].name.clone(),
        }
    }

    /// The node index of a pod.
    pub fn node_of(&self, pod: usize) -> Option<usize> {
        self.index.node_of(pod)
    }

    /// The pool index of a node.
    pub fn pool_of_node(&self, node: usize) -> Option<usize> {
        self.node_pool.get(node).copied().flatten()
    }

    /// The footprints `(pod, GPUs)` of an Instance: pods with GPUs, GPUs desc then `ns/name`.
    pub fn footprints(&self, facts: &InstanceFacts) -> &[(usize, u32)] {
        self.footprint_list
            .get(facts.footprints.0..facts.footprints.1)
            .unwrap_or(&[])
    }

    /// The nodes an Instance uses.
    pub fn used(&self, facts: &InstanceFacts) -> &[usize] {
        self.used_list
            .get(facts.used.0..facts.used.1)
            .unwrap_or(&[])
    }

    /// Computes the facts of an Instance, appending its footprints and used nodes to the
    /// shared lists.
    fn push_facts(&mut self, inst: &Instance) -> InstanceFacts {
        let start = self.footprint_list.len();
        self.footprint_list.extend(
            inst.pods
                .iter()
                .map(|p| (*p, self.index.gpus(*p)))
                .filter(|(_, g)| *g > 0),
        );
        let footprints = &mut self.footprint_list[start..];
        if footprints.len() > 1 {
            let pods = &self.snap.pods;
            let key = |p: usize| (pods[p].namespace.as_ref(), pods[p].name.as_ref());
            footprints.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| key(a.0).cmp(&key(b.0))));
        }
        let footprints = (start, self.footprint_list.len());
        let used_start = self.used_list.len();
        let idx = self.index;
        self.used_list
            .extend(inst.pods.iter().filter_map(|p| idx.node_of(*p)));
        let mut facts = InstanceFacts {
            pool: None,
            from: None,
            footprints,
            used: (used_start, self.used_list.len()),
        };
        facts.from = self.source_node(self.footprints(&facts));
        let mut pools = self
            .footprints(&facts)
            .iter()
            .map(|(p, _)| self.node_of(*p).and_then(|n| self.pool_of_node(n)));
        let first = pools.next().flatten();
        facts.pool = first.filter(|_| pools.all(|p| p == first));
        facts
    }

    /// The node holding most of `footprints`' GPUs (ties: the first name).
    fn source_node(&self, footprints: &[(usize, u32)]) -> Option<usize> {
        let mut per_node: Vec<(usize, u32)> = Vec::new();
        let mut single: Option<(usize, u32)> = None;
        for (pod, gpus) in footprints {
            let Some(n) = self.node_of(*pod) else {
                continue;
            };
            // The common single-node Instance needs no list.
            match single {
                None if per_node.is_empty() => single = Some((n, *gpus)),
                Some((m, ref mut g)) if m == n && per_node.is_empty() => *g += gpus,
                _ => {
                    per_node.extend(single.take());
                    match per_node.iter_mut().find(|(m, _)| *m == n) {
                        Some((_, g)) => *g += gpus,
                        None => per_node.push((n, *gpus)),
                    }
                }
            }
        }
        if per_node.is_empty() {
            return single.map(|(n, _)| n); // No list allocated for one node.
        }
        per_node
            .iter()
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| self.index.cmp_nodes(b.0, a.0)))
            .map(|(n, _)| *n)
    }

    /// The surge plan of an Instance in pool `pool` (`None` = `NoSurgeHeadroom`).
    pub fn plan(&self, comp: &Component, facts: &InstanceFacts, pool: usize) -> Option<SurgePlan> {
        let skip = self.spot_skip(comp);
        self.targets[pool].plan(self.footprints(facts), self.used(facts), &skip)
    }

    /// The placements of `plan` alone (`None` = `NoSurgeHeadroom`).
    pub fn placements(
        &self,
        comp: &Component,
        facts: &InstanceFacts,
        pool: usize,
    ) -> Option<Vec<(usize, usize)>> {
        let skip = self.spot_skip(comp);
        self.targets[pool].placements(self.footprints(facts), self.used(facts), &skip)
    }

    /// The hint targets of `plan` alone.
    pub fn hints(&self, comp: &Component, facts: &InstanceFacts, pool: usize) -> Vec<usize> {
        let skip = self.spot_skip(comp);
        self.targets[pool]
            .hints(self.footprints(facts), self.used(facts), &skip)
            .unwrap_or_default()
    }

    /// Nodes an Instance of `comp` must not target: spot nodes under an `avoid` annotation.
    fn spot_skip(&self, comp: &Component) -> impl Fn(usize) -> bool + '_ {
        let avoid =
            self.snap.isvcs[comp.isvc].annotation("alfred.ome.io/spot-policy") == Some("avoid");
        move |n: usize| avoid && self.states[n].preemptible
    }

    /// The pool's weighted fragmentation after the plan's moves (`None` when a target lacks
    /// room or is not a bin).
    pub fn after_plan(&self, pool: usize, plan: &SurgePlan) -> Option<f64> {
        self.after_placements(pool, &plan.placements)
    }

    /// `after_plan` from the placements alone.
    pub fn after_placements(&self, pool: usize, placements: &[(usize, usize)]) -> Option<f64> {
        let moves = placements.iter().filter_map(|(pod, target)| {
            Some((self.node_of(*pod)?, *target, self.snap.pods[*pod].gpus))
        });
        self.profiles[pool].after_moves_iter(moves)
    }

    /// The planned move of `inst` from its plan, with the pool's before/after values.
    pub fn planned_move(
        &self,
        (component, instance): (usize, usize),
        facts: &InstanceFacts,
        pool: usize,
        plan: &SurgePlan,
    ) -> Option<PlannedMove> {
        let from = facts.from?;
        Some(PlannedMove {
            component,
            instance,
            pool: self.pools[pool].name.clone(),
            placements: plan.placements.clone(),
            footprints: self.footprints(facts).to_vec(),
            from,
            before: self.profiles[pool].observed,
            after: self.after_plan(pool, plan),
        })
    }

    /// Node names of `nodes`.
    pub fn names(&self, nodes: &[usize]) -> Vec<Name> {
        nodes.iter().map(|n| self.node_name(*n)).collect()
    }
}

#[cfg(test)]
mod tests;
