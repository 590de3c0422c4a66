//! Tolerant reader of the ConfigMap `alfred-recommendations` (spec §1): `last-cycle.json`
//! (one decision pass), node records (delegated to `recommendations_node`), freshness of the
//! pass (§11 step 2) and a client-side display order of rows (§8.1).
//!
//! Tolerance (§0, §12): unknown keys, unknown members at every level and unknown enum strings
//! (E1/E3) are kept and never an error; a malformed row is skipped with a warning; only a value
//! that is not a JSON object fails, and only for its own key. Pure: no I/O, no clock (`now` is an
//! argument). This module must not import anything outside std/serde/serde_json/chrono (and its
//! sibling `recommendations_node`).

use super::recommendations_node::{kind, parse_node_record, wire_enum, Fields, NodeRecord};
use chrono::{DateTime, TimeDelta, Utc};
use serde_json::{Map, Value};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::time::Duration;

/// The key holding the latest decision pass.
pub const LAST_CYCLE_KEY: &str = "last-cycle.json";
/// Prefix of a node record key whose remainder is the node name.
pub const NODE_KEY_PREFIX: &str = "node.";
/// Prefix of a node record key used when `node.<name>` would exceed 253 characters.
pub const NODE_HASH_KEY_PREFIX: &str = "node-hash.";
/// A pass older than this many decision-loop intervals is stale (reference CLI convention).
pub const STALE_AFTER_INTERVALS: u32 = 2;

wire_enum! {
    /// The mode of the config generation used in a pass.
    Mode { RecommendOnly = "recommend-only", Execute = "execute" }
}
wire_enum! {
    /// The policy (or journal) that produced a row.
    Policy {
        Defragmentation = "defragmentation",
        NodeHealth = "nodehealth",
        /// A journal row whose stored request could not be decoded.
        MigrationDispatch = "migration-dispatch",
    }
}
wire_enum! {
    /// Why a move was proposed; also the arbiter's class (see [`reason_class`]).
    Reason {
        Fragmentation = "Fragmentation",
        NodeUnhealthy = "NodeUnhealthy",
        NodeMaintenance = "NodeMaintenance",
    }
}
wire_enum! {
    /// What happened to a row in the pass. E1's reserved `admitted` is `Other`.
    Outcome {
        Advisory = "advisory", Rejected = "rejected", Withheld = "withheld",
        Submitted = "submitted", Acknowledged = "acknowledged", Completed = "completed",
        Failed = "failed", Stalled = "stalled",
    }
}
wire_enum! {
    /// Dispatch progress of a row (`prepared` journal entries are written as `withheld`).
    DispatchStatus {
        Withheld = "withheld", Submitted = "submitted", Acknowledged = "acknowledged",
        Completed = "completed", Failed = "failed", Stalled = "stalled",
    }
}
wire_enum! {
    /// Why a row is advice (E2). Scheduling reasons and E3 additions are `Other`.
    AdvisoryReason {
        OmeNativeUnavailable = "OMENativeUnavailable",
        RawDeploymentMigrationUnsupported = "RawDeploymentMigrationUnsupported",
        LwsMigrationUnsupported = "LWSMigrationUnsupported",
        NoSurgeHeadroom = "NoSurgeHeadroom",
        VolumePinned = "VolumePinned",
        ModelUnresolved = "ModelUnresolved",
        MigrationSurfaceDisabled = "MigrationSurfaceDisabled",
        OmeNativeObservationInvalid = "OMENativeObservationInvalid",
        OmeNativeStateIneligible = "OMENativeStateIneligible",
        NonExecutableObservedFragmentation = "NonExecutableObservedFragmentation",
        SimulationRecommendOnly = "SimulationRecommendOnly",
    }
}
wire_enum! {
    /// E1's `withholdReason` (replaced by `dispatchStatus`/`dispatchReason` in E2).
    WithholdReason { RecommendOnly = "RecommendOnly", DispatcherUnavailable = "DispatcherUnavailable" }
}
wire_enum! {
    /// Result of the scheduling gate / simulation on a row.
    SchedulingStatus {
        Unavailable = "Unavailable", Unsupported = "Unsupported",
        Feasible = "Feasible", Infeasible = "Infeasible",
    }
}

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

/// The parsed `last-cycle.json`. `timestamp`/`mode` are `None` when absent or malformed (with a
/// warning); `recommendations` is `None` when the writer sent `null` (no candidates), when it
/// is absent (warned) or not an array (warned, raw value in `extra`).
#[derive(Debug, Clone, PartialEq)]
pub struct LastCycle {
    /// Decision time of the pass (not snapshot time).
    pub timestamp: Option<DateTime<Utc>>,
    /// See [`LastCycle::mode_kind`].
    pub mode: Option<String>,
    /// Rows in the writer's order (policy order, then journal rows); skipped rows are missing.
    pub recommendations: Option<Vec<Row>>,
    /// Top-level members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

impl LastCycle {
    /// Typed `mode`, if present.
    pub fn mode_kind(&self) -> Option<Mode> {
        self.mode.as_deref().map(Mode::from_wire)
    }
    /// The rows, treating `null` as no rows.
    pub fn rows(&self) -> &[Row] {
        self.recommendations.as_deref().unwrap_or(&[])
    }
}

/// One node record key. `node_name` is `Some` for `node.<name>` keys and `None` for
/// `node-hash.<prefix>.<sha256hex>` keys: the name is not recoverable from the hash and the
/// record does not carry it, so the caller matches the record to a Node by `nodeUID` (E2+).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRecordEntry {
    /// The ConfigMap key, verbatim.
    pub key: String,
    /// The node name taken from a `node.<name>` key.
    pub node_name: Option<String>,
    /// The record, or why the value is not a JSON object.
    pub record: Result<NodeRecord, String>,
}

