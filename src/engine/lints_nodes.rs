//! Node- and pool-level placement lints: "reservation" cordons, two schedulers binding into one
//! GPU pool, and small pods holding otherwise empty nodes, ranked the way the descheduler's
//! `HighNodeUtilization` picks them (least utilised source node first, one pod per node), with
//! the node a card bin-packing scheduler would move the pod to.
//!
//! `HighNodeUtilization` view: a schedulable node is a source when 0 < used cards and
//! `used × 100 < threshold × cards`; a target when at or above the threshold with a free card.
//! Pods on a source sort by cards, then name (priority and QoS are not in the model); only
//! 1–2 card pods are candidates, as the guide's opt-in policy says.
//!
//! Owns: `reservation_cordons`, `mixed_schedulers`, `small_pods_on_empty_nodes`. Pure; must
//! not import anything outside `std` and `engine`.

use std::collections::{BTreeMap, HashMap};

use crate::engine::gang_reasons::effective_scheduler;
use crate::engine::gang_score::gaudi_binpack_score;
use crate::engine::health::HealthState;
use crate::engine::lints::{BoundGpuPod, Lint, LintRule, Pools};
use crate::engine::model::{ClusterSnapshot, Pod};
use crate::engine::nodes::NodeState;
use rustc_hash::FxHashMap as FastMap;

/// Largest pod (cards) the guide lets the descheduler evict.
pub const SMALL_POD_CARDS: u32 = 2;

/// Cordoned nodes that are healthy, have no maintenance trigger, are not being scaled down and
/// are Ready: a cordon used as a reservation hides their capacity from every scheduler.
pub fn reservation_cordons(snap: &ClusterSnapshot, states: &[NodeState]) -> Vec<Lint> {
    snap.nodes
        .iter()
        .zip(states)
        .filter(|(n, s)| {
            let ready = n
                .conditions
                .iter()
                .find(|c| c.kind.as_ref() == "Ready")
                .is_none_or(|c| c.status.as_ref() == "True");
            s.cordoned
                && s.health == HealthState::Clear
                && s.maintenance.is_empty()
                && !s.to_be_deleted
                && ready
        })
        .map(|(n, s)| Lint {
            rule: LintRule::ReservationCordon,
            object: format!("Node {}", n.name),
            message: format!(
                "node is cordoned but healthy, Ready and without a maintenance trigger: its {} \
                 GPU(s) are hidden from every scheduler. A cordon is a temporary step, not a \
                 hold. Fix: uncordon it; reserve capacity by raising the model's autoscaler \
                 floor, and record real maintenance with a maintenance label, taint or condition.",
                s.total
            ),
        })
        .collect()
}

/// GPU pools where bound GPU pods come from two or more schedulers: both keep their own cache
/// and can bind to the same freed cards (`UnexpectedAdmissionError`).
pub fn mixed_schedulers(pools: &Pools<'_>, bound: &[BoundGpuPod<'_>]) -> Vec<Lint> {
    let mut counts: Vec<Vec<(&str, usize)>> = vec![Vec::new(); pools.names.len()];
    for &(pod, node) in bound {
        let Some(pool) = pools.of_node[node] else {
            continue;
        };
        let scheduler = effective_scheduler(pod);
        match counts[pool].iter_mut().find(|(s, _)| *s == scheduler) {
            Some((_, n)) => *n += 1,
            None => counts[pool].push((scheduler, 1)),
        }
    }
    let pools: BTreeMap<&str, BTreeMap<&str, usize>> = pools
        .names
        .iter()
        .zip(counts)
        .map(|(name, c)| (*name, c.into_iter().collect()))
        .collect();
    pools
        .into_iter()
        .filter(|(_, s)| s.len() >= 2)
        .map(|(pool, schedulers)| {
            let list: Vec<String> = schedulers
                .iter()
                .map(|(s, n)| format!("{s} ({n} pod{})", if *n == 1 { "" } else { "s" }))
                .collect();
            Lint {
                rule: LintRule::MixedSchedulers,
                object: format!("Pool {pool}"),
                message: format!(
                    "GPU pods of this pool are bound by {}: each scheduler keeps its own cache \
                     and both can bind pods to the same freed cards; the kubelet admits one and \
                     the other fails with UnexpectedAdmissionError. Fix: move every GPU workload \
                     of the pool to the same scheduler.",
                    list.join(", ")
                ),
            }
        })
        .collect()
}

/// One source node of a pool.
struct Source<'a> {
    node: usize,
    used: u32,
    pods: Vec<&'a Pod>,
}

