//! What-if of a change the operator has not made: the same analysis on a copy of the snapshot
//! with the change applied (`change`), against the analysis of the snapshot as it is. It
//! answers which Instances the change displaces (and whether each pod of theirs finds room on
//! another node, by the scheduler's fit), the largest request one node fits and each pool's
//! score before and after (alfred.md §6.3: `S = 1 − (1 − reclaimable)(1 − pressure)`), and
//! how much of the arbiter's budget moving the displaced Instances takes: the in-flight cap
//! and the hourly cap, against what is in flight and what moved in the last hour.
//!
//! Owns: `Scenario`, `PoolDelta`, `Displaced`, `Budget`, `what_if_change`. Pure: nothing is
//! written; time is the options'.

mod change;

pub use change::{apply_change, Change, PolicyValues};

use crate::engine::analysis::{analyze, Analysis, AnalysisOptions};
use crate::engine::explain::Explainer;
use crate::engine::model::vocab::Outcome;
use crate::engine::model::{ClusterSnapshot, Name};
use crate::engine::planning::hourly_count;

/// One pool before and after.
#[derive(Debug, Clone, PartialEq)]
pub struct PoolDelta {
    /// Pool key.
    pub pool: String,
    /// Score before (`None`: the pool did not exist).
    pub score_before: Option<f64>,
    /// Score after (`None`: the pool no longer exists).
    pub score_after: Option<f64>,
    /// The largest request one node fits now, before.
    pub largest_fit_before: u32,
    /// The same after.
    pub largest_fit_after: u32,
    /// Score above Alfred's threshold, before.
    pub above_threshold_before: bool,
    /// The same after.
    pub above_threshold_after: bool,
}

/// An Instance the change displaces.
#[derive(Debug, Clone, PartialEq)]
pub struct Displaced {
    /// `ns/name` of the InferenceService.
    pub workload: Name,
    /// `engine`, `decoder` or `router`.
    pub component: &'static str,
    /// Instance index.
    pub instance: i64,
    /// Its GPUs on the changed nodes.
    pub gpus: u32,
    /// Its pods on the changed nodes.
    pub pods: usize,
    /// Every displaced GPU pod of it fits some other node now (evacuation only; a
    /// maintenance move is Alfred's surge and its own check).
    pub room_elsewhere: Option<bool>,
}

/// How much of the arbiter's budget moving the displaced Instances takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Moves the change asks for (one per displaced Instance).
    pub moves: u32,
    /// Migrations in flight now.
    pub in_flight: u32,
    /// `maxInFlightMigrations` (after the change).
    pub in_flight_cap: u32,
    /// Moves of the last hour the hourly cap counts.
    pub last_hour: u32,
    /// `maxMigrationsPerHour` (after the change).
    pub hourly_cap: u32,
}

impl Budget {
    /// Moves that could start now: the smaller room under both caps, at most `moves`.
    pub fn startable_now(&self) -> u32 {
        let flight = self.in_flight_cap.saturating_sub(self.in_flight);
        let hour = self.hourly_cap.saturating_sub(self.last_hour);
        self.moves.min(flight).min(hour)
    }
}

/// The what-if of one change.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// The change.
    pub change: Change,
    /// Nodes the change names that the snapshot does not have.
    pub unknown_nodes: Vec<String>,
    /// Per pool (the union of both analyses' pools, by name).
    pub pools: Vec<PoolDelta>,
    /// Displaced Instances, by workload, component and Instance.
    pub displaced: Vec<Displaced>,
    /// The arbiter's budget for them.
    pub budget: Budget,
    /// Moves Alfred would admit this pass, before and after.
    pub admitted: (usize, usize),
}

