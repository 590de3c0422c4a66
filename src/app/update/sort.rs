//! Sorting and the column layout a list view shows: `s` (next column), `S` (reverse),
//! Shift+letter (the column it starts), each keeping the selection on the same row and on
//! screen (from an advisory group's row, onto the first of its moves); and `w`, the wide or
//! compact layout of every table, which says on the notice line what it changed here.
//!
//! Owns: `sort_next`, `sort_by_column`, `sort_reverse`, `toggle_wide`. Plain data.

use crate::app::query::columns::shown_here;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::groups;
use crate::app::update::nav::viewport;
use crate::app::update::rows::{rearrange_moves, refresh_view};

/// `sort-next`: engine order → first shown column → next shown column … → engine order
/// (the columns this terminal's width does not show are skipped: no order by something
/// unseen).
pub fn sort_next(state: &mut AppState) {
    let view = state.views.view;
    let Some(model) = state.views.models.table(view) else {
        return;
    };
    let t = &state.views.tables[view.index()];
    let on_screen = shown_here(state, t.wide);
    let shown = |c: &usize| on_screen.contains(c);
    let after = t.sort.map_or(0, |(c, _)| c + 1);
    let next = (after..model.columns.len()).find(shown);
    let t = &mut state.views.tables[view.index()];
    t.sort = match (t.sort, next) {
        (_, None) => None,
        (None, Some(c)) => Some((c, false)),
        (Some((_, d)), Some(c)) => Some((c, d)),
    };
    resort(state);
}

/// Shift+letter: sorts by `col` (`query::columns::letter_column`; text ascending, numbers
/// largest first); the same column again reverses.
pub fn sort_by_column(state: &mut AppState, col: usize) {
    let view = state.views.view;
    let Some(model) = state.views.models.table(view) else {
        return;
    };
    let Some(numeric) = model.columns.get(col).map(|c| c.numeric) else {
        return;
    };
    let t = &mut state.views.tables[view.index()];
    t.sort = match t.sort {
        Some((c, d)) if c == col => Some((c, !d)),
        _ => Some((col, numeric)),
    };
    resort(state);
}

/// `toggle-wide`: every table switches between the compact and the wide layout, and the notice
/// line says what that changed here; the Gangs tree has no columns to widen and says so.
pub fn toggle_wide(state: &mut AppState) {
    if state.views.view == View::Gangs {
        let text = "the Gangs tree has no columns to widen: w widens the other views' tables";
        state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
        return;
    }
    let wide = !state.views.tables[state.views.view.index()].wide;
    let text = wide_words(state, wide);
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
    for v in View::ALL {
        let hidden = |c: usize| {
            state
                .views
                .models
                .table(v)
                .and_then(|m| m.columns.get(c))
                .is_some_and(|col| col.wide_only)
        };
        // A sort on a column the compact layout hides would order rows by something unseen.
        let unseen = !wide
            && state.views.tables[v.index()]
                .sort
                .is_some_and(|(c, _)| hidden(c));
        let t = &mut state.views.tables[v.index()];
        t.wide = wide;
        if unseen {
            t.sort = None;
        }
    }
    refresh_view(state, state.views.view);
}

/// What switching the current view to the `wide` layout (or back) changes, in words: the
/// wide-only columns it shows (or hides), and those this terminal is too narrow for.
fn wide_words(state: &AppState, wide: bool) -> String {
    let Some(model) = state.views.models.table(state.views.view) else {
        return String::new();
    };
    let shown = shown_here(state, true);
    let titles = |fits: bool| -> Vec<&str> {
        (model.columns.iter().enumerate())
            .filter(|(i, c)| c.wide_only && shown.contains(i) == fits)
            .map(|(_, c)| c.title)
            .collect()
    };
    let (fit, narrow) = (titles(true), titles(false));
    let mut text = match (wide, fit.is_empty()) {
        (true, true) => "wide columns: long text uncut".to_string(),
        (true, false) => format!("wide columns: {} shown, long text uncut", fit.join(", ")),
        (false, true) => "compact columns: long text cut to fit".to_string(),
        (false, false) => format!("compact columns: {} hidden, long text cut", fit.join(", ")),
    };
    if wide && !narrow.is_empty() {
        text.push_str(&format!(" ({} need a wider terminal)", narrow.join(", ")));
    }
    text
}

/// `sort-reverse`: flips the direction (sorting by the first column if unsorted).
pub fn sort_reverse(state: &mut AppState) {
    let t = &mut state.views.tables[state.views.view.index()];
    t.sort = Some(t.sort.map_or((0, true), |(c, d)| (c, !d)));
    resort(state);
}

/// Puts the current view's rows in the order just set, the selection on the same row and on
/// screen; from an advisory group's row (the sorted Moves list has none) onto the first of its
/// moves in the new order.
fn resort(state: &mut AppState) {
    let view = state.views.view;
    let members = (view == View::Moves)
        .then(|| groups::selected_group_moves(state))
        .flatten();
    if view == View::Moves {
        rearrange_moves(state);
    }
    refresh_view(state, view);
    let (Some(members), Some(model)) = (members, state.views.models.table(view)) else {
        return;
    };
    let height = viewport(state);
    let t = &mut state.views.tables[view.index()];
    let first = t
        .visible
        .iter()
        .position(|i| members.contains(&model.rows[*i].key));
    if let Some(pos) = first {
        t.select(model, pos, height);
    }
}
