//! The pool map's model: every node of a pool as one cell (its free GPUs, or why it takes no
//! new pod), grouped by the pool's topology domain, each domain's summary cell for the
//! aggregated map, the counts the legend shows, and the answer to "why is my pod Pending
//! while GPUs are free": free GPUs, the largest request one node fits now and after Alfred's
//! repack, and the pending GPU pods by size and age. Built once per feed from the analysis;
//! `layout` turns it into lines for a width.
//!
//! Owns: `PoolMap`, `MapCell`, `MapGroup`, `Exclusion`, `Band`, `pool_maps`. Plain data.

mod answer;
mod labels;
pub mod layout;
pub mod named;

use rustc_hash::FxHashMap as HashMap;

use crate::app::model::map::answer::{fits_line, pending_line};
use crate::app::model::map::labels::{label_prefix, natural_order};
use crate::app::table::Tone;
use crate::engine::analysis::Analysis;
use crate::engine::gangs::pool_topology_key;
use crate::engine::model::ClusterSnapshot;
use crate::engine::nodes::{not_ready, takes_new_pods, HealthState, NodeState};
use crate::engine::pools::PoolReport;

/// Why a node is not a bin Alfred places on, most serious first (a node with several shows
/// the first). Every reason but the first also keeps new pods away, or Alfred avoids it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Exclusion {
    /// Health Unhealthy, yet neither cordoned nor tainted: the scheduler still places new pods
    /// on it (Alfred only stops targeting it), so the map offers the cordon.
    UnhealthySchedulable,
    /// Health Unhealthy, and cordoned or tainted so that no new pod lands.
    Unhealthy,
    /// Health Unknown.
    Unknown,
    /// Health Suspect.
    Suspect,
    /// A maintenance trigger matches.
    Maintenance,
    /// Cordoned (`spec.unschedulable`).
    Cordoned,
    /// Marked for scale-down by the cluster autoscaler.
    Removing,
    /// A spot node, and Alfred avoids spot nodes as targets.
    Spot,
}

impl Exclusion {
    /// Every reason, in legend order.
    pub const ALL: [Exclusion; 8] = [
        Exclusion::UnhealthySchedulable,
        Exclusion::Unhealthy,
        Exclusion::Unknown,
        Exclusion::Suspect,
        Exclusion::Maintenance,
        Exclusion::Cordoned,
        Exclusion::Removing,
        Exclusion::Spot,
    ];

    /// The cell's glyph (health marks as in the Nodes view).
    pub fn glyph(self) -> char {
        match self {
            Exclusion::UnhealthySchedulable => '!',
            Exclusion::Unhealthy => '✗',
            Exclusion::Unknown => '?',
            Exclusion::Suspect => '~',
            Exclusion::Maintenance => 'M',
            Exclusion::Cordoned => 'C',
            Exclusion::Removing => 'R',
            Exclusion::Spot => 'S',
        }
    }

    /// The legend's word.
    pub fn word(self) -> &'static str {
        match self {
            Exclusion::UnhealthySchedulable => "unhealthy, still schedulable",
            Exclusion::Unhealthy => "unhealthy",
            Exclusion::Unknown => "health unknown",
            Exclusion::Suspect => "suspect",
            Exclusion::Maintenance => "maintenance",
            Exclusion::Cordoned => "cordoned",
            Exclusion::Removing => "being removed",
            Exclusion::Spot => "spot (avoided)",
        }
    }

    /// The first reason `s` is no bin in its pool, `None` when it is a schedulable bin;
    /// `takes_pods`: the scheduler still places new pods on the node (`takes_new_pods`).
    pub fn of(s: &NodeState, avoid_spot: bool, takes_pods: bool) -> Option<Exclusion> {
        match s.health {
            HealthState::Unhealthy if takes_pods => return Some(Exclusion::UnhealthySchedulable),
            HealthState::Unhealthy => return Some(Exclusion::Unhealthy),
            HealthState::Unknown => return Some(Exclusion::Unknown),
            HealthState::Suspect { .. } => return Some(Exclusion::Suspect),
            HealthState::Clear => {}
        }
        if !s.maintenance.is_empty() {
            Some(Exclusion::Maintenance)
        } else if s.cordoned {
            Some(Exclusion::Cordoned)
        } else if s.to_be_deleted {
            Some(Exclusion::Removing)
        } else if avoid_spot && s.preemptible {
            Some(Exclusion::Spot)
        } else {
            None
        }
    }
}

/// The colour band of a cell; the theme maps each to a slot (the glyph alone reads too).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Band {
    /// No GPU free.
    None,
    /// Some GPUs free.
    Some,
    /// Every GPU of the node free.
    Whole,
    /// The node takes no new pod.
    Excluded,
}

