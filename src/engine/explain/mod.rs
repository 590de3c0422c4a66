//! Why a pending GPU pod or gang is Pending: per node of its pool, the first check of the
//! scheduler's node-fit predicate that refuses it (gangpack.md §3.3, the gang fit's own
//! `first_refusal`, so the answer and the fit are one rule), grouped by verdict with counts;
//! for a gang, the domains of its topology key with the members each has room for, and a node
//! that fits a member but lies in a domain without room for the rest is "domain full".
//!
//! Owns: `Verdict`, `NodeVerdict`, `VerdictCount`, `Explanation`, `Explainer`,
//! `pending_subjects` (gang domains: `domains`). Pure: time is the analysis's.

mod domains;

pub use domains::{copies_fitting, DomainRoom, GangNeed};

use crate::engine::gangs::{FitCheck, FitContext, GangReport, GangState};
use crate::engine::index::SnapshotIndex;
use crate::engine::model::ClusterSnapshot;
use crate::engine::nodes::{HealthState, NodeState};
use crate::engine::pools::PoolReport;

/// What explaining reads of one analysis (`Analysis::pending_input` builds it).
#[derive(Debug, Clone, Copy)]
pub struct PendingInput<'a> {
    /// The snapshot analysed.
    pub snap: &'a ClusterSnapshot,
    /// Node states aligned with `snap.nodes`.
    pub states: &'a [NodeState],
    /// Node indices sorted by name.
    pub node_order: &'a [usize],
    /// Pool reports sorted by name.
    pub pools: &'a [PoolReport],
    /// The gangs.
    pub gangs: &'a GangReport,
}

/// What one node says to a pending pod.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verdict {
    /// Every check passes (for a gang member: and its domain has room for the gang).
    Fits,
    /// The first check that refuses it.
    Refused(FitCheck),
    /// A gang member fits the node, but the node's domain has too little room for the members
    /// still to place (or the gang is pinned to another domain, or the node has no domain).
    DomainFull,
}

impl Verdict {
    /// A stable lower-camel code for JSON (`fits`, `domainFull`, or the check's code).
    pub fn code(&self) -> &'static str {
        match self {
            Verdict::Fits => "fits",
            Verdict::Refused(check) => check.code(),
            Verdict::DomainFull => "domainFull",
        }
    }

    /// The verdict in the operator's words.
    pub fn words(&self) -> String {
        match self {
            Verdict::Fits => "fits".into(),
            Verdict::Refused(check) => check.words(),
            Verdict::DomainFull => "the gang's domain has no room for the rest".into(),
        }
    }
}

/// One node's verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeVerdict {
    /// Node index (into `snap.nodes`).
    pub node: usize,
    /// What the node says.
    pub verdict: Verdict,
    /// Alfred holds the node Unhealthy (the scheduler still places pods there unless a cordon
    /// or taint says otherwise).
    pub unhealthy: bool,
}

/// How many nodes give one verdict.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerdictCount {
    /// The verdict.
    pub verdict: Verdict,
    /// Nodes giving it.
    pub nodes: usize,
}

/// Why one pending pod (or the gang it belongs to) is Pending.
#[derive(Debug, Clone, PartialEq)]
pub struct Explanation {
    /// The pending pod (for a gang, its first pending member).
    pub pod: usize,
    /// The pool whose nodes were asked (`None`: no pool counts the pod; every node of its GPU
    /// kind was asked).
    pub pool: Option<String>,
    /// GPUs the pod asks.
    pub gpus: u32,
    /// Per node, name order.
    pub nodes: Vec<NodeVerdict>,
    /// Verdicts with their node counts, most nodes first.
    pub groups: Vec<VerdictCount>,
    /// For a gang member: the gang's need and its domains.
    pub gang: Option<GangNeed>,
}

impl Explanation {
    /// Whether some node takes it now.
    pub fn fits_somewhere(&self) -> bool {
        self.nodes.iter().any(|n| n.verdict == Verdict::Fits)
    }
}

/// Explains pending pods against one snapshot and its analysis; holds the free resources of
/// every node, computed once.
#[derive(Debug)]
pub struct Explainer<'a> {
    /// What the analysis says.
    pub input: PendingInput<'a>,
    /// Free resources of every node.
    pub fit: FitContext<'a>,
}

