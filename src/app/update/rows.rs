//! The views' rows kept up to date: built once per feed for the view shown (others when
//! shown), the visible rows recomputed after a filter, sort or scope change with the selection
//! kept by key, the open detail rebuilt from the shown feed.
//!
//! Owns: `refresh_view`, `ensure_built`, `switch_rows`, `rearrange_moves`, `rebuild_models`, `rebuild_detail`.
//! Plain data.

use crate::app::model::fleet::fleet_model;
use crate::app::namespace;
use crate::app::state::{AppState, View};
use crate::app::table::RowModel;
use crate::app::update::groups;
use crate::app::update::nav::viewport;
use crate::app::update::order;
use crate::app::views::build_view;
use crate::app::views::context::ViewContext;
use crate::app::views::detail::{build_detail, gone_words};
use crate::app::views::moves::MoveOptions;
use crate::app::views::nodes::NODE_POOL_COLUMN;

/// Recomputes the visible rows of `view` (filter, sort, pool and namespace scope, selection by
/// key).
pub fn refresh_view(state: &mut AppState, view: View) {
    let height = viewport(state);
    if view == View::Gangs {
        state
            .views
            .gang_nav
            .refresh(&state.views.models.gangs, height);
        return;
    }
    if view == View::Moves {
        groups::reshape(state);
    }
    let pool = match (view, &state.views.pool_scope) {
        (View::Nodes, Some(p)) => Some(p.as_str()),
        _ => None,
    };
    let feed = state.shown().cloned();
    // The Moves rows are built for the scope (its groups count its moves only).
    let ns = state
        .views
        .namespace_scope
        .as_deref()
        .filter(|_| namespace::applies(view) && view != View::Moves);
    let Some(model) = state.views.models.table(view) else {
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
    let t = &mut state.views.tables[view.index()];
    t.refresh(model, in_scope);
    t.scroll_into_view(height);
}

/// Builds `view`'s rows if they are older than the shown feed (the Fleet view's: than the
/// fleet).
pub fn ensure_built(state: &mut AppState, view: View) {
    if view == View::Fleet {
        if let Some(fleet) = &state.clusters.fleet {
            if state.views.models.fleet.built != fleet.generation {
                state.views.models.fleet = fleet_model(fleet, state.session.now);
            }
        }
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    if state.views.models.built[view.index()] != Some(feed.generation) {
        let opts = MoveOptions {
            now: state.session.now,
            dismissed: &state.ops.dismissed,
            open: &state.views.moves_open,
            flat: groups::wants_flat(&state.views.tables[View::Moves.index()]),
            wide: groups::wants_wide(state.session.size),
            requested: &state.ops.requested,
            phases: &state.ops.request_phases,
            namespace: state.views.namespace_scope.as_deref(),
        };
        let ns = state.views.namespace_scope.as_deref();
        build_view(&mut state.views.models, &feed, &opts, view, ns);
        if view == View::Moves {
            order::hold_order(state);
        }
        if let (View::Nodes, Some(health)) = (view, &state.history.nodes_health) {
            let a = &feed.analysis;
            crate::app::views::nodes::add_history_columns(&mut state.views.models.nodes, a, health);
        }
    }
}

/// The operator asks for a new order of the Moves rows: the engine's, marks cleared.
pub fn rearrange_moves(state: &mut AppState) {
    order::release_order(state);
    state.views.models.built[View::Moves.index()] = None;
    if state.views.view == View::Moves {
        ensure_built(state, View::Moves);
    }
}

/// Builds `view`'s rows when stale and recomputes what it shows, the selection kept by key
/// (a new fleet state while the Fleet view is shown).
pub fn switch_rows(state: &mut AppState, view: View) {
    let before = state.table(view).selected_key.clone();
    ensure_built(state, view);
    refresh_view(state, view);
    if state.views.view == view {
        crate::app::update::slid::after_feed(state, view, before);
    }
}

/// Marks every view's rows stale and rebuilds the current view's (others are rebuilt when
/// shown: a feed costs one view's rows, not six).
pub fn rebuild_models(state: &mut AppState) {
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    state.views.models.generation = Some(feed.generation);
    state.views.models.built = [None; View::COUNT];
    ensure_built(state, state.views.view);
    refresh_view(state, state.views.view);
    rebuild_detail(state);
}

/// Rebuilds the open detail from the shown feed; when its object is gone the pane stays open
/// on what it showed last, marked (it never closes or jumps by itself).
pub fn rebuild_detail(state: &mut AppState) {
    let Some(kind) = state.views.detail.as_ref().map(|d| d.kind.clone()) else {
        return;
    };
    let fresh = state
        .shown()
        .cloned()
        .and_then(|f| build_detail(&ViewContext::of(state), &f, &kind));
    state.views.detail = match fresh {
        Some(d) => Some(d),
        None => {
            let why = gone_words(&state.ops.requested, &state.ops.request_phases, &kind);
            state.views.detail.take().map(|d| d.gone(&why))
        }
    };
}
