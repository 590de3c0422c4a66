//! Navigation: moving the selection, paging, switching views, opening and closing details,
//! scoping the Nodes view to a pool, freezing, and taking in a new feed (sorting and the
//! column layout are `sort`'s).
//!
//! Owns: `viewport`, `step`, `jump`, `switch_view`, `open`, `back`, `refresh_view`, `apply_feed`,
//! `rebuild_detail`, `rearrange_moves`, `toggle_freeze`, `toggle_map`. Plain data.

use std::sync::Arc;

use crate::app::detail::DetailKind;
use crate::app::layout::screen;
use crate::app::model::fleet::fleet_model;
use crate::app::namespace;
use crate::app::query::map::map_shown_full;
use crate::app::state::{AppState, View, SCORE_HISTORY};
use crate::app::table::RowModel;
use crate::app::update::groups;
use crate::app::update::order;
use crate::app::views::build_view;
use crate::app::views::context::ViewContext;
use crate::app::views::detail::{build_detail, gone_words};
use crate::app::views::moves::MoveOptions;
use crate::app::views::nodes::NODE_POOL_COLUMN;
use crate::protocol::Feed;

/// Rows the current list (table, tree or detail) shows at once.
pub fn viewport(state: &AppState) -> usize {
    if map_shown_full(state) {
        return state.pool_map.page.max(1);
    }
    let s = screen(state);
    if state.detail.is_some() {
        usize::from(s.body.height.saturating_sub(2)).max(1)
    } else if state.view == View::Gangs {
        usize::from(s.table.height.saturating_sub(2)).max(1)
    } else {
        s.table_rows().max(1)
    }
}

/// Recomputes the visible rows of `view` (filter, sort, pool and namespace scope, selection by
/// key).
pub fn refresh_view(state: &mut AppState, view: View) {
    let height = viewport(state);
    if view == View::Gangs {
        state.gang_nav.refresh(&state.models.gangs, height);
        return;
    }
    if view == View::Moves {
        groups::reshape(state);
    }
    let pool = match (view, &state.pool_scope) {
        (View::Nodes, Some(p)) => Some(p.as_str()),
        _ => None,
    };
    let feed = state.shown().cloned();
    // The Moves rows are built for the scope (its groups count its moves only).
    let ns = state
        .namespace_scope
        .as_deref()
        .filter(|_| namespace::applies(view) && view != View::Moves);
    let Some(model) = state.models.table(view) else {
        return;
    };
    let in_scope = |row: &RowModel| {
        let pool_ok =
            pool.is_none_or(|p| row.cells.get(NODE_POOL_COLUMN).is_some_and(|c| c.text == p));
        let ns_ok = ns.is_none_or(|ns| {
            feed.as_ref()
                .and_then(|f| namespace::row_namespace(&f.analysis, view, row.source))
                == Some(ns)
        });
        pool_ok && ns_ok
    };
    let t = &mut state.tables[view.index()];
    t.refresh(model, in_scope);
    t.scroll_into_view(height);
}

/// Moves the selection (or the detail scroll) by `delta` lines.
pub fn step(state: &mut AppState, delta: isize) {
    if map_shown_full(state) {
        state.pool_map.select_lines(delta);
        return;
    }
    let height = viewport(state);
    if let Some(d) = &state.detail {
        // The last line stops at the pane's bottom, not its top.
        let max = d.lines.len().saturating_sub(height);
        state.detail_scroll = state.detail_scroll.saturating_add_signed(delta).min(max);
        return;
    }
    if state.view == View::Gangs {
        let pos = state.gang_nav.cursor.saturating_add_signed(delta);
        state.gang_nav.select(pos, height);
        return;
    }
    let view = state.view;
    let Some(model) = state.models.table(view) else {
        return;
    };
    let t = &mut state.tables[view.index()];
    let pos = t.selected.saturating_add_signed(delta);
    t.select(model, pos, height);
}

/// Jumps to the first (`false`) or last (`true`) line.
pub fn jump(state: &mut AppState, last: bool) {
    step(state, if last { isize::MAX / 2 } else { isize::MIN / 2 });
}

