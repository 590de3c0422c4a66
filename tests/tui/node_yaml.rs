//! `show-yaml` through the reducer: the key asks the data source for the node's YAML (a read,
//! so also in read-only sessions), the answer fills the pane, an error closes it with a notice
//! naming the node, and inside the pane only scrolling, reading again and closing act.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::dialogs::{Modal, YamlPane};
use ome_top::app::state::{AppState, NoticeLevel, View};
use ome_top::app::{update, Effect, Event};
use ome_top::protocol::{Fetch, Permissions};
use tui_support::*;

fn fetch(node: &str) -> Fetch {
    Fetch::NodeYaml(Arc::from(node))
}

fn fetches(effects: &[Effect]) -> Vec<Fetch> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Fetch(f) => Some(f.clone()),
            _ => None,
        })
        .collect()
}

fn pane(s: &AppState) -> Option<&YamlPane> {
    match s.modals().last() {
        Some(Modal::Yaml(p)) => Some(p),
        _ => None,
    }
}

fn answer(s: &mut AppState, node: &str, result: Result<&str, &str>) -> Vec<Effect> {
    let result = result
        .map(str::to_string)
        .map_err(|e| ome_top::protocol::FetchError::Read(e.to_string()));
    let event = Event::Fetched {
        fetch: fetch(node),
        result,
    };
    update(s, event, now())
}

/// The node view on `node`, with keymap `keymap` and every action refused (`--readonly`).
fn nodes_on(node: &str, keymap: &str) -> AppState {
    let mut feed = fleet_feed();
    feed.permissions = Permissions::read_only("read-only mode (--readonly)");
    let mut s = state_with_keymap(feed, 120, 40, keymap);
    type_keys(&mut s, "2/");
    type_keys(&mut s, node);
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.table(View::Nodes).selected_key.as_deref(), Some(node));
    s
}

#[test]
fn y_asks_for_the_selected_nodes_yaml_even_read_only_and_the_answer_fills_the_pane() {
    for keymap in ["default", "vim"] {
        let mut s = nodes_on("h100-04", keymap);
        let effects = type_keys(&mut s, "y");
        assert_eq!(fetches(&effects), vec![fetch("h100-04")], "{keymap}");
        assert!(!effects.iter().any(|e| matches!(e, Effect::Send(_))));
        assert_eq!(pane(&s).unwrap().lines, None, "reading until the answer");
        // An answer for another node leaves the pane waiting.
        answer(&mut s, "h100-05", Ok("kind: Node\n"));
        assert_eq!(pane(&s).unwrap().lines, None);
        let yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  name: h100-04\n";
        answer(&mut s, "h100-04", Ok(yaml));
        let lines = pane(&s).unwrap().lines.clone().unwrap();
        assert_eq!(
            lines,
            [
                "apiVersion: v1",
                "kind: Node",
                "metadata:",
                "  name: h100-04"
            ]
        );
        press(&mut s, KeyCode::Esc);
        assert!(s.modals().is_empty(), "esc closes the pane");
        assert!(s.detail().is_none(), "back where the key was pressed");
    }
}

#[test]
fn in_the_node_detail_y_reads_the_detail_node_and_esc_returns_to_it() {
    let mut s = nodes_on("h100-04", "default");
    press(&mut s, KeyCode::Enter);
    assert!(s.detail().is_some());
    let effects = type_keys(&mut s, "y");
    assert_eq!(fetches(&effects), vec![fetch("h100-04")]);
    press(&mut s, KeyCode::Esc);
    assert!(s.modals().is_empty());
    assert!(s.detail().is_some(), "the detail stays open under the pane");
}

#[test]
fn the_pane_scrolls_reads_again_and_ignores_writes() {
    let mut s = nodes_on("h100-04", "default");
    type_keys(&mut s, "y");
    let yaml: String = (0..100).map(|i| format!("line{i}: {i}\n")).collect();
    answer(&mut s, "h100-04", Ok(&yaml));
    type_keys(&mut s, "jjj");
    assert_eq!(pane(&s).unwrap().scroll, 3);
    type_keys(&mut s, "k");
    assert_eq!(pane(&s).unwrap().scroll, 2);
    type_keys(&mut s, "G");
    assert_eq!(pane(&s).unwrap().scroll, 99, "the last line at the top");
    type_keys(&mut s, "j");
    assert_eq!(pane(&s).unwrap().scroll, 99, "no scrolling past the end");
    type_keys(&mut s, "g");
    assert_eq!(pane(&s).unwrap().scroll, 0);
    press(&mut s, KeyCode::PageDown);
    assert!(pane(&s).unwrap().scroll > 1);
    let effects = type_keys(&mut s, "c");
    assert!(effects.is_empty(), "{effects:?}");
    assert!(
        pane(&s).is_some(),
        "a write key opens no dialog over the pane"
    );
    assert_eq!(fetches(&type_keys(&mut s, "y")), vec![fetch("h100-04")]);
    type_keys(&mut s, "q");
    assert!(s.modals().is_empty());
    assert!(!s.quitting(), "q closes the pane, it does not quit");
}

#[test]
fn a_failed_read_closes_the_pane_with_a_notice_naming_the_node_and_the_error() {
    let mut s = nodes_on("h100-04", "default");
    type_keys(&mut s, "y");
    answer(&mut s, "h100-04", Err("nodes \"h100-04\" is forbidden"));
    assert!(pane(&s).is_none());
    let notice = s.notice().unwrap();
    assert_eq!(notice.level, NoticeLevel::Error);
    assert_eq!(
        notice.text,
        "node/h100-04: YAML not read: nodes \"h100-04\" is forbidden"
    );
}

#[test]
fn y_does_nothing_outside_the_nodes_view() {
    let mut s = state_with(fleet_feed(), 120, 40);
    for view in ["1", "3", "4", "6"] {
        let effects = type_keys(&mut s, &format!("{view}y"));
        assert!(fetches(&effects).is_empty(), "view {view}");
        assert!(s.modals().is_empty());
    }
}
