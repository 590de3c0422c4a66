//! The fleet: every watched cluster's pools as rows of one table, built from each
//! cluster's own `Analysis` (the engine stays per cluster) and its connection state, in the
//! order of what needs a hand first (`attention`), with the per-size "where does it fit"
//! answer across clusters (`fits`) and the headless renderings of `ome-top fleet`
//! (`json`: the `-o json` document of docs/fleet-json.md, `table`: `-o table`).
//!
//! Owns: `ClusterInput`, `ClusterState`, `Answer`, `Link`, `FleetRow`, `RowStatus`,
//! `Pending`, `NotClear`, `Alfred`, `fleet_rows`. Pure: the time is an argument.

mod attention;
mod fits;
pub mod json;
mod rows;
pub mod table;

pub use attention::{attention_order, Attention};
pub use fits::{fits_lines, FitPlace, FitsLine};
pub use rows::fleet_rows;

use crate::engine::alfred_config::Mode;
use crate::engine::analysis::Analysis;
use crate::engine::model::{ClusterSnapshot, Time};

/// One cluster (a kubeconfig context) as the fleet sees it.
#[derive(Debug, Clone, Copy)]
pub struct ClusterInput<'a> {
    /// The kubeconfig context's name.
    pub context: &'a str,
    /// What the cluster answered, or why not.
    pub state: ClusterState<'a>,
}

/// Whether a cluster answered.
#[derive(Debug, Clone, Copy)]
pub enum ClusterState<'a> {
    /// Its data, analysed.
    Answered(Answer<'a>),
    /// No data yet: still connecting or listing (first sync not complete).
    Connecting,
    /// It could not be read: the error in words (one line), e.g. `cluster unreachable: …`.
    Failed(&'a str),
}

/// An answering cluster's analysis and connection.
#[derive(Debug, Clone, Copy)]
pub struct Answer<'a> {
    /// The snapshot the analysis was computed from.
    pub snapshot: &'a ClusterSnapshot,
    /// Its analysis.
    pub analysis: &'a Analysis,
    /// The connection now.
    pub link: Link<'a>,
    /// Whether the cluster is read-only for this session (`--readonly`, `[read-only]`, a
    /// headless command).
    pub read_only: bool,
    /// When the data was last known current (the analysis time, or the last change the
    /// watchers saw): the row's freshness is `now − as_of`.
    pub as_of: Time,
}

/// The connection of an answering cluster.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Link<'a> {
    /// Watching; the data is current.
    Connected,
    /// A watcher failed and backs off: the data is the last known.
    Reconnecting {
        /// When the outage began.
        since: Time,
        /// The last error, one line.
        error: &'a str,
    },
    /// A one-shot read (`ome-top fleet -o …`, a snapshot file): current as of `as_of`.
    OneShot,
}

/// What a row stands for besides its pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RowStatus {
    /// The cluster answered and the data is current (or a one-shot read).
    Current,
    /// The cluster answered before, but its watchers reconnect since `since`: `error`.
    Stale {
        /// When the outage began.
        since: Time,
        /// The last error, one line.
        error: String,
    },
    /// No data yet: the first sync is not complete.
    Connecting,
    /// The cluster could not be read: the error in words.
    Failed(String),
}

/// The pending GPU pods of a pool.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Pending {
    /// Pending GPU pods counted in the pool.
    pub pods: u64,
    /// The largest request among them, GPUs (0 when none).
    pub largest_gpus: u32,
    /// The longest wait among them, minutes (0 when none or unknown).
    pub oldest_minutes: f64,
    /// Of them, the pods whose size has no room on one node now (they wait for a repack or
    /// for capacity).
    pub no_room_now: u64,
}

/// A pool's nodes that are not Clear, by state; a node may count in `maintenance` and in one
/// health state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct NotClear {
    /// Nodes `Unhealthy` (a trigger condition is True: evacuated).
    pub unhealthy: u32,
    /// Nodes `Unknown` (a trigger condition is Unknown).
    pub unknown: u32,
    /// Nodes `Suspect` (a condition cleared less than the suspicion window ago).
    pub suspect: u32,
    /// Nodes with a maintenance trigger.
    pub maintenance: u32,
}

impl NotClear {
    /// Nodes in any health state but Clear (maintenance apart).
    pub fn unclear(&self) -> u32 {
        self.unhealthy + self.unknown + self.suspect
    }
}

/// Alfred in one cluster, as the analysis reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alfred {
    /// Its mode; `None` when alfred-config is absent (Alfred not installed there).
    pub mode: Option<Mode>,
    /// A computed move met the circuit breaker (`CircuitBreakerOpen`): recent moves failed.
    pub breaker_open: bool,
    /// Dispatch-journal entries in phase `stalled` (only an operator or an IR terminal status
    /// resolves them).
    pub stalled_entries: u32,
}

/// One row of the fleet: one (cluster, pool), or one row for a cluster without pools or
/// without data. GPU counts are whole devices.
#[derive(Debug, Clone, PartialEq)]
pub struct FleetRow {
    /// The kubeconfig context.
    pub context: String,
    /// The pool; `None` on a cluster's only row when it has no GPU pool or no data.
    pub pool: Option<String>,
    /// Current, stale, connecting or failed.
    pub status: RowStatus,
    /// Nodes of the pool.
    pub nodes: usize,
    /// Allocated GPUs (total − free on all the pool's nodes).
    pub gpus_used: u64,
    /// Allocatable GPUs.
    pub gpus_total: u64,
    /// Free GPUs on the nodes that take new pods (the Pools view's FREE).
    pub schedulable_free: u64,
    /// Schedulable nodes with every GPU free.
    pub whole_free_nodes: u64,
    /// Alfred's pool score `S` in [0, 1].
    pub score: f64,
    /// `S` above the threshold (execution open).
    pub above_threshold: bool,
    /// The largest request one node fits now, GPUs.
    pub largest_fit_now: u32,
    /// The largest request one node fits after the repack, GPUs.
    pub largest_fit_after_repack: u32,
    /// The most GPUs a node of the pool has.
    pub largest_node_gpus: u32,
    /// Pending GPU pods.
    pub pending: Pending,
    /// Nodes not Clear.
    pub not_clear: NotClear,
    /// Alfred's state in the cluster (`None` without data).
    pub alfred: Option<Alfred>,
    /// When the data was last known current (`None` without data).
    pub as_of: Option<Time>,
    /// Seconds since `as_of` at the time the rows were built (0 when unknown).
    pub age_seconds: i64,
    /// Whether the cluster is read-only for the session.
    pub read_only: bool,
    /// What needs a hand first (the row's place in `attention_order`).
    pub attention: Attention,
}

#[cfg(test)]
mod tests;
