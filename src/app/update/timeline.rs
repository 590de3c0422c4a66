//! `node-timeline`: scrolls an open node detail to its health timeline (the detail opens with
//! the health summary; the timeline follows it and may start below the fold).
//!
//! Owns: `jump_to_timeline`. Plain data.

use crate::app::detail::DetailKind;
use crate::app::state::AppState;
use crate::app::update::nav::viewport;
use crate::app::views::nodes::timeline::TIMELINE_HEADING;

/// Scrolls the open node detail so its timeline heading is the top line (as far as the pane
/// scrolls); `false` when no node detail is open.
pub fn jump_to_timeline(state: &mut AppState) -> bool {
    let Some(d) = &state.views.detail else {
        return false;
    };
    if !matches!(d.kind, DetailKind::Node(_)) {
        return false;
    }
    let Some(at) = d.lines.iter().position(|l| l.text == TIMELINE_HEADING) else {
        return false;
    };
    let max = d.lines.len().saturating_sub(viewport(state));
    state.views.detail_scroll = at.min(max);
    true
}
