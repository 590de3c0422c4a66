//! Domain capacity for a gang (gangpack.md §3.3) under lineage A (whole node: eligible
//! nodes) or C (member room: member slots, several members per node, every requested resource
//! dividing the node's free amount), and the BestFit domain
//! choice of §3.4 (smallest capacity ≥ need, ties by the byte-wise smallest domain value).
//!
//! `canJoin` is decided with one b-matching: the current pod T0 can join iff it fits alone on
//! some node with room and the templates (T0 included) can fill `need` slots — a flow that
//! leaves T0 out can always trade one unit on T0's node for T0. Templates are grouped into
//! classes of identical fit, so the flow runs over (classes × nodes), not (pods × nodes).
//!
//! Owns: `CapacityModel`, `TemplateClasses`, `domain_capacity`, `best_fit`. Pure.

use crate::engine::gangs::fit::{same_fit, FitContext};
use crate::engine::model::{counts_in_fit, Name, Pod};

/// Which lineage's capacity unit to use (gangpack.md §0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CapacityModel {
    /// Lineage A/B: eligible nodes, one member per node.
    WholeNode,
    /// Lineage C (the default): member slots, counting node sharing.
    #[default]
    MemberRoom,
}

impl CapacityModel {
    /// `"A"` or `"C"`.
    pub fn name(self) -> &'static str {
        match self {
            CapacityModel::WholeNode => "A",
            CapacityModel::MemberRoom => "C",
        }
    }
}

/// The gang's templates grouped by identical fit; class 0 holds the current pod T0.
#[derive(Debug, Clone)]
pub struct TemplateClasses<'a> {
    /// A representative pod per class and the number of templates in it.
    pub classes: Vec<(&'a Pod, u32)>,
}

