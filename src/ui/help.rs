//! The `?` help overlay: first the current view's legend (what its columns and symbols mean,
//! `app::views::legends`, the text docs/views.md repeats), above the keys or beside them on a
//! wide terminal; then, generated from the key table, the current view's (or open detail's)
//! keys that work there, the global keys and the dialog keys, then what each other view adds,
//! each with its description, and last the `:` command words.
//!
//! Owns: `help_lines`, `legend_rows`, `draw_help`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph};
use ratatui::Frame;

use crate::action::Action;
use crate::app::keys::{key_label, Binding, Mode};
use crate::app::palette::words::WORDS;
use crate::app::query::mode::{base_mode, current_mode};
use crate::app::state::{AppState, View};
use crate::app::views::legends::legend;
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
        let mut bindings = state.keys().bindings(mode);
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
        let bindings = state.keys().bindings(Mode::View(v));
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

/// `text` cut into lines of at most `width` cells at spaces (a word longer than a line is
/// cut where the line ends).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split(' ') {
        let len = line.chars().count();
        if len > 0 && len + 1 + word.chars().count() > width {
            out.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    out.push(line);
    out
}

/// The current view's legend (`app::views::legends`) as `(term, meaning)` rows fitted to
/// `width` cells: the term column as wide as the longest term, each meaning wrapped beside it.
pub fn legend_rows(state: &AppState, width: u16) -> Vec<(String, String)> {
    let entries = legend(state.view());
    let term_w = entries
        .iter()
        .map(|e| e.term.chars().count())
        .max()
        .unwrap_or(0);
    // Two cells of indent, two after the term, one spare before the border.
    let room = usize::from(width).saturating_sub(term_w + 5);
    let mut out = Vec::new();
    for e in entries {
        for (i, part) in wrap(e.meaning, room).into_iter().enumerate() {
            let term = if i == 0 { e.term } else { "" };
            out.push((format!("  {term:<term_w$}  "), part));
        }
    }
    out
}

/// The legend with its heading; `keys_below` says where the keys are (pgdn reaches them).
fn legend_text(
    state: &AppState,
    width: u16,
    keys_below: bool,
    theme: &Theme,
) -> Vec<Line<'static>> {
    let below = if keys_below {
        " · keys below: pgdn"
    } else {
        ""
    };
    let mut lines = vec![Line::styled(
        format!(
            "[{}: what the columns and symbols mean]{below}",
            state.view().title()
        ),
        theme.style(Slot::Header),
    )];
    lines.extend(
        legend_rows(state, width)
            .into_iter()
            .map(|(term, meaning)| {
                Line::from(vec![
                    Span::styled(term, theme.style(Slot::Accent)),
                    Span::raw(meaning),
                ])
            }),
    );
    lines
}

fn key_text(state: &AppState, theme: &Theme) -> Vec<Line<'static>> {
    let all = help_lines(state);
    // The key column fits its longest entry, so a key never runs into its description.
    let width = all
        .iter()
        .map(|(_, keys, _)| keys.chars().count())
        .max()
        .unwrap_or(0)
        .max(13);
    all.into_iter()
        .map(|(heading, keys, desc)| match heading {
            Some(h) => Line::styled(h, theme.style(Slot::Header)),
            None => Line::from(vec![
                Span::styled(format!("  {keys:<width$}  "), theme.style(Slot::Accent)),
                Span::raw(desc),
            ]),
        })
        .collect()
}

/// Below this width the legend sits above the keys; from it on, beside them.
const SIDE_BY_SIDE: u16 = 150;

/// Draws the help overlay scrolled by `scroll` lines: the current view's legend, then (or
/// beside it, on a wide terminal) the keys.
pub fn draw_help(frame: &mut Frame, full: Rect, state: &AppState, scroll: usize, theme: &Theme) {
    let side = full.width >= SIDE_BY_SIDE;
    let width = if side {
        full.width.saturating_sub(4).min(180)
    } else {
        full.width.saturating_sub(4).min(96)
    };
    let area = centered(full, width, full.height.saturating_sub(4));
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.style(Slot::BorderFocused))
        .title(Span::styled(
            " Help: what this view shows, and the keys (esc closes, j/k/pgdn scroll) ",
            theme.style(Slot::Header),
        ));
    let inner = block.inner(area);
    frame.render_widget(Clear, area);
    frame.render_widget(block, area);
    let keys = key_text(state, theme);
    if side {
        let half = inner.width / 2;
        let left = Rect::new(inner.x, inner.y, half.saturating_sub(1), inner.height);
        let right = Rect::new(
            inner.x + half + 1,
            inner.y,
            inner.width - half - 1,
            inner.height,
        );
        let legend = legend_text(state, left.width, false, theme);
        frame.render_widget(Paragraph::new(legend).scroll((clamp(scroll), 0)), left);
        frame.render_widget(Paragraph::new(keys).scroll((clamp(scroll), 0)), right);
    } else {
        let mut lines = legend_text(state, inner.width, true, theme);
        lines.push(Line::default());
        lines.extend(keys);
        frame.render_widget(Paragraph::new(lines).scroll((clamp(scroll), 0)), inner);
    }
}

fn clamp(scroll: usize) -> u16 {
    u16::try_from(scroll).unwrap_or(u16::MAX)
}
