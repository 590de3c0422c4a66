//! Alfred's dispatch journal (ConfigMap `alfred-dispatch-state`, key `state.json`, alfred.md §2):
//! the typed model, the strict reader with Alfred's rules (§2.1), and the phase vocabulary (§2.2).
//! Field rules live in `fields`/`entry`, errors in `error`, "unresolved"/blocking in `blocking`,
//! clearing checks in `clearing`, the edit in `edit`.
//!
//! Pure: no I/O, no clock.

mod blocking;
mod clearing;
mod edit;
mod entry;
mod error;
mod facts;
mod fields;
#[cfg(test)]
pub(crate) mod fixtures;
mod snapshot;

pub use blocking::{blocking_state, journal_unavailable_message, Blocking};
pub use clearing::{CheckResult, ClearingDecision, ClearingVerdict};
pub use edit::{remove_entry_checked, EditError};
pub use snapshot::stalled_verdicts;

use crate::engine::formats::strict_json::{parse_strict, StrictValue};
use crate::engine::journal::entry::entry_from_value;
use crate::engine::journal::error::{brief, invalid, wrong};
use crate::engine::journal::fields::{fields, opt_time};
use crate::engine::migration::Component;
use chrono::{DateTime, Utc};
use std::collections::HashMap;
use std::fmt;

pub use crate::engine::journal::error::JournalError;

/// Largest `state.json` Alfred reads, in bytes (512 KiB).
pub const JOURNAL_MAX_BYTES: usize = 512 * 1024;
/// Most entries Alfred accepts in one journal.
pub const JOURNAL_MAX_ENTRIES: usize = 256;
/// Largest `payload` (the annotation JSON), in bytes.
pub const PAYLOAD_MAX_BYTES: usize = 4096;
/// The value the chart writes when it creates the ConfigMap.
pub const INITIAL_STATE_JSON: &str = r#"{"version":"v1","entries":[]}"#;

/// A strictly valid journal. Invariants (guaranteed by [`parse_journal`]): `version == "v1"`,
/// `entries.len() <= 256`, entry UUIDs unique (ASCII case-insensitively), each entry valid.
#[derive(Debug, Clone, PartialEq)]
pub struct Journal {
    /// Always `"v1"`.
    pub version: String,
    /// Entries in document order.
    pub entries: Vec<JournalEntry>,
    /// While `now < backoff_until` Alfred withholds every move (`FailureBackoff`).
    pub backoff_until: Option<DateTime<Utc>>,
}

/// The InferenceService a request targets (Go `NamespacedName`: wire keys `Namespace`/`Name`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Workload {
    /// Non-empty namespace.
    pub namespace: String,
    /// Non-empty InferenceService name.
    pub name: String,
}

/// One request Alfred recorded. Invariants: `uuid` has 8-4-4-4-12 hex syntax; required strings
/// are non-empty; `instance >= 0`; `payload` ≤ 4096 bytes; `last_attempt`/`acknowledged_at` ≥
/// `created_at`; `completed_at` is `Some` (and ≥ `created_at`) iff `phase` is terminal.
#[derive(Debug, Clone, PartialEq)]
pub struct JournalEntry {
    /// Request UUID (also the annotation key suffix).
    pub uuid: String,
    /// Target InferenceService.
    pub workload: Workload,
    /// `metadata.uid` of the InferenceService when the request was made.
    pub workload_uid: String,
    /// InferenceReplica name.
    pub ir_name: String,
    /// `metadata.uid` of the InferenceReplica.
    pub ir_uid: String,
    /// Component of the moved Instance.
    pub component: Component,
    /// Instance index, ≥ 0.
    pub instance: i32,
    /// Source node.
    pub from_node: String,
    /// Simulated target nodes (Alfred writes them sorted; order kept as read).
    pub targets: Vec<String>,
    /// The exact annotation JSON written (or to be written).
    pub payload: String,
    /// `sha256 hex` or (E3) `semantic-v1:<hex>`; not otherwise interpreted.
    pub source_fingerprint: String,
    /// When the entry was prepared (equals the annotation's `requested_at`).
    pub created_at: DateTime<Utc>,
    /// Last submission attempt.
    pub last_attempt: Option<DateTime<Utc>>,
    /// When the consumer was first seen working on it.
    pub acknowledged_at: Option<DateTime<Utc>>,
    /// Set iff the phase is terminal.
    pub completed_at: Option<DateTime<Utc>>,
    /// Lifecycle phase.
    pub phase: Phase,
    /// Why the entry is in its phase; `None` when absent, null or empty.
    pub reason: Option<String>,
}

/// The six journal phases (§2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Intent recorded; annotation not known to be written.
    Prepared,
    /// Annotation observed/written.
    Submitted,
    /// IR status row active (Accepted/SurgePending/SurgeReady/Draining).
    Acknowledged,
    /// IR row `Completed` (terminal).
    Completed,
    /// IR row `Failed` (terminal).
    Failed,
    /// No progress; never resolves by timeout.
    Stalled,
}

impl Phase {
    /// All phases in lifecycle order.
    pub const ALL: [Phase; 6] = [
        Phase::Prepared,
        Phase::Submitted,
        Phase::Acknowledged,
        Phase::Completed,
        Phase::Failed,
        Phase::Stalled,
    ];

