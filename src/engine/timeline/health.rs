//! The health questions asked of many nodes' histories: which nodes flapped (more than N
//! health episodes in a window) and the mean time to repair per pool.
//!
//! A *health episode* is one stay out of Clear that includes Unhealthy or Unknown (an
//! Unhealthy stretch and the Suspect window after it are one episode, as Alfred's repair
//! episode is); it counts in the window it began in. The *time to repair* is an Unhealthy
//! episode's length, from the trigger condition turning `True` to it turning `False`; the
//! mean is over the Unhealthy episodes that ended in the window.
//!
//! Owns: `NodesHealth`, `NodeFlaps`, `PoolRepair`, `nodes_health`, the defaults. Pure.

use std::collections::BTreeMap;

use chrono::Duration;

use crate::engine::model::Time;
use crate::engine::timeline::{episodes, Episode, EpisodeKind, Observed};

/// Default window of the health questions, in days.
pub const DEFAULT_WINDOW_DAYS: i64 = 7;
/// Default flap threshold: a node flaps with more than this many health episodes in the
/// window.
pub const DEFAULT_FLAPS: usize = 3;

/// One node's health episodes in the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeFlaps {
    /// The node's pool as last recorded.
    pub pool: Option<String>,
    /// Health episodes that began in the window.
    pub episodes: usize,
    /// `episodes > threshold`.
    pub flapping: bool,
}

/// One pool's repairs in the window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PoolRepair {
    /// Pool name.
    pub pool: String,
    /// Unhealthy episodes that ended in the window.
    pub repairs: usize,
    /// Their mean length; `None` without any.
    pub mean: Option<Duration>,
    /// Unhealthy episodes still open at the window's end.
    pub open: usize,
}

/// The answers for one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodesHealth {
    /// The window's start.
    pub from: Time,
    /// The window's end (the time the answers were computed for).
    pub to: Time,
    /// A node flaps with more than this many health episodes.
    pub threshold: usize,
    /// Nodes with at least one health episode in the window, by name.
    pub nodes: BTreeMap<String, NodeFlaps>,
    /// Pools with at least one Unhealthy episode in the window, by name.
    pub pools: Vec<PoolRepair>,
}

impl NodesHealth {
    /// The flapping nodes, most episodes first, then by name.
    pub fn flapping(&self) -> Vec<(&str, &NodeFlaps)> {
        let mut v: Vec<(&str, &NodeFlaps)> = self
            .nodes
            .iter()
            .filter(|(_, f)| f.flapping)
            .map(|(n, f)| (n.as_str(), f))
            .collect();
        v.sort_by(|a, b| b.1.episodes.cmp(&a.1.episodes).then(a.0.cmp(b.0)));
        v
    }

    /// The repair figures of `pool`, if it had any Unhealthy episode in the window.
    pub fn pool(&self, pool: &str) -> Option<&PoolRepair> {
        self.pools.iter().find(|p| p.pool == pool)
    }
}

/// Start times of the health episodes in `eps` (each a run of touching Unhealthy, Unknown and
/// Suspect episodes containing Unhealthy or Unknown): what the flap count counts, so the node
/// detail counts its listed episodes the same way.
pub fn health_starts(eps: &[Episode]) -> Vec<Time> {
    let mut starts = Vec::new();
    let mut run: Option<(Time, Option<Time>, bool)> = None;
    for e in eps.iter().filter(|e| e.kind.is_health()) {
        let serious = e.kind != EpisodeKind::Suspect;
        let end = e.to.map(|p| p.at);
        run = match run {
            Some((start, Some(prev_end), s)) if prev_end >= e.from.at => {
                Some((start, end, s || serious))
            }
            previous => {
                if let Some((start, _, true)) = previous {
                    starts.push(start);
                }
                Some((e.from.at, end, serious))
            }
        };
    }
    if let Some((start, _, true)) = run {
        starts.push(start);
    }
    starts
}

#[derive(Default)]
struct PoolSums {
    repairs: usize,
    total: Duration,
    open: usize,
}

/// The health answers for `nodes` (name, last recorded pool, rows) over `[from, now]`.
pub fn nodes_health<'a>(
    nodes: impl IntoIterator<Item = (&'a str, Option<&'a str>, &'a [Observed])>,
    from: Time,
    now: Time,
    threshold: usize,
) -> NodesHealth {
    let mut flaps = BTreeMap::new();
    let mut pools: BTreeMap<String, PoolSums> = BTreeMap::new();
    for (node, pool, rows) in nodes {
        let eps = episodes(rows, now);
        let count = health_starts(&eps)
            .into_iter()
            .filter(|t| *t >= from && *t <= now)
            .count();
        if count > 0 {
            flaps.insert(
                node.to_owned(),
                NodeFlaps {
                    pool: pool.map(str::to_owned),
                    episodes: count,
                    flapping: count > threshold,
                },
            );
        }
        let Some(pool) = pool else { continue };
        for e in eps.iter().filter(|e| e.kind == EpisodeKind::Unhealthy) {
            match e.to {
                Some(end) if end.at >= from && end.at <= now => {
                    let sums = pools.entry(pool.to_owned()).or_default();
                    sums.repairs += 1;
                    sums.total += e.duration(now);
                }
                None => pools.entry(pool.to_owned()).or_default().open += 1,
                _ => {}
            }
        }
    }
    NodesHealth {
        from,
        to: now,
        threshold,
        nodes: flaps,
        pools: pools
            .into_iter()
            .map(|(pool, s)| PoolRepair {
                pool,
                repairs: s.repairs,
                mean: (s.repairs > 0)
                    .then(|| s.total / i32::try_from(s.repairs).unwrap_or(i32::MAX)),
                open: s.open,
            })
            .collect(),
    }
}
