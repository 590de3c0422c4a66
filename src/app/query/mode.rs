//! Which key table applies now: the shown view's or its detail's, or the open dialog's. Read by
//! input (to resolve a key), the footer and help (to list the keys).
//!
//! Owns: `base_mode`, `current_mode`. Plain functions of the state.

use crate::app::dialogs::Modal;
use crate::app::keys::Mode;
use crate::app::state::AppState;

/// The key table of what is under any modal: the open detail, else the current view.
pub fn base_mode(state: &AppState) -> Mode {
    if state.views.detail.is_some() {
        Mode::Detail
    } else {
        Mode::View(state.views.view)
    }
}

/// The key table that applies now.
pub fn current_mode(state: &AppState) -> Mode {
    match state.overlays.modals.last() {
        Some(Modal::Confirm(_) | Modal::RejectChoice { .. } | Modal::QuitConfirm) => Mode::Confirm,
        Some(Modal::Help { .. }) => Mode::Help,
        // The YAML pane scrolls with the detail pane's keys (`app::update::yaml::pane_action`).
        Some(Modal::Yaml(_)) => Mode::Detail,
        _ => base_mode(state),
    }
}
