//! Alfred's per-node records in the `alfred-recommendations` ConfigMap (`node.<name>` and
//! `node-hash.<prefix>.<sha256hex>` keys, spec §1.2, §1.5, §7.3), read tolerantly: E1 records
//! (no `nodeUID`, no `maintenance*`) and E3 extras parse, unknown members are kept in `extra`.
//!
//! Also owns the tolerant member reader [`Fields`] and the [`wire_enum!`] macro shared with its
//! sibling `recommendations`. Pure: no I/O, no clock. This module must not import anything
//! outside std/serde/serde_json/chrono.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

/// Declares a string-backed wire enum with an `Other(String)` fallback, so values this build
/// does not know (older E1, newer E3) are kept verbatim and shown instead of failing a parse.
macro_rules! wire_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $wire:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum $name {
            $($(#[$vm])* $var,)+
            #[doc = "A value this build does not know (E1/E3 or newer), kept verbatim."]
            Other(String),
        }
        impl $name {
            #[doc = "Maps a wire string; total: anything unrecognised becomes `Other`."]
            pub fn from_wire(s: &str) -> Self {
                match s {
                    $($wire => Self::$var,)+
                    other => Self::Other(other.to_string()),
                }
            }
            #[doc = "The wire string; `from_wire(x.as_str()) == x` for every value."]
            pub fn as_str(&self) -> &str {
                match self {
                    $(Self::$var => $wire,)+
                    Self::Other(s) => s,
                }
            }
        }
    };
}
pub(crate) use wire_enum;

/// Reads the members of one JSON object tolerantly. Each known member is taken out once;
/// absent or `null` means "not set" (Go's `omitempty`); a member of the wrong type or format is
/// not lost: it is moved to `extra` under its own name and a warning is recorded.
pub(crate) struct Fields {
    map: Map<String, Value>,
    rejected: Map<String, Value>,
    ctx: String,
    warnings: Vec<String>,
}

impl Fields {
    /// Starts reading `map`; `ctx` prefixes every warning (e.g. `node.gpu-a`).
    pub(crate) fn new(map: Map<String, Value>, ctx: impl Into<String>) -> Self {
        let ctx = ctx.into();
        Fields {
            map,
            rejected: Map::new(),
            ctx,
            warnings: Vec::new(),
        }
    }

    /// Whether `name` is present with a non-`null` value (not yet taken).
    pub(crate) fn present(&self, name: &str) -> bool {
        self.map.get(name).is_some_and(|v| !v.is_null())
    }

    /// Whether `name` is absent altogether (a `null` member counts as present).
    pub(crate) fn absent(&self, name: &str) -> bool {
        !self.map.contains_key(name)
    }

    fn take(&mut self, name: &str) -> Option<Value> {
        // `shift_remove` keeps the remaining members in document order for `extra`.
        self.map.shift_remove(name).filter(|v| !v.is_null())
    }

    fn reject<T>(&mut self, name: &str, value: Value, want: &str) -> Option<T> {
        self.warnings.push(format!(
            "{}: `{name}` is not {want}; kept as an unknown field",
            self.ctx
        ));
        self.rejected.insert(name.to_string(), value);
        None
    }

    /// A string member.
    pub(crate) fn string(&mut self, name: &str) -> Option<String> {
        match self.take(name)? {
            Value::String(s) => Some(s),
            other => self.reject(name, other, "a string"),
        }
    }

    /// A boolean member.
    pub(crate) fn boolean(&mut self, name: &str) -> Option<bool> {
        match self.take(name)? {
            Value::Bool(b) => Some(b),
            other => self.reject(name, other, "a boolean"),
        }
    }

    /// A number member as f64 (serde_json never yields NaN/∞ from text).
    pub(crate) fn float(&mut self, name: &str) -> Option<f64> {
        let value = self.take(name)?;
        match value.as_f64() {
            Some(f) => Some(f),
            None => self.reject(name, value, "a number"),
        }
    }

    /// An integer member within the int32 range (Go's `int32`; `3.0` is rejected like Go does).
    pub(crate) fn int32(&mut self, name: &str) -> Option<i32> {
        let value = self.take(name)?;
        match value.as_i64().and_then(|i| i32::try_from(i).ok()) {
            Some(i) => Some(i),
            None => self.reject(name, value, "an int32"),
        }
    }

