//! Navigation: moving the selection, paging, switching views, opening and closing details,
//! scoping the Nodes view to a pool, the map full-size or not (the rows themselves are
//! `rows`'s, a new feed `feed`'s, sorting and the column layout `sort`'s).
//!
//! Owns: `viewport`, `step`, `jump`, `switch_view`, `cycle_view`, `open`, `open_detail`,
//! `toggle_moves_group`, `back`, `toggle_map`. Plain data.

use crate::app::detail::DetailKind;
use crate::app::layout::screen;
use crate::app::query::map::map_shown_full;
use crate::app::state::{AppState, View};
use crate::app::update::groups;
use crate::app::update::rows::{ensure_built, rearrange_moves, refresh_view};
use crate::app::views::context::ViewContext;
use crate::app::views::detail::build_detail;

/// Rows the current list (table, tree or detail) shows at once.
pub fn viewport(state: &AppState) -> usize {
    if map_shown_full(state) {
        return state.views.pool_map.page.max(1);
    }
    let s = screen(state);
    if state.views.detail.is_some() {
        usize::from(s.body.height.saturating_sub(2)).max(1)
    } else if state.views.view == View::Gangs {
        usize::from(s.table.height.saturating_sub(2)).max(1)
    } else {
        s.table_rows().max(1)
    }
}

/// Moves the selection (or the detail scroll) by `delta` lines.
pub fn step(state: &mut AppState, delta: isize) {
    if map_shown_full(state) {
        state.views.pool_map.select_lines(delta);
        return;
    }
    let height = viewport(state);
    if let Some(d) = &state.views.detail {
        // The last line stops at the pane's bottom, not its top.
        let max = d.lines.len().saturating_sub(height);
        state.views.detail_scroll = state
            .views
            .detail_scroll
            .saturating_add_signed(delta)
            .min(max);
        return;
    }
    if state.views.view == View::Gangs {
        let pos = state.views.gang_nav.cursor.saturating_add_signed(delta);
        state.views.gang_nav.select(pos, height);
        return;
    }
    let view = state.views.view;
    let Some(model) = state.views.models.table(view) else {
        return;
    };
    let t = &mut state.views.tables[view.index()];
    let pos = t.selected.saturating_add_signed(delta);
    t.select(model, pos, height);
}

/// Jumps to the first (`false`) or last (`true`) line.
pub fn jump(state: &mut AppState, last: bool) {
    step(state, if last { isize::MAX / 2 } else { isize::MIN / 2 });
}

/// Shows `view` (closing any detail; entering Moves takes its order anew).
pub fn switch_view(state: &mut AppState, view: View) {
    state.views.view = view;
    if view == View::Moves {
        rearrange_moves(state);
    }
    ensure_built(state, view);
    state.views.detail = None;
    state.views.detail_scroll = 0;
    refresh_view(state, view);
}

/// `next-view` (`forward`) or `prev-view`: the next tab (the Fleet tab is there only while a
/// fleet is watched).
pub fn cycle_view(state: &mut AppState, forward: bool) {
    let views: Vec<View> = View::ALL
        .into_iter()
        .filter(|v| state.clusters.fleet.is_some() || *v != View::Fleet)
        .collect();
    let n = views.len();
    let d = if forward { 1 } else { n - 1 };
    let at = views
        .iter()
        .position(|v| *v == state.views.view)
        .unwrap_or(0);
    state.views.pool_scope = None;
    switch_view(state, views[(at + d) % n]);
}

/// Enter: Pools → that pool's nodes; Nodes/Moves/Journal/Lints → detail; Gangs → expand/collapse.
pub fn open(state: &mut AppState) {
    if state.views.detail.is_some() {
        return;
    }
    if map_shown_full(state) {
        if let Some(node) = crate::app::query::map::selected_node(state) {
            open_detail(state, DetailKind::Node(node));
        }
        return;
    }
    let key = state.views.models.table(state.views.view).and_then(|m| {
        Some(
            m.rows
                .get(state.table(state.views.view).selected_row()?)?
                .key
                .clone(),
        )
    });
    match (state.views.view, key) {
        (View::Pools, Some(pool)) => {
            state.views.pool_scope = Some(pool);
            switch_view(state, View::Nodes);
        }
        (View::Nodes, Some(node)) => open_detail(state, DetailKind::Node(node)),
        (View::Moves, Some(_)) if groups::selected_group(state).is_some() => {
            toggle_moves_group(state)
        }
        (View::Moves, Some(m)) => open_detail(state, DetailKind::Move(m)),
        (View::Journal, Some(uuid)) => open_detail(state, DetailKind::Journal(uuid)),
        (View::Lints, Some(key)) => open_detail(state, DetailKind::Lint(key)),
        (View::Gangs, _) => {
            let height = viewport(state);
            state
                .views
                .gang_nav
                .toggle(&state.views.models.gangs, height);
        }
        _ => {}
    }
}

/// Opens or closes the advisory group under the Moves selection (see `groups::toggle_group`).
pub fn toggle_moves_group(state: &mut AppState) {
    if groups::toggle_group(state) {
        refresh_view(state, View::Moves);
    }
}

/// Opens the detail pane of `kind`, scrolled to its top.
pub fn open_detail(state: &mut AppState, kind: DetailKind) {
    state.views.detail_scroll = 0;
    state.history.node_history = None;
    state.history.node_actions = None;
    state.views.detail = state
        .shown()
        .cloned()
        .and_then(|f| build_detail(&ViewContext::of(state), &f, &kind));
}

/// Esc: close the detail, else drop the pool scope, else clear the filter. Returns whether
/// anything changed.
pub fn back(state: &mut AppState) -> bool {
    if state.views.detail.take().is_some() {
        state.history.node_history = None;
        state.history.node_actions = None;
        refresh_view(state, state.views.view);
        return true;
    }
    if map_shown_full(state) {
        toggle_map(state);
        return true;
    }
    if state.views.view == View::Nodes && state.views.pool_scope.take().is_some() {
        refresh_view(state, View::Nodes);
        return true;
    }
    let t = &mut state.views.tables[state.views.view.index()];
    if t.filter.is_active() {
        t.filter = Default::default();
        refresh_view(state, state.views.view);
        return true;
    }
    false
}

/// `pool-map`: the selected pool's map full-size, or back to the table with the map below.
pub fn toggle_map(state: &mut AppState) {
    state.views.pool_map.full = !state.views.pool_map.full;
    refresh_view(state, View::Pools);
}