/// Everything read from the ConfigMap's `data`. Errors live in the `Result`s and are not
/// repeated in `warnings`; `warnings` hold per-field/per-row problems prefixed by their key.
#[derive(Debug, Clone, PartialEq)]
pub struct Recommendations {
    /// `None` when the key is absent (e.g. the chart's empty, pre-created ConfigMap).
    pub last_cycle: Option<Result<LastCycle, String>>,
    /// Node records in key order.
    pub nodes: Vec<NodeRecordEntry>,
    /// Keys this reader does not know (e.g. the OEP's `recommendations.json`), in key order.
    pub unknown_keys: Vec<String>,
    /// Tolerated problems, each naming its key (and row index / field).
    pub warnings: Vec<String>,
}

/// What a ConfigMap key holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyKind<'a> {
    /// `last-cycle.json`.
    LastCycle,
    /// `node.<name>` with a non-empty name.
    Node(&'a str),
    /// `node-hash.<prefix>.<sha256hex>`.
    NodeHash,
    /// Anything else.
    Unknown,
}

/// Classifies a key. Node names may contain dots, so everything after `node.` is the name.
pub fn classify_key(key: &str) -> KeyKind<'_> {
    if key == LAST_CYCLE_KEY {
        return KeyKind::LastCycle;
    }
    if key.starts_with(NODE_HASH_KEY_PREFIX) {
        return KeyKind::NodeHash;
    }
    match key.strip_prefix(NODE_KEY_PREFIX) {
        Some(name) if !name.is_empty() => KeyKind::Node(name),
        _ => KeyKind::Unknown,
    }
}

/// Parses the whole ConfigMap `data`. Total: never panics, never fails as a whole.
pub fn parse_recommendations(data: &BTreeMap<String, String>) -> Recommendations {
    let mut out = Recommendations {
        last_cycle: None,
        nodes: Vec::new(),
        unknown_keys: Vec::new(),
        warnings: Vec::new(),
    };
    for (key, text) in data {
        let node_name = match classify_key(key) {
            KeyKind::LastCycle => {
                out.last_cycle = Some(parse_last_cycle(text, &mut out.warnings));
                continue;
            }
            KeyKind::Unknown => {
                out.unknown_keys.push(key.clone());
                continue;
            }
            KeyKind::Node(name) => Some(name.to_string()),
            KeyKind::NodeHash => None,
        };
        let record = parse_node_record(key, text, &mut out.warnings);
        out.nodes.push(NodeRecordEntry {
            key: key.clone(),
            node_name,
            record,
        });
    }
    out
}

/// Parses a `last-cycle.json` value. Errors only when it is not JSON or not an object.
pub fn parse_last_cycle(text: &str, warnings: &mut Vec<String>) -> Result<LastCycle, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("{LAST_CYCLE_KEY}: not valid JSON: {e}"))?;
    let Value::Object(map) = value else {
        return Err(format!(
            "{LAST_CYCLE_KEY}: JSON is {}, not an object",
            kind(&value)
        ));
    };
    let mut f = Fields::new(map, LAST_CYCLE_KEY);
    if !f.present("timestamp") {
        f.warn("no `timestamp`; freshness cannot be judged");
    }
    let timestamp = f.time("timestamp");
    if f.absent("recommendations") {
        f.warn("no `recommendations` member; treated as null");
    }
    let mut row_warnings = Vec::new();
    let recommendations = f.array("recommendations").map(|items| {
        let mut rows = Vec::with_capacity(items.len());
        for (i, item) in items.into_iter().enumerate() {
            rows.extend(parse_row(i, item, &mut row_warnings));
        }
        rows
    });
    let mode = f.string("mode");
    let (extra, w) = f.finish();
    // Top-level warnings before row warnings: reads best in a warnings pane.
    warnings.extend(w);
    warnings.append(&mut row_warnings);
    Ok(LastCycle {
        timestamp,
        mode,
        recommendations,
        extra,
    })
}