    /// An RFC 3339 timestamp member (any fraction up to nanoseconds), normalised to UTC.
    pub(crate) fn time(&mut self, name: &str) -> Option<DateTime<Utc>> {
        let value = self.take(name)?;
        let parsed = value
            .as_str()
            .and_then(|s| DateTime::parse_from_rfc3339(s).ok());
        match parsed {
            Some(t) => Some(t.with_timezone(&Utc)),
            None => self.reject(name, value, "an RFC 3339 timestamp"),
        }
    }

    /// An array-of-strings member; absent ⇒ empty. One non-string element rejects the whole
    /// member so the view never shows a silently shortened list.
    pub(crate) fn strings(&mut self, name: &str) -> Vec<String> {
        let Some(value) = self.take(name) else {
            return Vec::new();
        };
        let list: Option<Vec<String>> = value
            .as_array()
            .and_then(|a| a.iter().map(|v| v.as_str().map(str::to_string)).collect());
        match list {
            Some(list) => list,
            None => self
                .reject(name, value, "an array of strings")
                .unwrap_or_default(),
        }
    }

    /// An object member.
    pub(crate) fn object(&mut self, name: &str) -> Option<Map<String, Value>> {
        match self.take(name)? {
            Value::Object(m) => Some(m),
            other => self.reject(name, other, "an object"),
        }
    }

    /// An array member.
    pub(crate) fn array(&mut self, name: &str) -> Option<Vec<Value>> {
        match self.take(name)? {
            Value::Array(a) => Some(a),
            other => self.reject(name, other, "an array"),
        }
    }

    /// Records a warning in this reader's context (used for nested, skipped elements).
    pub(crate) fn warn(&mut self, what: impl std::fmt::Display) {
        self.warnings.push(format!("{}: {what}", self.ctx));
    }

    /// Adds warnings of a nested reader (already prefixed with their own context).
    pub(crate) fn extend_warnings(&mut self, w: Vec<String>) {
        self.warnings.extend(w);
    }

    /// The context prefix of this reader's warnings.
    pub(crate) fn ctx(&self) -> &str {
        &self.ctx
    }

    /// Ends reading: unread members then rejected ones form `extra`; returns the warnings too.
    pub(crate) fn finish(self) -> (Map<String, Value>, Vec<String>) {
        let mut extra = self.map;
        extra.extend(self.rejected);
        (extra, self.warnings)
    }
}

wire_enum! {
    /// A node's health state (§7.1).
    NodeState {
        /// No trigger condition is bad (records normally exist only for maintenance then).
        Clear = "Clear",
        /// A trigger condition is `True`: evacuations are created.
        Unhealthy = "Unhealthy",
        /// A trigger condition is `Unknown`/unrecognised/`False` without a transition time.
        Unknown = "Unknown",
        /// Recently recovered, inside `nodeSuspicionWindow`: excluded as a target only.
        Suspect = "Suspect",
    }
}

