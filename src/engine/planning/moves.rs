//! The move rows ome-top computes the way Alfred would publish them in `last-cycle.json`
//! (`alfred.md` §1.3), plus the internal facts the arbiter and the views need.
//!
//! Owns: `MoveRow`, `PlannedMove`, `MOVE_COST`; the row vocabulary is `engine::model::vocab`'s,
//! shared with Alfred's published rows. Pure data.

use crate::engine::model::vocab::{
    AdvisoryReason, DispatchReason, Outcome, Policy, Reason, RejectReason,
};
use crate::engine::model::Name;

/// Alfred's `costWeight · 0.15` base cost of a move.
pub const MOVE_COST: f64 = 0.15;

/// One computed row, with `last-cycle.json` field meanings. Names are shared (`Name`), so a
/// pass of 16,000 rows allocates no strings per row.
#[derive(Debug, Clone, PartialEq)]
pub struct MoveRow {
    /// `ns/name` of the InferenceService.
    pub workload: Name,
    /// `engine`, `decoder` or `router`.
    pub component: Name,
    /// Instance index, −1 for component-wide rows.
    pub instance: i64,
    /// `defragmentation` or `nodehealth`.
    pub policy: Policy,
    /// `Fragmentation`, `NodeUnhealthy` or `NodeMaintenance`.
    pub reason: Reason,
    /// `advisory`, `rejected`, `withheld` or `admitted` (the next move Alfred would try); an
    /// executable row is `candidate` only until the arbiter runs (execute mode, where every
    /// candidate is arbitrated).
    pub outcome: Outcome,
    /// Why the row is advice.
    pub advisory_reason: Option<AdvisoryReason>,
    /// The arbiter gate that rejected it.
    pub reject_reason: Option<RejectReason>,
    /// Why an admitted row is withheld.
    pub dispatch_reason: Option<DispatchReason>,
    /// Source node.
    pub from_node: Option<Name>,
    /// The node the arbiter claimed (admitted rows).
    pub target: Option<Name>,
    /// Up to three preferred targets, fullest first.
    pub hint_targets: Vec<Name>,
    /// Defrag: (benefit − cost) × boosts; node health: the priority; advice: 0 or ≤ 0.
    pub score: f64,
    /// The emergency boost applied.
    pub emergency: bool,
    /// A health evacuation admitted under the floor while the normal cooldown still ran.
    pub cooldown_overridden: bool,
    /// Σ GPUs of the Instance (ranking tie-break).
    pub footprint: u32,
    /// The planned move, for the arbiter and the what-if view; `None` for advice. Boxed: most
    /// rows are advice, and a smaller row is cheaper to rank and move.
    pub plan: Option<Box<PlannedMove>>,
}

/// An executable candidate's plan.
#[derive(Debug, Clone, PartialEq)]
pub struct PlannedMove {
    /// Index into `Workloads::components`.
    pub component: usize,
    /// Index into that component's `instances`.
    pub instance: usize,
    /// Pool key.
    pub pool: String,
    /// `(pod index, planned target node index)`.
    pub placements: Vec<(usize, usize)>,
    /// `(pod index, GPUs)` footprints, GPUs desc.
    pub footprints: Vec<(usize, u32)>,
    /// Source node index.
    pub from: usize,
    /// Pool fragmentation before the move.
    pub before: f64,
    /// Pool fragmentation after the move (defragmentation only).
    pub after: Option<f64>,
}

impl MoveRow {
    /// An advisory row.
    pub fn advice(
        policy: Policy,
        reason: Reason,
        (workload, component, instance): (Name, Name, i64),
        advisory: AdvisoryReason,
        from_node: Option<Name>,
        score: f64,
    ) -> Self {
        MoveRow {
            workload,
            component,
            instance,
            policy,
            reason,
            outcome: Outcome::Advisory,
            advisory_reason: Some(advisory),
            reject_reason: None,
            dispatch_reason: None,
            from_node,
            target: None,
            hint_targets: Vec::new(),
            score,
            emergency: false,
            cooldown_overridden: false,
            footprint: 0,
            plan: None,
        }
    }

    /// Whether the row is an executable candidate (it carries a plan and is not advice).
    pub fn is_executable(&self) -> bool {
        self.plan.is_some() && self.outcome != Outcome::Advisory
    }

    /// Arbiter class: NodeUnhealthy 2, NodeMaintenance 1, anything else 0.
    pub fn class(&self) -> u8 {
        self.reason.class()
    }

    /// `(workload, component, instance)` for ordering.
    pub fn identity(&self) -> (&str, &str, i64) {
        (&self.workload, &self.component, self.instance)
    }
}
