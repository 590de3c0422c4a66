//! The `small-pods-hold-empty-node` lint: small pods holding otherwise empty nodes, ranked the
//! way the descheduler's `HighNodeUtilization` picks them (least utilised source node first,
//! one pod per node), with the node a card bin-packing scheduler would move the pod to.
//!
//! `HighNodeUtilization` view: a schedulable node is a source when 0 < used cards and
//! `used × 100 < threshold × cards`; a target when at or above the threshold with a free card.
//! Pods on a source sort by cards, then name (priority and QoS are not in the model); only
//! 1–2 card pods are candidates, as the guide's opt-in policy says.
//!
//! One lint per source node can mean thousands of messages, so the work per source is integer
//! sorting (node name ranks from the `SnapshotIndex`) and one message built with `push_str`.
//!
//! Owns: `small_pods_on_empty_nodes`, `SMALL_POD_CARDS`. Pure.

use crate::engine::gangs::gaudi_binpack_score;
use crate::engine::index::SnapshotIndex;
use crate::engine::lints::{BoundGpuPod, Lint, LintRule, Pools};
use crate::engine::model::{ClusterSnapshot, Pod};
use crate::engine::nodes::NodeState;

/// Largest pod (cards) the guide lets the descheduler evict.
pub const SMALL_POD_CARDS: u32 = 2;

/// One source node: its pool, and its pods (a range of the sorted pod list).
struct Source {
    pool: usize,
    node: usize,
    pods: std::ops::Range<usize>,
}

/// Pods on nodes under the `HighNodeUtilization` threshold (percent of cards), one lint per
/// source node, ranked per pool as the descheduler would visit them. The lints come sorted by
/// (object, message), as `placement_lints` returns them.
pub fn small_pods_on_empty_nodes(
    snap: &ClusterSnapshot,
    index: &SnapshotIndex,
    (states, pools): (&[NodeState], &Pools<'_>),
    bound: &[BoundGpuPod<'_>],
    threshold_percent: u32,
) -> Vec<Lint> {
    let under = |s: &NodeState| {
        s.allocated > 0
            && u64::from(s.allocated) * 100 < u64::from(threshold_percent) * u64::from(s.total)
    };
    // One flag per node, read sequentially once: the pass over every bound pod below then
    // reads one flag per node instead of each pod's node state.
    let source: Vec<bool> = states
        .iter()
        .zip(&pools.of_node)
        .map(|(s, pool)| !s.cordoned && pool.is_some() && under(s))
        .collect();
    let held = held_by_node(bound, &source);
    let mut pods: Vec<&Pod> = held.iter().map(|&(_, k)| bound[k as usize].0).collect();
    let mut sources = Vec::new();
    let mut start = 0;
    while start < held.len() {
        let node = held[start].0;
        let end = start + held[start..].iter().take_while(|h| h.0 == node).count();
        let node = node as usize;
        pods[start..end].sort_by(|a, b| a.gpus.cmp(&b.gpus).then_with(|| a.name.cmp(&b.name)));
        if let Some(pool) = pools.of_node[node] {
            sources.push(Source {
                pool,
                node,
                pods: start..end,
            });
        }
        start = end;
    }
    let pool_rank = name_ranks(&pools.names);
    sources.sort_unstable_by(|a, b| {
        let ua = u64::from(states[a.node].allocated) * u64::from(states[b.node].total);
        let ub = u64::from(states[b.node].allocated) * u64::from(states[a.node].total);
        pool_rank[a.pool]
            .cmp(&pool_rank[b.pool])
            .then(ua.cmp(&ub))
            .then_with(|| index.cmp_nodes(a.node, b.node))
            .then(a.node.cmp(&b.node))
    });
    let mut targets = Targets::new(states, pools, &sources, threshold_percent);
    let text = Text {
        snap,
        index,
        states,
        threshold: threshold_percent,
    };
    let mut out: Vec<(u32, Lint)> = Vec::with_capacity(sources.len());
    let mut rank = 0;
    for (k, s) in sources.iter().enumerate() {
        rank = if k > 0 && sources[k - 1].pool == s.pool {
            rank + 1
        } else {
            1
        };
        let lint = text.lint(
            pools.names[s.pool],
            rank,
            s,
            &pods[s.pods.clone()],
            &mut targets,
        );
        out.push((index.node_rank(s.node), lint));
    }
    // "Node " + name: name order is object order; equal names fall back to the message.
    out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.message.cmp(&b.1.message)));
    out.into_iter().map(|(_, l)| l).collect()
}

