//! OME's durable migration history: ConfigMap `<isvc>-ome-migration-audit`, key `history.json`
//! (alfred.md §3.2), read tolerantly — unknown fields and unknown phases are kept, a row that
//! cannot be read is skipped and reported rather than failing the whole document. Used as
//! evidence by the clearing checks of §2.4.
//!
//! Pure.

use crate::engine::formats::strict_json::parse_rfc3339;
use crate::engine::model::vocab::vocabulary;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};
use std::fmt;

/// The ConfigMap name holding an InferenceService's history.
pub fn audit_configmap_name(isvc: &str) -> String {
    format!("{isvc}-ome-migration-audit")
}

vocabulary! {
    /// Phase of a history row.
    AuditPhase {
        /// The migration started.
        Started = "Started",
        /// It ended successfully.
        Completed = "Completed",
        /// It ended in failure.
        Failed = "Failed",
    }
}

impl AuditPhase {
    /// `Completed` or `Failed`: the request ended.
    pub fn is_ended(&self) -> bool {
        matches!(self, AuditPhase::Completed | AuditPhase::Failed)
    }
}

/// One history row. Invariant: `request_uuid` is non-empty.
#[derive(Debug, Clone, PartialEq)]
pub struct AuditEntry {
    /// The request UUID (matches a journal entry's `uuid`).
    pub request_uuid: String,
    /// `engine`/`decoder`/`router` (kept verbatim).
    pub component: Option<String>,
    /// Instance that was moved.
    pub source_instance: Option<i64>,
    /// Instance created to replace it.
    pub surge_instance: Option<i64>,
    /// Row phase.
    pub phase: AuditPhase,
    /// Why it ended, if given.
    pub reason: Option<String>,
    /// Source node.
    pub from_node: Option<String>,
    /// Hints as requested.
    pub hint_target_nodes: Vec<String>,
    /// Start time.
    pub started_at: Option<DateTime<Utc>>,
    /// End time.
    pub completed_at: Option<DateTime<Utc>>,
    /// Free-form outcome.
    pub outcome: Option<String>,
    /// Members this build does not know, in document order.
    pub extra: Map<String, Value>,
}

/// A row that could not be read (kept out of `entries`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SkippedRow {
    /// Index in the `entries` array.
    pub index: usize,
    /// What was wrong.
    pub why: String,
}

/// The parsed `history.json`.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AuditHistory {
    /// Readable rows in document order.
    pub entries: Vec<AuditEntry>,
    /// Unreadable rows.
    pub skipped: Vec<SkippedRow>,
}

impl AuditHistory {
    /// Rows for `uuid` (exact match), in document order.
    pub fn rows_for<'a>(&'a self, uuid: &'a str) -> impl Iterator<Item = &'a AuditEntry> + 'a {
        self.entries.iter().filter(move |e| e.request_uuid == uuid)
    }
}

/// Why `history.json` cannot be read at all.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HistoryError {
    /// Not JSON.
    InvalidJson(String),
    /// The document is not an object.
    NotAnObject,
    /// `entries` is neither absent, `null` nor an array.
    EntriesNotArray,
}

impl fmt::Display for HistoryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HistoryError::InvalidJson(e) => write!(f, "history.json is not valid JSON: {e}"),
            HistoryError::NotAnObject => write!(f, "history.json is not a JSON object"),
            HistoryError::EntriesNotArray => write!(f, "history.json: entries is not an array"),
        }
    }
}

impl std::error::Error for HistoryError {}

/// Reads `history.json`. Absent/`null` `entries` reads as no rows.
pub fn parse_audit_history(json: &str) -> Result<AuditHistory, HistoryError> {
    let doc: Value =
        serde_json::from_str(json).map_err(|e| HistoryError::InvalidJson(e.to_string()))?;
    let root = doc.as_object().ok_or(HistoryError::NotAnObject)?;
    let rows = match root.get("entries") {
        None | Some(Value::Null) => return Ok(AuditHistory::default()),
        Some(Value::Array(rows)) => rows,
        Some(_) => return Err(HistoryError::EntriesNotArray),
    };
    let mut history = AuditHistory::default();
    for (index, row) in rows.iter().enumerate() {
        match audit_entry(row) {
            Ok(entry) => history.entries.push(entry),
            Err(why) => history.skipped.push(SkippedRow { index, why }),
        }
    }
    Ok(history)
}

const KNOWN: [&str; 11] = [
    "requestUUID",
    "component",
    "sourceInstance",
    "surgeInstance",
    "phase",
    "reason",
    "fromNode",
    "hintTargetNodes",
    "startedAt",
    "completedAt",
    "outcome",
];

