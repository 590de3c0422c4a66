//! The fleet's rows: one per (cluster, pool) of an answering cluster, one per cluster without
//! data or without a GPU pool. Every number is read from the cluster's own `Analysis`
//! (`PoolReport`, node states, move rows, the journal): nothing is computed again here.
//!
//! Owns: `fleet_rows`. Pure.

use crate::engine::analysis::Analysis;
use crate::engine::journal::Phase;
use crate::engine::model::vocab::RejectReason;
use crate::engine::model::Time;
use crate::engine::nodes::HealthState;
use crate::engine::pools::PoolReport;
use crate::report::fleet::attention::{attention_of, attention_order, Attention};
use crate::report::fleet::{
    Alfred, Answer, ClusterInput, ClusterState, FleetRow, Link, NotClear, Pending, RowStatus,
};

/// The rows of every cluster at `now`, in attention order (what needs a hand first).
pub fn fleet_rows(clusters: &[ClusterInput<'_>], now: Time) -> Vec<FleetRow> {
    let mut rows = Vec::new();
    for c in clusters {
        match c.state {
            ClusterState::Answered(answer) => answered_rows(c.context, &answer, now, &mut rows),
            ClusterState::Connecting => rows.push(bare(c.context, RowStatus::Connecting)),
            ClusterState::Failed(error) => {
                rows.push(bare(c.context, RowStatus::Failed(error.to_string())));
            }
        }
    }
    for row in &mut rows {
        row.attention = attention_of(row);
    }
    attention_order(&mut rows);
    rows
}

/// A row with no pool data: a cluster without data, or without a GPU pool.
fn bare(context: &str, status: RowStatus) -> FleetRow {
    FleetRow {
        context: context.to_string(),
        pool: None,
        status,
        nodes: 0,
        gpus_used: 0,
        gpus_total: 0,
        schedulable_free: 0,
        whole_free_nodes: 0,
        score: 0.0,
        above_threshold: false,
        largest_fit_now: 0,
        largest_fit_after_repack: 0,
        largest_node_gpus: 0,
        pending: Pending::default(),
        not_clear: NotClear::default(),
        alfred: None,
        as_of: None,
        age_seconds: 0,
        read_only: false,
        attention: Attention::Fine,
    }
}

fn answered_rows(context: &str, answer: &Answer<'_>, now: Time, rows: &mut Vec<FleetRow>) {
    let a = answer.analysis;
    let status = match answer.link {
        Link::Connected | Link::OneShot => RowStatus::Current,
        Link::Reconnecting { since, error } => RowStatus::Stale {
            since,
            error: error.to_string(),
        },
    };
    let mut base = bare(context, status);
    base.alfred = Some(alfred(a));
    base.as_of = Some(answer.as_of);
    base.age_seconds = (now - answer.as_of).num_seconds().max(0);
    base.read_only = answer.read_only;
    if a.pools.is_empty() {
        base.nodes = answer.snapshot.nodes.len();
        rows.push(base);
        return;
    }
    for p in &a.pools {
        rows.push(pool_row(&base, a, p));
    }
}

fn pool_row(base: &FleetRow, a: &Analysis, p: &PoolReport) -> FleetRow {
    FleetRow {
        pool: Some(p.name.clone()),
        nodes: p.nodes.len(),
        gpus_used: p.total_gpus.saturating_sub(p.free_gpus_all_nodes),
        gpus_total: p.total_gpus,
        schedulable_free: p.free_gpus,
        whole_free_nodes: p.whole_free_nodes,
        score: p.score,
        above_threshold: p.above_threshold,
        largest_fit_now: p.largest_fit_now,
        largest_fit_after_repack: p.largest_fit_after,
        largest_node_gpus: p.largest_node_gpus,
        pending: pending(p),
        not_clear: not_clear(a, p),
        ..base.clone()
    }
}

fn pending(p: &PoolReport) -> Pending {
    Pending {
        pods: p.pending_pods,
        // `pending_sizes` is largest request first.
        largest_gpus: p.pending_sizes.first().map_or(0, |s| s.gpus),
        oldest_minutes: p.oldest_pending_minutes,
        no_room_now: p
            .pending_sizes
            .iter()
            .filter(|s| s.room_now == 0)
            .map(|s| s.pods)
            .sum(),
    }
}

fn not_clear(a: &Analysis, p: &PoolReport) -> NotClear {
    let mut out = NotClear::default();
    for state in p.nodes.iter().filter_map(|i| a.nodes.get(*i)) {
        match state.health {
            HealthState::Clear => {}
            HealthState::Suspect { .. } => out.suspect += 1,
            HealthState::Unknown => out.unknown += 1,
            HealthState::Unhealthy => out.unhealthy += 1,
        }
        if !state.maintenance.is_empty() {
            out.maintenance += 1;
        }
    }
    out
}

/// Alfred's mode, breaker and stalled journal entries as the analysis has them. The breaker
/// is Alfred's in-memory state; the analysis shows it where a move meets it, in ome-top's
/// computed rows or in the rows Alfred published.
fn alfred(a: &Analysis) -> Alfred {
    let breaker = Some(RejectReason::CircuitBreakerOpen);
    let published = a
        .published
        .as_ref()
        .and_then(|p| p.last_cycle.as_ref())
        .and_then(|c| c.as_ref().ok())
        .map_or(&[][..], |c| c.rows());
    let stalled = a.journal.journal().map_or(0, |j| {
        j.entries
            .iter()
            .filter(|e| e.phase == Phase::Stalled)
            .count()
    });
    Alfred {
        mode: a.config_present.then_some(a.config.mode),
        breaker_open: a.moves.iter().any(|m| m.reject_reason == breaker)
            || published.iter().any(|r| r.reject_reason == breaker),
        stalled_entries: u32::try_from(stalled).unwrap_or(u32::MAX),
    }
}