fn parse_row(index: usize, value: Value, warnings: &mut Vec<String>) -> Option<Row> {
    let ctx = format!("{LAST_CYCLE_KEY}: recommendations[{index}]");
    let Value::Object(map) = value else {
        warnings.push(format!("{ctx} is {}; skipped", kind(&value)));
        return None;
    };
    let mut f = Fields::new(map, ctx.clone());
    // A row without these cannot be identified or ordered; defaulting would invent data.
    let mut missing = Vec::new();
    let workload = note(&mut missing, "workload", f.string("workload"));
    let component = note(&mut missing, "component", f.string("component"));
    let instance = note(&mut missing, "instance", f.int32("instance"));
    let policy = note(&mut missing, "policy", f.string("policy"));
    let reason = note(&mut missing, "reason", f.string("reason"));
    let outcome = note(&mut missing, "outcome", f.string("outcome"));
    let score = note(&mut missing, "score", f.float("score"));
    let (Some(workload), Some(component), Some(instance), Some(policy)) =
        (workload, component, instance, policy)
    else {
        warnings.push(format!(
            "{ctx} skipped: missing or invalid {}",
            missing.join(", ")
        ));
        return None;
    };
    let (Some(reason), Some(outcome), Some(score)) = (reason, outcome, score) else {
        warnings.push(format!(
            "{ctx} skipped: missing or invalid {}",
            missing.join(", ")
        ));
        return None;
    };
    let scheduling = f.object("scheduling").map(|m| parse_scheduling(&mut f, m));
    let row = Row {
        workload,
        component,
        instance,
        policy,
        reason,
        outcome,
        score,
        advisory_reason: f.string("advisoryReason"),
        reject_reason: f.string("rejectReason"),
        from_node: f.string("fromNode"),
        target: f.string("target"),
        hint_targets: f.strings("hintTargets"),
        emergency: f.boolean("emergency").unwrap_or(false),
        cooldown_overridden: f.boolean("cooldownOverridden").unwrap_or(false),
        dispatch_status: f.string("dispatchStatus"),
        request_uuid: f.string("requestUUID"),
        dispatch_reason: f.string("dispatchReason"),
        withhold_reason: f.string("withholdReason"),
        scheduling,
        extra: Map::new(),
    };
    let (extra, w) = f.finish();
    warnings.extend(w);
    Some(Row { extra, ..row })
}

/// Passes `value` through, recording `name` in `missing` when it is `None`.
fn note<T>(missing: &mut Vec<&'static str>, name: &'static str, value: Option<T>) -> Option<T> {
    if value.is_none() {
        missing.push(name);
    }
    value
}

fn parse_scheduling(parent: &mut Fields, map: Map<String, Value>) -> Scheduling {
    let mut f = Fields::new(map, format!("{}: scheduling", parent.ctx()));
    let placements = f.array("placements").map(|a| parse_placements(&mut f, a));
    let s = Scheduling {
        status: f.string("status"),
        reason: f.string("reason"),
        scheduler_name: f.string("schedulerName"),
        backend: f.string("backend"),
        scheduler_version: f.string("schedulerVersion"),
        configuration_id: f.string("configurationID"),
        snapshot_id: f.string("snapshotID"),
        snapshot_time: f.time("snapshotTime"),
        placements: placements.unwrap_or_default(),
        extra: Map::new(),
    };
    let (extra, w) = f.finish();
    parent.extend_warnings(w);
    Scheduling { extra, ..s }
}

fn parse_placements(parent: &mut Fields, items: Vec<Value>) -> Vec<Placement> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(map) = item else {
            parent.warn(format_args!("placements[{i}] is {}; skipped", kind(&item)));
            continue;
        };
        let mut f = Fields::new(map, format!("{}: placements[{i}]", parent.ctx()));
        let pod = f.object("pod").map(|m| {
            let mut p = Fields::new(m, format!("{}: placements[{i}]: pod", parent.ctx()));
            let (namespace, name, uid) = (p.string("namespace"), p.string("name"), p.string("uid"));
            let (extra, w) = p.finish();
            f.extend_warnings(w);
            PodRef {
                namespace,
                name,
                uid,
                extra,
            }
        });
        let node_name = f.string("nodeName");
        let (extra, w) = f.finish();
        parent.extend_warnings(w);
        out.push(Placement {
            pod,
            node_name,
            extra,
        });
    }
    out
}

/// How old a pass is. Invariant: `stale` and `clock_skew` are never both true.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Freshness {
    /// `now − timestamp`; negative when the timestamp is in the future.
    pub age: TimeDelta,
    /// Older than [`STALE_AFTER_INTERVALS`] × `decisionLoopInterval` (strictly).
    pub stale: bool,
    /// The timestamp is after `now`: the clocks disagree; this is not staleness.
    pub clock_skew: bool,
}

/// Judges a pass's age. "Stale" follows the reference CLI (`kubectl ome admin
/// recommendations`): older than 2 × `decisionLoopInterval`; it is a client convention, not an
/// Alfred rule. Exactly 2× is fresh. An interval too large to represent is never stale.
pub fn freshness(
    timestamp: DateTime<Utc>,
    decision_loop_interval: Duration,
    now: DateTime<Utc>,
) -> Freshness {
    let age = now.signed_duration_since(timestamp);
    let clock_skew = age < TimeDelta::zero();
    let limit = decision_loop_interval
        .checked_mul(STALE_AFTER_INTERVALS)
        .and_then(|d| TimeDelta::from_std(d).ok());
    let stale = !clock_skew && limit.is_some_and(|limit| age > limit);
    Freshness {
        age,
        stale,
        clock_skew,
    }
}

