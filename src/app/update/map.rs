//! Keeps the Pools view's map layout in step with the state after every event; the full-size
//! map's selection moved sideways, its node opened or cordoned (the usual confirm dialog of
//! `ops::start_cordon_at`).

use crate::action::Action;
use crate::app::layout::screen;
use crate::app::model::map::layout::cell_area;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::ops;

/// Brings the Pools view's map layout up to date with the state (the reducer calls it after
/// every event; it costs a comparison when nothing it depends on changed).
pub fn sync_map(state: &mut AppState) {
    if state.view != View::Pools {
        return;
    }
    let cells = cell_area(screen(state).map);
    let pool = state.selected_source(View::Pools);
    let generation = state.models.built[View::Pools.index()];
    state
        .pool_map
        .sync(&state.models.pool_maps, generation, pool, cells);
}

/// `left` / `right` on the full-size map: the selection moves one cell along the pool's order;
/// `false` (nothing to do) elsewhere.
pub fn select_sideways(state: &mut AppState, delta: isize) -> bool {
    if !map_shown_full(state) {
        return false;
    }
    let cells = state
        .pool_map
        .pool
        .and_then(|p| state.models.pool_maps.get(p))
        .map_or(0, |m| m.cells.len());
    state.pool_map.select_cells(delta, cells);
    true
}

/// The node of the full-size map's selected cell (Enter opens its detail; Esc comes back).
pub fn selected_node(state: &AppState) -> Option<String> {
    let nav = &state.pool_map;
    nav.selected_cell()
        .zip(nav.pool.and_then(|p| state.models.pool_maps.get(p)))
        .and_then(|(cell, map)| map.names.get(cell).cloned())
}

/// Whether the Pools view shows the map full-size (moving keys then move its selected cell).
pub fn map_shown_full(state: &AppState) -> bool {
    state.view == View::Pools && state.pool_map.full && state.detail.is_none()
}

/// Whether `action` cordons the full-size map's selected node here (the Nodes view's write,
/// offered on the map so that an unhealthy node still taking pods is cordoned where it shows).
pub fn cordons_here(state: &AppState, action: Action) -> bool {
    action == Action::CordonNode && map_shown_full(state)
}

/// `cordon-node` on the full-size map: the confirm dialog of cordoning its selected node.
pub fn cordon_selected(state: &mut AppState) {
    let node = selected_node(state).and_then(|name| {
        let feed = state.shown()?;
        feed.snapshot.nodes.iter().position(|n| *n.name == *name)
    });
    match node {
        Some(i) => ops::start_cordon_at(state, i, true),
        None => state.notices.push(
            "cordon: no node selected on the map",
            NoticeLevel::Error,
            state.now,
        ),
    }
}
