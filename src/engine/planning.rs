//! Shared context of Alfred's policies for one decision pass: node and pool indices, per-pool
//! target lists and benefit profiles, Instance facts (pool, source node, footprints), the
//! surge plan of one Instance and the scheduling gate.
//!
//! Owns: `PlanContext`, `InstanceFacts`. Pure; must not import anything outside `std`,
//! `chrono` types and `engine`.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::alfred_config::{AlfredConfig, Mode};
use crate::engine::analysis::InstanceVerdict;
use crate::engine::benefit::PoolProfile;
use crate::engine::eligibility::EligibilityRules;
use crate::engine::fragmentation::Bin;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::moves::{PlannedMove, SIMULATION_RECOMMEND_ONLY};
use crate::engine::nodes::NodeState;
use crate::engine::pools::{pool_bins, PoolReport};
use crate::engine::surge::{PoolTargets, SurgePlan};
use crate::engine::workloads::{Component, Instance, Workloads};

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
    /// Node name → index.
    pub node_index: HashMap<&'a str, usize>,
    /// Pool name → index into `pools`.
    pub pool_index: HashMap<&'a str, usize>,
    /// Candidate targets per pool.
    pub targets: Vec<PoolTargets>,
    /// Benefit profiles per pool.
    pub profiles: Vec<PoolProfile>,
    /// Verdicts by `(component, instance)`.
    pub verdicts: HashMap<(usize, usize), &'a InstanceVerdict>,
    /// Facts of every Instance, by component then Instance position.
    pub facts: Vec<Vec<InstanceFacts>>,
}

/// Where an Instance sits and what it would move.
#[derive(Debug, Clone, PartialEq)]
pub struct InstanceFacts {
    /// Index into the pool reports when every GPU pod's node is in one pool.
    pub pool: Option<usize>,
    /// Source node: the node with most GPUs of the Instance (ties by name).
    pub from: Option<usize>,
    /// `(pod, GPUs)` of pods with GPUs, sorted GPUs desc then `ns/name`.
    pub footprints: Vec<(usize, u32)>,
    /// Nodes the Instance uses.
    pub used: Vec<usize>,
}

impl<'a> PlanContext<'a> {
    /// Builds the indices, target lists and profiles.
    pub fn new(
        snap: &'a ClusterSnapshot,
        states: &'a [NodeState],
        workloads: &'a Workloads,
        pools: &'a [PoolReport],
        verdicts: &'a [InstanceVerdict],
        (cfg, rules, now): (&'a AlfredConfig, &'a EligibilityRules, Time),
    ) -> Self {
        let names: Vec<&str> = snap.nodes.iter().map(|n| n.name.as_ref()).collect();
        let avoid_spot = cfg.spot_policy.avoid_as_target;
        let targets = pools
            .iter()
            .map(|p| PoolTargets::build(&p.nodes, states, &names, avoid_spot))
            .collect();
        let profiles = pools
            .iter()
            .map(|p| {
                let bins: Vec<(usize, Bin)> = pool_bins(&p.nodes, states, avoid_spot);
                let ladder: Vec<u32> = p.sizes.iter().map(|s| s.size).collect();
                let weights: Vec<f64> = p.sizes.iter().map(|s| s.weight).collect();
                let slots: Vec<u64> = p.sizes.iter().map(|s| s.slots_observed).collect();
                PoolProfile::new(&bins, &ladder, &weights, &slots)
            })
            .collect();
        let mut ctx = PlanContext {
            snap,
            states,
            workloads,
            pools,
            cfg,
            rules,
            now,
            node_index: names.iter().enumerate().map(|(i, n)| (*n, i)).collect(),
            pool_index: pools
                .iter()
                .enumerate()
                .map(|(i, p)| (p.name.as_str(), i))
                .collect(),
            targets,
            profiles,
            verdicts: verdicts
                .iter()
                .map(|v| ((v.component, v.instance), v))
                .collect(),
            facts: Vec::new(),
        };
        ctx.facts = workloads
            .components
            .iter()
            .map(|c| c.instances.iter().map(|i| ctx.instance_facts(i)).collect())
            .collect();
        ctx
    }

    /// The precomputed facts of Instance `i` of component `c`.
    pub fn facts_of(&self, c: usize, i: usize) -> Option<&InstanceFacts> {
        self.facts.get(c)?.get(i)
    }

    /// The node index of a pod.
    pub fn node_of(&self, pod: usize) -> Option<usize> {
        let name = self.snap.pods.get(pod)?.node.as_deref()?;
        self.node_index.get(name).copied()
    }