/// The what-if of `change` on `snap`, whose analysis under `opts` is `before`.
pub fn what_if_change(
    snap: &ClusterSnapshot,
    opts: &AnalysisOptions,
    before: &Analysis,
    change: &Change,
) -> Scenario {
    let changed = apply_change(snap, change, &before.config, &opts.alfred_namespace);
    let after = analyze(&changed, opts);
    let unknown_nodes = change
        .nodes()
        .iter()
        .filter(|n| !snap.nodes.iter().any(|m| m.name.as_ref() == n.as_str()))
        .cloned()
        .collect();
    let displaced = displaced(snap, before, (&changed, &after), change);
    let cfg = &after.config;
    let budget = Budget {
        moves: u32::try_from(displaced.len()).unwrap_or(u32::MAX),
        in_flight: before.workloads.migrations.iter().map(|m| m.active).sum(),
        in_flight_cap: cfg.max_in_flight_migrations,
        last_hour: hourly_count(
            before.journal.journal(),
            &before.workloads.migrations,
            before.now,
        ),
        hourly_cap: cfg.max_migrations_per_hour,
    };
    let admitted = |a: &Analysis| {
        a.moves
            .iter()
            .filter(|m| m.outcome == Outcome::Admitted)
            .count()
    };
    Scenario {
        change: change.clone(),
        unknown_nodes,
        pools: pool_deltas(before, &after),
        displaced,
        budget,
        admitted: (admitted(before), admitted(&after)),
    }
}

/// Every pool of either analysis, by name.
fn pool_deltas(before: &Analysis, after: &Analysis) -> Vec<PoolDelta> {
    let mut names: Vec<&str> = before
        .pools
        .iter()
        .chain(after.pools.iter())
        .map(|p| p.name.as_str())
        .collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let b = before.pools.iter().find(|p| p.name == name);
            let a = after.pools.iter().find(|p| p.name == name);
            PoolDelta {
                pool: name.to_string(),
                score_before: b.map(|p| p.score),
                score_after: a.map(|p| p.score),
                largest_fit_before: b.map_or(0, |p| p.largest_fit_now),
                largest_fit_after: a.map_or(0, |p| p.largest_fit_now),
                above_threshold_before: b.is_some_and(|p| p.above_threshold),
                above_threshold_after: a.is_some_and(|p| p.above_threshold),
            }
        })
        .collect()
}

/// The Instances with pods on the nodes an evacuation empties, or a maintenance label makes
/// Alfred evacuate (a trigger matches the node after the change).
fn displaced(
    snap: &ClusterSnapshot,
    before: &Analysis,
    (changed, after): (&ClusterSnapshot, &Analysis),
    change: &Change,
) -> Vec<Displaced> {
    let evacuated: Vec<&str> = match change {
        Change::Evacuate(nodes) => nodes.iter().map(String::as_str).collect(),
        Change::MaintenanceLabel { nodes, .. } => nodes
            .iter()
            .map(String::as_str)
            .filter(|name| {
                let at = changed.nodes.iter().position(|n| n.name.as_ref() == *name);
                at.and_then(|i| after.nodes.get(i))
                    .is_some_and(|s| !s.maintenance.is_empty())
            })
            .collect(),
        Change::Cordon(_) | Change::Policy(_) => Vec::new(),
    };
    let explainer =
        matches!(change, Change::Evacuate(_)).then(|| Explainer::new(after.pending_input(changed)));
    let mut out = Vec::new();
    for comp in before.workloads.components.iter() {
        for inst in &comp.instances {
            let on: Vec<usize> = inst
                .pods
                .iter()
                .copied()
                .filter(|p| {
                    let node = snap.pods.get(*p).and_then(|p| p.node.as_deref());
                    node.is_some_and(|n| evacuated.contains(&n))
                })
                .collect();
            if on.is_empty() {
                continue;
            }
            let room_elsewhere = explainer.as_ref().map(|ex| {
                on.iter()
                    .filter_map(|p| ex.explain(*p))
                    .all(|e| e.fits_somewhere())
            });
            out.push(Displaced {
                workload: snap
                    .isvcs
                    .get(comp.isvc)
                    .map_or_else(|| Name::from(""), |w| w.ns_name().clone()),
                component: comp.name(),
                instance: inst.index,
                gpus: on.iter().map(|p| snap.pods[*p].gpus).sum(),
                pods: on.len(),
                room_elsewhere,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests;