/// `(node, position in bound)` of the pods on source nodes, grouped by node ascending and each
/// node's pods in `bound` order: a counting sort by node (what sorting the pairs gives, in
/// linear time over ~100,000 pods).
fn held_by_node(bound: &[BoundGpuPod<'_>], source: &[bool]) -> Vec<(u32, u32)> {
    let on_source = |i: usize| source.get(i).copied().unwrap_or(false);
    let mut starts = vec![0u32; source.len() + 1];
    for &(_, i) in bound {
        if on_source(i) {
            starts[i + 1] += 1;
        }
    }
    for n in 0..source.len() {
        starts[n + 1] += starts[n];
    }
    let mut held = vec![(0u32, 0u32); starts[source.len()] as usize];
    for (k, &(_, i)) in bound.iter().enumerate() {
        if on_source(i) {
            held[starts[i] as usize] = (i as u32, k as u32);
            starts[i] += 1;
        }
    }
    held
}

/// Rank of each name among `names` (equal names share a rank).
fn name_ranks(names: &[&str]) -> Vec<usize> {
    names
        .iter()
        .map(|n| names.iter().filter(|m| *m < n).count())
        .collect()
}

/// A best target: node index and its bin-packing score.
type Target = Option<(usize, i64)>;

/// Per pool with sources: its nodes at or above the threshold with free cards (node order),
/// and the best bin-packing target per pod size (cached).
struct Targets {
    nodes: Vec<Vec<usize>>,
    best: Vec<Vec<(u32, Target)>>,
}

impl Targets {
    fn new(states: &[NodeState], pools: &Pools<'_>, sources: &[Source], threshold: u32) -> Self {
        let mut wanted = vec![false; pools.names.len()];
        for s in sources {
            wanted[s.pool] = true;
        }
        let mut nodes = vec![Vec::new(); pools.names.len()];
        for (i, (s, pool)) in states.iter().zip(&pools.of_node).enumerate() {
            let Some(pool) = *pool else { continue };
            if wanted[pool]
                && !s.cordoned
                && s.free > 0
                && u64::from(s.allocated) * 100 >= u64::from(threshold) * u64::from(s.total)
            {
                nodes[pool].push(i);
            }
        }
        Targets {
            nodes,
            best: vec![Vec::new(); pools.names.len()],
        }
    }

    /// The target of `pool` with the highest Gaudi bin-packing score for a pod of `cards`,
    /// ties by the smallest name (the last node among equal names).
    fn best_for(
        &mut self,
        index: &SnapshotIndex,
        states: &[NodeState],
        (pool, cards): (usize, u32),
    ) -> Target {
        if let Some((_, hit)) = self.best[pool].iter().find(|(c, _)| *c == cards) {
            return *hit;
        }
        // The score depends only on (allocated, total): a handful of distinct pairs.
        let mut scores: Vec<((u32, u32), i64)> = Vec::new();
        let mut score = |s: &NodeState| {
            let key = (s.allocated, s.total);
            if let Some((_, v)) = scores.iter().find(|(k, _)| *k == key) {
                return *v;
            }
            let v = gaudi_binpack_score(s.allocated, s.total, cards, None);
            scores.push((key, v));
            v
        };
        let best = self.nodes[pool]
            .iter()
            .filter(|&&i| states[i].free >= cards)
            .map(|&i| (i, score(&states[i])))
            .max_by(|a, b| a.1.cmp(&b.1).then_with(|| index.cmp_nodes(b.0, a.0)));
        self.best[pool].push((cards, best));
        best
    }
}

/// What the messages are written from.
struct Text<'a> {
    snap: &'a ClusterSnapshot,
    index: &'a SnapshotIndex,
    states: &'a [NodeState],
    threshold: u32,
}