impl<'a> Explainer<'a> {
    /// Builds the free resources of the snapshot's nodes.
    pub fn new(input: PendingInput<'a>) -> Self {
        let index = SnapshotIndex::new(input.snap);
        Explainer {
            input,
            fit: FitContext::new(input.snap, &index),
        }
    }

    /// Explains the pending pod `pod`; `None` when it is not a pending GPU pod.
    pub fn explain(&self, pod: usize) -> Option<Explanation> {
        let p = self.fit.snap.pods.get(pod).filter(|p| p.is_pending_gpu())?;
        let (pool, nodes) = self.pool_nodes(pod);
        let gang = domains::gang_need(self, pod, &nodes);
        let verdicts: Vec<NodeVerdict> = nodes
            .iter()
            .map(|&n| NodeVerdict {
                node: n,
                verdict: self.verdict(n, pod, gang.as_ref()),
                unhealthy: self
                    .input
                    .states
                    .get(n)
                    .is_some_and(|s| s.health == HealthState::Unhealthy),
            })
            .collect();
        Some(Explanation {
            pod,
            pool,
            gpus: p.gpus,
            groups: group(&verdicts),
            nodes: verdicts,
            gang,
        })
    }

    fn verdict(&self, n: usize, pod: usize, gang: Option<&GangNeed>) -> Verdict {
        let p = &self.fit.snap.pods[pod];
        if let Some(check) = self.fit.first_refusal(n, p) {
            return Verdict::Refused(check);
        }
        match gang {
            Some(g) if !g.node_domain_has_room(self.fit.snap, n) => Verdict::DomainFull,
            _ => Verdict::Fits,
        }
    }

    /// The pool that counts `pod` pending and its nodes (name order); without one, every node
    /// with allocatable GPUs of the pod's kind.
    pub fn pool_nodes(&self, pod: usize) -> (Option<String>, Vec<usize>) {
        let pools = self.input.pools;
        if let Some(p) = pools.iter().find(|p| p.pending.contains(&pod)) {
            return (Some(p.name.clone()), p.nodes.clone());
        }
        let snap = self.fit.snap;
        let resource = snap.pods[pod].gpu_resource.clone().unwrap_or_default();
        let nodes = self
            .input
            .node_order
            .iter()
            .copied()
            .filter(|n| snap.nodes[*n].allocatable_of(&resource) > 0)
            .collect();
        (None, nodes)
    }
}

/// Verdict counts, most nodes first, then in verdict order.
fn group(nodes: &[NodeVerdict]) -> Vec<VerdictCount> {
    let mut out: Vec<VerdictCount> = Vec::new();
    for n in nodes {
        match out.iter_mut().find(|c| c.verdict == n.verdict) {
            Some(c) => c.nodes += 1,
            None => out.push(VerdictCount {
                verdict: n.verdict.clone(),
                nodes: 1,
            }),
        }
    }
    out.sort_by(|a, b| {
        b.nodes
            .cmp(&a.nodes)
            .then_with(|| a.verdict.cmp(&b.verdict))
    });
    out
}

/// The pending GPU pods worth explaining, one per standalone pod and one per gang (its first
/// pending member by name): the pools' pending pods, pool by pool, each by `namespace/name`.
pub fn pending_subjects(input: &PendingInput<'_>) -> Vec<usize> {
    let snap = input.snap;
    let mut out: Vec<usize> = Vec::new();
    let mut gangs_seen: Vec<(&str, &str)> = Vec::new();
    for pool in input.pools {
        let mut pods: Vec<usize> = pool.pending.clone();
        pods.sort_by(|a, b| {
            let (x, y) = (&snap.pods[*a], &snap.pods[*b]);
            (&x.namespace, &x.name).cmp(&(&y.namespace, &y.name))
        });
        for p in pods {
            let pod = &snap.pods[p];
            if let Some(group) = pod.ome.pod_group.as_deref() {
                let key = (pod.namespace.as_ref(), group);
                if gangs_seen.contains(&key) {
                    continue;
                }
                gangs_seen.push(key);
            }
            if !out.contains(&p) {
                out.push(p);
            }
        }
    }
    out
}

/// Whether a gang counts as committed to its domain (bound or named by the scheduler).
pub(crate) fn pinned(state: GangState) -> bool {
    matches!(state, GangState::Pinned | GangState::BoundPartial)
}

#[cfg(test)]
mod tests;
