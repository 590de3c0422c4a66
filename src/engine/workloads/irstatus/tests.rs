//! Unit tests of the instance-status codec: shared fixtures (the §3.5 base payload, row
//! builders) here, the cases by topic in `tests/`.

use super::columns::*;
use super::*;
use super::{RowError, RowProblem};
use serde_json::{json, Value};

mod decoding;
mod examples;
mod props;
mod rows;
mod tables;

const TIME: &str = "2026-09-28T10:15:02Z";

/// The §3.5 base payload: members "0-9", two phases, two revisions, two incarnations, counts,
/// admission, an ordinal and two entries.
fn base() -> Value {
    json!({
        "members": "0-9",
        "phases": [{"value": "Ready", "indexes": "0-2,4-9"}, {"value": "Updating", "indexes": "3"}],
        "runningRevisions": [
            {"value": "rev-a", "indexes": "0-6,8-9"}, {"value": "rev-b", "indexes": "7"}
        ],
        "targetRevisions": [{"value": "rev-b", "indexes": "3"}],
        "incarnations": [{"value": 1, "indexes": "0-6,8-9"}, {"value": 2, "indexes": "7"}],
        "podCounts": [{"value": 1, "indexes": "0-9"}],
        "servingPodCounts": [{"value": 1, "indexes": "0-9"}],
        "availablePodCounts": [{"value": 1, "indexes": "0-9"}],
        "admitted": "0-7,9",
        "activeOrdinalOne": "7",
        "entries": [
            {"index": 2, "readySince": TIME},
            {"index": 5, "lastFailure": {"podName": "x-5-0", "reason": "Error", "time": TIME}}
        ]
    })
}

fn columnar(columns: Value) -> Value {
    json!({"instanceStatusEncoding": "ColumnarV2", "instanceStatusColumns": columns})
}

fn reason_of(status: &Value, max: usize) -> &'static str {
    match decode_rows(status, max) {
        Ok(rows) => panic!("decoded {} rows from {status}", rows.len()),
        Err(e) => e.reason(),
    }
}

/// Reason for the base payload after `mutate`, under Alfred's bound.
fn rejects(mutate: impl FnOnce(&mut Value)) -> &'static str {
    let mut columns = base();
    mutate(&mut columns);
    reason_of(&columnar(columns), MAX_ROWS)
}

fn members(s: &str) -> &'static str {
    rejects(|c| c["members"] = json!(s))
}

fn decode(columns: Value) -> Vec<InstanceRow> {
    decode_rows(&columnar(columns), MAX_ROWS).unwrap()
}

fn row(
    i: i64,
    phase: &str,
    rev: [&str; 2],
    inc: i64,
    n: [i64; 3],
    adm: bool,
    ord: i64,
) -> InstanceRow {
    InstanceRow {
        index: i,
        incarnation: inc,
        phase: phase.into(),
        running_revision: rev[0].into(),
        target_revision: rev[1].into(),
        pod_count: n[0],
        serving_pod_count: n[1],
        available_pod_count: n[2],
        admitted: adm,
        active_ordinal: ord,
        ..InstanceRow::default()
    }
}

fn invalid(position: usize, index: i64, problem: RowProblem) -> RowError {
    RowError::InvalidRow {
        position,
        index,
        problem,
    }
}
