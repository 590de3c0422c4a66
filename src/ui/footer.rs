//! The notice line (latest notice, the filter being typed, or pending ops) and the footer with
//! the keys that apply here, read from the key table.
//!
//! Owns: `draw_notice`, `draw_footer`, `footer_hints`. Must not import `cluster`, `tokio` or
//! `kube`.

use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::action::Action;
use crate::app::dialogs::Modal;
use crate::app::input::current_mode;
use crate::app::keys::{key_label, Mode};
use crate::app::state::{AppState, NoticeLevel};
use crate::ui::theme::{Slot, Theme};

/// Global actions worth a footer slot, in order.
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

/// `(keys, description)` pairs for the footer: the mode's own bindings, then common globals.
pub fn footer_hints(state: &AppState) -> Vec<(String, String)> {
    let mode = current_mode(state);
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |keys: String, desc: String| {
        if !out.iter().any(|(_, d)| *d == desc) {
            out.push((keys, desc));
        }
    };
    for b in state.keys.bindings(mode) {
        push(key_label(&b.keys), b.desc);
    }
    if !matches!(mode, Mode::Confirm | Mode::Help) {
        let globals = state.keys.bindings(Mode::Global);
        for a in GLOBAL_HINTS {
            if let Some(b) = globals.iter().find(|b| b.action == a) {
                push(key_label(&b.keys), b.desc.clone());
            }
        }
    }
    out
}

/// Draws the key hints that fit.
pub fn draw_footer(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let mut spans = Vec::new();
    let mut used = 0usize;
    let hints: Vec<(String, String)> = match state.modals.last() {
        Some(Modal::FilterInput { .. }) => vec![
            ("enter".into(), "Keep filter".into()),
            ("esc".into(), "Cancel".into()),
            ("~".into(), "Regex prefix".into()),
        ],
        Some(Modal::Palette { .. } | Modal::ReasonInput { .. }) => vec![
            ("enter".into(), "Run / accept".into()),
            ("esc".into(), "Cancel".into()),
            ("↑↓".into(), "Choose".into()),
        ],
        Some(Modal::RejectChoice { .. }) => vec![
            ("d".into(), "Dismiss locally".into()),
            ("o".into(), "Opt workload out".into()),
            ("esc".into(), "Cancel".into()),
        ],
        _ => footer_hints(state),
    };
    for (keys, desc) in hints {
        let width = keys.chars().count() + desc.chars().count() + 3;
        if used + width > usize::from(area.width) {
            break;
        }
        used += width;
        spans.push(Span::styled(format!("<{keys}>"), theme.style(Slot::Accent)));
        spans.push(Span::styled(format!("{desc} "), theme.style(Slot::Muted)));
    }
    frame.render_widget(Line::from(spans), area);
}

/// Draws the notice line.
pub fn draw_notice(frame: &mut Frame, area: Rect, state: &AppState, theme: &Theme) {
    let table = state.table(state.view);
    let line = if let Some(Modal::FilterInput { .. }) = state.modals.last() {
        let mut spans = vec![
            Span::styled("/", theme.style(Slot::Accent)),
            Span::raw(table.filter.text.clone()),
            Span::styled("▏", theme.style(Slot::Accent)),
        ];
        if let Some(e) = &table.filter.error {
            spans.push(Span::styled(
                format!("  regex error: {e}"),
                theme.style(Slot::Danger),
            ));
        }
        Line::from(spans)
    } else if let Some(n) = state.notice() {
        let (mark, slot) = match n.level {
            NoticeLevel::Info => ("ℹ ", Slot::Accent),
            NoticeLevel::Error => ("✗ ", Slot::Danger),
        };
        Line::styled(format!("{mark}{}", n.text), theme.style(slot))
    } else if !state.pending.is_empty() {
        Line::styled(
            format!("⧗ waiting for {} operation(s)", state.pending.len()),
            theme.style(Slot::HealthDegraded),
        )
    } else {
        Line::default()
    };
    frame.render_widget(line, area);
}
