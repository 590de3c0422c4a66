//! Keyboard and mouse input: text entry for the filter, palette and reason prompts, the
//! reject choice and confirm dialog keys, key sequences through the `KeyResolver`, and mouse
//! clicks and wheel on the shared layout.
//!
//! Input answers the reducer with `Msg`s (`app::msg`): actions go back to the reducer, never
//! through a call into it. `line` edits every prompt's text.
//!
//! Owns: `key`, `mouse`. Plain data (crossterm event *types* only).

pub mod line;

use line::{edit, edit_at};

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::action::Action;
use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::effect::Effect;
use crate::app::filter::Filter;
use crate::app::keys::{Chord, KeyResolution, Mode};
use crate::app::layout::{screen, tab_spans};
use crate::app::msg::{effects, redraw, Msg};
use crate::app::query::mode::current_mode;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::app::update::ops;
use crate::app::update::rows;

/// Handles a key press.
pub fn key(state: &mut AppState, k: KeyEvent) -> Vec<Msg> {
    if k.kind != KeyEventKind::Press {
        return Vec::new();
    }
    match state.modals.last().cloned() {
        Some(Modal::FilterInput { before, cursor }) => {
            return effects(filter_key(state, k, before, cursor))
        }
        Some(Modal::Palette {
            input,
            selected,
            chosen,
        }) => return crate::app::palette::key(state, k, input, (selected, chosen)),
        Some(Modal::ReasonInput { .. }) => return effects(reason_key(state, k)),
        Some(Modal::RejectChoice { key, workload }) => {
            return effects(reject_key(state, k, key, workload))
        }
        Some(Modal::Confirm(_)) if confirm_extra(state, k) => return redraw(),
        // The key that quits at once quits at the question too (in other dialogs it cancels).
        Some(Modal::QuitConfirm) if quits_at_once(state, &k) => {
            return vec![Msg::Action(Action::Quit)]
        }
        _ => {}
    }
    state.pending_keys.push(Chord::of(&k));
    let mode = current_mode(state);
    match state.keys.resolve(mode, &state.pending_keys) {
        KeyResolution::Pending => Vec::new(),
        KeyResolution::Unbound => {
            let sorted = state.pending_keys.len() == 1 && sort_key(state, k);
            let keys = std::mem::take(&mut state.pending_keys);
            if sorted {
                redraw()
            } else if state.modals.is_empty() && printable(&k) {
                // A key that does nothing says so, and where it would act.
                let why = crate::app::query::refuse::unbound_words(state, &keys);
                state.notices.push(why, NoticeLevel::Error, state.now);
                redraw()
            } else {
                Vec::new()
            }
        }
        KeyResolution::Action(a) => {
            state.pending_keys.clear();
            if let Some(Modal::Help { scroll }) = state.modals.last_mut() {
                match a {
                    Action::Down => *scroll += 1,
                    Action::Up => *scroll = scroll.saturating_sub(1),
                    // The legend comes first: a page key reaches the keys below it at once.
                    Action::PageDown => *scroll += 10,
                    Action::PageUp => *scroll = scroll.saturating_sub(10),
                    Action::Back | Action::BackOrQuit | Action::Help => {
                        state.modals.pop();
                    }
                    Action::Quit => return vec![Msg::Action(a)],
                    _ => return Vec::new(),
                }
                return redraw();
            }
            if let Some(Modal::Yaml(_)) = state.modals.last() {
                return crate::app::update::yaml::pane_action(state, a);
            }
            vec![Msg::Action(a)]
        }
    }
}

/// Whether `k` is bound to `quit` (at once) in the `[global]` table.
fn quits_at_once(state: &AppState, k: &KeyEvent) -> bool {
    state.keys.resolve(Mode::Global, &[Chord::of(k)]) == KeyResolution::Action(Action::Quit)
}

