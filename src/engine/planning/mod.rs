//! Shared context of Alfred's policies for one decision pass: node and pool indices, per-pool
//! target lists and benefit profiles, Instance facts (pool, source node, footprints), the
//! surge plan of one Instance (the scheduling gate is in `scheduling_gate`).
//!
//! Owns: `PlanContext`, `InstanceFacts`. Pure.

mod arbiter;
mod benefit;
mod deadlines;
mod decision;
mod defrag;
mod health;
mod inputs;
mod layout;
mod moves;
mod overrides;
mod pass;
mod scheduling_gate;
mod surge;
mod what_if;

pub use arbiter::{hourly_cap_ends, hourly_count};
pub use deadlines::{arbitrated, plan_deadlines, pod_deadlines, TimedInputs};
pub use decision::{rescored_advice, RescoredAdvice};
pub use defrag::{component_rows, rows_read_pool_profile};
pub use health::health_rows_possible;
pub use inputs::{same_plan_inputs, PlanInputs};
pub use layout::Focus;
pub use moves::{MoveRow, PlannedMove, MOVE_COST};
pub use overrides::{
    first_refusal, gate_hold, override_reasons, row_verdict, uncomputed_verdict, Blocker, CanRun,
    CheckResult, GateHold, OverrideReason, PreCheck, Refusal, Verdict,
};
pub use pass::{decision_pass, decision_pass_owned, row_order_key, JournalView, RowOrderKey};
pub use what_if::{what_if, WhatIf, WhatIfInput, CANDIDATES_SHOWN};

use std::borrow::Cow;

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, Name, Time};
use crate::engine::nodes::NodeState;
use crate::engine::planning::benefit::PoolProfile;
use crate::engine::planning::layout::Layout;
use crate::engine::planning::surge::{PoolTargets, SurgePlan};
use crate::engine::pools::PoolReport;
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
    /// Pool of each node (index into `pools`): built for the whole pass, the caller's for a
    /// focused one.
    node_pool: Cow<'a, [Option<usize>]>,
    /// Where each component's Instances sit in `facts` and `verdicts`.
    layout: Layout,
    /// Facts of every Instance laid out, component after component.
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

impl<'a> PlanContext<'a> {
    /// Position of Instance `i` of component `c` in the flat per-Instance lists.
    fn slot(&self, c: usize, i: usize) -> Option<usize> {
        let (start, end) = self.layout.range(c)?;
        (start + i < end).then_some(start + i)
    }

    /// The precomputed facts of Instance `i` of component `c`.
    pub fn facts_of(&self, c: usize, i: usize) -> Option<&InstanceFacts> {
        self.facts.get(self.slot(c, i)?)
    }

    /// The facts of every Instance of component `c`.
    pub fn component_facts(&self, c: usize) -> &[InstanceFacts] {
        match self.layout.range(c) {
            Some((a, b)) => self.facts.get(a..b).unwrap_or(&[]),
            None => &[],
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
