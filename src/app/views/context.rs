//! What the detail panes read besides the feed: the time and zone, the pane's width, the
//! shown rows, this session's requests and the history store's answers. Borrowed from the
//! state for one build, so a view reads only these, never the whole state.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::FixedOffset;

use crate::action::Action;
use crate::app::keys::{key_label, Mode};
use crate::app::model::moves::RequestedMove;
use crate::app::state::{AppState, HealthTransition, Models, NodeAction};
use crate::engine::model::{MigrationPhase, Time};
use crate::engine::timeline::NodesHealth;

/// The state's read-only parts a detail pane is built from.
#[derive(Clone)]
pub struct ViewContext<'a> {
    /// The reducer's time.
    pub now: Time,
    /// The operator's time zone for shown times.
    pub utc_offset: FixedOffset,
    /// Terminal size (columns, rows).
    pub size: (u16, u16),
    /// The shown rows (a pane finds its object by row key).
    pub models: &'a Models,
    /// Requests written this session.
    pub requested: &'a Vec<RequestedMove>,
    /// Their last seen IR phases.
    pub phases: &'a HashMap<String, MigrationPhase>,
    /// The selected node's health history (`None` = store not plugged).
    pub node_history: &'a Option<Vec<HealthTransition>>,
    /// The selected node's recorded operator actions (`None` = not read or no store).
    pub node_actions: &'a Option<Vec<NodeAction>>,
    /// The health answers from the history store (`None` = store not plugged).
    pub nodes_health: &'a Option<Arc<NodesHealth>>,
    /// The start of the demo run the history store records under (`None` elsewhere).
    pub history_run_started: Option<Time>,
    /// The key that jumps to a node's health timeline in the shown view, if one is bound.
    pub timeline_key: Option<String>,
    /// The key that approves an unblock plan's moves one by one, if one is bound.
    pub plan_key: Option<String>,
    /// The what-if shown, computed when asked (`app::model::pending`).
    pub what_if: Option<&'a crate::app::model::pending::WhatIfShown>,
}

impl<'a> ViewContext<'a> {
    /// Borrows what the panes read from `state`.
    pub fn of(state: &'a AppState) -> Self {
        ViewContext {
            now: state.now(),
            utc_offset: state.settings.utc_offset,
            size: state.size(),
            models: state.models(),
            requested: state.requested(),
            phases: state.request_phases(),
            node_history: state.node_history(),
            node_actions: state.node_actions(),
            nodes_health: state.nodes_health(),
            history_run_started: state.history.history_run_started,
            timeline_key: detail_key(state, Action::NodeTimeline),
            plan_key: detail_key(state, Action::ApprovePlan),
            what_if: state.views.pending_nav.what_if.as_ref(),
        }
    }
}

/// The first key the detail pane's table binds to `action`.
pub fn detail_key(state: &AppState, action: Action) -> Option<String> {
    (state.settings.keys.bindings(Mode::Detail).into_iter())
        .find(|b| b.action == action)
        .map(|b| key_label(&b.keys))
}
