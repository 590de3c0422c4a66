//! What the client observed about one stalled journal entry, as input to the clearing checks
//! (alfred.md §2.4): each read is `Present`, `Absent` (a successful read found nothing) or
//! `Unreadable` (the read failed, which proves nothing).
//!
//! Pure.

use crate::engine::migration::AuditHistory;
use crate::engine::model::MigrationPhase;

/// What one read of the cluster established.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fact<T> {
    /// The read succeeded and the thing exists.
    Present(T),
    /// The read succeeded and the thing does not exist (e.g. HTTP 404).
    Absent,
    /// The read failed (error text): proves nothing either way.
    Unreadable(String),
}

/// A migration row for the request (audit history or IR status).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RowSeen {
    /// Its phase, verbatim (`Started`, `Draining`, `Completed`, ...).
    pub phase: String,
    /// True iff the phase is terminal (audit `Completed`/`Failed`; IR `Completed`/`Failed`).
    pub ended: bool,
}

impl RowSeen {
    /// An IR `status.migrations[]` row in `phase`: ended iff `Completed`/`Failed` (or `Relocated`,
    /// the terminal phase of Auto rows, which never carry an Alfred uuid but end all the same).
    pub fn ir_status(phase: &MigrationPhase) -> RowSeen {
        RowSeen {
            phase: phase.as_str().to_owned(),
            ended: phase.is_terminal(),
        }
    }
}

/// What the client observed for one stalled entry. Conventions the caller must follow: an
/// object that a successful read did not find is `Absent`; anything a failed read would have
/// told is `Unreadable`; facts about a parent that is `Absent` are `Absent` (no ISVC ⇒ no
/// annotation; no audit ConfigMap ⇒ no history row; no IR ⇒ no status row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearingFacts {
    /// GET of the InferenceService `entry.workload`: `Present(metadata.uid)`.
    pub isvc: Fact<String>,
    /// GET of the InferenceReplica `entry.ir_name`: `Present(metadata.uid)`.
    pub replica: Fact<String>,
    /// Annotation `ome.io/migration-request-v1-<uuid>` on the InferenceService.
    pub request_annotation: Fact<()>,
    /// Row for the uuid in `<isvc>-ome-migration-audit` / `history.json`.
    pub history_row: Fact<RowSeen>,
    /// Row for the uuid in IR `status.migrations[]` (terminal = `Completed`/`Failed`).
    pub status_row: Fact<RowSeen>,
}

/// The history-row fact for `uuid` from a successfully read audit ConfigMap (an ended row wins
/// over a running one). A missing ConfigMap is `Fact::Absent`; a failed read is `Unreadable`.
pub fn history_fact(history: &AuditHistory, uuid: &str) -> Fact<RowSeen> {
    let rows: Vec<_> = history.rows_for(uuid).collect();
    let pick = rows.iter().find(|r| r.phase.is_ended()).or(rows.last());
    match pick {
        Some(r) => Fact::Present(RowSeen {
            phase: r.phase.as_str().to_owned(),
            ended: r.phase.is_ended(),
        }),
        None => Fact::Absent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::migration::parse_audit_history;

    fn row(phase: &str, ended: bool) -> Fact<RowSeen> {
        Fact::Present(RowSeen {
            phase: phase.into(),
            ended,
        })
    }

    #[test]
    fn history_fact_prefers_an_ended_row() {
        let doc = concat!(
            r#"{"entries":[{"requestUUID":"u","phase":"Completed"},"#,
            r#"{"requestUUID":"u","phase":"Started"}]}"#
        );
        let h = parse_audit_history(doc).unwrap();
        assert_eq!(history_fact(&h, "u"), row("Completed", true));
        assert_eq!(history_fact(&h, "v"), Fact::Absent);
    }

    #[test]
    fn ir_status_rows() {
        let seen = |phase: &str| RowSeen::ir_status(&MigrationPhase::from_wire(phase));
        assert!(seen("Completed").ended && seen("Failed").ended && seen("Relocated").ended);
        for active in [
            "Accepted",
            "SurgePending",
            "SurgeReady",
            "Draining",
            "Unknown",
        ] {
            assert!(!seen(active).ended, "{active}");
            assert_eq!(seen(active).phase, active);
        }
    }
}
