//! One recommendation row of `last-cycle.json` (spec §1.3) with its `scheduling` object and
//! simulated placements; enum-like members stay strings with typed `*_kind` views.
//!
//! Plain data: parsing lives in `cycle`. Must not import anything outside std, `serde_json`,
//! `chrono` and its parent `recommendations`.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::wire::{
    AdvisoryReason, DispatchStatus, Outcome, Policy, Reason, SchedulingStatus, WithholdReason,
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
    /// `Unavailable` | `Unsupported` | `Feasible` | `Infeasible` (see [`Scheduling::status_kind`]).
    pub status: Option<String>,
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

impl Scheduling {
    /// The typed status, if present.
    pub fn status_kind(&self) -> Option<SchedulingStatus> {
        self.status.as_deref().map(SchedulingStatus::from_wire)
    }
}

/// One recommendation row (§1.3). Invariant: the seven members Alfred never omits
/// (`workload`, `component`, `instance`, `policy`, `reason`, `outcome`, `score`) were present
/// and well-typed; a row lacking any of them is skipped by the parser, never defaulted.
/// Enum-like members are kept as strings; the `*_kind` methods give typed views.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// `namespace/name` of the InferenceService.
    pub workload: String,
    /// `engine` | `decoder` | `router` (kept verbatim).
    pub component: String,
    /// Instance index; `-1` = component-wide row.
    pub instance: i32,
    /// See [`Row::policy_kind`].
    pub policy: String,
    /// See [`Row::reason_kind`].
    pub reason: String,
    /// See [`Row::outcome_kind`].
    pub outcome: String,
    /// Always present; may be negative or zero (advice rows).
    pub score: f64,
    /// `advisoryReason`, see [`Row::advisory_reason_kind`].
    pub advisory_reason: Option<String>,
    /// `rejectReason` (arbiter gate, §8.2), verbatim.
    pub reject_reason: Option<String>,
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
    /// `dispatchStatus`, see [`Row::dispatch_status_kind`].
    pub dispatch_status: Option<String>,
    /// `requestUUID` (not validated here).
    pub request_uuid: Option<String>,
    /// `dispatchReason` (§8.4), verbatim.
    pub dispatch_reason: Option<String>,
    /// E1 `withholdReason`, see [`Row::withhold_reason_kind`].
    pub withhold_reason: Option<String>,
    /// The `scheduling` object, if present and an object.
    pub scheduling: Option<Scheduling>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

impl Row {
    /// Typed `policy`.
    pub fn policy_kind(&self) -> Policy {
        Policy::from_wire(&self.policy)
    }
    /// Typed `reason`.
    pub fn reason_kind(&self) -> Reason {
        Reason::from_wire(&self.reason)
    }
    /// Typed `outcome`.
    pub fn outcome_kind(&self) -> Outcome {
        Outcome::from_wire(&self.outcome)
    }
    /// Typed `advisoryReason`, if present.
    pub fn advisory_reason_kind(&self) -> Option<AdvisoryReason> {
        self.advisory_reason
            .as_deref()
            .map(AdvisoryReason::from_wire)
    }
    /// Typed `dispatchStatus`, if present.
    pub fn dispatch_status_kind(&self) -> Option<DispatchStatus> {
        self.dispatch_status
            .as_deref()
            .map(DispatchStatus::from_wire)
    }
    /// Typed E1 `withholdReason`, if present.
    pub fn withhold_reason_kind(&self) -> Option<WithholdReason> {
        self.withhold_reason
            .as_deref()
            .map(WithholdReason::from_wire)
    }
}
