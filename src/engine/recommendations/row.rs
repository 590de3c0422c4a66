//! One recommendation row of `last-cycle.json` (spec §1.3) with its `scheduling` object and
//! simulated placements; enum-like members are the shared move vocabulary (`engine::model::vocab`),
//! unknown values kept verbatim.
//!
//! Plain data: parsing lives in `cycle`.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::wire::{
    AdvisoryReason, DispatchReason, DispatchStatus, Outcome, Policy, Reason, RejectReason,
    SchedulingStatus, WithholdReason,
};

/// A pod named in a simulated placement.
#[derive(Debug, Clone, PartialEq)]
pub struct PodRef {
    /// Pod namespace.
    pub namespace: Option<String>,
    /// Pod name.
    pub name: Option<String>,
    /// Pod UID (optional on the wire).
    pub uid: Option<String>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// One simulated placement `{pod, nodeName}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// The pod placed; `None` when absent or not an object.
    pub pod: Option<PodRef>,
    /// The node the simulator chose.
    pub node_name: Option<String>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// A row's `scheduling` object (OMENative rows with `instance ≥ 0` in recommend-only mode).
/// The writer always sets `status` and `reason`; `None` means a malformed or newer record.
#[derive(Debug, Clone, PartialEq)]
pub struct Scheduling {
    /// `Unavailable` | `Unsupported` | `Feasible` | `Infeasible`.
    pub status: Option<SchedulingStatus>,
    /// Scheduling reason (`ProfileNotConfigured`, `PlacementFound`, ...), kept verbatim.
    pub reason: Option<String>,
    /// `schedulerName`.
    pub scheduler_name: Option<String>,
    /// `backend` (e.g. `kube-v135`).
    pub backend: Option<String>,
    /// `schedulerVersion`.
    pub scheduler_version: Option<String>,
    /// `configurationID`.
    pub configuration_id: Option<String>,
    /// `snapshotID`.
    pub snapshot_id: Option<String>,
    /// `snapshotTime`.
    pub snapshot_time: Option<DateTime<Utc>>,
    /// Simulated placements in the writer's order; absent ⇒ empty.
    pub placements: Vec<Placement>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// One recommendation row (§1.3). Invariant: the seven members Alfred never omits
/// (`workload`, `component`, `instance`, `policy`, `reason`, `outcome`, `score`) were present
/// and well-typed; a row lacking any of them is skipped by the parser, never defaulted.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// `namespace/name` of the InferenceService.
    pub workload: String,
    /// `engine` | `decoder` | `router` (kept verbatim).
    pub component: String,
    /// Instance index; `-1` = component-wide row.
    pub instance: i32,
    /// The policy (or journal) that produced the row.
    pub policy: Policy,
    /// Why the move is proposed.
    pub reason: Reason,
    /// What happened to the row in the pass.
    pub outcome: Outcome,
    /// Always present; may be negative or zero (advice rows).
    pub score: f64,
    /// `advisoryReason`.
    pub advisory_reason: Option<AdvisoryReason>,
    /// `rejectReason` (arbiter gate, §8.2).
    pub reject_reason: Option<RejectReason>,
    /// `fromNode`, the source node.
    pub from_node: Option<String>,
    /// `target`; absent on journal-driven rows (use the journal's targets instead).
    pub target: Option<String>,
    /// `hintTargets` (≤ 3, fullest first); absent ⇒ empty.
    pub hint_targets: Vec<String>,
    /// `emergency`; absent ⇒ false.
    pub emergency: bool,
    /// `cooldownOverridden`; absent ⇒ false.
    pub cooldown_overridden: bool,
    /// `dispatchStatus`.
    pub dispatch_status: Option<DispatchStatus>,
    /// `requestUUID` (not validated here).
    pub request_uuid: Option<String>,
    /// `dispatchReason` (§8.4).
    pub dispatch_reason: Option<DispatchReason>,
    /// E1 `withholdReason`.
    pub withhold_reason: Option<WithholdReason>,
    /// The `scheduling` object, if present and an object.
    pub scheduling: Option<Scheduling>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}
