//! The list views drawn with the shared table: Nodes (optionally scoped to a pool), Moves,
//! Journal (with its blocking banner) and Lints.
//!
//! Owns: `draw_list`, `draw_journal`. Must not import `cluster`, `tokio` or `kube`.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::Frame;

use crate::app::rows_journal::blocking_text;
use crate::app::state::{AppState, View};
use crate::engine::planning::pass::JournalView;
use crate::ui::table::{draw_table, title};
use crate::ui::theme::{Slot, Theme};

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

/// Draws the journal: banner when it blocks Alfred, a note when absent, then the entries.
pub fn draw_journal(frame: &mut Frame, table: Rect, banner: Rect, state: &AppState, theme: &Theme) {
    let Some(feed) = state.shown() else { return };
    if banner.height > 0 {
        if let Some(text) = blocking_text(&feed.analysis) {
            let style = theme.style(Slot::Danger).add_modifier(Modifier::REVERSED);
            frame.render_widget(Line::styled(text, style), banner);
        }
    }
    let extra = match &feed.analysis.journal {
        JournalView::Absent => " — journal absent: migration API off".to_string(),
        _ => String::new(),
    };
    let model = &state.models.journal;
    let tv = state.table(View::Journal);
    draw_table(
        frame,
        table,
        model,
        tv,
        title("Journal", model, tv, &extra),
        theme,
    );
}
