//! The Journal view: a banner when a stalled or unresolved entry blocks Alfred's submissions,
//! a note when the journal is absent, then the entries in the shared table.
//!
//! Owns: `draw_journal`.

use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::text::Line;
use ratatui::Frame;

use crate::app::state::{AppState, View};
use crate::app::table::columns::clip;
use crate::app::views::journal::blocking_text;
use crate::engine::planning::JournalView;
use crate::ui::table::{draw_table, title};
use crate::ui::theme::{Slot, Theme};

/// Draws the journal: banner when it blocks Alfred, a note when absent, then the entries.
pub fn draw_journal(frame: &mut Frame, table: Rect, banner: Rect, state: &AppState, theme: &Theme) {
    let Some(feed) = state.shown() else { return };
    if banner.height > 0 {
        if let Some(text) = blocking_text(&feed.analysis) {
            let style = theme.style(Slot::Danger).add_modifier(Modifier::REVERSED);
            // A narrow terminal cuts the banner with `…`, never mid-word without a mark.
            let text = clip(&text, banner.width).into_owned();
            frame.render_widget(Line::styled(text, style), banner);
        }
    }
    let extra = match &feed.analysis.journal {
        JournalView::Absent => " — journal absent: migration API off".to_string(),
        _ => String::new(),
    };
    let model = &state.models().journal;
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
