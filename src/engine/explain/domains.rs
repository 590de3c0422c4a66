//! A pending gang's need and its domains (gangpack.md §3.3, lineage C "member room"): the
//! nodes of the pool grouped by the value of the gang's topology key, and per domain how many
//! more members its nodes have room for, each member's requests taken from the node's free
//! resources in turn. A domain with room for fewer than the members still to place is full.
//!
//! Owns: `GangNeed`, `DomainRoom`, `gang_need`, `copies_fitting`. Pure.

use crate::engine::explain::{pinned, Explainer};
use crate::engine::gangs::{first_refusal, NodeFree};
use crate::engine::model::{ClusterSnapshot, Node, Pod};

/// One domain of a gang's topology key within the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DomainRoom {
    /// The label value.
    pub value: String,
    /// Nodes of the pool in the domain.
    pub nodes: usize,
    /// Members the domain has room for now (at most the members still to place).
    pub room: u32,
}

/// What a pending gang needs and where.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GangNeed {
    /// `namespace/pod-group`.
    pub key: String,
    /// Members still to place.
    pub remaining: u32,
    /// The gang's topology key (`None`: the gang has none; every node is one domain).
    pub topology_key: Option<String>,
    /// The domain the scheduler committed the gang to, when it did.
    pub pinned_domain: Option<String>,
    /// The domains of the pool, by value.
    pub domains: Vec<DomainRoom>,
}

impl GangNeed {
    /// The domain value of `node` (the whole pool when the gang has no key).
    pub fn domain_of<'n>(&self, node: &'n Node) -> Option<&'n str> {
        match &self.topology_key {
            Some(key) => node.labels.get(key),
            None => Some(""),
        }
    }

    /// Whether the domains the gang may use (its pinned one, else all) include `value`.
    pub fn may_use(&self, value: &str) -> bool {
        self.pinned_domain.as_deref().is_none_or(|d| d == value)
    }

    /// Whether node `n`'s domain is usable and has room for every remaining member.
    pub fn node_domain_has_room(&self, snap: &ClusterSnapshot, n: usize) -> bool {
        let Some(value) = snap.nodes.get(n).and_then(|node| self.domain_of(node)) else {
            return false;
        };
        self.may_use(value)
            && self
                .domains
                .iter()
                .any(|d| d.value == value && d.room >= self.remaining)
    }
}

/// How many copies of `pod` fit on `node` with `free` left, one after another, at most `cap`.
pub fn copies_fitting(node: &Node, free: &NodeFree, pod: &Pod, cap: u32) -> u32 {
    let mut left = free.clone();
    let mut n = 0;
    while n < cap && first_refusal(node, &left, pod).is_none() {
        left.take(pod);
        n += 1;
    }
    n
}

/// The need of the gang `pod` belongs to over `nodes`; `None` for a standalone pod.
pub(super) fn gang_need(ex: &Explainer<'_>, pod: usize, nodes: &[usize]) -> Option<GangNeed> {
    let snap = ex.fit.snap;
    let p = &snap.pods[pod];
    let group = p.ome.pod_group.as_ref()?;
    let gang = ex
        .input
        .gangs
        .gangs
        .iter()
        .find(|g| g.namespace == p.namespace && g.name == *group)?;
    let pending = gang
        .members
        .iter()
        .filter(|m| snap.pods.get(**m).is_some_and(|m| m.node.is_none()))
        .count();
    let remaining = gang
        .remaining
        .unwrap_or(u32::try_from(pending).unwrap_or(u32::MAX))
        .max(1);
    let mut need = GangNeed {
        key: gang.key(),
        remaining,
        topology_key: gang.topology_key.clone(),
        pinned_domain: gang.domain.clone().filter(|_| pinned(gang.state)),
        domains: Vec::new(),
    };
    need.domains = domain_rooms(&need, snap, nodes, |n| {
        copies_fitting(&snap.nodes[n], &ex.fit.free[n], p, remaining)
    });
    Some(need)
}

/// The domains of `nodes` under `need`'s key with the room `room_of` gives each node.
pub fn domain_rooms(
    need: &GangNeed,
    snap: &ClusterSnapshot,
    nodes: &[usize],
    room_of: impl Fn(usize) -> u32,
) -> Vec<DomainRoom> {
    let mut out: Vec<DomainRoom> = Vec::new();
    for &n in nodes {
        let Some(value) = need.domain_of(&snap.nodes[n]) else {
            continue;
        };
        let room = room_of(n);
        match out.iter_mut().find(|d| d.value == value) {
            Some(d) => {
                d.nodes += 1;
                d.room = d.room.saturating_add(room).min(need.remaining);
            }
            None => out.push(DomainRoom {
                value: value.to_string(),
                nodes: 1,
                room: room.min(need.remaining),
            }),
        }
    }
    out.sort_by(|a, b| a.value.cmp(&b.value));
    out
}