/// One configured trigger condition present on the node. Invariant: `type_` is non-empty
/// (a condition without a type is skipped with a warning).
#[derive(Debug, Clone, PartialEq)]
pub struct NodeCondition {
    /// The condition `type` (e.g. `GpuUnhealthy`).
    pub type_: String,
    /// `True`/`False`/`Unknown`, or anything else kept verbatim; `None` when absent.
    pub status: Option<String>,
    /// `lastTransitionTime`; Go's zero time parses as year 1 (meaning "unset").
    pub last_transition_time: Option<DateTime<Utc>>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// The `maintenance` object (E2+). `triggers` are rule names, sorted by the writer.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeMaintenance {
    /// Whether any maintenance trigger matched; absent ⇒ false.
    pub requested: bool,
    /// Names of the matching trigger rules.
    pub triggers: Vec<String>,
    /// Members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// A `node.*` / `node-hash.*` record (§1.5). Every field is optional because E1 records omit
/// some and a newer writer may omit others; times are snapshot times in UTC.
#[derive(Debug, Clone, PartialEq)]
pub struct NodeRecord {
    /// The Node's UID (E2+); the only way to match a `node-hash.` key to a Node.
    pub node_uid: Option<String>,
    /// The health state as written (see [`NodeRecord::state_kind`]).
    pub state: Option<String>,
    /// Configured trigger conditions present on the node, in the writer's order (by type).
    pub conditions: Vec<NodeCondition>,
    /// End of the Suspect window (only while Suspect).
    pub suspect_until: Option<DateTime<Utc>>,
    /// Maintenance request (E2+; absent on E1 or when never requested).
    pub maintenance: Option<NodeMaintenance>,
    /// Sorted unique `namespace/name` of OME workloads on the node.
    pub workloads: Vec<String>,
    /// Whether OME GPU pods were on the node; absent ⇒ false.
    pub ome_gpu_occupants_present: bool,
    /// Snapshot time of the observation that wrote this record.
    pub observed_at: Option<DateTime<Utc>>,
    /// Start of the repair episode (`NodeRepairNeeded`).
    pub signaled_at: Option<DateTime<Utc>>,
    /// When the node was seen free of OME GPU occupants during repair.
    pub drained_at: Option<DateTime<Utc>>,
    /// Start of the maintenance episode (E2+).
    pub maintenance_requested_at: Option<DateTime<Utc>>,
    /// When the node was seen free of OME GPU occupants during maintenance (E2+).
    pub maintenance_drained_at: Option<DateTime<Utc>>,
    /// Members not named above (E3 or newer), plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

/// Where a repair or maintenance episode stands (§7.3), derived from the record's timestamps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EpisodePhase {
    /// No episode recorded.
    None,
    /// Started (signaled/requested) at the given time, not yet drained.
    Open {
        /// `signaledAt` or `maintenanceRequestedAt`.
        since: DateTime<Utc>,
    },
    /// Drained; `since` is `None` only for an inconsistent record lacking the start time.
    Drained {
        /// `signaledAt` or `maintenanceRequestedAt`.
        since: Option<DateTime<Utc>>,
        /// `drainedAt` or `maintenanceDrainedAt`.
        drained: DateTime<Utc>,
    },
}

impl EpisodePhase {
    fn from_times(since: Option<DateTime<Utc>>, drained: Option<DateTime<Utc>>) -> Self {
        match (since, drained) {
            (_, Some(drained)) => EpisodePhase::Drained { since, drained },
            (Some(since), None) => EpisodePhase::Open { since },
            (None, None) => EpisodePhase::None,
        }
    }
}

impl NodeRecord {
    /// The typed state; `None` when the record has no `state`.
    pub fn state_kind(&self) -> Option<NodeState> {
        self.state.as_deref().map(NodeState::from_wire)
    }

    /// The repair episode phase (`signaledAt`/`drainedAt`).
    pub fn repair_phase(&self) -> EpisodePhase {
        EpisodePhase::from_times(self.signaled_at, self.drained_at)
    }

    /// The maintenance episode phase (`maintenanceRequestedAt`/`maintenanceDrainedAt`).
    pub fn maintenance_phase(&self) -> EpisodePhase {
        EpisodePhase::from_times(self.maintenance_requested_at, self.maintenance_drained_at)
    }
}

/// Parses one node record value. `key` only labels warnings. Errors (with a readable message)
/// only when the value is not JSON or not a JSON object; field problems become warnings.
pub fn parse_node_record(
    key: &str,
    text: &str,
    warnings: &mut Vec<String>,
) -> Result<NodeRecord, String> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| format!("{key}: not valid JSON: {e}"))?;
    let Value::Object(map) = value else {
        return Err(format!("{key}: JSON is {}, not an object", kind(&value)));
    };
    let mut f = Fields::new(map, key);
    let conditions = f
        .array("conditions")
        .map(|a| conditions(&mut f, a))
        .unwrap_or_default();
    let maintenance = f.object("maintenance").map(|m| maintenance(&mut f, m));
    let record = NodeRecord {
        node_uid: f.string("nodeUID"),
        state: f.string("state"),
        conditions,
        suspect_until: f.time("suspectUntil"),
        maintenance,
        workloads: f.strings("workloads"),
        ome_gpu_occupants_present: f.boolean("omeGpuOccupantsPresent").unwrap_or(false),
        observed_at: f.time("observedAt"),
        signaled_at: f.time("signaledAt"),
        drained_at: f.time("drainedAt"),
        maintenance_requested_at: f.time("maintenanceRequestedAt"),
        maintenance_drained_at: f.time("maintenanceDrainedAt"),
        extra: Map::new(),
    };
    let (extra, mut w) = f.finish();
    warnings.append(&mut w);
    Ok(NodeRecord { extra, ..record })
}

