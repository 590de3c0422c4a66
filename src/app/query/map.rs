//! What the Pools view's full-size map shows selected: whether it is shown, its selected
//! node, and whether `cordon-node` acts on that node here.
//!
//! Owns: `selected_node`, `map_shown_full`, `cordons_here`. Plain functions of the state.

use crate::action::Action;
use crate::app::state::{AppState, View};

/// The node of the full-size map's selected cell (Enter opens its detail; Esc comes back).
pub fn selected_node(state: &AppState) -> Option<String> {
    let nav = &state.views.pool_map;
    nav.selected_cell()
        .zip(nav.pool.and_then(|p| state.views.models.pool_maps.get(p)))
        .and_then(|(cell, map)| map.names.get(cell).cloned())
}

/// Whether the Pools view shows the map full-size (moving keys then move its selected cell).
pub fn map_shown_full(state: &AppState) -> bool {
    state.views.view == View::Pools && state.views.pool_map.full && state.views.detail.is_none()
}

/// Whether `action` cordons the full-size map's selected node here (the Nodes view's write,
/// offered on the map so that an unhealthy node still taking pods is cordoned where it shows).
pub fn cordons_here(state: &AppState, action: Action) -> bool {
    action == Action::CordonNode && map_shown_full(state)
}
