//! Keyboard and mouse input: text entry for the filter, palette and reason prompts, the
//! reject choice and confirm dialog keys, key sequences through the `KeyResolver`, and mouse
//! clicks and wheel on the shared layout.
//!
//! Input reads the state and answers the reducer with `Msg`s (`app::msg`): it never writes the
//! state nor calls into `app::update`, which carries the messages out. `app::line` edits every
//! prompt's text.
//!
//! Owns: `key`, `mouse`. Plain data (crossterm event *types* only).

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};

use crate::action::Action;
use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::effect::Effect;
use crate::app::keys::{Chord, KeyResolution, Mode};
use crate::app::layout::{screen, tab_spans};
use crate::app::line::{edit, edit_at};
use crate::app::msg::{redraw, Msg};
use crate::app::query::columns::letter_column;
use crate::app::query::mode::current_mode;
use crate::app::state::{AppState, NoticeLevel, View};

/// Handles a key press.
pub fn key(state: &AppState, k: KeyEvent) -> Vec<Msg> {
    if k.kind != KeyEventKind::Press {
        return Vec::new();
    }
    match state.overlays.modals.last() {
        Some(Modal::FilterInput { before, cursor }) => {
            return filter_key(state, k, before, *cursor)
        }
        Some(Modal::Palette {
            input,
            selected,
            chosen,
        }) => return crate::app::palette::key(state, k, input.clone(), (*selected, *chosen)),
        Some(Modal::ReasonInput { .. }) => return reason_key(state, k),
        Some(Modal::RejectChoice { key, workload }) => return reject_key(state, k, key, workload),
        Some(Modal::Confirm(_)) => {
            if let Some(msg) = confirm_extra(state, k) {
                return vec![msg, Msg::Effect(Effect::Redraw)];
            }
        }
        // The key that quits at once quits at the question too (in other dialogs it cancels).
        Some(Modal::QuitConfirm) if quits_at_once(state, &k) => {
            return vec![Msg::Action(Action::Quit)]
        }
        _ => {}
    }
    let mut keys = state.overlays.pending_keys.clone();
    keys.push(Chord::of(&k));
    let mode = current_mode(state);
    match state.settings.keys.resolve(mode, &keys) {
        KeyResolution::Pending => vec![Msg::PendingKeys(keys)],
        KeyResolution::Unbound => {
            let mut msgs = vec![Msg::PendingKeys(Vec::new())];
            let sorted = if keys.len() == 1 {
                sort_key(state, k)
            } else {
                None
            };
            if let Some(col) = sorted {
                msgs.push(Msg::SortByColumn(col));
                msgs.extend(redraw());
            } else if state.overlays.modals.is_empty() && printable(&k) {
                // A key that does nothing says so, and where it would act.
                let why = crate::app::query::refuse::unbound_words(state, &keys);
                msgs.push(Msg::Notice(why, NoticeLevel::Error));
                msgs.extend(redraw());
            }
            msgs
        }
        KeyResolution::Action(a) => {
            let mut msgs = vec![Msg::PendingKeys(Vec::new())];
            msgs.extend(overlay_action(state, a));
            msgs
        }
    }
}

/// An action with the help or the YAML pane on top, which answer their own keys; else the
/// action for the view.
fn overlay_action(state: &AppState, a: Action) -> Vec<Msg> {
    match state.overlays.modals.last() {
        Some(Modal::Help { scroll }) => {
            let scroll = match a {
                Action::Down => *scroll + 1,
                Action::Up => scroll.saturating_sub(1),
                // The legend comes first: a page key reaches the keys below it at once.
                Action::PageDown => *scroll + 10,
                Action::PageUp => scroll.saturating_sub(10),
                Action::Back | Action::BackOrQuit | Action::Help => {
                    return vec![Msg::PopModal, Msg::Effect(Effect::Redraw)]
                }
                Action::Quit => return vec![Msg::Action(a)],
                _ => return Vec::new(),
            };
            vec![
                Msg::SetModal(Modal::Help { scroll }),
                Msg::Effect(Effect::Redraw),
            ]
        }
        Some(Modal::Yaml(_)) => vec![Msg::YamlPane(a)],
        _ => vec![Msg::Action(a)],
    }
}

/// Whether `k` is bound to `quit` (at once) in the `[global]` table.
fn quits_at_once(state: &AppState, k: &KeyEvent) -> bool {
    state.settings.keys.resolve(Mode::Global, &[Chord::of(k)])
        == KeyResolution::Action(Action::Quit)
}

/// A character key without Ctrl or Alt (what an operator types on purpose).
fn printable(k: &KeyEvent) -> bool {
    matches!(k.code, KeyCode::Char(_))
        && !k
            .modifiers
            .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// An upper-case letter the keymap leaves unbound sorts a list view by the column it starts
/// (k9s' Shift+letter): that column.
fn sort_key(state: &AppState, k: KeyEvent) -> Option<usize> {
    let KeyCode::Char(c) = k.code else {
        return None;
    };
    let chorded = k
        .modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT);
    let list = matches!(current_mode(state), Mode::View(v) if v != View::Gangs);
    if list && !chorded && c.is_ascii_uppercase() {
        letter_column(state, c)
    } else {
        None
    }
}

