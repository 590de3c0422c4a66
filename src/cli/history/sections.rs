//! What `ome-top history` reads for each cluster: a node's rows, episodes and audit rows, an
//! object's audit rows, or every node's episodes with the health answers, after the filters.
//!
//! Owns: `Query`, `ClusterSection`, `Section`, `NodeEpisodes`. Reads the store; no clock.

use anyhow::Result;
use chrono::Duration;

use crate::action::Action;
use crate::cli::history::{Filters, Target};
use crate::engine::model::Time;
use crate::engine::timeline::{
    episodes, name_cordons, nodes_health, CordonNote, Episode, EpisodeKind, NodesHealth,
};
use crate::history::audit::{AuditEntry, AuditResult};
use crate::history::query::TransitionRow;
use crate::history::{ClusterKey, HistoryStore};

/// One node's episodes in one cluster (after the filters).
pub(super) struct NodeEpisodes {
    pub(super) node: String,
    pub(super) pool: Option<String>,
    pub(super) episodes: Vec<Episode>,
}

/// What one cluster says: when it was last observed, the time open episodes last until
/// (the later of now and that: a demo's world runs ahead of the wall clock), and per mode.
pub(super) struct ClusterSection {
    pub(super) cluster: ClusterKey,
    pub(super) seen: Option<Time>,
    pub(super) until: Time,
    pub(super) section: Section,
}

/// What one cluster says, per mode.
pub(super) enum Section {
    Node {
        episodes: Vec<Episode>,
        transitions: Vec<TransitionRow>,
        audit: Vec<AuditEntry>,
    },
    Object {
        audit: Vec<AuditEntry>,
    },
    AllNodes {
        nodes: Vec<NodeEpisodes>,
        health: Box<NodesHealth>,
    },
}

/// The store, what to read and the filters.
pub(super) struct Query<'a> {
    pub(super) store: &'a HistoryStore,
    pub(super) target: &'a Target,
    pub(super) filters: &'a Filters,
    pub(super) now: Time,
    /// The health window's length (ending at the cluster's time) and the flap threshold.
    pub(super) window: (Duration, usize),
}

impl Query<'_> {
    /// One section per cluster with anything to show, sorted by key.
    pub(super) fn sections(&self, only: Option<ClusterKey>) -> Result<Vec<ClusterSection>> {
        let clusters = match only {
            Some(c) => vec![c],
            None => self.store.clusters()?,
        };
        let mut out = Vec::new();
        for cluster in clusters {
            let seen = self.store.seen(&cluster)?;
            let until = seen.map_or(self.now, |s| s.max(self.now));
            if let Some(section) = self.section(&cluster, until)? {
                out.push(ClusterSection {
                    cluster,
                    seen,
                    until,
                    section,
                });
            }
        }
        Ok(out)
    }

    fn section(&self, cluster: &ClusterKey, now: Time) -> Result<Option<Section>> {
        let f = self.filters;
        Ok(match self.target {
            Target::Node(node) => {
                let transitions = self.store.node_timeline(cluster, node)?;
                let audit = self.store.audit_for(cluster, "Node", None, node)?;
                if transitions.is_empty() && audit.is_empty() {
                    return Ok(None);
                }
                let mut episodes = episodes(&transitions, now);
                name_cordons(&mut episodes, &cordon_notes(&audit));
                episodes.retain(|e| f.episode(e));
                let audit = audit.into_iter().filter(|a| f.audit(a)).collect();
                Some(Section::Node {
                    episodes,
                    transitions,
                    audit,
                })
            }
            Target::Object {
                kind,
                namespace,
                name,
            } => {
                let audit = self
                    .store
                    .audit_for(cluster, kind, namespace.as_deref(), name)?;
                let audit: Vec<_> = audit.into_iter().filter(|a| f.audit(a)).collect();
                (!audit.is_empty()).then_some(Section::Object { audit })
            }
            Target::AllNodes => self.all_nodes(cluster, now)?,
        })
    }

    fn all_nodes(&self, cluster: &ClusterKey, now: Time) -> Result<Option<Section>> {
        let f = self.filters;
        let mut rows = self.store.cluster_rows(cluster, None)?;
        rows.retain(|n| f.pool.is_none() || n.pool == f.pool);
        if rows.is_empty() {
            return Ok(None);
        }
        let (window, threshold) = self.window;
        let input = rows
            .iter()
            .map(|n| (n.node.as_str(), n.pool.as_deref(), n.rows.as_slice()));
        let health = nodes_health(input, now - window, now, threshold);
        let mut nodes = Vec::new();
        for n in rows {
            let mut eps = episodes(&n.rows, now);
            if eps.iter().any(|e| e.kind == EpisodeKind::Cordoned) {
                let audit = self.store.audit_for(cluster, "Node", None, &n.node)?;
                name_cordons(&mut eps, &cordon_notes(&audit));
            }
            eps.retain(|e| f.episode(e));
            if !eps.is_empty() {
                nodes.push(NodeEpisodes {
                    node: n.node,
                    pool: n.pool,
                    episodes: eps,
                });
            }
        }
        Ok(Some(Section::AllNodes {
            nodes,
            health: Box::new(health),
        }))
    }
}

/// The cordons and uncordons of `audit` that were written, with the reason the operator gave.
fn cordon_notes(audit: &[AuditEntry]) -> Vec<CordonNote> {
    let cordon = Action::CordonNode.name();
    let uncordon = Action::UncordonNode.name();
    audit
        .iter()
        .filter(|a| a.result == AuditResult::Done)
        .filter(|a| a.action == cordon || a.action == uncordon)
        .filter_map(|a| {
            Some(CordonNote {
                at: a.at,
                cordon: a.action == cordon,
                reason: a.reason.clone()?,
            })
        })
        .collect()
}