impl Text<'_> {
    fn lint(
        &self,
        pool: &str,
        rank: usize,
        s: &Source,
        pods: &[&Pod],
        targets: &mut Targets,
    ) -> Lint {
        let mut m = String::with_capacity(400 + 40 * pods.len());
        push_num(&mut m, u64::from(self.states[s.node].allocated));
        m.push_str(" of ");
        push_num(&mut m, u64::from(self.states[s.node].total));
        m.push_str(" cards used (below ");
        push_num(&mut m, u64::from(self.threshold));
        m.push_str("%), held by ");
        for (i, p) in pods.iter().enumerate() {
            if i > 0 {
                m.push_str(", ");
            }
            push_pod(&mut m, p);
            m.push_str(" (");
            push_num(&mut m, u64::from(p.gpus));
            m.push_str(if p.gpus == 1 { " card)" } else { " cards)" });
        }
        m.push_str(": the node is not free for whole-node models; ");
        self.push_plan(&mut m, (s.pool, pool, rank), pods, targets);
        m.push_str(
            ". Fix: pack new pods (MostAllocated on the card resource) and repack running small \
             pods cautiously (opt-in, one pod per node, PDB maxUnavailable 1).",
        );
        Lint {
            rule: LintRule::SmallPodsHoldEmptyNode,
            object: ["Node ", &self.snap.nodes[s.node].name].concat(),
            message: m,
        }
    }

    /// The descheduler's first eviction on a source node and where bin-packing would put it.
    fn push_plan(
        &self,
        m: &mut String,
        (pool_id, pool, rank): (usize, &str, usize),
        pods: &[&Pod],
        targets: &mut Targets,
    ) {
        let Some(p) = pods.iter().find(|p| p.gpus <= SMALL_POD_CARDS) else {
            m.push_str(
                "none of its pods is small enough (1–2 cards) for the guide's descheduler policy",
            );
            return;
        };
        match targets.best_for(self.index, self.states, (pool_id, p.gpus)) {
            Some((t, score)) => {
                m.push_str("HighNodeUtilization would evict ");
                push_pod(m, p);
                m.push_str(" first (rank ");
                push_num(m, rank as u64);
                m.push_str(" in pool ");
                m.push_str(pool);
                m.push_str("); a card bin-packing scheduler (MostAllocated) would place it on ");
                m.push_str(&self.snap.nodes[t].name);
                m.push_str(" (score ");
                if score < 0 {
                    m.push('-');
                }
                push_num(m, score.unsigned_abs());
                m.push(')');
            }
            None => {
                m.push_str("no node at or above ");
                push_num(m, u64::from(self.threshold));
                m.push_str("% has a free card for ");
                push_pod(m, p);
                m.push_str(", so the descheduler (nodeFit) would evict nothing");
            }
        }
    }
}

fn push_pod(m: &mut String, p: &Pod) {
    m.push_str(&p.namespace);
    m.push('/');
    m.push_str(&p.name);
}

/// Appends `n` in decimal (what `to_string` writes, without its allocation).
fn push_num(m: &mut String, mut n: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    for &d in &digits[at..] {
        m.push(char::from(d));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_as_to_string_writes_them() {
        for n in [0u64, 7, 10, 99, 100, 4_294_967_295, u64::MAX] {
            let mut m = String::new();
            push_num(&mut m, n);
            assert_eq!(m, n.to_string());
        }
    }

    #[test]
    fn pool_ranks_follow_names() {
        assert_eq!(name_ranks(&["b", "a", "c", "a"]), vec![2, 0, 3, 0]);
    }
}
