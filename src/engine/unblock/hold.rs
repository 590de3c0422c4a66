//! What holds one move of a plan back now, and when it could run: the row's outcome and
//! ome-top's verdict on it (`planning::row_verdict`), and for the gates a clock decides the
//! time they open — the workload's cooldown since its last move, the recent-placement
//! cooldown since the Instance's newest pod started, and the hourly cap's end
//! (`planning::hourly_cap_ends`, over the counts the arbiter counts).
//!
//! Owns: `Hold`, `hold_of`, `approvable`. Pure.

use chrono::Duration;

use crate::engine::model::vocab::{AdvisoryReason, DispatchReason, Outcome, RejectReason};
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::planning::{hourly_cap_ends, row_verdict, MoveRow};
use crate::engine::unblock::UnblockInput;
use crate::engine::workloads::cooldown_minutes;

/// What holds a move back now.
#[derive(Debug, Clone, PartialEq)]
pub enum Hold {
    /// Nothing: Alfred would run it next (admitted) or it is a candidate.
    Ready,
    /// Admitted, but Alfred's dispatcher withholds it now.
    Withheld(Option<DispatchReason>),
    /// Alfred only recommends it; an operator's approval runs it.
    Advice(AdvisoryReason),
    /// A gate that only paces Alfred's own submissions holds it; `until`: when it opens, when
    /// a clock decides that.
    Paced {
        /// The gate.
        gate: RejectReason,
        /// When it could run, at the earliest.
        until: Option<Time>,
    },
    /// A gate refuses it: approving it takes an override (only in a gated answer).
    Gated(RejectReason),
}

impl Hold {
    /// A stable lower-camel code for JSON.
    pub fn code(&self) -> &'static str {
        match self {
            Hold::Ready => "ready",
            Hold::Withheld(_) => "withheld",
            Hold::Advice(_) => "advice",
            Hold::Paced { .. } => "paced",
            Hold::Gated(_) => "gated",
        }
    }

    /// The reason's wire string (the gate, the dispatch or advisory reason), if any.
    pub fn reason(&self) -> Option<&str> {
        match self {
            Hold::Ready | Hold::Withheld(None) => None,
            Hold::Withheld(Some(r)) => Some(r.as_str()),
            Hold::Advice(r) => Some(r.as_str()),
            Hold::Paced { gate, .. } | Hold::Gated(gate) => Some(gate.as_str()),
        }
    }

    /// When it could run, when a clock decides that.
    pub fn until(&self) -> Option<Time> {
        match self {
            Hold::Paced { until, .. } => *until,
            _ => None,
        }
    }
}

/// Whether an operator may approve the row without an override (ome-top's verdict).
pub fn approvable(row: &MoveRow) -> bool {
    row.plan.is_some() && row_verdict(row, || None).executable()
}

/// The hold of row `row` of `input.moves`.
pub fn hold_of(snap: &ClusterSnapshot, input: &UnblockInput<'_>, row: usize) -> Hold {
    let Some(r) = input.moves.get(row) else {
        return Hold::Ready;
    };
    match (&r.outcome, &r.advisory_reason, &r.reject_reason) {
        (Outcome::Advisory, Some(a), _) => Hold::Advice(a.clone()),
        (Outcome::Rejected, _, Some(gate)) if approvable(r) => Hold::Paced {
            gate: gate.clone(),
            until: opens_at(snap, input, r, gate),
        },
        (Outcome::Rejected, _, Some(gate)) => Hold::Gated(gate.clone()),
        (Outcome::Withheld, _, _) => Hold::Withheld(r.dispatch_reason.clone()),
        _ => Hold::Ready,
    }
}

/// When `gate` lets the row through, for the gates a clock decides.
fn opens_at(
    snap: &ClusterSnapshot,
    input: &UnblockInput<'_>,
    r: &MoveRow,
    gate: &RejectReason,
) -> Option<Time> {
    let plan = r.plan.as_deref()?;
    let comp = input.workloads.components.get(plan.component)?;
    let cfg = input.cfg;
    match gate {
        RejectReason::Cooldown => {
            let isvc = snap.isvcs.get(comp.isvc)?;
            let window = cooldown_minutes(isvc, i64::from(cfg.per_workload_cooldown_minutes));
            let last = input.workloads.migrations.get(comp.isvc)?.last_migration?;
            Some(last + Duration::minutes(window))
        }
        RejectReason::PlacementCooldown => {
            let inst = comp.instances.get(plan.instance)?;
            let newest = inst
                .pods
                .iter()
                .filter_map(|p| snap.pods.get(*p)?.started)
                .max()?;
            Some(newest + Duration::minutes(i64::from(cfg.recent_placement_cooldown_minutes)))
        }
        RejectReason::HourlyCap => hourly_cap_ends(
            input.journal,
            &input.workloads.migrations,
            input.now,
            cfg.max_migrations_per_hour,
        ),
        _ => None,
    }
}
