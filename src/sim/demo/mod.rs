//! The simulated OME cluster behind `ome-top demo` (product.md §8): a seeded world of three GPU
//! pools with OMENative, RawDeployment and gang workloads, churn, a node that turns
//! `GpuUnhealthy`, a maintenance node, an Alfred stand-in that publishes
//! `alfred-recommendations` and keeps `alfred-dispatch-state`, and operator ops (cordon, approve a
//! move, opt out, clear a journal entry) that run against it.
//!
//! Owns: `DemoWorld`, `DemoClock`. Pure: no clock, no I/O, no tokio; time is an argument and
//! randomness comes only from the seeded `sim::rng::Rng`, so the same seed and the same sequence of
//! `(step time, op)` give identical snapshots.

use std::sync::Arc;

use chrono::Duration;

use crate::engine::model::{ClusterSnapshot, Name, Time};
use crate::sim::rng::Rng;

mod alfred;
mod build;
mod churn;
mod feed;
mod journal;
mod migrate;
mod objects;
mod ops;
mod place;
#[cfg(test)]
mod tests;
mod yaml;

pub use feed::SOURCE_NAMES;
pub use migrate::MigrationPhase;

/// Alfred's namespace in the demo (also the scheduler's).
pub const DEMO_NAMESPACE: &str = "ome";
/// The default number of nodes of `ome-top demo`.
pub const DEFAULT_NODES: usize = 120;
/// Fewest nodes a world has: room for the gang racks and the special nodes of every pool.
pub const MIN_NODES: usize = 40;
/// Most nodes a world has: building and stepping are linear scans sized for a demo, not for
/// the benchmark clusters (`sim::cluster` builds those).
pub const MAX_NODES: usize = 2_000;
/// Sim time after `start` at which the failing node's `GpuUnhealthy` condition turns `True`.
pub const UNHEALTHY_AFTER_MINUTES: i64 = 3;
/// Longest stretch of sim time one `step` simulates; a longer gap is truncated (a paused demo
/// does not replay hours of churn at once).
pub const MAX_STEP_SECONDS: i64 = 300;

/// Index into the per-source change clock (`SOURCE_NAMES` order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    Nodes = 0,
    Pods = 1,
    Services = 2,
    Replicas = 3,
    Recommendations = 6,
    Journal = 7,
}

/// Maps wall-clock time to sim time: `start + (wall − wall_start) × speed`. The caller (the
/// tokio task that drives the world) reads the wall clock; this type only does arithmetic.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DemoClock {
    /// Sim time at `wall_start`.
    pub start: Time,
    /// Wall time the demo started.
    pub wall_start: Time,
    /// Sim seconds per wall second (> 0; 1.0 = real time).
    pub speed: f64,
}

impl DemoClock {
    /// The sim time at wall time `wall` (never before `start`).
    pub fn sim_time(&self, wall: Time) -> Time {
        let elapsed_ms = (wall - self.wall_start).num_milliseconds().max(0) as f64;
        let speed = if self.speed.is_finite() && self.speed > 0.0 {
            self.speed
        } else {
            1.0
        };
        self.start + Duration::milliseconds((elapsed_ms * speed).min(1e15) as i64)
    }
}

/// The node that turns `GpuUnhealthy` and when.
#[derive(Debug, Clone)]
pub(crate) struct FailurePlan {
    pub node: usize,
    pub at: Time,
    pub done: bool,
}

/// The simulated cluster. Every mutation goes through a method that bumps the changed object's
/// `resourceVersion` (one cluster-wide counter, as etcd's revision).
#[derive(Debug, Clone)]
pub struct DemoWorld {
    pub(crate) seed: u64,
    pub(crate) rng: Rng,
    pub(crate) snap: ClusterSnapshot,
    pub(crate) revision: u64,
    pub(crate) start: Time,
    pub(crate) now: Time,
    pub(crate) churn: bool,
    pub(crate) churn_budget: f64,
    pub(crate) serial: u64,
    pub(crate) catalog: Vec<churn::Workload>,
    pub(crate) failure: FailurePlan,
    pub(crate) alfred: alfred::AlfredState,
    pub(crate) journal: journal::DemoJournal,
    pub(crate) migrations: Vec<migrate::Migration>,
    pub(crate) changed: [Option<Time>; SOURCE_NAMES.len()],
}