/// A row's identity within one pass: `(policy, workload, component, instance, fromNode,
/// reason)`. The same Instance may appear under two identities (health and defrag).
pub type RowIdentity<'a> = (&'a str, &'a str, &'a str, i32, Option<&'a str>, &'a str);

/// The identity tuple of `row` (§1.3).
pub fn row_identity(row: &Row) -> RowIdentity<'_> {
    (
        &row.policy,
        &row.workload,
        &row.component,
        row.instance,
        row.from_node.as_deref(),
        &row.reason,
    )
}

/// The arbiter's class priority (§8.1): `NodeUnhealthy` 2 > `NodeMaintenance` 1 > others 0.
pub fn reason_class(reason: &str) -> u8 {
    match Reason::from_wire(reason) {
        Reason::NodeUnhealthy => 2,
        Reason::NodeMaintenance => 1,
        Reason::Fragmentation | Reason::Other(_) => 0,
    }
}

/// Sorts rows for display in the arbiter's order (§8.1): class desc, score desc, then — since a
/// row does not carry the Instance's GPU footprint — workload, component, instance ascending.
/// This is a DISPLAY order over all rows; Alfred arbitrates only executable candidates and does
/// not write rows in this order. Stable: remaining ties keep the writer's (policy) order.
pub fn sort_rows_for_display(rows: &mut [Row]) {
    rows.sort_by(display_order);
}