/// `r` (reason) and `o` (override) inside a confirm dialog.
fn confirm_extra(state: &AppState, k: KeyEvent) -> Option<Msg> {
    let Some(Modal::Confirm(d)) = state.overlays.modals.last() else {
        return None;
    };
    match k.code {
        KeyCode::Char('r') if d.reason_allowed => Some(Msg::PushModal(Modal::ReasonInput {
            purpose: ReasonPurpose::ConfirmReason,
            prompt: "reason (optional, kept in the Event and the audit log)".into(),
            buffer: d.reason.clone().unwrap_or_default(),
        })),
        KeyCode::Char('o') if d.overridable => {
            let mut d = d.clone();
            d.override_armed = !d.override_armed;
            Some(Msg::SetModal(Modal::Confirm(d)))
        }
        _ => None,
    }
}

fn filter_key(state: &AppState, k: KeyEvent, before: &str, cursor: usize) -> Vec<Msg> {
    let mut text = state.table(state.views.view).filter.text.clone();
    let mut at = cursor;
    let mut msgs = match k.code {
        KeyCode::Enter => vec![Msg::PopModal],
        KeyCode::Esc => vec![Msg::PopModal, Msg::Filter(before.to_string())],
        _ if edit_at(&mut text, &mut at, &k) => {
            let before = before.to_string();
            let modal = Modal::FilterInput { before, cursor: at };
            vec![Msg::SetModal(modal), Msg::Filter(text)]
        }
        _ => return Vec::new(),
    };
    msgs.extend(redraw());
    msgs
}

fn reject_key(state: &AppState, k: KeyEvent, key: &str, workload: &str) -> Vec<Msg> {
    // `key` is the Moves row's; a dismissal remembers the move by its identity and content.
    let dismissal = crate::app::views::moves::dismissal(state, key);
    let (purpose, prompt) = match (k.code, dismissal) {
        (KeyCode::Char('d'), Some((key, fingerprint))) => (
            ReasonPurpose::Dismiss { key, fingerprint },
            "dismiss: reason (kept under 'dismissed' until the move changes; U undoes it)"
                .to_string(),
        ),
        (KeyCode::Char('o'), _) => (
            ReasonPurpose::OptOut {
                key: workload.to_string(),
            },
            format!("opt {workload} out: reason (alfred.ome.io/opt-out-reason)"),
        ),
        (KeyCode::Esc | KeyCode::Char('n') | KeyCode::Char('q'), _) => {
            return vec![Msg::PopModal, Msg::Effect(Effect::Redraw)];
        }
        _ => return Vec::new(),
    };
    let prompt = Modal::ReasonInput {
        purpose,
        prompt,
        buffer: String::new(),
    };
    vec![
        Msg::PopModal,
        Msg::PushModal(prompt),
        Msg::Effect(Effect::Redraw),
    ]
}

fn reason_key(state: &AppState, k: KeyEvent) -> Vec<Msg> {
    let Some(Modal::ReasonInput {
        purpose,
        prompt,
        buffer,
    }) = state.overlays.modals.last()
    else {
        return Vec::new();
    };
    let mut buffer = buffer.clone();
    match k.code {
        KeyCode::Esc => vec![Msg::PopModal, Msg::Effect(Effect::Redraw)],
        KeyCode::Enter => vec![
            Msg::PopModal,
            Msg::Reason {
                purpose: purpose.clone(),
                reason: buffer.trim().to_string(),
            },
        ],
        _ if edit(&mut buffer, &k) => {
            let modal = Modal::ReasonInput {
                purpose: purpose.clone(),
                prompt: prompt.clone(),
                buffer,
            };
            vec![Msg::SetModal(modal), Msg::Effect(Effect::Redraw)]
        }
        _ => Vec::new(),
    }
}

/// Handles a mouse event: wheel scrolls, a click selects a row or a tab.
pub fn mouse(state: &AppState, m: MouseEvent) -> Vec<Msg> {
    if !state.overlays.modals.is_empty() {
        return Vec::new();
    }
    let over_map = || {
        let map = screen(state).map;
        state.views.view == View::Pools
            && state.views.detail.is_none()
            && map.height > 0
            && map.contains(m.column, m.row)
    };
    let msg = match m.kind {
        // Over the Pools view's map, the wheel scrolls the map, not the pools.
        MouseEventKind::ScrollDown if over_map() => Msg::ScrollMap(3),
        MouseEventKind::ScrollUp if over_map() => Msg::ScrollMap(-3),
        MouseEventKind::ScrollDown => Msg::Step(3),
        MouseEventKind::ScrollUp => Msg::Step(-3),
        MouseEventKind::Down(MouseButton::Left) => match click(state, m.column, m.row) {
            Some(msg) => msg,
            None => return Vec::new(),
        },
        _ => return Vec::new(),
    };
    vec![msg, Msg::Effect(Effect::Redraw)]
}

/// What a click at (`col`, `row`) selects: a tab's view, a Gangs line, a table row.
fn click(state: &AppState, col: u16, row: u16) -> Option<Msg> {
    let s = screen(state);
    if s.tabs.contains(col, row) {
        return tab_spans(state.fleet().is_some())
            .into_iter()
            .find(|(_, _, a, b)| col >= *a && col < *b)
            .map(|(v, ..)| Msg::ShowView(v));
    }
    if state.views.detail.is_some() {
        return None;
    }
    if state.views.view == View::Gangs {
        if !s.table.contains(col, row) || row <= s.table.y {
            return None;
        }
        let pos = state.views.gang_nav.offset + usize::from(row - s.table.y - 1);
        return Some(Msg::SelectGang(pos));
    }
    let first = s.first_row_y();
    if !s.table.contains(col, row) || row < first || usize::from(row - first) >= s.table_rows() {
        return None;
    }
    state.views.models.table(state.views.view)?;
    let pos = state.table(state.views.view).offset + usize::from(row - first);
    Some(Msg::SelectRow(pos))
}
