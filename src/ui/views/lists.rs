//! The list views drawn with the shared table alone: Nodes (optionally scoped to a pool),
//! Moves and Lints.
//!
//! Owns: `draw_list`. Must not import `cluster`, `tokio` or `kube`.

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::app::state::{AppState, View};
use crate::ui::table::{draw_table, title};
use crate::ui::theme::Theme;

/// Draws the table of `view`.
pub fn draw_list(frame: &mut Frame, area: Rect, state: &AppState, view: View, theme: &Theme) {
    let Some(model) = state.models.table(view) else {
        return;
    };
    let tv = state.table(view);
    let extra = match (view, &state.pool_scope) {
        (View::Nodes, Some(p)) => format!(" pool={p}"),
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