/// A character key without Ctrl or Alt (what an operator types on purpose).
fn printable(k: &KeyEvent) -> bool {
    matches!(k.code, KeyCode::Char(_))
        && !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// An upper-case letter the keymap leaves unbound sorts a list view by the column it starts
/// (k9s' Shift+letter).
fn sort_key(state: &mut AppState, k: KeyEvent) -> bool {
    let KeyCode::Char(c) = k.code else {
        return false;
    };
    let chorded = k
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    let list = matches!(current_mode(state), Mode::View(v) if v != View::Gangs);
    list && !chorded && c.is_ascii_uppercase() && crate::app::update::sort::sort_by_letter(state, c)
}

/// `r` (reason) and `o` (override) inside a confirm dialog.
fn confirm_extra(state: &mut AppState, k: KeyEvent) -> bool {
    let Some(Modal::Confirm(d)) = state.modals.last_mut() else {
        return false;
    };
    match k.code {
        KeyCode::Char('r') if d.reason_allowed => {
            let buffer = d.reason.clone().unwrap_or_default();
            state.modals.push(Modal::ReasonInput {
                purpose: ReasonPurpose::ConfirmReason,
                prompt: "reason (optional, kept in the Event and the audit log)".into(),
                buffer,
            });
            true
        }
        KeyCode::Char('o') if d.overridable => {
            d.override_armed = !d.override_armed;
            true
        }
        _ => false,
    }
}

fn set_filter(state: &mut AppState, text: &str) {
    state.tables[state.view.index()].filter = Filter::new(text);
    rows::refresh_view(state, state.view);
}

fn filter_key(state: &mut AppState, k: KeyEvent, before: String, cursor: usize) -> Vec<Effect> {
    let mut text = state.table(state.view).filter.text.clone();
    let mut at = cursor;
    match k.code {
        KeyCode::Enter => {
            state.modals.pop();
        }
        KeyCode::Esc => {
            state.modals.pop();
            set_filter(state, &before);
        }
        _ if edit_at(&mut text, &mut at, &k) => {
            if let Some(Modal::FilterInput { cursor, .. }) = state.modals.last_mut() {
                *cursor = at;
            }
            set_filter(state, &text);
        }
        _ => return Vec::new(),
    }
    vec![Effect::Redraw]
}

fn reject_key(state: &mut AppState, k: KeyEvent, key: String, workload: String) -> Vec<Effect> {
    // `key` is the Moves row's; a dismissal remembers the move by its identity and content.
    let dismissal = crate::app::views::moves::dismissal(state, &key);
    let (purpose, prompt) = match (k.code, dismissal) {
        (KeyCode::Char('d'), Some((key, fingerprint))) => (
            ReasonPurpose::Dismiss { key, fingerprint },
            "dismiss: reason (kept under 'dismissed' until the move changes; U undoes it)"
                .to_string(),
        ),
        (KeyCode::Char('o'), _) => (
            ReasonPurpose::OptOut {
                key: workload.clone(),
            },
            format!("opt {workload} out: reason (alfred.ome.io/opt-out-reason)"),
        ),
        (KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q'), _) => {
            state.modals.pop();
            return vec![Effect::Redraw];
        }
        _ => return Vec::new(),
    };
    state.modals.pop();
    state.modals.push(Modal::ReasonInput {
        purpose,
        prompt,
        buffer: String::new(),
    });
    vec![Effect::Redraw]
}

fn reason_key(state: &mut AppState, k: KeyEvent) -> Vec<Effect> {
    let Some(Modal::ReasonInput { buffer, .. }) = state.modals.last_mut() else {
        return Vec::new();
    };
    match k.code {
        KeyCode::Esc => {
            state.modals.pop();
        }
        KeyCode::Enter => {
            let buffer = buffer.trim().to_string();
            let Some(Modal::ReasonInput { purpose, .. }) = state.modals.pop() else {
                return Vec::new();
            };
            return finish_reason(state, purpose, buffer);
        }
        _ if edit(buffer, &k) => {}
        _ => return Vec::new(),
    }
    vec![Effect::Redraw]
}

fn finish_reason(state: &mut AppState, purpose: ReasonPurpose, reason: String) -> Vec<Effect> {
    match purpose {
        ReasonPurpose::WhatIfPolicy => crate::app::update::what_if::policy_typed(state, &reason),
        ReasonPurpose::ConfirmReason => {
            if let Some(Modal::Confirm(d)) = state.modals.last_mut() {
                d.reason = (!reason.is_empty()).then_some(reason);
            }
            vec![Effect::Redraw]
        }
        ReasonPurpose::Dismiss { .. } | ReasonPurpose::OptOut { .. } if reason.is_empty() => {
            state
                .notices
                .push("a reason is required", NoticeLevel::Error, state.now);
            vec![Effect::Redraw]
        }
        ReasonPurpose::Dismiss { key, fingerprint } => {
            let note = crate::app::state::Dismissed {
                fingerprint: fingerprint.clone(),
                by: None,
                reason: reason.clone(),
                at: state.now,
            };
            state.dismissed.insert(key.clone(), note);
            state
                .notices
                .push(format!("dismissed: {reason}"), NoticeLevel::Info, state.now);
            rows::rebuild_models(state);
            vec![
                Effect::RecordDismissal {
                    key,
                    fingerprint,
                    reason,
                    at: state.now,
                },
                Effect::Redraw,
            ]
        }
        ReasonPurpose::OptOut { key } => {
            ops::start_opt_out(state, &key, reason);
            vec![Effect::Redraw]
        }
    }
}

/// Handles a mouse event: wheel scrolls, a click selects a row or a tab.
pub fn mouse(state: &mut AppState, m: MouseEvent) -> Vec<Effect> {
    if !state.modals.is_empty() {
        return Vec::new();
    }
    let over_map = || {
        let map = screen(state).map;
        state.view == View::Pools
            && state.detail.is_none()
            && map.height > 0
            && map.contains(m.column, m.row)
    };
    match m.kind {
        // Over the Pools view's map, the wheel scrolls the map, not the pools.
        MouseEventKind::ScrollDown if over_map() => state.pool_map.scroll(3),
        MouseEventKind::ScrollUp if over_map() => state.pool_map.scroll(-3),
        MouseEventKind::ScrollDown => nav::step(state, 3),
        MouseEventKind::ScrollUp => nav::step(state, -3),
        MouseEventKind::Down(MouseButton::Left) => return click(state, m.column, m.row),
        _ => return Vec::new(),
    }
    vec![Effect::Redraw]
}

fn click(state: &mut AppState, col: u16, row: u16) -> Vec<Effect> {
    let s = screen(state);
    if s.tabs.contains(col, row) {
        if let Some((v, ..)) = tab_spans(state.fleet().is_some())
            .into_iter()
            .find(|(_, _, a, b)| col >= *a && col < *b)
        {
            state.pool_scope = None;
            nav::switch_view(state, v);
            return vec![Effect::Redraw];
        }
        return Vec::new();
    }
    if state.detail.is_some() {
        return Vec::new();
    }
    let height = nav::viewport(state);
    if state.view == View::Gangs {
        if !s.table.contains(col, row) || row <= s.table.y {
            return Vec::new();
        }
        let pos = state.gang_nav.offset + usize::from(row - s.table.y - 1);
        state.gang_nav.select(pos, height);
        return vec![Effect::Redraw];
    }
    let first = s.first_row_y();
    if !s.table.contains(col, row) || row < first || usize::from(row - first) >= s.table_rows() {
        return Vec::new();
    }
    let view = state.view;
    let Some(model) = state.models.table(view) else {
        return Vec::new();
    };
    let t = &mut state.tables[view.index()];
    let pos = t.offset + usize::from(row - first);
    if pos < t.visible.len() {
        t.select(model, pos, height);
    }
    vec![Effect::Redraw]
}
