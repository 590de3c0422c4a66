//! The audit log: one row per operator action (product.md §5, §6): who, what, on which
//! object, resourceVersion before and after, result and time, and what the operator overrode
//! to confirm it, and the reason they wrote.
//!
//! Owns: `AuditEntry`, `ObjectRef`, `AuditResult`, `record_audit`, `audit_for_object`, `audit_for`.
//! Reads no clock.

use crate::history::error::{Context, ErrorKind, Result};
use rusqlite::Row;

use crate::engine::model::Time;
use crate::history::{from_ms, to_ms, ClusterKey, HistoryStore};

/// The object an action wrote (or tried to write).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ObjectRef {
    /// Kubernetes kind, e.g. `Node`, `InferenceService`, `ConfigMap`.
    pub kind: String,
    /// Namespace; `""` for cluster-scoped objects.
    pub namespace: String,
    /// Object name.
    pub name: String,
}

impl ObjectRef {
    /// A Node (cluster-scoped).
    pub fn node(name: &str) -> Self {
        ObjectRef {
            kind: "Node".into(),
            namespace: String::new(),
            name: name.into(),
        }
    }

    /// `Kind/name` or `Kind ns/name`, as printed.
    pub fn display(&self) -> String {
        if self.namespace.is_empty() {
            format!("{}/{}", self.kind, self.name)
        } else {
            format!("{} {}/{}", self.kind, self.namespace, self.name)
        }
    }
}

/// How an action ended (mirrors `protocol::OpOutcome`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AuditResult {
    /// Written.
    Done,
    /// The object changed since the operator looked; nothing written.
    Conflict,
    /// Refused before sending (read-only, RBAC, a failed check); nothing written.
    Refused,
    /// The request failed; nothing known to be written.
    Failed,
    /// A value written by another version of ome-top, kept verbatim.
    Other(String),
}

impl AuditResult {
    /// The stored word: `done`, `conflict`, `refused`, `failed` or the kept value.
    pub fn as_str(&self) -> &str {
        match self {
            AuditResult::Done => "done",
            AuditResult::Conflict => "conflict",
            AuditResult::Refused => "refused",
            AuditResult::Failed => "failed",
            AuditResult::Other(s) => s,
        }
    }

    /// Parses a stored word; unknown words are kept as `Other`.
    pub fn parse(s: &str) -> Self {
        match s {
            "done" => AuditResult::Done,
            "conflict" => AuditResult::Conflict,
            "refused" => AuditResult::Refused,
            "failed" => AuditResult::Failed,
            other => AuditResult::Other(other.to_owned()),
        }
    }
}

/// One audit row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AuditEntry {
    /// When the action ended.
    pub at: Time,
    /// Who: the user name from SelfSubjectReview (`demo` or similar outside a cluster).
    pub actor: String,
    /// The action's kebab-case name (`crate::action::Action`), e.g. `cordon-node`.
    pub action: String,
    /// The object written.
    pub object: ObjectRef,
    /// The resourceVersion the operator saw, if any.
    pub rv_before: Option<String>,
    /// The resourceVersion after the write, if it happened and is known.
    pub rv_after: Option<String>,
    /// How it ended.
    pub result: AuditResult,
    /// One line: what changed or why not.
    pub message: String,
    /// What the operator explicitly overrode to confirm it (failed checks or ome-top's verdict
    /// as reason strings, e.g. `NoSurgeHeadroom`); `None` when nothing was.
    pub overrode: Option<String>,
    /// The reason the operator wrote when confirming it (trimmed, never empty); `None` when
    /// none was asked or given.
    pub reason: Option<String>,
}

/// Columns read by `entry_from_row`, in order.
const AUDIT_COLUMNS: &str = "at_ms, actor, action, object_kind, object_namespace, object_name, \
                             rv_before, rv_after, result, message, overrode, reason";

fn entry_from_row(r: &Row<'_>) -> rusqlite::Result<AuditEntry> {
    Ok(AuditEntry {
        at: from_ms(r.get(0)?)?,
        actor: r.get(1)?,
        action: r.get(2)?,
        object: ObjectRef {
            kind: r.get(3)?,
            namespace: r.get(4)?,
            name: r.get(5)?,
        },
        rv_before: r.get(6)?,
        rv_after: r.get(7)?,
        result: AuditResult::parse(&r.get::<_, String>(8)?),
        message: r.get(9)?,
        overrode: r.get(10)?,
        reason: r.get(11)?,
    })
}

/// Inserts one audit row (inside the caller's transaction, if any).
pub(crate) fn insert_audit(
    conn: &rusqlite::Connection,
    cluster_id: i64,
    e: &AuditEntry,
) -> Result<()> {
    conn.execute(
        &format!(
            "INSERT INTO audit_log (cluster_id, {AUDIT_COLUMNS}) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13)"
        ),
        rusqlite::params![
            cluster_id,
            to_ms(e.at),
            e.actor,
            e.action,
            e.object.kind,
            e.object.namespace,
            e.object.name,
            e.rv_before,
            e.rv_after,
            e.result.as_str(),
            e.message,
            e.overrode,
            e.reason,
        ],
    )
    .context("recording an audit row")?;
    Ok(())
}

impl HistoryStore {
    /// Appends `entry` to `cluster`'s audit log.
    pub fn record_audit(&mut self, cluster: &ClusterKey, entry: &AuditEntry) -> Result<()> {
        let id = self
            .cluster_id(cluster, true)?
            .ok_or(ErrorKind::ClusterVanished)?;
        let tx = self.write_transaction()?;
        insert_audit(&tx, id, entry)?;
        tx.commit().context("committing an audit row")
    }

    /// `cluster`'s audit rows about the object `kind`/`name` (any namespace), oldest first.
    pub fn audit_for_object(
        &self,
        cluster: &ClusterKey,
        kind: &str,
        name: &str,
    ) -> Result<Vec<AuditEntry>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE cluster_id = ?1 AND object_kind = ?2 \
             AND object_name = ?3 ORDER BY at_ms, id"
        ))?;
        let rows = stmt.query_map(rusqlite::params![id, kind, name], entry_from_row)?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .context("reading audit rows")
    }

    /// `cluster`'s audit rows about objects of `kind` (any case: `configmap` finds
    /// `ConfigMap`) named `name`, only in `namespace` when given, oldest first.
    pub fn audit_for(
        &self,
        cluster: &ClusterKey,
        kind: &str,
        namespace: Option<&str>,
        name: &str,
    ) -> Result<Vec<AuditEntry>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE cluster_id = ?1 \
             AND object_kind = ?2 COLLATE NOCASE AND object_name = ?3 \
             AND (?4 IS NULL OR object_namespace = ?4) ORDER BY at_ms, id"
        ))?;
        let rows = stmt.query_map(rusqlite::params![id, kind, name, namespace], entry_from_row)?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .context("reading audit rows")
    }

    /// `cluster`'s most recent `limit` audit rows, newest first.
    pub fn recent_audit(&self, cluster: &ClusterKey, limit: usize) -> Result<Vec<AuditEntry>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT {AUDIT_COLUMNS} FROM audit_log WHERE cluster_id = ?1 \
             ORDER BY at_ms DESC, id DESC LIMIT ?2"
        ))?;
        let limit = i64::try_from(limit).unwrap_or(i64::MAX);
        let rows = stmt.query_map(rusqlite::params![id, limit], entry_from_row)?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .context("reading audit rows")
    }
}
