//! Leaving ome-top as k9s does: `q` goes back one level (a detail, a dialog, the full-size
//! map, a pool's nodes, a filter, a fleet member) and, on a list view with nothing to go back
//! from, asks "Quit ome-top? y/n"; Ctrl-C and `:q` quit at once.
//!
//! Owns: `quit_action`. Plain data.

use crate::action::Action;
use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::state::AppState;
use crate::app::update::{fleet, nav};

/// The effects of `action` when it is about quitting (`None`: it is not).
pub fn quit_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    match action {
        Action::Quit => {}
        Action::Confirm if state.overlays.modals.last() == Some(&Modal::QuitConfirm) => {}
        Action::BackOrQuit => {
            if !nav::back(state) && !fleet::back_to_fleet(state) {
                state.overlays.modals.push(Modal::QuitConfirm);
            }
            return Some(vec![Effect::Redraw]);
        }
        _ => return None,
    }
    state.session.quitting = true;
    Some(vec![Effect::Quit])
}
