//! Keeps the Pools view's map layout in step with the state after every event; the full-size
//! map's selection moved sideways, its node opened or cordoned (the usual confirm dialog of
//! `ops::start_cordon_at`).

use crate::app::layout::screen;
use crate::app::model::map::layout::cell_area;
use crate::app::query::map::{map_shown_full, selected_node};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::ops;

/// Brings the Pools view's map layout up to date with the state (the reducer calls it after
/// every event; it costs a comparison when nothing it depends on changed).
pub fn sync_map(state: &mut AppState) {
    if state.views.view != View::Pools {
        return;
    }
    let cells = cell_area(screen(state).map);
    let pool = state.selected_source(View::Pools);
    let generation = state.views.models.built[View::Pools.index()];
    state
        .views
        .pool_map
        .sync(&state.views.models.pool_maps, generation, pool, cells);
}

/// `left` / `right` on the full-size map: the selection moves one cell along the pool's order;
/// `false` (nothing to do) elsewhere.
pub fn select_sideways(state: &mut AppState, delta: isize) -> bool {
    if !map_shown_full(state) {
        return false;
    }
    let cells = state
        .views
        .pool_map
        .pool
        .and_then(|p| state.views.models.pool_maps.get(p))
        .map_or(0, |m| m.cells.len());
    state.views.pool_map.select_cells(delta, cells);
    true
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
            state.session.now,
        ),
    }
}
