//! Reading the store: a node's transitions and the audit rows about it per cluster, every
//! node's rows of a cluster from a time on, and the health questions asked of them.
//!
//! Owns: `TransitionRow`, `NodeHistory`, `NodeRows`, `node_timeline`, `node_history`,
//! `cluster_rows`, `nodes_health`. Reads no clock.

use crate::history::error::{Context, Result};

use crate::engine::model::Time;
use crate::engine::timeline::{nodes_health, NodesHealth};
use crate::history::audit::AuditEntry;
use crate::history::node_rows::{observation_from_row, OBSERVATION_COLUMNS};
use crate::history::{from_ms, to_ms, ClusterKey, HistoryStore};

/// One recorded transition: from `at` on, the node was observed as `observed`.
pub use crate::engine::timeline::Observed as TransitionRow;

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

/// One node's rows of a cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeRows {
    /// Node name.
    pub node: String,
    /// The pool of its latest row that names one.
    pub pool: Option<String>,
    /// Its rows, oldest first.
    pub rows: Vec<TransitionRow>,
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

    /// Every node's rows of `cluster` from `since` on, each with the last row before `since`
    /// (the state the node was in then), nodes by name; every row when `since` is `None`.
    pub fn cluster_rows(&self, cluster: &ClusterKey, since: Option<Time>) -> Result<Vec<NodeRows>> {
        let Some(id) = self.cluster_id(cluster, false)? else {
            return Ok(Vec::new());
        };
        let cutoff = since.map_or(i64::MIN, to_ms);
        let mut stmt = self.conn.prepare_cached(&format!(
            "SELECT node, at_ms, {OBSERVATION_COLUMNS} FROM node_transitions \
             WHERE cluster_id = ?1 AND (at_ms >= ?2 OR id IN (SELECT id FROM (SELECT id, \
             row_number() OVER (PARTITION BY node ORDER BY at_ms DESC, id DESC) AS rank \
             FROM node_transitions WHERE cluster_id = ?1 AND at_ms < ?2) WHERE rank = 1)) \
             ORDER BY node, at_ms, id"
        ))?;
        let rows = stmt.query_map(rusqlite::params![id, cutoff], |r| {
            let row = TransitionRow {
                at: from_ms(r.get(1)?)?,
                observed: observation_from_row(r, 2)?,
            };
            Ok((r.get::<_, String>(0)?, row))
        })?;
        let mut out: Vec<NodeRows> = Vec::new();
        for row in rows {
            let (node, row) = row.context("reading the cluster's transitions")?;
            match out.last_mut() {
                Some(last) if last.node == node => last.rows.push(row),
                _ => out.push(NodeRows {
                    node,
                    pool: None,
                    rows: vec![row],
                }),
            }
        }
        for n in &mut out {
            n.pool = n.rows.iter().rev().find_map(|r| r.observed.pool.clone());
        }
        Ok(out)
    }

    /// The health questions for `cluster` over `[from, now]`: flapping nodes (more than
    /// `threshold` health episodes) and the mean time to repair per pool
    /// (`engine::timeline::nodes_health`).
    pub fn nodes_health(
        &self,
        cluster: &ClusterKey,
        from: Time,
        now: Time,
        threshold: usize,
    ) -> Result<NodesHealth> {
        let nodes = self.cluster_rows(cluster, Some(from))?;
        let input = nodes
            .iter()
            .map(|n| (n.node.as_str(), n.pool.as_deref(), n.rows.as_slice()));
        Ok(nodes_health(input, from, now, threshold))
    }
}
