//! The list views drawn with the shared table alone: Nodes (optionally scoped to a pool),
//! Moves and Lints.
//!
//! Owns: `draw_list` (and the Moves title's summary).

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::app::state::{AppState, View};
use crate::ui::table::{draw_table, title};
use crate::ui::theme::Theme;

/// `· 5 to act on · 612 advisory in 3 groups (enter opens)`: what the Moves rows hold, and
/// how the advisory ones are shown.
fn moves_summary(state: &AppState) -> String {
    let m = &state.models().move_index;
    let mut text = format!(" · {} to act on", m.actionable);
    if m.changed > 0 {
        // Rows keep their place while the operator looks; re-entering the view re-sorts.
        text.push_str(&format!(" ({} • changed, 3 re-sorts)", m.changed));
    }
    let groups = if m.groups == 1 { "group" } else { "groups" };
    match (m.advisory, m.flat) {
        (0, _) => {}
        (n, true) => text.push_str(&format!(
            " · {n} advisory, all listed while filtered or sorted"
        )),
        (n, false) => text.push_str(&format!(
            " · {n} advisory in {} {groups} (enter opens)",
            m.groups
        )),
    }
    text
}

/// Draws the table of `view`.
pub fn draw_list(frame: &mut Frame, area: Rect, state: &AppState, view: View, theme: &Theme) {
    let Some(model) = state.models().table(view) else {
        return;
    };
    let tv = state.table(view);
    let extra = match (view, state.pool_scope()) {
        (View::Nodes, Some(p)) => format!(" pool={p}"),
        (View::Moves, _) => moves_summary(state),
        _ => String::new(),
    };
    draw_table(
        frame,
        area,
        model,
        tv,
        title(view.title(), model, tv, &extra),
        theme,
    );
}
