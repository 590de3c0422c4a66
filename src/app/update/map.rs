//! Keeps the Pools view's map layout in step with the state after every event.

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
