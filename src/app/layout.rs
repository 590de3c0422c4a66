//! The screen's layout as plain rectangles, shared by the reducer (mouse hits, page size) and
//! the UI (where to draw), so that a click lands on the row that is drawn there.
//!
//! Owns: `screen`, `MIN_WIDTH`, `MIN_HEIGHT` (the rectangles are `app::areas`). Plain arithmetic.

pub use crate::app::areas::{Area, Screen};
use crate::app::state::{AppState, View};
use crate::protocol::ApiStatus;

/// Below this many columns the UI shows "terminal too small".
pub const MIN_WIDTH: u16 = 80;
/// Below this many rows the UI shows "terminal too small".
pub const MIN_HEIGHT: u16 = 24;
/// Height of the Pools view's panel (gauge, ladder, sparkline) when the body is tall enough.
pub const POOL_PANEL_HEIGHT: u16 = 9;
/// Rows of the Pools view's map pane with its answer lines only (borders and two lines): on
/// a short terminal the pane shows why pods wait, and its cells only full-size (`pool-map`).
pub const MAP_ANSWER_HEIGHT: u16 = 4;

/// From this many columns the gang pin reasoning sits beside the tree.
pub const GANG_SIDE_WIDTH: u16 = 110;
/// Height of the gang pin reasoning below the tree on a narrower terminal.
pub const GANG_PIN_HEIGHT: u16 = 8;

/// Lines of the banner: one for a context switch connecting or the API unreachable, else one
/// per ConfigMap the shown view uses that exists but cannot be read.
pub fn banner_lines(state: &AppState) -> u16 {
    if api_banner(state) {
        return 1;
    }
    crate::app::banner::view_banner(state).len() as u16
}

/// Whether the API banner shows (a context switch connecting, or the API unreachable).
pub fn api_banner(state: &AppState) -> bool {
    state.clusters.contexts.switching.is_some()
        || state.feed.latest.as_ref().is_some_and(|f| {
            matches!(
                f.api,
                ApiStatus::Reconnecting { .. } | ApiStatus::Forbidden { .. }
            )
        })
}

/// Whether the journal view shows its blocking banner.
pub fn journal_banner(state: &AppState) -> bool {
    state
        .shown()
        .is_some_and(|f| crate::app::views::journal::blocking_text(&f.analysis).is_some())
}

/// The layout of `state` at its terminal size.
pub fn screen(state: &AppState) -> Screen {
    let (w, h) = state.session.size;
    let banner_h = banner_lines(state);
    let body_y = 3 + banner_h;
    let body_h = h.saturating_sub(body_y + 2);
    let body = Area::rows(0, body_y, w, body_h);
    let none = Area::rows(0, body_y, w, 0);
    let (table, panel, map) = match state.views.view {
        View::Pools => pools_areas(state, body),
        View::Journal if journal_banner(state) && body_h > 4 => (
            Area::rows(0, body_y + 1, w, body_h - 1),
            Area::rows(0, body_y, w, 1),
            none,
        ),
        // The selected gang's pin reasoning: beside the tree when wide, below it when tall.
        View::Gangs if w >= GANG_SIDE_WIDTH => {
            let tree_w = w * 62 / 100;
            (
                Area::rows(0, body_y, tree_w, body_h),
                Area::rows(tree_w, body_y, w - tree_w, body_h),
                none,
            )
        }
        View::Gangs if body_h >= GANG_PIN_HEIGHT + 10 => (
            Area::rows(0, body_y, w, body_h - GANG_PIN_HEIGHT),
            Area::rows(0, body_y + body_h - GANG_PIN_HEIGHT, w, GANG_PIN_HEIGHT),
            none,
        ),
        View::Fleet => fleet_areas(state, body),
        _ => (body, none, none),
    };
    Screen {
        header: Area::rows(0, 0, w, 2),
        tabs: Area::rows(0, 2, w, 1),
        banner: Area::rows(0, 3, w, banner_h),
        body,
        table,
        panel,
        map,
        notice: Area::rows(0, h.saturating_sub(2), w, 1),
        footer: Area::rows(0, h.saturating_sub(1), w, 1),
    }
}

/// The Fleet view's table, as tall as its rows (at least half the body when they need it),
/// and below it the box of answer lines (the contexts not answering, one line per request
/// size) in the rest.
fn fleet_areas(state: &AppState, body: Area) -> (Area, Area, Area) {
    let (w, y, h) = (body.width, body.y, body.height);
    let none = Area::rows(0, y, w, 0);
    let rows = u16::try_from(state.views.models.fleet.table.rows.len()).unwrap_or(u16::MAX);
    let table_h = rows.saturating_add(3).clamp(5, (h / 2).max(5));
    let shown = state
        .views
        .models
        .fleet
        .panel_lines(w.saturating_sub(2))
        .len();
    let lines = u16::try_from(shown.max(1)).unwrap_or(u16::MAX);
    let panel_h = lines.saturating_add(2).min(h.saturating_sub(table_h));
    if panel_h < 3 {
        return (body, none, none);
    }
    (
        Area::rows(0, y, w, h - panel_h),
        Area::rows(0, y + h - panel_h, w, panel_h),
        none,
    )
}

/// The Pools view's table, panel and map: the map alone when full-size; else the table as
/// tall as its rows (at most a third of the body), the map below it (its answer lines at
/// least) and the panel at the bottom when the body has room for all three; else the table
/// and the panel.
fn pools_areas(state: &AppState, body: Area) -> (Area, Area, Area) {
    let (w, y, h) = (body.width, body.y, body.height);
    let none = Area::rows(0, y, w, 0);
    if state.views.pool_map.full {
        return (none, none, body);
    }
    let rows = u16::try_from(state.views.models.pools.rows.len()).unwrap_or(u16::MAX);
    let table_h = rows.saturating_add(3).clamp(5, (h / 3).max(5));
    if h >= table_h + MAP_ANSWER_HEIGHT + POOL_PANEL_HEIGHT {
        let map_h = h - table_h - POOL_PANEL_HEIGHT;
        return (
            Area::rows(0, y, w, table_h),
            Area::rows(0, y + table_h + map_h, w, POOL_PANEL_HEIGHT),
            Area::rows(0, y + table_h, w, map_h),
        );
    }
    if h >= POOL_PANEL_HEIGHT + 8 {
        return (
            Area::rows(0, y, w, h - POOL_PANEL_HEIGHT),
            Area::rows(0, y + h - POOL_PANEL_HEIGHT, w, POOL_PANEL_HEIGHT),
            none,
        );
    }
    (body, none, none)
}

/// Tab labels and their column ranges on the tabs line: ` 1 Pools ` … (the Fleet tab only
/// while a fleet is watched).
pub fn tab_spans(fleet: bool) -> Vec<(View, String, u16, u16)> {
    let mut x = 0u16;
    View::ALL
        .iter()
        .enumerate()
        .filter(|(_, v)| fleet || **v != View::Fleet)
        .map(|(i, v)| {
            let label = format!(" {} {} ", i + 1, v.title());
            let width = label.chars().count() as u16;
            let span = (*v, label, x, x + width);
            x += width + 1;
            span
        })
        .collect()
}
