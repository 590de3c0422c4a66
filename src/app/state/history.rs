//! What the history store and the session's own record answer: score history per pool, the
//! open node's health history and recorded operator actions, the health answers behind the
//! Nodes view's columns, and the demo run the store records under.
//!
//! Owns: `HistoryState`, `NodeAction`, `HealthTransition`, `SCORE_HISTORY`. Plain data.

use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

use crate::engine::model::Time;

/// Score samples kept per pool for the sparkline.
pub const SCORE_HISTORY: usize = 120;

/// One health transition from the history store (filled in when the store is plugged in):
/// when ome-top observed the node and what it observed.
pub type HealthTransition = crate::engine::timeline::Observed;

/// An operator action on a node as the history store's audit log recorded it, for the node
/// detail (the reason the operator wrote included).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeAction {
    /// When it ended.
    pub at: Time,
    /// Who.
    pub actor: String,
    /// The action's name (`cordon-node`).
    pub action: String,
    /// How it ended (`done`, `conflict`, `refused`, `failed`).
    pub result: String,
    /// The reason the operator wrote, if any.
    pub reason: Option<String>,
    /// What changed or why not.
    pub message: String,
}

/// History answers the views show.
#[derive(Debug, Clone, Default)]
pub struct HistoryState {
    /// Score history per pool, in thousandths (0..=1000), oldest first, ≤ `SCORE_HISTORY`.
    pub(in crate::app) score_history: BTreeMap<String, VecDeque<u64>>,
    /// The selected node's health history from the local store (`None` = store not plugged).
    pub(in crate::app) node_history: Option<Vec<HealthTransition>>,
    /// The open node's recorded operator actions (`None` = not read, or store not plugged).
    pub(in crate::app) node_actions: Option<Vec<NodeAction>>,
    /// The health answers from the history store (flaps per node, repair time per pool) for
    /// the Nodes view's columns (`None` = store not plugged).
    pub(in crate::app) nodes_health: Option<Arc<crate::engine::timeline::NodesHealth>>,
    /// The start of the demo run the history store records under (`None` elsewhere): the
    /// node detail's timeline says which run it shows.
    pub(in crate::app) history_run_started: Option<Time>,
}
