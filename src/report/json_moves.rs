//! The `moves[]` and `journal` parts of the `analyze -o json` contract: Alfred's published rows
//! (`source: alfred`) beside ome-top's computed rows (`source: computed`), and the dispatch
//! journal with what blocks Alfred.
//!
//! Owns: `moves_json`, `journal_json`. Reads engine results only.

use serde::Serialize;
use serde_json::Value;

use crate::engine::journal::{ClearingDecision, ClearingVerdict};
use crate::engine::model::vocab::{
    AdvisoryReason, DispatchReason, Outcome, Policy, Reason, RejectReason,
};
use crate::engine::planning::JournalView;
use crate::engine::planning::MoveRow;
use crate::engine::recommendations::Row;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MoveJson<'a> {
    source: &'static str,
    workload: &'a str,
    component: &'a str,
    instance: i64,
    policy: &'a Policy,
    reason: &'a Reason,
    outcome: &'a Outcome,
    advisory_reason: Option<&'a AdvisoryReason>,
    reject_reason: Option<&'a RejectReason>,
    dispatch_reason: Option<&'a DispatchReason>,
    from_node: Option<&'a str>,
    target: Option<&'a str>,
    hint_targets: Vec<&'a str>,
    score: f64,
    emergency: bool,
}

fn computed(row: &MoveRow) -> MoveJson<'_> {
    MoveJson {
        source: "computed",
        workload: &row.workload,
        component: &row.component,
        instance: row.instance,
        policy: &row.policy,
        reason: &row.reason,
        outcome: &row.outcome,
        advisory_reason: row.advisory_reason.as_ref(),
        reject_reason: row.reject_reason.as_ref(),
        dispatch_reason: row.dispatch_reason.as_ref(),
        from_node: row.from_node.as_deref(),
        target: row.target.as_deref(),
        hint_targets: row.hint_targets.iter().map(|n| n.as_ref()).collect(),
        score: row.score,
        emergency: row.emergency,
    }
}

fn published(row: &Row) -> MoveJson<'_> {
    MoveJson {
        source: "alfred",
        workload: &row.workload,
        component: &row.component,
        instance: i64::from(row.instance),
        policy: &row.policy,
        reason: &row.reason,
        outcome: &row.outcome,
        advisory_reason: row.advisory_reason.as_ref(),
        reject_reason: row.reject_reason.as_ref(),
        dispatch_reason: row.dispatch_reason.as_ref(),
        from_node: row.from_node.as_deref(),
        target: row.target.as_deref(),
        hint_targets: row.hint_targets.iter().map(String::as_str).collect(),
        score: row.score,
        emergency: row.emergency,
    }
}

/// Alfred's rows first, then the computed rows, each in Alfred's arbitration order
/// (computed rows are already ordered; published rows keep their document order).
pub fn moves_json(alfred: &[Row], computed_rows: &[MoveRow]) -> Value {
    let rows: Vec<MoveJson<'_>> = alfred
        .iter()
        .map(published)
        .chain(computed_rows.iter().map(computed))
        .collect();
    serde_json::to_value(rows).unwrap_or(Value::Null)
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct EntryJson<'a> {
    uuid: &'a str,
    workload: String,
    component: &'a str,
    instance: i32,
    phase: &'a str,
    reason: Option<&'a str>,
    created_at: String,
    blocking: bool,
    clearing: Option<String>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JournalJson<'a> {
    present: bool,
    parse_error: Option<&'a str>,
    entries: Vec<EntryJson<'a>>,
    blocked_reason: Option<DispatchReason>,
}

/// The journal section: presence, Alfred's strict-parse error, entries and the pass-wide
/// withhold reason the journal causes.
pub fn journal_json(view: &JournalView, clearing: &[(String, ClearingVerdict)]) -> Value {
    let verdict = |uuid: &str| {
        clearing
            .iter()
            .find(|(u, _)| u == uuid)
            .map(|(_, v)| match &v.decision {
                ClearingDecision::Clearable => "clearable".to_string(),
                ClearingDecision::Wait(why) => format!("wait: {why}"),
                ClearingDecision::NotStalled => "not stalled".to_string(),
            })
    };
    let doc = match view {
        JournalView::Absent => JournalJson {
            present: false,
            parse_error: None,
            entries: Vec::new(),
            blocked_reason: None,
        },
        JournalView::MissingKey => JournalJson {
            present: true,
            parse_error: Some("state.json key is missing"),
            entries: Vec::new(),
            blocked_reason: Some(DispatchReason::JournalUnavailable),
        },
        JournalView::Unreadable(why) => JournalJson {
            present: true,
            parse_error: Some(why),
            entries: Vec::new(),
            blocked_reason: Some(DispatchReason::JournalUnavailable),
        },
        JournalView::Valid(journal, blocking) => JournalJson {
            present: true,
            parse_error: None,
            entries: journal
                .entries
                .iter()
                .map(|e| EntryJson {
                    uuid: &e.uuid,
                    workload: format!("{}/{}", e.workload.namespace, e.workload.name),
                    component: e.component.as_str(),
                    instance: e.instance,
                    phase: e.phase.as_str(),
                    reason: e.reason.as_deref(),
                    created_at: crate::report::rfc3339(e.created_at),
                    blocking: blocking.blocks(&e.uuid),
                    clearing: verdict(&e.uuid),
                })
                .collect(),
            blocked_reason: blocking.withhold_reason(),
        },
    };
    serde_json::to_value(doc).unwrap_or(Value::Null)
}
