//! Dismissed recommendations (product.md §6 "Reject a move → dismiss"): local, with a reason,
//! audited, and hiding the recommendation only until its content changes.
//!
//! Owns: `RecommendationKey`, `Dismissal`, `content_hash`, the `dismissals` table. Reads no clock.

use crate::history::error::{Context, ErrorKind, Result};
use rusqlite::OptionalExtension;

use crate::engine::model::Time;
use crate::engine::planning::MoveRow;
use crate::history::audit::{insert_audit, AuditEntry, AuditResult, ObjectRef};
use crate::history::{from_ms, to_ms, ClusterKey, HistoryStore};

/// The audit action name of a dismissal (the `reject-move` action's local choice).
pub const DISMISS_ACTION: &str = "reject-move";
/// The audit action of a dismissal undone.
pub const UNDISMISS_ACTION: &str = "undo-dismissal";

/// Which recommendation: one row per (workload, component, Instance).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecommendationKey {
    /// `ns/name` of the InferenceService.
    pub workload: String,
    /// `engine`, `decoder` or `router`.
    pub component: String,
    /// Instance index, −1 for component-wide rows.
    pub instance: i64,
}

impl RecommendationKey {
    /// The key of a move row.
    pub fn of_move(row: &MoveRow) -> Self {
        RecommendationKey {
            workload: row.workload.to_string(),
            component: row.component.to_string(),
            instance: row.instance,
        }
    }
}

/// One dismissal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dismissal {
    /// The recommendation dismissed.
    pub key: RecommendationKey,
    /// `content_hash` of the recommendation when dismissed.
    pub content_hash: String,
    /// The operator's reason (may be empty).
    pub reason: String,
    /// Who dismissed it.
    pub actor: String,
    /// When.
    pub at: Time,
}

/// A stable 64-bit FNV-1a hash of `fields` (separated so `["ab","c"]` ≠ `["a","bc"]`), as 16
/// lowercase hex digits. Stable across builds and platforms, unlike `std`'s hasher.
pub fn content_hash(fields: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for field in fields {
        for b in field.bytes().chain(std::iter::once(0x1f)) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

impl HistoryStore {
    /// Records `dismissal` for `cluster` (replacing an earlier one of the same key) and its
    /// audit row, in one transaction.
    pub fn dismiss(&mut self, cluster: &ClusterKey, dismissal: &Dismissal) -> Result<()> {
        let id = self
            .cluster_id(cluster, true)?
            .ok_or(ErrorKind::ClusterVanished)?;
        let tx = self.write_transaction()?;
        let k = &dismissal.key;
        tx.execute(
            "INSERT INTO dismissals (cluster_id, workload, component, instance, content_hash, \
             reason, actor, at_ms) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
             ON CONFLICT (cluster_id, workload, component, instance) DO UPDATE SET \
             content_hash = excluded.content_hash, reason = excluded.reason, \
             actor = excluded.actor, at_ms = excluded.at_ms",
            rusqlite::params![
                id,
                k.workload,
                k.component,
                k.instance,
                dismissal.content_hash,
                dismissal.reason,
                dismissal.actor,
                to_ms(dismissal.at)
            ],
        )
        .context("recording a dismissal")?;
        let reason = Some(dismissal.reason.trim())
            .filter(|r| !r.is_empty())
            .map(str::to_string);
        let message = format!(
            "dismissed {} instance {} locally: {}",
            k.component, k.instance, dismissal.reason
        );
        let mut audit = local_audit(k, &dismissal.actor, dismissal.at, DISMISS_ACTION, message);
        audit.reason = reason;
        insert_audit(&tx, id, &audit)?;
        tx.commit().context("committing a dismissal")
    }

    /// Whether the recommendation `key` with content `hash` is hidden: dismissed with exactly
    /// this hash (a changed recommendation shows again).
    pub fn is_dismissed(
        &self,
        cluster: &ClusterKey,
        key: &RecommendationKey,
        hash: &str,
    ) -> Result<bool> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(false);
        };
        let stored: Option<String> = self
            .conn
            .query_row(
                "SELECT content_hash FROM dismissals WHERE cluster_id = ?1 AND workload = ?2 \
                 AND component = ?3 AND instance = ?4",
                rusqlite::params![id, key.workload, key.component, key.instance],
                |r| r.get(0),
            )
            .optional()
            .context("reading a dismissal")?;
        Ok(stored.as_deref() == Some(hash))
    }

    /// Every dismissal of `cluster`, sorted by key (for filtering a whole list at once).
    pub fn dismissals(&self, cluster: &ClusterKey) -> Result<Vec<Dismissal>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare_cached(
            "SELECT workload, component, instance, content_hash, reason, actor, at_ms \
             FROM dismissals WHERE cluster_id = ?1 ORDER BY workload, component, instance",
        )?;
        let rows = stmt.query_map([id], |r| {
            Ok(Dismissal {
                key: RecommendationKey {
                    workload: r.get(0)?,
                    component: r.get(1)?,
                    instance: r.get(2)?,
                },
                content_hash: r.get(3)?,
                reason: r.get(4)?,
                actor: r.get(5)?,
                at: from_ms(r.get(6)?)?,
            })
        })?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .context("reading dismissals")
    }

    /// Forgets the dismissal of `key` (the recommendation shows again) and, when one existed,
    /// writes its audit row (`actor` undid it at `at`), in one transaction. Returns whether
    /// one existed.
    pub fn undismiss(
        &mut self,
        cluster: &ClusterKey,
        key: &RecommendationKey,
        actor: &str,
        at: Time,
    ) -> Result<bool> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(false);
        };
        let tx = self.write_transaction()?;
        let n = tx
            .execute(
                "DELETE FROM dismissals WHERE cluster_id = ?1 AND workload = ?2 AND \
                 component = ?3 AND instance = ?4",
                rusqlite::params![id, key.workload, key.component, key.instance],
            )
            .context("removing a dismissal")?;
        if n > 0 {
            let message = format!(
                "dismissal of {} instance {} undone: the move shows again",
                key.component, key.instance
            );
            let audit = local_audit(key, actor, at, UNDISMISS_ACTION, message);
            insert_audit(&tx, id, &audit)?;
        }
        tx.commit().context("committing an undone dismissal")?;
        Ok(n > 0)
    }
}

/// The audit row of a local decision on the recommendation `key` (no cluster write: no
/// resourceVersions), recorded on its InferenceService.
fn local_audit(
    key: &RecommendationKey,
    actor: &str,
    at: Time,
    action: &str,
    message: String,
) -> AuditEntry {
    let (namespace, name) = key.workload.split_once('/').unwrap_or(("", &key.workload));
    AuditEntry {
        at,
        actor: actor.to_string(),
        action: action.into(),
        object: ObjectRef {
            kind: "InferenceService".into(),
            namespace: namespace.into(),
            name: name.into(),
        },
        rv_before: None,
        rv_after: None,
        result: AuditResult::Done,
        message,
        overrode: None,
        reason: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_hash_is_stable_and_separates_fields() {
        // FNV-1a 64 of the empty input is its offset basis; one field adds the separator.
        assert_eq!(content_hash(&[]), "cbf29ce484222325");
        assert_ne!(content_hash(&["ab", "c"]), content_hash(&["a", "bc"]));
        assert_eq!(content_hash(&["x", "y"]), content_hash(&["x", "y"]));
    }
}
