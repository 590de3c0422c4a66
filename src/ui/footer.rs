//! The notice line (latest notice, the filter being typed, or pending ops) and the footer with
//! the keys that apply here, read from the key table.
//!
//! The footer always ends with the help key: lower-priority hints give way to it.
//!
//! A notice longer than its line is drawn whole over the footer (and the body's last rows when
//! it needs them) while it is in force.
//!
//! Owns: `draw_notice`, `draw_long_notice`, `draw_footer`, `footer_hints`, `fit_hints`,
//! `applies_here`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::dialogs::YAML_PANE_KEYS;
use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::keys::{key_label, Binding, KeyResolution, Mode};
use crate::app::query::mode::current_mode;
use crate::app::query::refuse::refusal;
use crate::app::state::{AppState, NoticeLevel};
use crate::app::wrap::wrap;
use crate::ui::theme::{Slot, Theme};

/// Common actions worth a footer slot, in order, after the mode's own actions.
const GLOBAL_HINTS: [Action; 8] = [
    Action::Help,
    Action::CommandPalette,
    Action::Filter,
    Action::Open,
    Action::Back,
    Action::SortNext,
    Action::Freeze,
    Action::Quit,
];

/// What every list and pane has (moving, reversing the sort): the footer leaves it to help.
const LEFT_TO_HELP: [Action; 11] = [
    Action::Down,
    Action::Up,
    Action::PageDown,
    Action::PageUp,
    Action::Top,
    Action::Bottom,
    Action::SortReverse,
    Action::ToggleWide,
    Action::CopyName,
    Action::Left,
    Action::Right,
];

/// Whether pressing `b`'s keys in `mode` triggers it: its shorter prefixes wait for more keys
/// and no table consulted earlier binds the same keys.
fn reachable(state: &AppState, mode: Mode, b: &Binding) -> bool {
    let waits = (1..b.keys.len())
        .all(|n| state.keys().resolve(mode, &b.keys[..n]) == KeyResolution::Pending);
    waits && state.keys().resolve(mode, &b.keys) == KeyResolution::Action(b.action)
}

/// Whether `action` does something in the current view (a detail binds every view's writes;
/// a write the session refuses is not offered).
pub(crate) fn applies_here(state: &AppState, action: Action) -> bool {
    let node_detail = matches!(
        state.detail().as_ref().map(|d| &d.kind),
        Some(DetailKind::Node(_))
    );
    refusal(state, action).is_none() && (action != Action::NodeTimeline || node_detail)
}

/// `(keys, description)` pairs for the footer: the mode's own actions, then common ones, each
/// with a key that triggers it here.
pub fn footer_hints(state: &AppState) -> Vec<(String, String)> {
    let mode = current_mode(state);
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |b: &Binding| {
        if !out.iter().any(|(_, d)| *d == b.desc) {
            out.push((key_label(&b.keys), b.desc.clone()));
        }
    };
    let here = state.keys().bindings(mode);
    let dialog = matches!(mode, Mode::Confirm | Mode::Help);
    let own = here.iter().filter(|b| {
        applies_here(state, b.action)
            && !LEFT_TO_HELP.contains(&b.action)
            && (dialog || !GLOBAL_HINTS.contains(&b.action))
    });
    own.for_each(&mut push);
    if !dialog {
        let globals = state.keys().bindings(Mode::Global);
        for a in GLOBAL_HINTS {
            let hint = here
                .iter()
                .chain(&globals)
                .find(|b| b.action == a && reachable(state, mode, b) && applies_here(state, a));
            hint.into_iter().for_each(&mut push);
        }
    }
    out
}

/// The YAML pane's keys: the first key of each action of a hint (`j/k Scroll`), from the
/// detail table, else the global one; closing shows every key that closes.
fn yaml_hints(state: &AppState) -> Vec<(String, String)> {
    let mut bindings = state.keys().bindings(Mode::Detail);
    bindings.extend(state.keys().bindings(Mode::Global));
    let keys_of = |action: Action| {
        bindings
            .iter()
            .filter(move |b| b.action == action && reachable(state, Mode::Detail, b))
            .map(|b| key_label(&b.keys))
    };
    YAML_PANE_KEYS
        .iter()
        .filter_map(|(actions, word)| {
            let keys: Vec<String> = actions
                .iter()
                .flat_map(|a| keys_of(*a).take(if *a == Action::Back { 2 } else { 1 }))
                .collect();
            (!keys.is_empty()).then(|| (keys.join("/"), (*word).to_string()))
        })
        .collect()
}

/// Cells a hint takes: `<keys>desc `.
fn hint_width((keys, desc): &(String, String)) -> usize {
    keys.chars().count() + desc.chars().count() + 3
}

/// The hints that fit in `width` cells, in order. When the help hint (described `help`) is
/// among them it always stays and comes last: room is kept for it, and the hints that do not
/// fit in the rest are left out, latest (least important) first.
pub fn fit_hints(hints: Vec<(String, String)>, help: &str, width: usize) -> Vec<(String, String)> {
    let help_hint = hints.iter().find(|(_, d)| d == help).cloned();
    let reserve = help_hint.as_ref().map_or(0, hint_width);
    let mut used = 0;
    let mut out = Vec::new();
    for h in hints.into_iter().filter(|(_, d)| d != help) {
        let w = hint_width(&h);
        if used + w + reserve <= width {
            used += w;
            out.push(h);
        }
    }
    out.extend(help_hint.filter(|h| used + hint_width(h) <= width));
    out
}