    /// The pool index of a node.
    pub fn pool_of_node(&self, node: usize) -> Option<usize> {
        let pool = self.states.get(node)?.pool.as_deref()?;
        self.pool_index.get(pool).copied()
    }

    /// Facts of an Instance.
    pub fn instance_facts(&self, inst: &Instance) -> InstanceFacts {
        let mut footprints: Vec<(usize, u32)> = inst
            .pods
            .iter()
            .map(|p| (*p, self.snap.pods[*p].gpus))
            .filter(|(_, g)| *g > 0)
            .collect();
        let key = |p: usize| {
            let pod = &self.snap.pods[p];
            (pod.namespace.as_ref(), pod.name.as_ref())
        };
        footprints.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| key(a.0).cmp(&key(b.0))));
        let mut per_node: Vec<(usize, u32)> = Vec::new();
        for (pod, gpus) in &footprints {
            let Some(n) = self.node_of(*pod) else {
                continue;
            };
            match per_node.iter_mut().find(|(m, _)| *m == n) {
                Some((_, g)) => *g += gpus,
                None => per_node.push((n, *gpus)),
            }
        }
        let from = per_node
            .iter()
            .max_by(|a, b| {
                a.1.cmp(&b.1)
                    .then_with(|| self.snap.nodes[b.0].name.cmp(&self.snap.nodes[a.0].name))
            })
            .map(|(n, _)| *n);
        let mut pools = footprints
            .iter()
            .map(|(p, _)| self.node_of(*p).and_then(|n| self.pool_of_node(n)));
        let first = pools.next().flatten();
        let pool = first.filter(|_| pools.all(|p| p == first));
        let used = inst.pods.iter().filter_map(|p| self.node_of(*p)).collect();
        InstanceFacts {
            pool,
            from,
            footprints,
            used,
        }
    }

    /// The surge plan of an Instance in pool `pool` (`None` = `NoSurgeHeadroom`).
    pub fn plan(&self, comp: &Component, facts: &InstanceFacts, pool: usize) -> Option<SurgePlan> {
        let avoid =
            self.snap.isvcs[comp.isvc].annotation("alfred.ome.io/spot-policy") == Some("avoid");
        let skip = |n: usize| avoid && self.states[n].preemptible;
        self.targets[pool].plan(&facts.footprints, &facts.used, &skip)
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
        let moves: Vec<(usize, usize, u32)> = plan
            .placements
            .iter()
            .filter_map(|(pod, target)| {
                Some((self.node_of(*pod)?, *target, self.snap.pods[*pod].gpus))
            })
            .collect();
        let profile = &self.profiles[pool];
        Some(PlannedMove {
            component,
            instance,
            pool: self.pools[pool].name.clone(),
            placements: plan.placements.clone(),
            footprints: facts.footprints.clone(),
            from,
            before: profile.observed,
            after: profile.after_moves(&moves),
        })
    }

    /// The scheduling gate in recommend-only mode: the reason an otherwise executable move is
    /// advice. Without simulation results ome-top can only check the profile configuration:
    /// mixed schedulers, a missing profile, or a multi-pod Instance without gang support.
    pub fn recommend_only_reason(&self, inst: &Instance) -> Option<String> {
        if self.cfg.mode == Mode::Execute {
            return None;
        }
        Some(
            self.scheduling_problem(inst)
                .unwrap_or(SIMULATION_RECOMMEND_ONLY)
                .to_string(),
        )
    }

    /// `MixedSchedulers`, `ProfileNotConfigured` or `GangUnsupported` for an Instance.
    pub fn scheduling_problem(&self, inst: &Instance) -> Option<&'static str> {
        let scheduler = |p: &usize| {
            let s = self.snap.pods[*p].scheduler_name.as_ref();
            if s.is_empty() {
                "default-scheduler"
            } else {
                s
            }
        };
        let first = inst.pods.first().map(scheduler)?;
        if inst.pods.iter().map(scheduler).any(|s| s != first) {
            return Some("MixedSchedulers");
        }
        match self.cfg.scheduling.profiles.get(first) {
            None => Some("ProfileNotConfigured"),
            Some(p) if inst.pods.len() > 1 && !p.gang_scheduling => Some("GangUnsupported"),
            Some(_) => None,
        }
    }

    /// Node names of `nodes`.
    pub fn names(&self, nodes: &[usize]) -> Vec<String> {
        nodes
            .iter()
            .map(|n| self.snap.nodes[*n].name.to_string())
            .collect()
    }
}
