//! `q` never quits from a detail: in a detail, a dialog or a sub-view (the full-size map,
//! help, the YAML pane, a pool's nodes) `q` and Esc go back one level; on a list view `q` asks
//! "Quit ome-top? y/n"; Ctrl-C and `:q` quit at once. With both shipped keymaps.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ome_top::app::dialogs::Modal;
use ome_top::app::state::{AppState, View};
use ome_top::app::{update, Effect, Event};

use crate::tui_support;
use tui_support::*;

fn quits(effects: &[Effect]) -> bool {
    effects.contains(&Effect::Quit)
}

fn ctrl_c(s: &mut AppState) -> Vec<Effect> {
    let k = KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL);
    update(s, Event::Key(k), now())
}

/// Every cell of the rendered screen.
fn text(s: &AppState) -> String {
    let t = render(s);
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn q_on_a_list_asks_first_and_y_quits_n_and_esc_stay() {
    for keymap in ["default", "vim"] {
        let mut s = state_with_keymap(fleet_feed(), 120, 40, keymap);
        type_keys(&mut s, "2");
        assert!(!quits(&type_keys(&mut s, "q")), "{keymap}: q quit at once");
        assert!(
            text(&s).contains("Quit ome-top? y/n"),
            "{keymap}:\n{}",
            text(&s)
        );
        assert!(!quits(&type_keys(&mut s, "n")));
        assert!(s.modals().is_empty(), "{keymap}: n closes the question");
        assert!(!quits(&type_keys(&mut s, "q")));
        assert!(!quits(&press(&mut s, KeyCode::Esc)));
        assert!(s.modals().is_empty(), "{keymap}: esc closes the question");
        assert!(!quits(&type_keys(&mut s, "q")));
        assert!(
            !quits(&type_keys(&mut s, "q")),
            "{keymap}: q again goes back"
        );
        assert!(s.modals().is_empty());
        type_keys(&mut s, "q");
        assert!(quits(&type_keys(&mut s, "y")), "{keymap}: y quits");
    }
}

#[test]
fn ctrl_c_and_colon_q_quit_at_once() {
    let mut s = state_with(fleet_feed(), 120, 40);
    assert!(quits(&ctrl_c(&mut s)));
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, ":q");
    assert!(quits(&press(&mut s, KeyCode::Enter)));
    // Ctrl-C at the question quits too.
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "q");
    assert!(quits(&ctrl_c(&mut s)));
}

#[test]
fn q_in_a_detail_help_or_dialog_goes_back_one_level() {
    for keymap in ["default", "vim"] {
        let mut s = state_with_keymap(fleet_feed(), 120, 40, keymap);
        // The node detail.
        type_keys(&mut s, "2");
        press(&mut s, KeyCode::Enter);
        assert!(s.detail().is_some());
        assert!(!quits(&type_keys(&mut s, "q")));
        assert!(s.detail().is_none() && s.modals().is_empty(), "{keymap}");
        // Help.
        type_keys(&mut s, "?");
        assert!(!quits(&type_keys(&mut s, "q")));
        assert!(s.modals().is_empty(), "{keymap}: q closes help");
        // A confirm dialog.
        let cordon = if keymap == "vim" { "C" } else { "c" };
        type_keys(&mut s, cordon);
        assert!(
            matches!(s.modals().last(), Some(Modal::Confirm(_))),
            "{keymap}"
        );
        assert!(!quits(&type_keys(&mut s, "q")));
        assert!(s.modals().is_empty(), "{keymap}: q cancels the dialog");
        assert_eq!(s.view(), View::Nodes);
    }
}

#[test]
fn q_leaves_the_full_size_map_and_a_pools_nodes_before_it_asks() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "m");
    assert!(s.pool_map().full);
    assert!(!quits(&type_keys(&mut s, "q")));
    assert!(!s.pool_map().full, "q closes the full-size map");
    assert!(s.modals().is_empty(), "without asking to quit");
    // Enter on a pool shows its nodes: q goes back to every node.
    press(&mut s, KeyCode::Enter);
    assert!(s.pool_scope().is_some());
    assert!(!quits(&type_keys(&mut s, "q")));
    assert!(s.pool_scope().is_none());
    assert!(s.modals().is_empty());
}

#[test]
fn help_says_how_to_quit() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "?");
    let lines = ome_top::ui::help::help_lines(&s);
    let says = |keys: &str, what: &str| {
        lines
            .iter()
            .any(|(_, k, d)| k.split(", ").any(|x| x == keys) && d.contains(what))
    };
    assert!(says("ctrl-c", "Quit at once"), "{lines:?}");
    assert!(says("q", "on a list, ask to quit"), "{lines:?}");
    assert!(says(":q", "Quit at once"), "{lines:?}");
}

/// The demo's fleet watched beside its first cluster (`ome-top demo --clusters 3`): that
/// cluster's list asks to quit, as the Fleet view was never opened; once it was, Esc and `q`
/// in a member's views go back to it.
#[test]
fn q_goes_back_to_the_fleet_only_when_the_operator_came_from_it() {
    use ome_top::app::fleet::FleetEvent;
    let mut s = state_with(fleet_feed(), 120, 40);
    let contexts = vec!["demo-1".to_string(), "demo-2".to_string()];
    update(
        &mut s,
        Event::Fleet(FleetEvent::Watching { contexts }),
        now(),
    );
    type_keys(&mut s, "2");
    assert!(!quits(&type_keys(&mut s, "q")));
    assert_eq!(s.view(), View::Nodes, "q went to a Fleet view never opened");
    assert_eq!(s.modals().last(), Some(&Modal::QuitConfirm));
    press(&mut s, KeyCode::Esc);
    assert!(
        press(&mut s, KeyCode::Esc).is_empty(),
        "esc has nothing to close"
    );
    assert_eq!(s.view(), View::Nodes);
    type_keys(&mut s, "7");
    assert_eq!(s.view(), View::Fleet);
    type_keys(&mut s, "2");
    type_keys(&mut s, "q");
    assert_eq!(
        s.view(),
        View::Fleet,
        "q goes back to the Fleet view it came from"
    );
    assert!(s.modals().is_empty());
}