/// Draws the key hints that fit, the help key last.
pub fn draw_footer(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let mut spans = Vec::new();
    let hints: Vec<(String, String)> = match state.modals().last() {
        Some(Modal::FilterInput { .. }) => vec![
            ("enter".into(), "Keep filter".into()),
            ("esc".into(), "Cancel".into()),
            ("!".into(), "Invert".into()),
            ("ctrl-u".into(), "Clear".into()),
            ("ctrl-w".into(), "Delete word".into()),
            ("home/end".into(), "Start / end".into()),
        ],
        Some(Modal::Palette { .. }) => vec![
            ("enter".into(), "Run".into()),
            ("tab".into(), "Complete".into()),
            ("esc".into(), "Cancel".into()),
            ("↑↓".into(), "Choose".into()),
        ],
        Some(Modal::ReasonInput {
            purpose: ReasonPurpose::WhatIfPolicy,
            ..
        }) => vec![
            ("enter".into(), "Analyse (nothing is written)".into()),
            ("esc".into(), "Cancel".into()),
            ("ctrl-u".into(), "Clear".into()),
        ],
        Some(Modal::ReasonInput { .. }) => vec![
            ("enter".into(), "Accept reason".into()),
            ("esc".into(), "Cancel".into()),
            ("ctrl-u".into(), "Clear".into()),
        ],
        Some(Modal::RejectChoice { .. }) => vec![
            ("d".into(), "Dismiss locally".into()),
            ("o".into(), "Opt workload out".into()),
            ("esc".into(), "Cancel".into()),
        ],
        Some(Modal::Yaml(_)) => yaml_hints(state),
        _ => footer_hints(state),
    };
    let mode = current_mode(state);
    let help = (state.keys().bindings(mode).into_iter())
        .chain(state.keys().bindings(Mode::Global))
        .find(|b| b.action == Action::Help)
        .map_or_else(|| Action::Help.description().to_string(), |b| b.desc);
    for (keys, desc) in fit_hints(hints, &help, usize::from(area.width)) {
        spans.push(Span::styled(format!("<{keys}>"), theme.style(Slot::Accent)));
        spans.push(Span::styled(format!("{desc} "), theme.style(Slot::Muted)));
    }
    frame.render_widget(Line::from(spans), area);
}

/// Draws the notice line.
pub fn draw_notice(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let table = state.table(state.view());
    let line = if let Some(Modal::FilterInput { cursor, .. }) = state.modals().last() {
        let text = &table.filter.text;
        let at = (*cursor).min(text.len());
        let (head, tail) = text.split_at(if text.is_char_boundary(at) {
            at
        } else {
            text.len()
        });
        let mut spans = vec![
            Span::styled("/", theme.style(Slot::Accent)),
            Span::raw(head.to_string()),
            Span::styled("▏", theme.style(Slot::Accent)),
            Span::raw(tail.to_string()),
        ];
        if let Some(e) = &table.filter.error {
            spans.push(Span::styled(
                format!("  regex error: {e}"),
                theme.style(Slot::Danger),
            ));
        }
        Line::from(spans)
    } else if let Some((text, slot)) = notice_text(state) {
        Line::styled(text, theme.style(slot))
    } else if !state.pending().is_empty() {
        Line::styled(
            format!("⧗ waiting for {} operation(s)", state.pending().len()),
            theme.style(Slot::HealthDegraded),
        )
    } else {
        Line::default()
    };
    frame.render_widget(line, area);
}

/// The notice in force as the notice line writes it (its mark first), and its colour.
fn notice_text(state: &AppState) -> Option<(String, Slot)> {
    let n = state.notice()?;
    let (mark, slot) = match n.level {
        NoticeLevel::Info => ("ℹ ", Slot::Accent),
        NoticeLevel::Error => ("✗ ", Slot::Danger),
    };
    Some((format!("{mark}{}", n.text), slot))
}

/// A notice longer than its line, drawn whole: wrapped at spaces, its rows end on the footer's
/// row (the keys come back when the notice expires) and take the body's last rows when it needs
/// more than two, so no word of a refusal or a conflict is cut.
pub fn draw_long_notice(frame: &mut Frame, full: Rect, state: &AppState, theme: &Theme) {
    if matches!(state.modals().last(), Some(Modal::FilterInput { .. })) {
        return;
    }
    let Some((text, slot)) = notice_text(state) else {
        return;
    };
    if Line::raw(text.as_str()).width() <= usize::from(full.width) {
        return;
    }
    let rows = wrap(&text, usize::from(full.width));
    let height = u16::try_from(rows.len())
        .unwrap_or(u16::MAX)
        .min(full.height / 2);
    let area = Rect::new(full.x, full.bottom() - height, full.width, height);
    let lines: Vec<Line> = (rows.into_iter())
        .map(|r| Line::styled(r, theme.style(slot)))
        .collect();
    frame.render_widget(Clear, area);
    frame.render_widget(Paragraph::new(lines), area);
}
