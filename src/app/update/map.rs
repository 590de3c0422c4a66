//! Keeps the Pools view's map layout in step with the state after every event; the full-size
//! map's selection moved sideways and its node opened.

use crate::app::detail::DetailKind;
use crate::app::layout::screen;
use crate::app::model::map::layout::cell_area;
use crate::app::state::{AppState, View};
use crate::app::update::nav::{map_shown_full, open_detail};

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

/// Enter on the full-size map: the selected cell's node detail (Esc comes back to the map).
pub fn open_selected_node(state: &mut AppState) {
    let nav = &state.pool_map;
    let name = nav
        .selected_cell()
        .zip(nav.pool.and_then(|p| state.models.pool_maps.get(p)))
        .and_then(|(cell, map)| map.names.get(cell).cloned());
    if let Some(name) = name {
        open_detail(state, DetailKind::Node(name));
    }
}
