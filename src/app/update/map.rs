//! Keeps the Pools view's map layout in step with the state after every event; the full-size
//! map's selection moved sideways and its node opened.

use crate::app::layout::screen;
use crate::app::model::map::layout::cell_area;
use crate::app::state::{AppState, View};

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
