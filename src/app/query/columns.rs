//! Which columns of the current view this terminal shows, and which one a Shift+letter sorts
//! by: input asks before it answers a key, the reducer when it sorts.
//!
//! Owns: `shown_here`, `letter_column`. Plain functions of the state.

use crate::app::layout::screen;
use crate::app::state::AppState;
use crate::app::table::columns::visible_columns;

/// The columns of the current view shown at this terminal's width in the `wide` layout or not.
pub fn shown_here(state: &AppState, wide: bool) -> Vec<usize> {
    let room = screen(state).table.width.saturating_sub(3);
    state
        .views
        .models
        .table(state.views.view)
        .map(|m| visible_columns(&m.columns, wide, room))
        .unwrap_or_default()
}

/// The first shown column of the current view whose title starts with `letter` (`None`: no
/// column starts with it, or the view has no columns).
pub fn letter_column(state: &AppState, letter: char) -> Option<usize> {
    let model = state.views.models.table(state.views.view)?;
    let starts = |title: &str| {
        title
            .chars()
            .find(|c| c.is_alphanumeric())
            .is_some_and(|c| c.eq_ignore_ascii_case(&letter))
    };
    let on_screen = shown_here(state, state.table(state.views.view).wide);
    (0..model.columns.len()).find(|c| on_screen.contains(c) && starts(model.columns[*c].title))
}