/// Pods on nodes under the `HighNodeUtilization` threshold (percent of cards), one lint per
/// source node, ranked per pool as the descheduler would visit them.
pub fn small_pods_on_empty_nodes(
    snap: &ClusterSnapshot,
    states: &[NodeState],
    bound: &[BoundGpuPod<'_>],
    threshold_percent: u32,
) -> Vec<Lint> {
    let under = |s: &NodeState| {
        s.allocated > 0
            && u64::from(s.allocated) * 100 < u64::from(threshold_percent) * u64::from(s.total)
    };
    let mut by_node: FastMap<usize, Vec<&Pod>> = FastMap::default();
    for &(pod, i) in bound {
        if !states[i].cordoned && states[i].pool.is_some() && under(&states[i]) {
            by_node.entry(i).or_default().push(pod);
        }
    }
    let mut pools: BTreeMap<&str, Vec<Source<'_>>> = BTreeMap::new();
    for (node, mut pods) in by_node {
        pods.sort_by(|a, b| a.gpus.cmp(&b.gpus).then_with(|| a.name.cmp(&b.name)));
        if let Some(pool) = states[node].pool.as_deref() {
            let used = states[node].allocated;
            pools
                .entry(pool)
                .or_default()
                .push(Source { node, used, pods });
        }
    }
    let mut out = Vec::new();
    for (pool, mut sources) in pools {
        sources.sort_by(|a, b| {
            let ua = u64::from(a.used) * u64::from(states[b.node].total);
            let ub = u64::from(b.used) * u64::from(states[a.node].total);
            ua.cmp(&ub)
                .then_with(|| snap.nodes[a.node].name.cmp(&snap.nodes[b.node].name))
        });
        let mut targets = Targets::new(snap, states, pool, threshold_percent);
        for (rank, s) in sources.iter().enumerate() {
            out.push(source_lint(
                snap,
                states,
                pool,
                rank + 1,
                s,
                &mut targets,
                threshold_percent,
            ));
        }
    }
    out
}

/// Nodes of a pool at or above the threshold with free cards, and the best bin-packing target
/// per pod size (cached).
struct Targets {
    nodes: Vec<usize>,
    best: HashMap<u32, Option<(usize, i64)>>,
}

impl Targets {
    fn new(snap: &ClusterSnapshot, states: &[NodeState], pool: &str, threshold: u32) -> Self {
        let nodes = (0..snap.nodes.len())
            .filter(|&i| {
                let s = &states[i];
                s.pool.as_deref() == Some(pool)
                    && !s.cordoned
                    && s.free > 0
                    && u64::from(s.allocated) * 100 >= u64::from(threshold) * u64::from(s.total)
            })
            .collect();
        Targets {
            nodes,
            best: HashMap::new(),
        }
    }

    /// The target with the highest Gaudi bin-packing score for a pod of `cards`, ties by name.
    fn best_for(
        &mut self,
        snap: &ClusterSnapshot,
        states: &[NodeState],
        cards: u32,
    ) -> Option<(usize, i64)> {
        let nodes = &self.nodes;
        *self.best.entry(cards).or_insert_with(|| {
            nodes
                .iter()
                .filter(|&&i| states[i].free >= cards)
                .map(|&i| {
                    (
                        i,
                        gaudi_binpack_score(states[i].allocated, states[i].total, cards, None),
                    )
                })
                .max_by(|a, b| {
                    a.1.cmp(&b.1)
                        .then_with(|| snap.nodes[b.0].name.cmp(&snap.nodes[a.0].name))
                })
        })
    }
}

fn source_lint(
    snap: &ClusterSnapshot,
    states: &[NodeState],
    pool: &str,
    rank: usize,
    s: &Source<'_>,
    targets: &mut Targets,
    threshold: u32,
) -> Lint {
    // Built with push_str: one lint per underutilised node can mean thousands of messages,
    // and the formatting machinery dominated the lint engine's cost.
    let threshold_text = threshold.to_string();
    let mut m = String::with_capacity(512);
    m.push_str(&s.used.to_string());
    m.push_str(" of ");
    m.push_str(&states[s.node].total.to_string());
    m.push_str(" cards used (below ");
    m.push_str(&threshold_text);
    m.push_str("%), held by ");
    for (i, p) in s.pods.iter().enumerate() {
        if i > 0 {
            m.push_str(", ");
        }
        push_pod(&mut m, p);
        m.push_str(" (");
        m.push_str(&p.gpus.to_string());
        m.push_str(if p.gpus == 1 { " card)" } else { " cards)" });
    }
    m.push_str(": the node is not free for whole-node models; ");
    let ctx = PlanText {
        snap,
        states,
        pool,
        rank,
        threshold: &threshold_text,
    };
    push_plan(&mut m, &ctx, s, targets);
    m.push_str(
        ". Fix: pack new pods (MostAllocated on the card resource) and repack running small \
         pods cautiously (opt-in, one pod per node, PDB maxUnavailable 1).",
    );
    Lint {
        rule: LintRule::SmallPodsHoldEmptyNode,
        object: ["Node ", &snap.nodes[s.node].name].concat(),
        message: m,
    }
}

/// What `push_plan` writes about.
struct PlanText<'a> {
    snap: &'a ClusterSnapshot,
    states: &'a [NodeState],
    pool: &'a str,
    rank: usize,
    threshold: &'a str,
}

/// The descheduler's first eviction on a source node and where bin-packing would put it.
fn push_plan(m: &mut String, c: &PlanText<'_>, s: &Source<'_>, targets: &mut Targets) {
    let Some(p) = s.pods.iter().find(|p| p.gpus <= SMALL_POD_CARDS) else {
        m.push_str(
            "none of its pods is small enough (1–2 cards) for the guide's descheduler policy",
        );
        return;
    };
    match targets.best_for(c.snap, c.states, p.gpus) {
        Some((t, score)) => {
            m.push_str("HighNodeUtilization would evict ");
            push_pod(m, p);
            m.push_str(" first (rank ");
            m.push_str(&c.rank.to_string());
            m.push_str(" in pool ");
            m.push_str(c.pool);
            m.push_str("); a card bin-packing scheduler (MostAllocated) would place it on ");
            m.push_str(&c.snap.nodes[t].name);
            m.push_str(" (score ");
            m.push_str(&score.to_string());
            m.push(')');
        }
        None => {
            m.push_str("no node at or above ");
            m.push_str(c.threshold);
            m.push_str("% has a free card for ");
            push_pod(m, p);
            m.push_str(", so the descheduler (nodeFit) would evict nothing");
        }
    }
}

fn push_pod(m: &mut String, p: &Pod) {
    m.push_str(&p.namespace);
    m.push('/');
    m.push_str(&p.name);
}
