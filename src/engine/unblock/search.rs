//! The greedy search for the fewest moves: for every place a pod could go (a node of its pool
//! that refuses it only for room; for a gang, a domain it may use), the approvable moves that
//! free GPUs there, most first, taken until the place has room; the place needing the fewest
//! moves wins (ties: fewer GPUs moved, then the place's order).
//!
//! Owns: `Place`, `Effect`, `places`, `effects`, `fewest`, `has_room`. Pure.

use crate::engine::explain::{copies_fitting, Explainer, Explanation, Verdict};
use rustc_hash::FxHashMap as FastMap;

use crate::engine::gangs::NodeFree;
use crate::engine::planning::MoveRow;
use crate::engine::unblock::PlanTarget;

/// Where a pod could go, and how many members must fit there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place {
    /// The nodes of the place.
    pub nodes: Vec<usize>,
    /// Members to fit (1 for a standalone pod).
    pub need: u32,
    /// The domain value, for a gang.
    pub domain: Option<String>,
}

impl Place {
    /// What a plan for this place names.
    pub fn target(&self) -> PlanTarget {
        match &self.domain {
            Some(d) => PlanTarget::Domain(d.clone()),
            None => PlanTarget::Node(self.nodes.first().copied().unwrap_or(usize::MAX)),
        }
    }

    /// Whether the place could hold the pod (or gang) with no other pod bound there.
    pub fn holds_when_empty(&self, ex: &Explainer<'_>, pod: usize) -> bool {
        let snap = ex.fit.snap;
        let p = &snap.pods[pod];
        let room: u32 = self
            .nodes
            .iter()
            .map(|n| {
                let node = &snap.nodes[*n];
                let empty = NodeFree {
                    cpu_milli: node.allocatable.cpu_milli,
                    memory: node.allocatable.memory,
                    pods: node.allocatable.pods,
                    used: Vec::new(),
                };
                copies_fitting(node, &empty, p, self.need)
            })
            .sum();
        room >= self.need
    }
}

/// What one move does: `(pod, from node, to node)` per planned pod.
pub type Effect = Vec<(usize, usize, usize)>;

/// The places of the explanation `e`.
pub fn places(ex: &Explainer<'_>, e: &Explanation) -> Vec<Place> {
    match &e.gang {
        None => e
            .nodes
            .iter()
            .filter(|n| match &n.verdict {
                Verdict::Refused(check) => check.is_room(),
                _ => true,
            })
            .map(|n| Place {
                nodes: vec![n.node],
                need: 1,
                domain: None,
            })
            .collect(),
        Some(g) => g
            .domains
            .iter()
            .filter(|d| g.may_use(&d.value))
            .map(|d| Place {
                nodes: e
                    .nodes
                    .iter()
                    .map(|n| n.node)
                    .filter(|n| g.domain_of(&ex.fit.snap.nodes[*n]) == Some(d.value.as_str()))
                    .collect(),
                need: g.remaining,
                domain: Some(d.value.clone()),
            })
            .collect(),
    }
}

/// Each row's effect; `None` for a row without a plan (advice) or with a pod that is not bound.
pub fn effects(ex: &Explainer<'_>, rows: &[MoveRow]) -> Vec<Option<Effect>> {
    let snap = ex.fit.snap;
    let node_of = |name: &str| {
        let order = ex.input.node_order;
        let at = order.partition_point(|n| snap.nodes[*n].name.as_ref() < name);
        order
            .get(at)
            .copied()
            .filter(|n| snap.nodes[*n].name.as_ref() == name)
    };
    rows.iter()
        .map(|r| {
            let plan = r.plan.as_deref()?;
            plan.placements
                .iter()
                .map(|(pod, to)| {
                    let from = node_of(snap.pods.get(*pod)?.node.as_deref()?)?;
                    Some((*pod, from, *to))
                })
                .collect()
        })
        .collect()
}

/// GPUs `effect` frees on the nodes `nodes` (leaving minus landing; may be negative).
fn freed_on(ex: &Explainer<'_>, effect: &Effect, nodes: &[usize]) -> i64 {
    let gpus = |pod: usize| i64::from(ex.fit.snap.pods[pod].gpus);
    effect
        .iter()
        .map(|(pod, from, to)| {
            i64::from(nodes.contains(from)) * gpus(*pod)
                - i64::from(nodes.contains(to)) * gpus(*pod)
        })
        .sum()
}

/// Applies `effect` to the free resources `free` (aligned with `snap.nodes`).
pub fn apply(ex: &Explainer<'_>, free: &mut [NodeFree], effect: &Effect) {
    for (pod, from, to) in effect {
        let p = &ex.fit.snap.pods[*pod];
        if let Some(f) = free.get_mut(*from) {
            f.release(p);
        }
        if let Some(f) = free.get_mut(*to) {
            f.take(p);
        }
    }
}

