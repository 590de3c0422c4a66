//! Alfred's per-node records in the `alfred-recommendations` ConfigMap (`node.<name>` and
//! `node-hash.<prefix>.<sha256hex>` keys, spec §1.2, §1.5, §7.3), read tolerantly: E1 records
//! (no `nodeUID`, no `maintenance*`) and E3 extras parse, unknown members are kept in `extra`.
//!
//! Also owns, in its child `fields`, the tolerant member reader [`Fields`], the [`wire_enum!`]
//! macro and the JSON kind names shared with its sibling `recommendations`; this file owns the node
//! record types and their parser. Pure: no I/O, no clock.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use crate::engine::recommendations::ValueError;

mod fields;
#[cfg(test)]
mod tests;

pub(crate) use fields::{kind, wire_enum, Fields};

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
) -> Result<NodeRecord, ValueError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ValueError::not_json(key, &e))?;
    let Value::Object(map) = value else {
        return Err(ValueError::NotObject {
            key: key.to_string(),
            kind: kind(&value),
        });
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
