//! The tolerant reader of `last-cycle.json` (one decision pass): top-level members, rows (a row
//! missing a member Alfred never omits is skipped with a warning), scheduling objects and
//! placements. Unknown or mistyped members are kept in `extra`.

use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::row::{Placement, PodRef, Row, Scheduling};
use super::wire::{
    AdvisoryReason, DispatchReason, DispatchStatus, Mode, Outcome, Policy, Reason, RejectReason,
    SchedulingStatus, WithholdReason,
};
use super::{ValueError, LAST_CYCLE_KEY};
use crate::engine::recommendations::node_record::{kind, Fields};

/// The parsed `last-cycle.json`. `timestamp`/`mode` are `None` when absent or malformed (with a
/// warning); `recommendations` is `None` when the writer sent `null` (no candidates), when it
/// is absent (warned) or not an array (warned, raw value in `extra`).
#[derive(Debug, Clone, PartialEq)]
pub struct LastCycle {
    /// Decision time of the pass (not snapshot time).
    pub timestamp: Option<DateTime<Utc>>,
    /// The mode of the config generation used in the pass.
    pub mode: Option<Mode>,
    /// Rows in the writer's order (policy order, then journal rows); skipped rows are missing.
    pub recommendations: Option<Vec<Row>>,
    /// Top-level members not named above, plus known ones of the wrong type.
    pub extra: Map<String, Value>,
}

impl LastCycle {
    /// The rows, treating `null` as no rows.
    pub fn rows(&self) -> &[Row] {
        self.recommendations.as_deref().unwrap_or(&[])
    }
}

/// Parses a `last-cycle.json` value. Errors only when it is not JSON or not an object.
pub fn parse_last_cycle(text: &str, warnings: &mut Vec<String>) -> Result<LastCycle, ValueError> {
    let value: Value =
        serde_json::from_str(text).map_err(|e| ValueError::not_json(LAST_CYCLE_KEY, &e))?;
    let Value::Object(map) = value else {
        return Err(ValueError::NotObject {
            key: LAST_CYCLE_KEY.to_string(),
            kind: kind(&value),
        });
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
    let mode = typed(f.string("mode"), Mode::from_wire);
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
    let policy = typed(f.string("policy"), Policy::from_wire);
    let policy = note(&mut missing, "policy", policy);
    let reason = note(
        &mut missing,
        "reason",
        typed(f.string("reason"), Reason::from_wire),
    );
    let outcome = typed(f.string("outcome"), Outcome::from_wire);
    let outcome = note(&mut missing, "outcome", outcome);
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
        advisory_reason: typed(f.string("advisoryReason"), AdvisoryReason::from_wire),
        reject_reason: typed(f.string("rejectReason"), RejectReason::from_wire),
        from_node: f.string("fromNode"),
        target: f.string("target"),
        hint_targets: f.strings("hintTargets"),
        emergency: f.boolean("emergency").unwrap_or(false),
        cooldown_overridden: f.boolean("cooldownOverridden").unwrap_or(false),
        dispatch_status: typed(f.string("dispatchStatus"), DispatchStatus::from_wire),
        request_uuid: f.string("requestUUID"),
        dispatch_reason: typed(f.string("dispatchReason"), DispatchReason::from_wire),
        withhold_reason: typed(f.string("withholdReason"), WithholdReason::from_wire),
        scheduling,
        extra: Map::new(),
    };
    let (extra, w) = f.finish();
    warnings.extend(w);
    Some(Row { extra, ..row })
}

/// A string member in its vocabulary (unknown values kept verbatim).
fn typed<T>(value: Option<String>, from_wire: fn(&str) -> T) -> Option<T> {
    value.as_deref().map(from_wire)
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
        status: typed(f.string("status"), SchedulingStatus::from_wire),
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
