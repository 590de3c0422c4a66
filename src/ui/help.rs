//! The `?` help overlay, generated from the key table: the current view's (or open detail's)
//! keys that work there, the global keys and the dialog keys, then what each other view adds,
//! each with its description, and last the `:` command words.
//!
//! Owns: `help_lines`, `draw_help`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::action::Action;
use crate::app::input::{base_mode, current_mode};
use crate::app::keys::{key_label, Binding, Mode};
use crate::app::palette::words::WORDS;
use crate::app::state::{AppState, View};
use crate::ui::centered;
use crate::ui::footer::applies_here;
use crate::ui::theme::{Slot, Theme};

/// One help line: a heading, or keys and what they do.
type HelpLine = (Option<String>, String, String);

/// `(heading?, keys, description)` lines of the help screen: the keys that work here first
/// (the view or detail, then the global and dialog keys), then what every other view adds.
pub fn help_lines(state: &AppState) -> Vec<HelpLine> {
    let view_mode = match current_mode(state) {
        Mode::Help | Mode::Confirm => base_mode(state),
        m => m,
    };
    let mut out = Vec::new();
    let mut shown: Vec<(Action, String)> = Vec::new();
    for mode in [view_mode, Mode::Global, Mode::Confirm] {
        let mut bindings = state.keys.bindings(mode);
        bindings.retain(|b| applies_here(state, b.action));
        section(&mut out, &mut shown, format!("[{}]", mode.name()), bindings);
        if mode == view_mode && matches!(mode, Mode::View(v) if v != View::Gangs) {
            out.push((
                None,
                "shift-letter".into(),
                "Sort by that column (again: reverse)".into(),
            ));
        }
    }
    for v in View::ALL
        .into_iter()
        .filter(|v| Mode::View(*v) != view_mode)
    {
        let bindings = state.keys.bindings(Mode::View(v));
        section(&mut out, &mut shown, format!("[{}]", v.table()), bindings);
    }
    out.push((
        Some("[: commands] (tab completes)".into()),
        String::new(),
        String::new(),
    ));
    out.extend(
        WORDS
            .iter()
            .map(|w| (None, format!(":{}", w.usage), w.help.to_string())),
    );
    out
}

/// Appends a heading and one line per action not `shown` yet with that description
/// (`j, ↓  Down`).
fn section(
    out: &mut Vec<HelpLine>,
    shown: &mut Vec<(Action, String)>,
    heading: String,
    bindings: Vec<Binding>,
) {
    let mut merged: Vec<(Action, String, String)> = Vec::new();
    // An action listed already is left out, unless this view describes it its own way.
    for b in bindings
        .into_iter()
        .filter(|b| !shown.iter().any(|(a, d)| *a == b.action && *d == b.desc))
    {
        match merged.iter_mut().find(|(a, ..)| *a == b.action) {
            Some((_, keys, _)) => keys.push_str(&format!(", {}", key_label(&b.keys))),
            None => merged.push((b.action, key_label(&b.keys), b.desc)),
        }
    }
    if merged.is_empty() {
        return;
    }
    out.push((Some(heading), String::new(), String::new()));
    shown.extend(merged.iter().map(|(a, _, d)| (*a, d.clone())));
    out.extend(merged.into_iter().map(|(_, keys, desc)| (None, keys, desc)));
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