    /// The wire value (`"prepared"`, ...).
    pub fn as_str(self) -> &'static str {
        match self {
            Phase::Prepared => "prepared",
            Phase::Submitted => "submitted",
            Phase::Acknowledged => "acknowledged",
            Phase::Completed => "completed",
            Phase::Failed => "failed",
            Phase::Stalled => "stalled",
        }
    }

    /// Parses an exact (case-sensitive) wire value.
    pub fn parse(s: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.as_str() == s)
    }

    /// The label operators see (§2.2 "Shown as"): `prepared` is shown as `withheld`.
    pub fn shown_as(self) -> &'static str {
        match self {
            Phase::Prepared => "withheld",
            other => other.as_str(),
        }
    }

    /// `completed` or `failed`.
    pub fn is_terminal(self) -> bool {
        matches!(self, Phase::Completed | Phase::Failed)
    }

    /// Not terminal (§2.3): prepared, submitted, acknowledged, stalled.
    pub fn is_unresolved(self) -> bool {
        !self.is_terminal()
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl JournalEntry {
    /// Unresolved iff not terminal (§2.3). A parsed terminal entry always has `completed_at`.
    pub fn is_unresolved(&self) -> bool {
        self.phase.is_unresolved()
    }
}

/// Root members of `state.json`, in canonical spelling.
const JOURNAL_FIELDS: [&str; 3] = ["version", "entries", "backoffUntil"];

/// Reads `state.json` with Alfred's strict rules (§2.1). Total on arbitrary bytes.
///
/// Member names match fields case-insensitively like Go (`"UUID"` is `uuid`); two members that
/// fold to the same name are rejected. `null` in an optional member counts as absent (Go leaves
/// the field unset); `null` where a value is required (`entries`, `instance`, `createdAt`, ...)
/// is rejected.
pub fn parse_journal(input: &[u8]) -> Result<Journal, JournalError> {
    if input.len() > JOURNAL_MAX_BYTES {
        return Err(JournalError::TooLarge { size: input.len() });
    }
    let root = parse_strict(input).map_err(JournalError::Json)?;
    let [version, entries, backoff] = fields("", &root, &JOURNAL_FIELDS)?;
    let version = match version {
        None => {
            return Err(JournalError::Missing {
                path: "version".into(),
            })
        }
        Some(StrictValue::String(v)) if v == "v1" => v.clone(),
        Some(other) => {
            return Err(invalid(
                "version",
                format!("must be \"v1\", found {}", brief(other)),
            ))
        }
    };
    let items = match entries {
        None => {
            return Err(JournalError::Missing {
                path: "entries".into(),
            })
        }
        Some(StrictValue::Array(items)) => items,
        Some(other) => return Err(wrong("entries", "an array", other)),
    };
    if items.len() > JOURNAL_MAX_ENTRIES {
        return Err(JournalError::TooManyEntries { count: items.len() });
    }
    let backoff_until = opt_time("backoffUntil", backoff)?;
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut parsed = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let path = format!("entries[{i}]");
        let entry = entry_from_value(&path, item)?;
        if let Some(&first_index) = seen.get(&entry.uuid.to_ascii_lowercase()) {
            let (path, uuid) = (format!("{path}.uuid"), entry.uuid);
            return Err(JournalError::DuplicateUuid {
                path,
                uuid,
                first_index,
            });
        }
        seen.insert(entry.uuid.to_ascii_lowercase(), i);
        parsed.push(entry);
    }
    Ok(Journal {
        version,
        entries: parsed,
        backoff_until,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::fixtures as fx;
    use chrono::TimeZone;

    #[test]
    fn initial_value_parses() {
        let j = parse_journal(INITIAL_STATE_JSON.as_bytes()).unwrap();
        assert_eq!(
            j,
            Journal {
                version: "v1".into(),
                entries: vec![],
                backoff_until: None
            }
        );
    }

    #[test]
    fn full_journal_one_entry_per_phase() {
        let j = parse_journal(fx::full().as_bytes()).unwrap();
        let phases: Vec<Phase> = j.entries.iter().map(|e| e.phase).collect();
        assert_eq!(phases, Phase::ALL);
        assert_eq!(
            j.backoff_until,
            Some(Utc.with_ymd_and_hms(2026, 9, 28, 10, 30, 0).unwrap())
        );
        let done = &j.entries[3];
        assert_eq!(done.uuid, fx::uuid(3));
        assert_eq!(
            done.workload,
            Workload {
                namespace: "prod".into(),
                name: "chat".into()
            }
        );
        assert_eq!((done.component, done.instance), (Component::Engine, 3));
        assert_eq!(done.targets, ["gpu-c", "gpu-d"]);
        assert_eq!(done.payload, fx::PAYLOAD);
        assert_eq!(done.created_at.timestamp_subsec_nanos(), 418_093_721);
        let completed = Utc.with_ymd_and_hms(2026, 9, 28, 10, 25, 0).unwrap();
        assert_eq!(
            done.completed_at,
            Some(completed + chrono::TimeDelta::milliseconds(500))
        );
        assert_eq!(done.reason.as_deref(), Some("TerminalStatusObserved"));
        assert!(j.entries[0].completed_at.is_none());
    }

    #[test]
    fn phase_vocabulary() {
        let shown: Vec<&str> = Phase::ALL.iter().map(|p| p.shown_as()).collect();
        let want = [
            "withheld",
            "submitted",
            "acknowledged",
            "completed",
            "failed",
            "stalled",
        ];
        assert_eq!(shown, want);
        let unresolved: Vec<bool> = Phase::ALL.iter().map(|p| p.is_unresolved()).collect();
        assert_eq!(unresolved, [true, true, true, false, false, true]);
        assert_eq!(Phase::parse("Stalled"), None);
        assert!(Phase::ALL
            .iter()
            .all(|p| Phase::parse(p.as_str()) == Some(*p)));
    }
}
