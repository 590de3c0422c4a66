//! Test-only builders of valid journals (and small edits of them) shared by the journal
//! modules' tests. Compiled only under `cfg(test)`.

use crate::engine::journal::parse_journal;
use serde_json::{json, Value};

/// One UUID per index (valid, lowercase, distinct).
pub fn uuid(i: usize) -> String {
    format!("00000000-0000-4000-8000-{i:012x}")
}

/// The §3.1 example annotation (the payload of every fixture entry).
pub const PAYLOAD: &str = concat!(
    r#"{"schemaVersion":"v1","component":"engine","instance":3,"from_node":"gpu-a","#,
    r#""hint_target_nodes":["gpu-c","gpu-d"],"reason":"NodeUnhealthy","#,
    r#""requested_at":"2026-09-28T10:15:02.418093721Z","requested_by":"alfred"}"#
);

/// A valid entry `i` in `phase` with a typical reason; `completedAt` iff terminal.
pub fn entry(i: usize, phase: &str) -> Value {
    let reason = match phase {
        "prepared" => "SubmissionPrepared",
        "submitted" => "RequestSubmitted",
        "acknowledged" => "UUIDStatusObserved",
        "stalled" => "AcknowledgementTimeout",
        _ => "TerminalStatusObserved",
    };
    let mut e = json!({
        "uuid": uuid(i),
        "workload": {"Namespace": "prod", "Name": "chat"},
        "workloadUID": "isvc-uid-1",
        "irName": "chat-engine",
        "irUID": "ir-uid-1",
        "component": "engine",
        "instance": i,
        "fromNode": "gpu-a",
        "targets": ["gpu-c", "gpu-d"],
        "payload": PAYLOAD,
        "sourceFingerprint": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "createdAt": "2026-09-28T10:15:02.418093721Z",
        "lastAttempt": "2026-09-28T10:15:03Z",
        "acknowledgedAt": "2026-09-28T10:15:10Z",
        "phase": phase,
        "reason": reason,
    });
    if matches!(phase, "completed" | "failed") {
        e["completedAt"] = json!("2026-09-28T10:25:00.5Z");
    }
    e
}

/// `{"version":"v1","entries":[...],"backoffUntil":...}` as compact JSON.
pub fn journal(entries: Vec<Value>) -> String {
    json!({"version": "v1", "entries": entries, "backoffUntil": "2026-09-28T10:30:00Z"}).to_string()
}

/// One entry per phase, in `Phase::ALL` order.
pub fn full() -> String {
    let phases = [
        "prepared",
        "submitted",
        "acknowledged",
        "completed",
        "failed",
        "stalled",
    ];
    journal(
        phases
            .iter()
            .enumerate()
            .map(|(i, p)| entry(i, p))
            .collect(),
    )
}

/// Parses a journal holding `entry` alone and returns the error text (panics if it parses).
pub fn err_of(entry: Value) -> String {
    parse_journal(journal(vec![entry]).as_bytes())
        .unwrap_err()
        .to_string()
}

pub fn with(phase: &str, field: &str, value: Value) -> Value {
    let mut e = entry(0, phase);
    e[field] = value;
    e
}

pub fn without(phase: &str, field: &str) -> Value {
    let mut e = entry(0, phase);
    e.as_object_mut().unwrap().shift_remove(field);
    e
}