/// One cell: a node, or the best node of a domain or block in an aggregated map.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MapCell {
    /// Free GPUs.
    pub free: u32,
    /// Allocatable GPUs.
    pub total: u32,
    /// Why the node takes no new pod (`None` = schedulable).
    pub exclusion: Option<Exclusion>,
    /// The kubelet reports the node not ready or stopped reporting: its free GPUs still
    /// count (as Alfred counts them), but the cell says so.
    pub not_ready: bool,
}

impl MapCell {
    /// `·` for no free GPU, the digit for 1–9, `+` for 10 or more; an excluded node's mark.
    pub fn glyph(&self) -> char {
        match (self.exclusion, self.free) {
            (Some(e), _) => e.glyph(),
            (None, 0) => '·',
            (None, f @ 1..=9) => char::from_digit(f, 10).unwrap_or('+'),
            (None, _) => '+',
        }
    }

    /// The colour band.
    pub fn band(&self) -> Band {
        match self.exclusion {
            Some(_) => Band::Excluded,
            None if self.free == 0 => Band::None,
            None if self.free >= self.total => Band::Whole,
            None => Band::Some,
        }
    }

    /// The summary cell of `cells`: the schedulable cell with the most GPUs free (the
    /// largest request one of them fits; the first on ties), else the most common exclusion
    /// (the more serious on ties).
    pub fn summary(cells: &[MapCell]) -> MapCell {
        let best =
            cells
                .iter()
                .filter(|c| c.exclusion.is_none())
                .fold(None::<MapCell>, |best, c| match best {
                    Some(b) if b.free >= c.free => Some(b),
                    _ => Some(*c),
                });
        best.unwrap_or_else(|| {
            let mut counts = [0usize; Exclusion::ALL.len()];
            for e in cells.iter().filter_map(|c| c.exclusion) {
                counts[e as usize] += 1;
            }
            let most = (0..counts.len())
                .rev()
                .filter(|i| counts[*i] > 0)
                .max_by_key(|i| counts[*i]);
            MapCell {
                free: 0,
                total: 0,
                exclusion: most.map(|i| Exclusion::ALL[i]),
                not_ready: false,
            }
        })
    }
}

/// A topology domain of the pool (or the whole pool when it has no topology key).
#[derive(Debug, Clone, PartialEq)]
pub struct MapGroup {
    /// The label value (`""` for the whole pool, `UNLABELLED` for nodes without the label).
    pub domain: String,
    /// What the map prints before the domain's cells: the value without `PoolMap::prefix`.
    pub label: String,
    /// First cell of the domain in `PoolMap::cells`.
    pub start: usize,
    /// Cells (nodes) in the domain.
    pub len: usize,
    /// The domain's summary cell (`MapCell::summary`).
    pub summary: MapCell,
}

/// The group of the pool's nodes that lack the topology label (sorted last).
pub const UNLABELLED: &str = "(no label)";

/// One piece of an answer line: text and its tone.
pub type Piece = (String, Tone);

/// The map of one pool.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct PoolMap {
    /// Pool key.
    pub pool: String,
    /// The node label the domains are values of (`None`: one group, name order).
    pub key: Option<String>,
    /// One cell per node, domain by domain, name order within a domain.
    pub cells: Vec<MapCell>,
    /// Each cell's node name, aligned with `cells` (the full-size map prints them).
    pub names: Vec<String>,
    /// Domains in natural order of their values, `UNLABELLED` last.
    pub groups: Vec<MapGroup>,
    /// The prefix every domain value shares, left out of the labels (`""` when none).
    pub prefix: String,
    /// Excluded nodes per reason, the reasons present only, in legend order.
    pub excluded: Vec<(Exclusion, usize)>,
    /// The most GPUs a node of the pool has (the legend's "whole node").
    pub max_total: u32,
    /// Free GPUs, the largest fit now and after the repack.
    pub fits: Vec<Piece>,
    /// The pending GPU pods by size and age.
    pub pending: Vec<Piece>,
}

/// The map of every pool of `a`, aligned with `a.pools`.
pub fn pool_maps(snap: &ClusterSnapshot, a: &Analysis) -> Vec<PoolMap> {
    a.pools.iter().map(|p| pool_map(snap, a, p)).collect()
}