impl DemoWorld {
    /// Builds the cluster for `seed` with `nodes` GPU nodes (clamped to
    /// `MIN_NODES..=MAX_NODES`), observed at `start`, and runs the Alfred stand-in's first
    /// decision pass.
    pub fn new(seed: u64, nodes: usize, start: Time) -> Self {
        let mut world = DemoWorld {
            seed,
            rng: Rng::new(seed),
            snap: ClusterSnapshot {
                replicas_listed: true,
                ..Default::default()
            },
            revision: 0,
            start,
            now: start,
            churn: true,
            churn_budget: 0.0,
            serial: 0,
            catalog: Vec::new(),
            failure: FailurePlan {
                node: 0,
                at: start + Duration::minutes(UNHEALTHY_AFTER_MINUTES),
                done: false,
            },
            alfred: alfred::AlfredState::new(start),
            journal: journal::DemoJournal::default(),
            migrations: Vec::new(),
            changed: [Some(start); SOURCE_NAMES.len()],
        };
        build::populate(&mut world, nodes.clamp(MIN_NODES, MAX_NODES));
        world.sync_replicas();
        world.alfred_pass(start);
        world
    }

    /// Advances the world to `now`: node health, churn (arrivals, departures, scale up and
    /// down, LeastAllocated placement of pending pods), migrations in flight, and Alfred's
    /// decision pass when its interval has elapsed. A `now` not after the last step only runs
    /// the instantaneous parts (migrations, Alfred) and simulates no churn.
    pub fn step(&mut self, now: Time) {
        let from = self.now.max(now - Duration::seconds(MAX_STEP_SECONDS));
        let elapsed = (now - from).num_milliseconds().max(0) as f64 / 1000.0;
        if now > self.now {
            self.now = now;
        }
        self.node_health(now);
        if self.churn && elapsed > 0.0 {
            self.churn_for(elapsed, now);
        }
        if self.churn {
            self.place_pending(now);
        }
        self.advance_migrations(now);
        self.sync_replicas();
        if now >= self.alfred.next_pass {
            self.alfred_pass(now);
        }
    }

    /// The world as the engine sees it (a clone; names are shared `Arc<str>`).
    pub fn snapshot(&self) -> ClusterSnapshot {
        self.snap.clone()
    }

    /// The seed the world was built from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Sim time of the world's start.
    pub fn start(&self) -> Time {
        self.start
    }

    /// Sim time of the latest step.
    pub fn now(&self) -> Time {
        self.now
    }

    /// Turns churn on or off. Off freezes the cluster: no arrivals, departures, scaling or
    /// binding of pending workload pods; migrations, node health and Alfred still run (tests
    /// freeze the cluster to watch one migration).
    pub fn set_churn(&mut self, on: bool) {
        self.churn = on;
    }

    /// One pass of the demo's scheduler over the pending pods at `now`, churn or not (a test
    /// that froze the fleet watches a pending pod land once room was made for it).
    pub fn schedule_pending(&mut self, now: Time) {
        self.place_pending(now);
    }

    /// The name of the node that turns `GpuUnhealthy` at `start + UNHEALTHY_AFTER_MINUTES`.
    pub fn failing_node(&self) -> Name {
        self.snap.nodes[self.failure.node].name.clone()
    }

    /// `(uuid, phase)` of every migration the world has run or is running, oldest first.
    pub fn migrations(&self) -> Vec<(String, MigrationPhase)> {
        self.migrations
            .iter()
            .map(|m| (m.uuid.clone(), m.phase))
            .collect()
    }

    /// The next resourceVersion (one cluster-wide counter).
    pub(crate) fn bump(&mut self) -> Name {
        self.revision += 1;
        Arc::from(self.revision.to_string())
    }

    /// Records that `source` changed at the world's current time.
    pub(crate) fn touch(&mut self, source: Source) {
        self.changed[source as usize] = Some(self.now);
    }

    /// Applies `GpuUnhealthy=True` to the failing node once its time has come.
    fn node_health(&mut self, now: Time) {
        if self.failure.done || now < self.failure.at {
            return;
        }
        self.failure.done = true;
        let at = self.failure.at;
        let rv = self.bump();
        let node = &mut self.snap.nodes[self.failure.node];
        for c in node
            .conditions
            .iter_mut()
            .filter(|c| c.kind.as_ref() == "GpuUnhealthy")
        {
            c.status = Arc::from("True");
            c.last_transition = Some(at);
        }
        node.resource_version = rv;
        self.touch(Source::Nodes);
    }
}