/// Builds `view`'s rows if they are older than the shown feed (the Fleet view's: than the
/// fleet).
fn ensure_built(state: &mut AppState, view: View) {
    if view == View::Fleet {
        if let Some(fleet) = &state.fleet {
            if state.models.fleet.built != fleet.generation {
                state.models.fleet = fleet_model(fleet, state.now);
            }
        }
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    if state.models.built[view.index()] != Some(feed.generation) {
        let opts = MoveOptions {
            now: state.now,
            dismissed: &state.dismissed,
            open: &state.moves_open,
            flat: groups::wants_flat(&state.tables[View::Moves.index()]),
            wide: groups::wants_wide(state.size),
            requested: &state.requested,
            phases: &state.request_phases,
            namespace: state.namespace_scope.as_deref(),
        };
        let ns = state.namespace_scope.as_deref();
        build_view(&mut state.models, &feed, &opts, view, ns);
        if view == View::Moves {
            order::hold_order(state);
        }
        if let (View::Nodes, Some(health)) = (view, &state.nodes_health) {
            let a = &feed.analysis;
            crate::app::views::nodes::add_history_columns(&mut state.models.nodes, a, health);
        }
    }
}

/// The operator asks for a new order of the Moves rows: the engine's, marks cleared.
pub fn rearrange_moves(state: &mut AppState) {
    order::release_order(state);
    state.models.built[View::Moves.index()] = None;
    if state.view == View::Moves {
        ensure_built(state, View::Moves);
    }
}

/// Builds `view`'s rows when stale and recomputes what it shows, the selection kept by key
/// (a new fleet state while the Fleet view is shown).
pub fn switch_rows(state: &mut AppState, view: View) {
    let before = state.table(view).selected_key.clone();
    ensure_built(state, view);
    refresh_view(state, view);
    if state.view == view {
        crate::app::update::slid::after_feed(state, view, before);
    }
}

/// Shows `view` (closing any detail; entering Moves takes its order anew).
pub fn switch_view(state: &mut AppState, view: View) {
    state.view = view;
    if view == View::Moves {
        rearrange_moves(state);
    }
    ensure_built(state, view);
    state.detail = None;
    state.detail_scroll = 0;
    refresh_view(state, view);
}

/// `next-view` (`forward`) or `prev-view`: the next tab (the Fleet tab is there only while a
/// fleet is watched).
pub fn cycle_view(state: &mut AppState, forward: bool) {
    let views: Vec<View> = View::ALL
        .into_iter()
        .filter(|v| state.fleet.is_some() || *v != View::Fleet)
        .collect();
    let n = views.len();
    let d = if forward { 1 } else { n - 1 };
    let at = views.iter().position(|v| *v == state.view).unwrap_or(0);
    state.pool_scope = None;
    switch_view(state, views[(at + d) % n]);
}

/// Enter: Pools → that pool's nodes; Nodes/Moves/Journal/Lints → detail; Gangs → expand/collapse.
pub fn open(state: &mut AppState) {
    if state.detail.is_some() {
        return;
    }
    if map_shown_full(state) {
        if let Some(node) = crate::app::query::map::selected_node(state) {
            open_detail(state, DetailKind::Node(node));
        }
        return;
    }
    let key = state.models.table(state.view).and_then(|m| {
        Some(
            m.rows
                .get(state.table(state.view).selected_row()?)?
                .key
                .clone(),
        )
    });
    match (state.view, key) {
        (View::Pools, Some(pool)) => {
            state.pool_scope = Some(pool);
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
            state.gang_nav.toggle(&state.models.gangs, height);
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
    state.detail_scroll = 0;
    state.node_history = None;
    state.node_actions = None;
    state.detail = state
        .shown()
        .cloned()
        .and_then(|f| build_detail(&ViewContext::of(state), &f, &kind));
}

/// Rebuilds the open detail from the shown feed; when its object is gone the pane stays open
/// on what it showed last, marked (it never closes or jumps by itself).
pub fn rebuild_detail(state: &mut AppState) {
    let Some(kind) = state.detail.as_ref().map(|d| d.kind.clone()) else {
        return;
    };
    let fresh = state
        .shown()
        .cloned()
        .and_then(|f| build_detail(&ViewContext::of(state), &f, &kind));
    state.detail = match fresh {
        Some(d) => Some(d),
        None => {
            let why = gone_words(&state.requested, &state.request_phases, &kind);
            state.detail.take().map(|d| d.gone(&why))
        }
    };
}

/// Esc: close the detail, else drop the pool scope, else clear the filter. Returns whether
/// anything changed.
pub fn back(state: &mut AppState) -> bool {
    if state.detail.take().is_some() {
        state.node_history = None;
        state.node_actions = None;
        refresh_view(state, state.view);
        return true;
    }
    if map_shown_full(state) {
        toggle_map(state);
        return true;
    }
    if state.view == View::Nodes && state.pool_scope.take().is_some() {
        refresh_view(state, View::Nodes);
        return true;
    }
    let t = &mut state.tables[state.view.index()];
    if t.filter.is_active() {
        t.filter = Default::default();
        refresh_view(state, state.view);
        return true;
    }
    false
}

/// `pool-map`: the selected pool's map full-size, or back to the table with the map below.
pub fn toggle_map(state: &mut AppState) {
    state.pool_map.full = !state.pool_map.full;
    refresh_view(state, View::Pools);
}

/// `freeze`: keep showing the current feed while new ones keep arriving.
pub fn toggle_freeze(state: &mut AppState) {
    if state.frozen.take().is_none() {
        state.frozen = state.latest.clone();
    } else {
        rebuild_models(state);
    }
}

/// Marks every view's rows stale and rebuilds the current view's (others are rebuilt when
/// shown: a feed costs one view's rows, not six).
pub fn rebuild_models(state: &mut AppState) {
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    state.models.generation = Some(feed.generation);
    state.models.built = [None; View::COUNT];
    ensure_built(state, state.view);
    refresh_view(state, state.view);
    rebuild_detail(state);
}

/// Takes in a new feed: record the score history, and unless frozen rebuild the rows.
pub fn apply_feed(state: &mut AppState, feed: Arc<Feed>) {
    let new_generation = state
        .latest
        .as_ref()
        .is_none_or(|f| f.generation != feed.generation);
    if new_generation {
        for p in &feed.analysis.pools {
            let h = state.score_history.entry(p.name.clone()).or_default();
            h.push_back((p.score.clamp(0.0, 1.0) * 1000.0).round() as u64);
            while h.len() > SCORE_HISTORY {
                h.pop_front();
            }
        }
    }
    state.latest = Some(feed);
    if state.frozen.is_none() {
        let view = state.view;
        let before = state.table(view).selected_key.clone();
        rebuild_models(state);
        crate::app::update::slid::after_feed(state, view, before);
        crate::app::update::track::track_requests(state);
    }
}