fn audit_entry(row: &Value) -> Result<AuditEntry, String> {
    let obj = row.as_object().ok_or("row is not an object")?;
    let request_uuid = text(obj, "requestUUID")?
        .filter(|u| !u.is_empty())
        .ok_or("no requestUUID")?;
    let phase = text(obj, "phase")?.ok_or("no phase")?;
    let extra = obj.iter().filter(|(k, _)| !KNOWN.contains(&k.as_str()));
    Ok(AuditEntry {
        request_uuid,
        component: text(obj, "component")?,
        source_instance: int(obj, "sourceInstance")?,
        surge_instance: int(obj, "surgeInstance")?,
        phase: AuditPhase::from_wire(&phase),
        reason: text(obj, "reason")?,
        from_node: text(obj, "fromNode")?,
        hint_target_nodes: strings(obj, "hintTargetNodes")?,
        started_at: time(obj, "startedAt")?,
        completed_at: time(obj, "completedAt")?,
        outcome: text(obj, "outcome")?,
        extra: extra.map(|(k, v)| (k.clone(), v.clone())).collect(),
    })
}

fn text(obj: &Map<String, Value>, key: &str) -> Result<Option<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("{key} is not a string: {other}")),
    }
}

fn int(obj: &Map<String, Value>, key: &str) -> Result<Option<i64>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("{key} is not an integer: {v}")),
    }
}

fn time(obj: &Map<String, Value>, key: &str) -> Result<Option<DateTime<Utc>>, String> {
    match text(obj, key)? {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) => parse_rfc3339(&s)
            .map(Some)
            .ok_or_else(|| format!("{key} is not RFC 3339: {s}")),
    }
}

fn strings(obj: &Map<String, Value>, key: &str) -> Result<Vec<String>, String> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| format!("{key} has a non-string"))
            })
            .collect(),
        Some(other) => Err(format!("{key} is not a list: {other}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = r#"{"entries":[
        {"requestUUID":"u1","component":"engine","sourceInstance":3,"surgeInstance":7,
         "phase":"Completed","reason":"Succeeded","fromNode":"gpu-a",
         "hintTargetNodes":["gpu-c"],"startedAt":"2026-09-28T10:15:05Z",
         "completedAt":"2026-09-28T10:25:00Z","outcome":"ok","attempt":2},
        {"requestUUID":"u2","phase":"RolledBack","startedAt":"2026-09-28T10:16:00Z"},
        {"requestUUID":"u3","phase":"Started","startedAt":"yesterday"},
        {"phase":"Failed"},
        {"requestUUID":"u2","phase":"Started"}
    ],"retained":200}"#;

    #[test]
    fn tolerant_parse_keeps_unknowns() {
        let h = parse_audit_history(DOC).unwrap();
        assert_eq!(h.entries.len(), 3);
        let first = &h.entries[0];
        assert_eq!(first.phase, AuditPhase::Completed);
        assert!(first.phase.is_ended());
        assert_eq!(
            (first.source_instance, first.surge_instance),
            (Some(3), Some(7))
        );
        assert_eq!(first.hint_target_nodes, ["gpu-c"]);
        assert_eq!(first.extra.get("attempt"), Some(&Value::from(2)));
        assert!(first.completed_at.is_some());
        assert_eq!(
            h.entries[1].phase,
            AuditPhase::Unknown(Box::new("RolledBack".into()))
        );
        assert_eq!(h.entries[1].phase.as_str(), "RolledBack");
        for p in AuditPhase::KNOWN {
            assert_eq!(&AuditPhase::from_wire(p.as_str()), p);
        }
        let skipped: Vec<usize> = h.skipped.iter().map(|s| s.index).collect();
        assert_eq!(skipped, [2, 3]);
        assert!(h.skipped[0].why.contains("startedAt"));
        assert_eq!(h.rows_for("u2").count(), 2);
    }

    #[test]
    fn document_level_errors() {
        assert_eq!(parse_audit_history("{}").unwrap(), AuditHistory::default());
        assert_eq!(
            parse_audit_history(r#"{"entries":null}"#).unwrap(),
            AuditHistory::default()
        );
        assert_eq!(parse_audit_history("[]"), Err(HistoryError::NotAnObject));
        assert_eq!(
            parse_audit_history(r#"{"entries":1}"#),
            Err(HistoryError::EntriesNotArray)
        );
        assert!(matches!(
            parse_audit_history("{"),
            Err(HistoryError::InvalidJson(_))
        ));
        assert_eq!(audit_configmap_name("chat"), "chat-ome-migration-audit");
    }
}
