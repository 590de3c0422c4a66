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
    pub why: AuditRowError,
}

/// Why one row of `history.json` was skipped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AuditRowError {
    /// The row is not a JSON object.
    #[error("row is not an object")]
    NotObject,
    /// `requestUUID` is absent or empty.
    #[error("no requestUUID")]
    NoRequestUuid,
    /// `phase` is absent.
    #[error("no phase")]
    NoPhase,
    /// A text field holding something else.
    #[error("{key} is not a string: {value}")]
    NotString {
        /// The field.
        key: &'static str,
        /// What it holds.
        value: Value,
    },
    /// An integer field holding something else.
    #[error("{key} is not an integer: {value}")]
    NotInteger {
        /// The field.
        key: &'static str,
        /// What it holds.
        value: Value,
    },
    /// A time field that is not RFC 3339.
    #[error("{key} is not RFC 3339: {text}")]
    NotTime {
        /// The field.
        key: &'static str,
        /// Its text.
        text: String,
    },
    /// A list of strings with another item.
    #[error("{key} has a non-string")]
    NonStringItem {
        /// The field.
        key: &'static str,
    },
    /// A list field holding something else.
    #[error("{key} is not a list: {value}")]
    NotList {
        /// The field.
        key: &'static str,
        /// What it holds.
        value: Value,
    },
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
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HistoryError {
    /// Not JSON: serde_json's words.
    #[error("history.json is not valid JSON: {0}")]
    InvalidJson(String),
    /// The document is not an object.
    #[error("history.json is not a JSON object")]
    NotAnObject,
    /// `entries` is neither absent, `null` nor an array.
    #[error("history.json: entries is not an array")]
    EntriesNotArray,
}

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

fn audit_entry(row: &Value) -> Result<AuditEntry, AuditRowError> {
    let obj = row.as_object().ok_or(AuditRowError::NotObject)?;
    let request_uuid = text(obj, "requestUUID")?
        .filter(|u| !u.is_empty())
        .ok_or(AuditRowError::NoRequestUuid)?;
    let phase = text(obj, "phase")?.ok_or(AuditRowError::NoPhase)?;
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

type Field<T> = Result<T, AuditRowError>;

fn text(obj: &Map<String, Value>, key: &'static str) -> Field<Option<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(AuditRowError::NotString {
            key,
            value: other.clone(),
        }),
    }
}

fn int(obj: &Map<String, Value>, key: &'static str) -> Field<Option<i64>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_i64()
            .map(Some)
            .ok_or_else(|| AuditRowError::NotInteger {
                key,
                value: v.clone(),
            }),
    }
}

fn time(obj: &Map<String, Value>, key: &'static str) -> Field<Option<DateTime<Utc>>> {
    match text(obj, key)? {
        None => Ok(None),
        Some(s) if s.is_empty() => Ok(None),
        Some(s) => match parse_rfc3339(&s) {
            Some(t) => Ok(Some(t)),
            None => Err(AuditRowError::NotTime { key, text: s }),
        },
    }
}

fn strings(obj: &Map<String, Value>, key: &'static str) -> Field<Vec<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or(AuditRowError::NonStringItem { key })
            })
            .collect(),
        Some(other) => Err(AuditRowError::NotList {
            key,
            value: other.clone(),
        }),
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
        assert!(h.skipped[0].why.to_string().contains("startedAt"));
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