fn display_order(a: &Row, b: &Row) -> Ordering {
    // `+ 0.0` folds -0.0 into 0.0 so total_cmp (a total order, safe for sort) ties them.
    reason_class(&b.reason)
        .cmp(&reason_class(&a.reason))
        .then_with(|| (b.score + 0.0).total_cmp(&(a.score + 0.0)))
        .then_with(|| a.workload.cmp(&b.workload))
        .then_with(|| a.component.cmp(&b.component))
        .then_with(|| a.instance.cmp(&b.instance))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    const EXECUTE_EXAMPLE: &str = r#"{
      "timestamp": "2026-09-28T10:15:02.418093721Z",
      "mode": "execute",
      "recommendations": [
        {"workload":"prod/chat","component":"engine","instance":3,"policy":"nodehealth","reason":"NodeUnhealthy",
         "outcome":"submitted","fromNode":"gpu-a","hintTargets":["gpu-c","gpu-d"],"score":0.5,
         "dispatchStatus":"submitted","requestUUID":"7c9e6679-7425-40de-944b-e07fc1f90ae7","dispatchReason":"RequestSubmitted"},
        {"workload":"prod/embed","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"withheld","fromNode":"gpu-b","target":"gpu-e","hintTargets":["gpu-e","gpu-f"],"score":0.2925,
         "dispatchStatus":"withheld","dispatchReason":"SerialDispatchLimit"},
        {"workload":"team-b/summarize","component":"engine","instance":1,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"rejected","rejectReason":"Cooldown","fromNode":"gpu-b","hintTargets":["gpu-e"],"score":0.131},
        {"workload":"prod/rerank","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"NonExecutableObservedFragmentation","fromNode":"gpu-a","score":-0.15},
        {"workload":"prod/big","component":"engine","instance":0,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"NoSurgeHeadroom","fromNode":"gpu-g","score":0},
        {"workload":"legacy/llm","component":"engine","instance":2,"policy":"nodehealth","reason":"NodeUnhealthy",
         "outcome":"advisory","advisoryReason":"RawDeploymentMigrationUnsupported","fromNode":"gpu-a","score":0.5},
        {"workload":"prod/pvc-model","component":"engine","instance":-1,"policy":"defragmentation","reason":"Fragmentation",
         "outcome":"advisory","advisoryReason":"VolumePinned","fromNode":"gpu-h","score":0}
      ]
    }"#;

    const RECOMMEND_ONLY_ROW: &str = r#"{"workload":"prod/chat","component":"engine","instance":3,"policy":"defragmentation","reason":"Fragmentation",
     "outcome":"advisory","advisoryReason":"SimulationRecommendOnly","fromNode":"node-a","hintTargets":["node-c","node-d"],
     "score":0.2925,
     "scheduling":{"schedulerName":"default-scheduler","backend":"kube-v135","schedulerVersion":"v1.35.4",
       "configurationID":"sha256:…","status":"Feasible","reason":"PlacementFound",
       "snapshotID":"…","snapshotTime":"2026-09-28T10:15:01Z",
       "placements":[{"pod":{"namespace":"prod","name":"chat-engine-…"},"nodeName":"node-c"}]}}"#;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn s(v: &str) -> Option<String> {
        Some(v.to_string())
    }

    fn cycle(text: &str) -> (LastCycle, Vec<String>) {
        let mut w = Vec::new();
        let c = parse_last_cycle(text, &mut w).unwrap();
        (c, w)
    }

    fn one_row(row: &str) -> (Row, Vec<String>) {
        let doc = format!(
            r#"{{"timestamp":"2026-09-28T10:15:02Z","mode":"recommend-only","recommendations":[{row}]}}"#
        );
        let (c, w) = cycle(&doc);
        assert_eq!(c.rows().len(), 1, "{w:?}");
        (c.rows()[0].clone(), w)
    }

    fn row(
        w: &str,
        i: i32,
        policy: &str,
        reason: &str,
        outcome: &str,
        from: &str,
        score: f64,
    ) -> Row {
        Row {
            workload: w.into(),
            component: "engine".into(),
            instance: i,
            policy: policy.into(),
            reason: reason.into(),
            outcome: outcome.into(),
            score,
            advisory_reason: None,
            reject_reason: None,
            from_node: s(from),
            target: None,
            hint_targets: Vec::new(),
            emergency: false,
            cooldown_overridden: false,
            dispatch_status: None,
            request_uuid: None,
            dispatch_reason: None,
            withhold_reason: None,
            scheduling: None,
            extra: Map::new(),
        }
    }

    fn hints(h: &[&str]) -> Vec<String> {
        h.iter().map(|x| x.to_string()).collect()
    }

    fn advice(w: &str, i: i32, policy: &str, reason: &str, adv: &str, from: &str, sc: f64) -> Row {
        Row {
            advisory_reason: s(adv),
            ..row(w, i, policy, reason, "advisory", from, sc)
        }
    }

    /// The seven rows of the §1.4 example, every field spelled out.
    fn execute_example_rows() -> Vec<Row> {
        let (d, h, fr, nu) = (
            "defragmentation",
            "nodehealth",
            "Fragmentation",
            "NodeUnhealthy",
        );
        vec![
            Row {
                hint_targets: hints(&["gpu-c", "gpu-d"]),
                dispatch_status: s("submitted"),
                request_uuid: s("7c9e6679-7425-40de-944b-e07fc1f90ae7"),
                dispatch_reason: s("RequestSubmitted"),
                ..row("prod/chat", 3, h, nu, "submitted", "gpu-a", 0.5)
            },
            Row {
                target: s("gpu-e"),
                hint_targets: hints(&["gpu-e", "gpu-f"]),
                dispatch_status: s("withheld"),
                dispatch_reason: s("SerialDispatchLimit"),
                ..row("prod/embed", 0, d, fr, "withheld", "gpu-b", 0.2925)
            },
            Row {
                reject_reason: s("Cooldown"),
                hint_targets: hints(&["gpu-e"]),
                ..row("team-b/summarize", 1, d, fr, "rejected", "gpu-b", 0.131)
            },
            advice(
                "prod/rerank",
                0,
                d,
                fr,
                "NonExecutableObservedFragmentation",
                "gpu-a",
                -0.15,
            ),
            advice("prod/big", 0, d, fr, "NoSurgeHeadroom", "gpu-g", 0.0),
            advice(
                "legacy/llm",
                2,
                h,
                nu,
                "RawDeploymentMigrationUnsupported",
                "gpu-a",
                0.5,
            ),
            advice("prod/pvc-model", -1, d, fr, "VolumePinned", "gpu-h", 0.0),
        ]
    }

    #[test]
    fn execute_example_parses_every_row_and_field() {
        let (c, w) = cycle(EXECUTE_EXAMPLE);
        assert!(w.is_empty(), "{w:?}");
        let ts = c.timestamp.unwrap();
        assert_eq!(
            (ts, ts.timestamp_subsec_nanos()),
            (t("2026-09-28T10:15:02.418093721Z"), 418_093_721)
        );
        assert_eq!((c.mode_kind(), c.extra.len()), (Some(Mode::Execute), 0));
        assert_eq!(c.recommendations, Some(execute_example_rows()));
        let r = c.rows();
        assert_eq!(r[0].target, None, "journal-driven row has no target");
        let kinds = (r[0].outcome_kind(), r[0].policy_kind(), r[0].reason_kind());
        assert_eq!(
            kinds,
            (
                Outcome::Submitted,
                Policy::NodeHealth,
                Reason::NodeUnhealthy
            )
        );
        assert_eq!(r[0].dispatch_status_kind(), Some(DispatchStatus::Submitted));
        let adv = AdvisoryReason::NonExecutableObservedFragmentation;
        assert_eq!(r[3].advisory_reason_kind(), Some(adv));
        assert_eq!((r[3].score, r[6].instance), (-0.15, -1));
    }

    #[test]
    fn recommend_only_row_with_scheduling_and_placements() {
        let (r, w) = one_row(RECOMMEND_ONLY_ROW);
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            r.advisory_reason_kind(),
            Some(AdvisoryReason::SimulationRecommendOnly)
        );
        assert_eq!(r.hint_targets, hints(&["node-c", "node-d"]));
        let pod = PodRef {
            namespace: s("prod"),
            name: s("chat-engine-…"),
            uid: None,
            extra: Map::new(),
        };
        let expected = Scheduling {
            status: s("Feasible"),
            reason: s("PlacementFound"),
            scheduler_name: s("default-scheduler"),
            backend: s("kube-v135"),
            scheduler_version: s("v1.35.4"),
            configuration_id: s("sha256:…"),
            snapshot_id: s("…"),
            snapshot_time: Some(t("2026-09-28T10:15:01Z")),
            placements: vec![Placement {
                pod: Some(pod),
                node_name: s("node-c"),
                extra: Map::new(),
            }],
            extra: Map::new(),
        };
        assert_eq!(r.scheduling.as_ref(), Some(&expected));
        assert_eq!(expected.status_kind(), Some(SchedulingStatus::Feasible));
    }

    #[test]
    fn default_install_omenative_unavailable_row() {
        let (r, w) = one_row(
            r#"{"workload":"prod/chat","component":"engine","instance":0,"policy":"defragmentation",
            "reason":"Fragmentation","outcome":"advisory","advisoryReason":"OMENativeUnavailable",
            "fromNode":"gpu-a","score":0,"scheduling":{"schedulerName":"default-scheduler",
            "status":"Unavailable","reason":"ProfileNotConfigured"}}"#,
        );
        assert!(w.is_empty(), "{w:?}");
        assert_eq!(
            r.advisory_reason_kind(),
            Some(AdvisoryReason::OmeNativeUnavailable)
        );
        assert!(r.hint_targets.is_empty());
        assert_eq!(r.score, 0.0);
        let sch = r.scheduling.unwrap();
        assert_eq!(sch.status_kind(), Some(SchedulingStatus::Unavailable));
        assert_eq!(sch.reason.as_deref(), Some("ProfileNotConfigured"));
        assert_eq!(sch.scheduler_name.as_deref(), Some("default-scheduler"));
        assert!(sch.placements.is_empty() && sch.backend.is_none() && sch.snapshot_time.is_none());
    }

    #[test]
    fn null_and_absent_recommendations() {
        let (c, w) = cycle(
            r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"execute","recommendations":null}"#,
        );
        assert!(w.is_empty() && c.recommendations.is_none() && c.rows().is_empty());
        let (c, w) = cycle(r#"{"timestamp":"2026-09-28T10:15:02Z"}"#);
        assert!(c.recommendations.is_none() && c.mode.is_none());
        assert_eq!(
            w,
            ["last-cycle.json: no `recommendations` member; treated as null"]
        );
        let (c, w) = cycle(r#"{"recommendations":[]}"#);
        assert_eq!((c.recommendations, c.timestamp), (Some(vec![]), None));
        assert_eq!(
            w,
            ["last-cycle.json: no `timestamp`; freshness cannot be judged"]
        );
    }

    #[test]
    fn unknown_enum_strings_and_unknown_fields_are_kept() {
        let doc = r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"dry-run","generation":7,
          "recommendations":[{"workload":"p/w","component":"engine","instance":1,"policy":"tpuslice",
          "reason":"Preemption","outcome":"admitted","advisoryReason":"AcceleratorPlacementUnmodeled",
          "dispatchStatus":"prepared","score":1.5,"sliceTopology":"2x2",
          "scheduling":{"status":"Ready","reason":"ProfileSelected","zone":"a",
            "placements":[{"pod":{"namespace":"p","name":"x","uid":"u1","ip":"10.0.0.1"},"nodeName":"n","rank":0},"junk"]}}]}"#;
        let (c, w) = cycle(doc);
        assert_eq!(c.mode_kind(), Some(Mode::Other("dry-run".into())));
        assert_eq!(c.extra["generation"], 7);
        let r = &c.rows()[0];
        assert_eq!(r.policy_kind(), Policy::Other("tpuslice".into()));
        assert_eq!(r.reason_kind(), Reason::Other("Preemption".into()));
        assert_eq!(reason_class(&r.reason), 0);
        assert_eq!(r.outcome_kind(), Outcome::Other("admitted".into()));
        let adv = AdvisoryReason::Other("AcceleratorPlacementUnmodeled".into());
        assert_eq!(r.advisory_reason_kind(), Some(adv));
        assert_eq!(
            r.dispatch_status_kind(),
            Some(DispatchStatus::Other("prepared".into()))
        );
        assert_eq!(r.extra["sliceTopology"], "2x2");
        let sch = r.scheduling.as_ref().unwrap();
        assert_eq!(
            sch.status_kind(),
            Some(SchedulingStatus::Other("Ready".into()))
        );
        assert_eq!(sch.extra["zone"], "a");
        assert_eq!(sch.placements.len(), 1);
        assert_eq!(sch.placements[0].extra["rank"], 0);
        let pod = sch.placements[0].pod.as_ref().unwrap();
        assert_eq!(
            (pod.uid.as_deref(), &pod.extra["ip"]),
            (Some("u1"), &json!("10.0.0.1"))
        );
        let skipped = "last-cycle.json: recommendations[0]: scheduling: placements[1] is a string";
        assert_eq!(w.len(), 1);
        assert!(w[0].starts_with(skipped), "{w:?}");
    }

    #[test]
    fn e1_row_with_withhold_reason() {
        let (r, w) = one_row(
            r#"{"workload":"prod/chat","component":"engine","instance":0,"policy":"defragmentation",
            "reason":"Fragmentation","outcome":"withheld","withholdReason":"DispatcherUnavailable",
            "fromNode":"gpu-b","target":"gpu-e","score":0.3}"#,
        );
        assert!(w.is_empty());
        assert_eq!(
            r.withhold_reason_kind(),
            Some(WithholdReason::DispatcherUnavailable)
        );
        assert_eq!(
            (r.dispatch_status.as_deref(), r.target.as_deref()),
            (None, Some("gpu-e"))
        );
        assert!(r.extra.is_empty());
    }

    #[test]
    fn bad_rows_are_skipped_with_index_and_reason() {
        let doc = r#"{"timestamp":"2026-09-28T10:15:02Z","mode":"execute","recommendations":[
          42, {"workload":"a/b","component":"engine","policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":0},
          {"workload":"a/b","component":"engine","instance":3000000000,"policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":"high"},
          {"workload":"a/c","component":"engine","instance":1,"policy":"defragmentation","reason":"Fragmentation","outcome":"advisory","score":0,"emergency":"yes"}]}"#;
        let (c, w) = cycle(doc);
        assert_eq!(c.rows().len(), 1);
        assert_eq!(c.rows()[0].extra["emergency"], "yes");
        assert!(!c.rows()[0].emergency);
        assert_eq!(
            w[0],
            "last-cycle.json: recommendations[0] is a number; skipped"
        );
        assert_eq!(
            w[1],
            "last-cycle.json: recommendations[1] skipped: missing or invalid instance"
        );
        let two = "last-cycle.json: recommendations[2] skipped: missing or invalid instance, score";
        assert_eq!(w[2], two);
        assert!(
            w[3].starts_with("last-cycle.json: recommendations[3]: `emergency` is not a boolean")
        );
        assert_eq!(w.len(), 4);
    }

    fn data(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn whole_configmap_with_bad_last_cycle_still_reads_nodes() {
        let hashed = format!("node-hash.very-long-name.{}", "ab".repeat(32));
        let d = data(&[
            ("last-cycle.json", "recommendations: []"),
            (
                "node.ip-10-0-0-1.ec2.internal",
                r#"{"nodeUID":"u1","state":"Unhealthy"}"#,
            ),
            (&hashed, r#"{"nodeUID":"u2","state":"Unknown"}"#),
            ("node.gpu-z", "[]"),
            ("recommendations.json", "{}"),
            ("node.", "{}"),
        ]);
        let r = parse_recommendations(&d);
        let err = r.last_cycle.clone().unwrap().unwrap_err();
        assert!(err.starts_with("last-cycle.json: not valid JSON:"), "{err}");
        assert_eq!(r.nodes.len(), 3);
        assert_eq!(r.nodes[0].key, hashed);
        assert_eq!(r.nodes[0].node_name, None);
        assert_eq!(
            r.nodes[0].record.as_ref().unwrap().node_uid.as_deref(),
            Some("u2")
        );
        assert_eq!(r.nodes[1].node_name.as_deref(), Some("gpu-z"));
        assert_eq!(
            r.nodes[1].record,
            Err("node.gpu-z: JSON is an array, not an object".into())
        );
        assert_eq!(
            r.nodes[2].node_name.as_deref(),
            Some("ip-10-0-0-1.ec2.internal")
        );
        assert_eq!(r.unknown_keys, ["node.", "recommendations.json"]);
        assert!(r.warnings.is_empty());
        let not_object = parse_recommendations(&data(&[("last-cycle.json", "null")])).last_cycle;
        assert_eq!(
            not_object,
            Some(Err("last-cycle.json: JSON is null, not an object".into()))
        );
        assert_eq!(parse_recommendations(&BTreeMap::new()).last_cycle, None);
    }

    #[test]
    fn freshness_boundaries() {
        let ts = t("2026-09-28T10:15:00Z");
        let interval = Duration::from_secs(30);
        let f = freshness(ts, interval, t("2026-09-28T10:16:00Z"));
        assert_eq!(
            f,
            Freshness {
                age: TimeDelta::seconds(60),
                stale: false,
                clock_skew: false
            }
        );
        let f = freshness(ts, interval, t("2026-09-28T10:16:00.000000001Z"));
        assert!(f.stale && !f.clock_skew);
        let f = freshness(ts, interval, t("2026-09-28T10:14:59Z"));
        assert_eq!(
            f,
            Freshness {
                age: TimeDelta::seconds(-1),
                stale: false,
                clock_skew: true
            }
        );
        let f = freshness(ts, interval, ts);
        assert!(!f.stale && !f.clock_skew);
        let f = freshness(ts, Duration::MAX, t("9999-01-01T00:00:00Z"));
        assert!(!f.stale, "an unrepresentable limit is never stale");
    }

    #[test]
    fn identity_and_display_order() {
        let (c, _) = cycle(EXECUTE_EXAMPLE);
        let mut rows = c.rows().to_vec();
        let id = row_identity(&rows[0]);
        assert_eq!(
            id,
            (
                "nodehealth",
                "prod/chat",
                "engine",
                3,
                Some("gpu-a"),
                "NodeUnhealthy"
            )
        );
        let mut maint = row(
            "z/m",
            0,
            "nodehealth",
            "NodeMaintenance",
            "advisory",
            "gpu-x",
            9.0,
        );
        maint.from_node = None;
        rows.push(maint);
        rows.push(row(
            "a/neg-zero",
            0,
            "defragmentation",
            "Fragmentation",
            "advisory",
            "n",
            -0.0,
        ));
        sort_rows_for_display(&mut rows);
        let order: Vec<(&str, i32)> = rows
            .iter()
            .map(|r| (r.workload.as_str(), r.instance))
            .collect();
        let expected = [
            ("legacy/llm", 2),
            ("prod/chat", 3),
            ("z/m", 0),
            ("prod/embed", 0),
            ("team-b/summarize", 1),
            ("a/neg-zero", 0),
            ("prod/big", 0),
            ("prod/pvc-model", -1),
            ("prod/rerank", 0),
        ];
        assert_eq!(order, expected);
        assert_eq!(row_identity(&rows[2]).4, None);
    }

    /// Replaces the subtree reached by following `path` (indices modulo each container's size)
    /// with `with`; at a leaf the leaf itself is replaced.
    fn mutate(v: &mut Value, path: &[usize], with: Value, delete: bool) {
        let Some((&step, rest)) = path.split_first() else {
            return *v = with;
        };
        match v {
            Value::Object(m) if !m.is_empty() => {
                let key = m.keys().nth(step % m.len()).unwrap().clone();
                if delete && rest.is_empty() {
                    m.shift_remove(&key);
                } else {
                    mutate(m.get_mut(&key).unwrap(), rest, with, delete);
                }
            }
            Value::Array(a) if !a.is_empty() => {
                let n = a.len();
                mutate(&mut a[step % n], rest, with, delete)
            }
            _ => *v = with,
        }
    }

    fn arb_json() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(|i| json!(i)),
            any::<f64>().prop_map(|f| json!(f)),
            ".{0,12}".prop_map(Value::String),
            Just(json!("2026-09-28T10:15:02.418093721Z")),
            Just(json!(-1)),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    fn check_total(d: &BTreeMap<String, String>) {
        let r = parse_recommendations(d);
        if let Some(Ok(c)) = &r.last_cycle {
            let mut rows = c.rows().to_vec();
            sort_rows_for_display(&mut rows);
            let _ = rows.iter().map(row_identity).count();
        }
        assert_eq!(
            r.nodes.len() + r.unknown_keys.len() + usize::from(r.last_cycle.is_some()),
            d.len()
        );
    }

    proptest! {
        #[test]
        fn arbitrary_strings_never_panic(text in ".{0,200}", key in "(node\\.|node-hash\\.|x)?[a-z.]{0,8}") {
            check_total(&data(&[("last-cycle.json", &text), (&key, &text), ("node.n", &text)]));
        }

        #[test]
        fn mutated_documents_never_panic(
            path in prop::collection::vec(any::<usize>(), 0..6),
            with in arb_json(),
            delete in any::<bool>(),
            node in any::<bool>(),
        ) {
            let base = if node { NODE_TEXT } else { EXECUTE_EXAMPLE };
            let mut v: Value = serde_json::from_str(base).unwrap();
            mutate(&mut v, &path, with, delete);
            let text = v.to_string();
            check_total(&data(&[("last-cycle.json", &text), ("node.n", &text)]));
            let rows = parse_recommendations(&data(&[("last-cycle.json", &text)])).last_cycle;
            if let Some(Ok(c)) = rows {
                prop_assert!(c.rows().len() <= 7);
            }
        }

        #[test]
        fn byte_mutated_text_never_panics(at in any::<usize>(), cut in 0usize..8, ins in ".{0,4}") {
            let mut text = RECOMMEND_ONLY_ROW.to_string();
            let mut at = at % (text.len() + 1);
            while !text.is_char_boundary(at) { at -= 1; }
            let mut end = (at + cut).min(text.len());
            while !text.is_char_boundary(end) { end -= 1; }
            text.replace_range(at..end.max(at), &ins);
            let doc = format!(r#"{{"timestamp":"x","recommendations":[{text}]}}"#);
            check_total(&data(&[("last-cycle.json", &doc), ("node.n", &text)]));
        }
    }

    const NODE_TEXT: &str = r#"{"nodeUID":"u","state":"Suspect","conditions":[{"type":"GpuUnhealthy",
      "status":"False","lastTransitionTime":"2026-09-28T09:58:10Z"}],"maintenance":{"requested":true,
      "triggers":["os"]},"workloads":["a/b"],"observedAt":"2026-09-28T10:15:01.003Z"}"#;
}
