//! Reading a node's history: its transitions and the audit rows about it, per cluster.
//!
//! Owns: `TransitionRow`, `NodeHistory`, `node_timeline`, `node_history`. Must not import
//! `app`, `ui`, `cluster`, `tokio`, `kube` or `ratatui`; reads no clock.

use anyhow::{Context, Result};

use crate::engine::model::Time;
use crate::history::audit::AuditEntry;
use crate::history::node_rows::{observation_from_row, OBSERVATION_COLUMNS};
use crate::history::transitions::NodeObservation;
use crate::history::{from_ms, ClusterKey, HistoryStore};

/// One recorded transition: from `at` on, the node was observed as `observed`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TransitionRow {
    /// Observation time of the change.
    pub at: Time,
    /// The node's state from then on.
    pub observed: NodeObservation,
}

/// A node's history in one cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeHistory {
    /// The cluster.
    pub cluster: ClusterKey,
    /// Transitions, oldest first.
    pub transitions: Vec<TransitionRow>,
    /// Audit rows about the Node object, oldest first.
    pub audit: Vec<AuditEntry>,
}

impl HistoryStore {
    /// `node`'s transitions in `cluster`, oldest first (empty for an unknown cluster or node).
    pub fn node_timeline(&self, cluster: &ClusterKey, node: &str) -> Result<Vec<TransitionRow>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT at_ms, {OBSERVATION_COLUMNS} FROM node_transitions \
             WHERE cluster_id = ?1 AND node = ?2 ORDER BY at_ms, id"
        ))?;
        let rows = stmt.query_map(rusqlite::params![id, node], |r| {
            Ok(TransitionRow {
                at: from_ms(r.get(0)?)?,
                observed: observation_from_row(r, 1)?,
            })
        })?;
        rows.collect::<rusqlite::Result<Vec<_>>>()
            .context("reading a node's transitions")
    }

    /// `node`'s history in `cluster`, or in every cluster that has rows about it (sorted by
    /// key) when `cluster` is `None`. Clusters without any row about the node are left out.
    pub fn node_history(
        &self,
        cluster: Option<&ClusterKey>,
        node: &str,
    ) -> Result<Vec<NodeHistory>> {
        let clusters = match cluster {
            Some(c) => vec![c.clone()],
            None => self.clusters()?,
        };
        let mut out = Vec::new();
        for cluster in clusters {
            let transitions = self.node_timeline(&cluster, node)?;
            let audit = self.audit_for_object(&cluster, "Node", node)?;
            if !transitions.is_empty() || !audit.is_empty() {
                out.push(NodeHistory {
                    cluster,
                    transitions,
                    audit,
                });
            }
        }
        Ok(out)
    }
}
