//! The Pending list under Pools: one row per pending GPU pod or gang (why most of its pool's
//! nodes refuse it, what its unblock plan says), drawn with the shared table over the whole
//! body; Enter explains the selected one (the detail pane).
//!
//! Owns: `draw_pending`.

use ratatui::layout::Rect;
use ratatui::Frame;

use crate::app::state::AppState;
use crate::ui::table::draw_table;
use crate::ui::theme::Theme;

/// Draws the Pending list in `area`.
pub fn draw_pending(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let p = state.pending_nav();
    let n = p.rows.rows.len();
    let title = match n {
        0 => " Pending GPU pods [0] · none waits · esc: Pools ".to_string(),
        _ => {
            format!(" Pending GPU pods [{n}] · enter: why it waits, what frees room · esc: Pools ")
        }
    };
    draw_table(frame, area, &p.rows, &p.table, title, theme);
}