/// Whether `place` has room for its members with `free` left.
pub fn has_room(ex: &Explainer<'_>, free: &[NodeFree], place: &Place, pod: usize) -> bool {
    let snap = ex.fit.snap;
    let p = &snap.pods[pod];
    let room: u32 = place
        .nodes
        .iter()
        .map(|n| copies_fitting(&snap.nodes[*n], &free[*n], p, place.need))
        .sum();
    room >= place.need
}

/// Moves taken for a place: `(row, GPUs it frees there)`.
pub type Taken = Vec<(usize, u32)>;

/// Rows by the nodes their pods leave: only a row moving a pod off a place's node can free
/// room there, so a place reads its own nodes' rows, not every row.
#[derive(Debug, Clone, Default)]
pub struct Candidates {
    by_source: FastMap<usize, Vec<usize>>,
}

impl Candidates {
    /// Indexes `rows` (indices into `effects`) by source node.
    pub fn new(effects: &[Option<Effect>], rows: &[usize]) -> Self {
        let mut by_source: FastMap<usize, Vec<usize>> = FastMap::default();
        for &r in rows {
            for (_, from, _) in effects
                .get(r)
                .and_then(Option::as_ref)
                .into_iter()
                .flatten()
            {
                let list = by_source.entry(*from).or_default();
                if list.last() != Some(&r) {
                    list.push(r);
                }
            }
        }
        Candidates { by_source }
    }

    /// The rows moving a pod off some node of `nodes`, ascending.
    fn touching(&self, nodes: &[usize]) -> Vec<usize> {
        let mut out: Vec<usize> = nodes
            .iter()
            .filter_map(|n| self.by_source.get(n))
            .flatten()
            .copied()
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// The fewest of the candidate rows that give some place room, with the GPUs each frees
/// there, in the order taken; `None` when even all of them do not.
pub fn fewest<'p>(
    ex: &Explainer<'_>,
    pod: usize,
    places: &'p [Place],
    effects: &[Option<Effect>],
    candidates: &Candidates,
) -> Option<(&'p Place, Taken)> {
    let mut best: Option<(&Place, Taken, u32)> = None;
    for place in places {
        let rows = candidates.touching(&place.nodes);
        let Some(taken) = greedy(ex, pod, place, effects, &rows) else {
            continue;
        };
        let moved: u32 = taken.iter().map(|(_, g)| g).sum();
        let better = best
            .as_ref()
            .is_none_or(|(_, b, m)| (taken.len(), moved) < (b.len(), *m));
        if better {
            best = Some((place, taken, moved));
        }
    }
    best.map(|(p, t, _)| (p, t))
}

/// The moves freeing most GPUs on `place` first, until it has room; asked only for a place
/// without room now. Only the place's own nodes are tracked: a move changes nothing else a
/// place's room reads.
fn greedy(
    ex: &Explainer<'_>,
    pod: usize,
    place: &Place,
    effects: &[Option<Effect>],
    rows: &[usize],
) -> Option<Taken> {
    let mut gains: Vec<(usize, i64)> = rows
        .iter()
        .filter_map(|r| Some((*r, freed_on(ex, effects.get(*r)?.as_ref()?, &place.nodes))))
        .filter(|(_, g)| *g > 0)
        .collect();
    if gains.is_empty() {
        // Asked only for a place without room now: nothing frees any.
        return None;
    }
    gains.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let snap = ex.fit.snap;
    let p = &snap.pods[pod];
    let mut local: Vec<NodeFree> = place
        .nodes
        .iter()
        .map(|n| ex.fit.free[*n].clone())
        .collect();
    let room = |local: &[NodeFree]| -> bool {
        let total: u32 = place
            .nodes
            .iter()
            .zip(local)
            .map(|(n, f)| copies_fitting(&snap.nodes[*n], f, p, place.need))
            .sum();
        total >= place.need
    };
    let mut taken = Vec::new();
    if room(&local) {
        return Some(taken);
    }
    for (row, gain) in gains {
        for (moved, from, to) in effects
            .get(row)
            .and_then(Option::as_ref)
            .into_iter()
            .flatten()
        {
            let m = &snap.pods[*moved];
            if let Some(i) = place.nodes.iter().position(|n| n == from) {
                local[i].release(m);
            }
            if let Some(i) = place.nodes.iter().position(|n| n == to) {
                local[i].take(m);
            }
        }
        taken.push((row, u32::try_from(gain).unwrap_or(u32::MAX)));
        if room(&local) {
            return Some(taken);
        }
    }
    None
}
