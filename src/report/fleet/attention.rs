//! What needs a hand first: each fleet row's reason for attention, and the order the fleet is
//! shown in. A cluster that cannot be read comes first (nothing about it is known), then
//! stale data, then Alfred held back (breaker open, stalled journal entries), then GPU pods
//! that wait with no room on any node, then nodes going unhealthy, fragmented pools, and
//! suspect or maintenance nodes; within a reason, more waiting pods, a longer wait and a
//! higher score come first, then the context and pool names.
//!
//! Owns: `Attention`, `attention_of`, `attention_order`. Pure.

use std::cmp::Ordering;

use serde::Serialize;

use crate::report::fleet::{FleetRow, RowStatus};

/// Why a row needs attention, most urgent first (the derived order is the fleet's order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "camelCase")]
pub enum Attention {
    /// The cluster could not be read.
    Unreachable,
    /// The cluster's watchers reconnect: its data is the last known.
    Stale,
    /// The first sync is not complete: nothing known yet.
    Connecting,
    /// Alfred is held back in the cluster: breaker open or stalled journal entries.
    AlfredBlocked,
    /// GPU pods wait whose size has no room on one node now.
    PodsWaiting,
    /// Nodes Unhealthy or Unknown.
    NodesFailing,
    /// The pool score is above the threshold: fragmented enough for Alfred to repack.
    Fragmented,
    /// Nodes Suspect or with a maintenance trigger.
    NodesSuspect,
    /// Nothing to do.
    Fine,
}

impl Attention {
    /// A few words for the table.
    pub fn words(self) -> &'static str {
        match self {
            Attention::Unreachable => "unreachable",
            Attention::Stale => "stale data",
            Attention::Connecting => "connecting",
            Attention::AlfredBlocked => "Alfred blocked",
            Attention::PodsWaiting => "pods waiting",
            Attention::NodesFailing => "nodes failing",
            Attention::Fragmented => "fragmented",
            Attention::NodesSuspect => "nodes suspect",
            Attention::Fine => "ok",
        }
    }
}

/// The most urgent reason that applies to `row`.
pub fn attention_of(row: &FleetRow) -> Attention {
    match row.status {
        RowStatus::Failed(_) => return Attention::Unreachable,
        RowStatus::Stale { .. } => return Attention::Stale,
        RowStatus::Connecting => return Attention::Connecting,
        RowStatus::Current => {}
    }
    let nc = &row.not_clear;
    if row
        .alfred
        .is_some_and(|a| a.breaker_open || a.stalled_entries > 0)
    {
        Attention::AlfredBlocked
    } else if row.pending.no_room_now > 0 {
        Attention::PodsWaiting
    } else if nc.unhealthy + nc.unknown > 0 {
        Attention::NodesFailing
    } else if row.above_threshold {
        Attention::Fragmented
    } else if nc.suspect + nc.maintenance > 0 {
        Attention::NodesSuspect
    } else {
        Attention::Fine
    }
}

/// Sorts `rows` by attention (each row's `attention` already set), then within a reason by
/// waiting pods, the longest wait and the score (each larger first), then context and pool.
pub fn attention_order(rows: &mut [FleetRow]) {
    rows.sort_by(compare);
}

fn compare(a: &FleetRow, b: &FleetRow) -> Ordering {
    a.attention
        .cmp(&b.attention)
        .then_with(|| b.pending.pods.cmp(&a.pending.pods))
        .then_with(|| {
            b.pending
                .oldest_minutes
                .total_cmp(&a.pending.oldest_minutes)
        })
        .then_with(|| b.score.total_cmp(&a.score))
        .then_with(|| a.context.cmp(&b.context))
        .then_with(|| a.pool.cmp(&b.pool))
}
