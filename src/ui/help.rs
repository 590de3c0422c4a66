//! The `?` help overlay, generated from the key table: the current view's (or open detail's)
//! keys that work there, the global keys and the dialog keys, each with its description.
//!
//! Owns: `help_lines`, `draw_help`. Must not import `cluster`, `tokio` or `kube`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::app::input::{base_mode, current_mode};
use crate::app::keys::{key_label, Mode};
use crate::app::state::AppState;
use crate::ui::centered;
use crate::ui::footer::applies_here;
use crate::ui::theme::{Slot, Theme};

/// `(heading?, keys, description)` lines of the help screen.
pub fn help_lines(state: &AppState) -> Vec<(Option<String>, String, String)> {
    let view_mode = match current_mode(state) {
        Mode::Help | Mode::Confirm => base_mode(state),
        m => m,
    };
    let mut out = Vec::new();
    for mode in [view_mode, Mode::Global, Mode::Confirm] {
        let mut bindings = state.keys.bindings(mode);
        bindings.retain(|b| applies_here(state, b.action));
        if bindings.is_empty() {
            continue;
        }
        out.push((
            Some(format!("[{}]", mode.name())),
            String::new(),
            String::new(),
        ));
        // One line per action: `j, ↓  Down`.
        let mut merged: Vec<(crate::action::Action, String, String)> = Vec::new();
        for b in bindings {
            match merged.iter_mut().find(|(a, ..)| *a == b.action) {
                Some((_, keys, _)) => keys.push_str(&format!(", {}", key_label(&b.keys))),
                None => merged.push((b.action, key_label(&b.keys), b.desc)),
            }
        }
        out.extend(merged.into_iter().map(|(_, keys, desc)| (None, keys, desc)));
    }
    out
}

/// Draws the help overlay scrolled by `scroll` lines.
pub fn draw_help(frame: &mut Frame, full: Rect, state: &AppState, scroll: usize, theme: &Theme) {
    let area = centered(full, 64, full.height.saturating_sub(4));
    let all = help_lines(state);
    // The key column fits its longest entry, so a key never runs into its description.
    let width = all
        .iter()
        .map(|(_, keys, _)| keys.chars().count())
        .max()
        .unwrap_or(0)
        .max(13);
    let lines: Vec<Line> = all
        .into_iter()
        .skip(scroll)
        .map(|(heading, keys, desc)| match heading {
            Some(h) => Line::styled(h, theme.style(Slot::Header)),
            None => Line::from(vec![
                Span::styled(format!("  {keys:<width$}  "), theme.style(Slot::Accent)),
                Span::raw(desc),
            ]),
        })
        .collect();
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Span::styled(
            " Keys (esc to close, j/k to scroll) ",
            theme.style(Slot::Header),
        ));
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines).block(block), area);
}