fn conditions(parent: &mut Fields, items: Vec<Value>) -> Vec<NodeCondition> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.into_iter().enumerate() {
        let Value::Object(map) = item else {
            parent.warn(format_args!("conditions[{i}] is {}; skipped", kind(&item)));
            continue;
        };
        let mut f = Fields::new(map, format!("{}: conditions[{i}]", parent.ctx()));
        let type_ = f.string("type");
        let status = f.string("status");
        let last_transition_time = f.time("lastTransitionTime");
        let (extra, w) = f.finish();
        parent.extend_warnings(w);
        match type_ {
            Some(type_) if !type_.is_empty() => out.push(NodeCondition {
                type_,
                status,
                last_transition_time,
                extra,
            }),
            _ => parent.warn(format_args!("conditions[{i}] has no `type`; skipped")),
        }
    }
    out
}

fn maintenance(parent: &mut Fields, map: Map<String, Value>) -> NodeMaintenance {
    let mut f = Fields::new(map, format!("{}: maintenance", parent.ctx()));
    let requested = f.boolean("requested").unwrap_or(false);
    let triggers = f.strings("triggers");
    let (extra, w) = f.finish();
    parent.extend_warnings(w);
    NodeMaintenance {
        requested,
        triggers,
        extra,
    }
}

/// Short name of a JSON value's kind for messages (`null`, `an array`, ...).
pub(crate) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().with_timezone(&Utc)
    }

    fn parse(text: &str) -> (Result<NodeRecord, String>, Vec<String>) {
        let mut w = Vec::new();
        (parse_node_record("node.gpu-a", text, &mut w), w)
    }

    const E2_RECORD: &str = r#"{
      "nodeUID": "0c1d…",
      "state": "Suspect",
      "conditions": [{"type":"GpuUnhealthy","status":"False","lastTransitionTime":"2026-09-28T09:58:10Z"}],
      "suspectUntil": "2026-09-28T10:28:10Z",
      "maintenance": {"requested": true, "triggers": ["os-patching"]},
      "workloads": ["prod/chat","team-b/summarize"],
      "omeGpuOccupantsPresent": true,
      "observedAt": "2026-09-28T10:15:01.003Z",
      "signaledAt": "2026-09-28T09:41:31.200Z",
      "maintenanceRequestedAt": "2026-09-28T10:05:00.911Z"
    }"#;

    #[test]
    fn spec_record_parses_every_field() {
        let (rec, w) = parse(E2_RECORD);
        assert!(w.is_empty(), "{w:?}");
        let expected = NodeRecord {
            node_uid: Some("0c1d…".into()),
            state: Some("Suspect".into()),
            conditions: vec![NodeCondition {
                type_: "GpuUnhealthy".into(),
                status: Some("False".into()),
                last_transition_time: Some(t("2026-09-28T09:58:10Z")),
                extra: Map::new(),
            }],
            suspect_until: Some(t("2026-09-28T10:28:10Z")),
            maintenance: Some(NodeMaintenance {
                requested: true,
                triggers: vec!["os-patching".into()],
                extra: Map::new(),
            }),
            workloads: vec!["prod/chat".into(), "team-b/summarize".into()],
            ome_gpu_occupants_present: true,
            observed_at: Some(t("2026-09-28T10:15:01.003Z")),
            signaled_at: Some(t("2026-09-28T09:41:31.200Z")),
            drained_at: None,
            maintenance_requested_at: Some(t("2026-09-28T10:05:00.911Z")),
            maintenance_drained_at: None,
            extra: Map::new(),
        };
        let rec = rec.unwrap();
        assert_eq!(rec, expected);
        assert_eq!(rec.state_kind(), Some(NodeState::Suspect));
        let since = t("2026-09-28T09:41:31.200Z");
        assert_eq!(rec.repair_phase(), EpisodePhase::Open { since });
        let since = t("2026-09-28T10:05:00.911Z");
        assert_eq!(rec.maintenance_phase(), EpisodePhase::Open { since });
    }

    #[test]
    fn e1_record_without_uid_and_maintenance_parses() {
        let text = r#"{"state":"Unhealthy",
          "conditions":[{"type":"GpuUnhealthy","status":"True","lastTransitionTime":"2025-01-01T00:00:00Z"}],
          "workloads":["prod/chat"],"observedAt":"2025-01-01T00:01:00Z",
          "signaledAt":"2025-01-01T00:00:30Z","drainedAt":"2025-01-01T00:00:45Z"}"#;
        let (rec, w) = parse(text);
        assert!(w.is_empty(), "{w:?}");
        let rec = rec.unwrap();
        assert_eq!(rec.node_uid, None);
        assert_eq!(rec.maintenance, None);
        assert_eq!(rec.maintenance_requested_at, None);
        assert!(!rec.ome_gpu_occupants_present);
        assert_eq!(rec.state_kind(), Some(NodeState::Unhealthy));
        let (since, drained) = (Some(t("2025-01-01T00:00:30Z")), t("2025-01-01T00:00:45Z"));
        assert_eq!(rec.repair_phase(), EpisodePhase::Drained { since, drained });
        assert_eq!(rec.maintenance_phase(), EpisodePhase::None);
    }

    #[test]
    fn unknown_and_wrong_typed_members_are_kept_with_warnings() {
        let text = r#"{"state":"Cordoned","observedAt":"yesterday","workloads":["a",1],
          "cordonedForMaintenance":"rule-1","omeGpuOccupantsPresent":null,
          "maintenance":{"requested":"yes","triggers":["x"],"cordon":true},
          "conditions":[{"status":"True"},7,{"type":"Ready","status":"Weird","lastTransitionTime":"0001-01-01T00:00:00Z","reason":"r"}]}"#;
        let (rec, w) = parse(text);
        let rec = rec.unwrap();
        assert_eq!(rec.state_kind(), Some(NodeState::Other("Cordoned".into())));
        assert_eq!(rec.observed_at, None);
        assert_eq!(rec.extra["observedAt"], "yesterday");
        assert_eq!(rec.extra["workloads"], serde_json::json!(["a", 1]));
        assert_eq!(rec.extra["cordonedForMaintenance"], "rule-1");
        assert!(rec.workloads.is_empty());
        let m = rec.maintenance.unwrap();
        assert!(!m.requested);
        assert_eq!(m.extra["requested"], "yes");
        assert_eq!(m.extra["cordon"], true);
        assert_eq!(rec.conditions.len(), 1);
        let c = &rec.conditions[0];
        assert_eq!(
            (c.type_.as_str(), c.status.as_deref()),
            ("Ready", Some("Weird"))
        );
        assert_eq!(c.last_transition_time, Some(t("0001-01-01T00:00:00Z")));
        assert_eq!(c.extra["reason"], "r");
        let joined = w.join("\n");
        for needle in [
            "node.gpu-a: `observedAt` is not an RFC 3339 timestamp",
            "node.gpu-a: `workloads` is not an array of strings",
            "node.gpu-a: maintenance: `requested` is not a boolean",
            "node.gpu-a: conditions[0] has no `type`; skipped",
            "node.gpu-a: conditions[1] is a number; skipped",
        ] {
            assert!(joined.contains(needle), "missing {needle:?} in {joined}");
        }
    }

    #[test]
    fn non_object_and_non_json_records_are_errors() {
        let (rec, _) = parse("[1,2]");
        assert_eq!(
            rec.unwrap_err(),
            "node.gpu-a: JSON is an array, not an object"
        );
        let (rec, _) = parse("state: Suspect");
        assert!(rec.unwrap_err().starts_with("node.gpu-a: not valid JSON"));
    }

    #[test]
    fn wire_enum_round_trips() {
        for s in ["Clear", "Unhealthy", "Unknown", "Suspect", "Cordoned", ""] {
            assert_eq!(NodeState::from_wire(s).as_str(), s);
        }
    }
}