fn pool_map(snap: &ClusterSnapshot, a: &Analysis, p: &PoolReport) -> PoolMap {
    let avoid_spot = a.config.spot_policy.avoid_as_target;
    let key = pool_topology_key(snap, &a.gangs, &p.nodes);
    let (order, groups) = group_nodes(snap, &p.nodes, key.as_deref());
    let cell_of = |n: usize| {
        let s = &a.nodes[n];
        let takes_pods = snap.nodes.get(n).is_some_and(takes_new_pods);
        MapCell {
            free: s.free,
            total: s.total,
            exclusion: Exclusion::of(s, avoid_spot, takes_pods),
            not_ready: snap.nodes.get(n).and_then(not_ready).is_some(),
        }
    };
    let cells: Vec<MapCell> = order.iter().map(|n| cell_of(*n)).collect();
    let names = order
        .iter()
        .map(|n| {
            snap.nodes
                .get(*n)
                .map_or_else(String::new, |x| x.name.to_string())
        })
        .collect();
    let labelled = groups
        .iter()
        .map(|g| g.0.as_str())
        .filter(|d| *d != UNLABELLED);
    let prefix = label_prefix(labelled).to_string();
    let groups = groups
        .into_iter()
        .map(|(domain, start, len)| MapGroup {
            label: match domain.strip_prefix(prefix.as_str()) {
                Some(rest) if domain != UNLABELLED => rest.to_string(),
                _ => domain.clone(),
            },
            domain,
            start,
            len,
            summary: MapCell::summary(&cells[start..start + len]),
        })
        .collect();
    let mut counts = [0usize; Exclusion::ALL.len()];
    for e in cells.iter().filter_map(|c| c.exclusion) {
        counts[e as usize] += 1;
    }
    PoolMap {
        pool: p.name.clone(),
        key,
        max_total: cells.iter().map(|c| c.total).max().unwrap_or(0),
        excluded: Exclusion::ALL
            .iter()
            .zip(counts)
            .filter(|(_, n)| *n > 0)
            .map(|(e, n)| (*e, n))
            .collect(),
        cells,
        names,
        groups,
        prefix,
        fits: with_reconciled(fits_line(p), snap, a, p),
        pending: pending_line(&p.pending_sizes, p.largest_node_gpus),
    }
}

/// `fits` and, when nodes without the GPU product label joined the pool because the labelled
/// nodes of their instance type agree on it, which ones ("· 1 node without the product label
/// joins by its instance type: gpu-b").
fn with_reconciled(
    mut fits: Vec<Piece>,
    snap: &ClusterSnapshot,
    a: &Analysis,
    p: &PoolReport,
) -> Vec<Piece> {
    let names: Vec<&str> = p
        .nodes
        .iter()
        .filter(|n| a.nodes.get(**n).is_some_and(|s| s.reconciled))
        .filter_map(|n| snap.nodes.get(*n).map(|x| &*x.name))
        .collect();
    if names.is_empty() {
        return fits;
    }
    let noun = if names.len() == 1 { "node" } else { "nodes" };
    let shown: Vec<&str> = names.iter().take(3).copied().collect();
    let more = if names.len() > 3 { ", …" } else { "" };
    fits.push((
        format!(
            " · {} {noun} without the product label joined by instance type: {}{more}",
            names.len(),
            shown.join(", ")
        ),
        Tone::Muted,
    ));
    fits
}

/// `nodes` (name order) reordered domain by domain, and each domain's `(value, start, len)`.
fn group_nodes(
    snap: &ClusterSnapshot,
    nodes: &[usize],
    key: Option<&str>,
) -> (Vec<usize>, Vec<(String, usize, usize)>) {
    let Some(key) = key else {
        return (nodes.to_vec(), vec![(String::new(), 0, nodes.len())]);
    };
    let mut slot: HashMap<Option<&str>, usize> = HashMap::default();
    let mut members: Vec<(Option<&str>, Vec<usize>)> = Vec::new();
    for &n in nodes {
        let value = snap.nodes.get(n).and_then(|node| node.labels.get(key));
        let next = members.len();
        let i = *slot.entry(value).or_insert(next);
        if i == next {
            members.push((value, Vec::new()));
        }
        members[i].1.push(n);
    }
    // Natural order (`rack-2` before `rack-10`), nodes without the label last.
    members.sort_by(|a, b| match (a.0, b.0) {
        (Some(x), Some(y)) => natural_order(x, y),
        (x, y) => x.is_none().cmp(&y.is_none()),
    });
    let mut order = Vec::with_capacity(nodes.len());
    let groups = members
        .into_iter()
        .map(|(value, list)| {
            let start = order.len();
            order.extend_from_slice(&list);
            let domain = value.unwrap_or(UNLABELLED).to_string();
            (domain, start, list.len())
        })
        .collect();
    (order, groups)
}

#[cfg(test)]
mod tests;