impl<'a> TemplateClasses<'a> {
    /// Groups `templates` (current pod first).
    pub fn new(templates: &[&'a Pod]) -> Self {
        let mut classes: Vec<(&Pod, u32)> = Vec::new();
        for t in templates {
            match classes.iter_mut().find(|(rep, _)| same_fit(rep, t)) {
                Some((_, n)) => *n += 1,
                None => classes.push((t, 1)),
            }
        }
        TemplateClasses { classes }
    }

    /// Whether both groupings have the same classes and counts (for caching capacities).
    pub fn same_as(&self, other: &TemplateClasses<'_>) -> bool {
        self.classes.len() == other.classes.len()
            && self
                .classes
                .iter()
                .zip(&other.classes)
                .all(|((a, n), (b, m))| n == m && same_fit(a, b))
    }
}

/// Capacity of one domain (its node indices) for `need` members, `per_node` being `need` or 1
/// when a required anti-affinity term of a member matches a member.
pub fn domain_capacity(
    ctx: &FitContext<'_>,
    nodes: &[usize],
    t: &TemplateClasses<'_>,
    need: u32,
    per_node: u32,
    model: CapacityModel,
) -> u32 {
    if need == 0 || t.classes.is_empty() {
        return 0;
    }
    let fits: Vec<Vec<bool>> = t
        .classes
        .iter()
        .map(|(pod, _)| nodes.iter().map(|&n| ctx.fits(n, pod)).collect())
        .collect();
    let room: Vec<u32> = (0..nodes.len())
        .map(|i| node_room(ctx, nodes[i], t, &fits, i, per_node, model))
        .collect();
    let t0_can_start = (0..nodes.len()).any(|i| fits[0][i] && room[i] > 0);
    if !t0_can_start {
        return 0;
    }
    let placeable = match &t.classes[..] {
        // One class: every fitting node's room is reachable, so the flow is a sum.
        [(_, supply)] => {
            let reachable: u32 = room
                .iter()
                .zip(&fits[0])
                .filter(|(_, f)| **f)
                .fold(0u32, |sum, (r, _)| sum.saturating_add(*r));
            reachable.min(*supply)
        }
        classes => {
            let supply: Vec<u32> = classes.iter().map(|(_, n)| *n).collect();
            max_flow(&fits, &supply, &room, need)
        }
    };
    if placeable >= need {
        room.iter().sum()
    } else {
        0
    }
}

/// `room[n]` of lineage C, or 1 per eligible node in lineage A.
fn node_room(
    ctx: &FitContext<'_>,
    n: usize,
    t: &TemplateClasses<'_>,
    fits: &[Vec<bool>],
    i: usize,
    per_node: u32,
    model: CapacityModel,
) -> u32 {
    let mut fitting = t
        .classes
        .iter()
        .zip(fits)
        .filter(|(_, f)| f[i])
        .map(|((p, _), _)| *p)
        .peekable();
    if fitting.peek().is_none() {
        return 0;
    }
    if model == CapacityModel::WholeNode {
        return 1;
    }
    // `largest`: the element-wise maximum request over the templates that fit the node alone.
    let (mut cpu, mut mem) = (0u64, 0u64);
    let mut others: Vec<(&Name, u64)> = Vec::new();
    for p in fitting {
        cpu = cpu.max(p.cpu_milli);
        mem = mem.max(p.memory);
        for (r, want) in p.scalar_requests().filter(|(r, _)| counts_in_fit(r)) {
            match others.iter_mut().find(|(o, _)| *o == r) {
                Some((_, most)) => *most = (*most).max(want),
                None => others.push((r, want)),
            }
        }
    }
    let free = &ctx.free[n];
    let node = &ctx.snap.nodes[n];
    let mut copies = free.pods;
    let dims = [(free.cpu_milli, cpu), (free.memory, mem)].into_iter();
    let dims = dims.chain(others.iter().map(|(r, want)| (free.of(node, r), *want)));
    for (have, want) in dims {
        if let Some(n) = have.checked_div(want) {
            copies = copies.min(n);
        }
    }
    let copies = u32::try_from(copies).unwrap_or(u32::MAX);
    per_node.min(copies).max(1)
}

/// Max flow source → class (supply) → node (if it fits) → sink (room), stopping at `target`.
/// Unit augmenting paths found by BFS; classes are few, so each BFS is O(classes × nodes).
fn max_flow(fits: &[Vec<bool>], supply: &[u32], room: &[u32], target: u32) -> u32 {
    let (k, m) = (supply.len(), room.len());
    let mut flow = vec![vec![0u32; m]; k];
    let mut used_supply = vec![0u32; k];
    let mut used_room = vec![0u32; m];
    let mut total = 0;
    while total < target {
        let Some((end, node_prev, class_prev)) =
            augmenting_path(fits, supply, room, &flow, &used_supply, &used_room)
        else {
            break;
        };
        let mut n = end;
        loop {
            let c = node_prev[n];
            flow[c][n] += 1;
            match class_prev[c] {
                None => {
                    used_supply[c] += 1;
                    break;
                }
                Some(n2) => {
                    flow[c][n2] -= 1;
                    n = n2;
                }
            }
        }
        used_room[end] += 1;
        total += 1;
    }
    total
}

type Path = (usize, Vec<usize>, Vec<Option<usize>>);

/// BFS for one augmenting path; returns the end node and the predecessor links.
fn augmenting_path(
    fits: &[Vec<bool>],
    supply: &[u32],
    room: &[u32],
    flow: &[Vec<u32>],
    used_supply: &[u32],
    used_room: &[u32],
) -> Option<Path> {
    let (k, m) = (supply.len(), room.len());
    let mut class_seen = vec![false; k];
    let mut class_prev: Vec<Option<usize>> = vec![None; k];
    let mut node_prev = vec![usize::MAX; m];
    let mut queue: Vec<usize> = (0..k).filter(|&c| used_supply[c] < supply[c]).collect();
    for &c in &queue {
        class_seen[c] = true;
    }
    let mut head = 0;
    while let Some(&c) = queue.get(head) {
        head += 1;
        for n in 0..m {
            if !fits[c][n] || node_prev[n] != usize::MAX {
                continue;
            }
            node_prev[n] = c;
            if used_room[n] < room[n] {
                return Some((n, node_prev, class_prev));
            }
            for c2 in 0..k {
                if flow[c2][n] > 0 && !class_seen[c2] {
                    class_seen[c2] = true;
                    class_prev[c2] = Some(n);
                    queue.push(c2);
                }
            }
        }
    }
    None
}

/// The BestFit preference order for `need`: positions of the domains with capacity ≥ need,
/// smallest capacity first, ties by the byte-wise smallest domain value. `need == 0` never
/// fits (empty order). Computed once per capacity table, it answers BestFit for any set of
/// excluded domains by taking the first position not excluded.
pub fn fit_order(capacities: &[(String, u32)], need: u32) -> Vec<usize> {
    if need == 0 {
        return Vec::new();
    }
    let mut order: Vec<usize> = (0..capacities.len())
        .filter(|&i| capacities[i].1 >= need)
        .collect();
    order.sort_by(|&a, &b| {
        let (da, ca) = &capacities[a];
        let (db, cb) = &capacities[b];
        ca.cmp(cb).then_with(|| da.as_bytes().cmp(db.as_bytes()))
    });
    order
}

#[cfg(test)]
/// BestFit(need) of gangpack.md §3.4: among `(domain, capacity)` pairs whose position is not
/// `excluded` and whose capacity is ≥ need, the smallest capacity, ties by the byte-wise
/// smallest domain value. `need == 0` never fits.
pub fn best_fit(
    capacities: &[(String, u32)],
    need: u32,
    excluded: impl Fn(usize) -> bool,
) -> Option<&(String, u32)> {
    fit_order(capacities, need)
        .into_iter()
        .find(|&i| !excluded(i))
        .map(|i| &capacities[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn caps(list: &[(&str, u32)]) -> Vec<(String, u32)> {
        list.iter().map(|(d, c)| (d.to_string(), *c)).collect()
    }

    #[test]
    fn best_fit_takes_the_smallest_capacity_that_fits_then_the_smallest_value() {
        let c = caps(&[("b", 3), ("a", 2), ("c", 1)]);
        assert_eq!(best_fit(&c, 2, |_| false).map(|d| d.0.as_str()), Some("a"));
        let tie = caps(&[("z", 4), ("B", 4), ("a", 4)]);
        assert_eq!(
            best_fit(&tie, 2, |_| false).map(|d| d.0.as_str()),
            Some("B")
        );
        assert_eq!(best_fit(&c, 2, |i| i == 1).map(|d| d.0.as_str()), Some("b"));
        assert!(best_fit(&c, 4, |_| false).is_none());
        assert!(best_fit(&c, 0, |_| false).is_none());
    }

    #[test]
    fn max_flow_reroutes_through_shared_nodes() {
        // Class 0 fits nodes 0 and 1, class 1 fits only node 0: both can be placed only if
        // class 0 moves to node 1.
        let fits = vec![vec![true, true], vec![true, false]];
        assert_eq!(max_flow(&fits, &[1, 1], &[1, 1], 2), 2);
        assert_eq!(max_flow(&fits, &[1, 1], &[1, 0], 2), 1);
        assert_eq!(max_flow(&fits, &[3, 0], &[2, 2], 3), 3);
    }
}
