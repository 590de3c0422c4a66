//! `Y` copies what an operator pastes into kubectl: the node name in Nodes, a lint's object
//! without its kind, the open detail's object; nothing selected says so.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crossterm::event::KeyCode;
use ome_top::app::Effect;

use crate::tui_support;
use tui_support::*;

fn copied(effects: &[Effect]) -> Option<String> {
    effects.iter().find_map(|e| match e {
        Effect::Copy(t) => Some(t.clone()),
        _ => None,
    })
}

#[test]
fn y_copies_the_name_an_operator_pastes() {
    let mut s = state_with(fleet_feed(), 120, 40);
    assert_eq!(
        copied(&type_keys(&mut s, "2jY")).as_deref(),
        Some("a100-02")
    );
    press(&mut s, KeyCode::Enter);
    assert_eq!(copied(&type_keys(&mut s, "Y")).as_deref(), Some("a100-02"));
    let mut s = state_with(
        feed_of(snapshot("tests/fixtures/k8s/lints.json"), 1),
        120,
        40,
    );
    let got = copied(&type_keys(&mut s, "6Y")).unwrap();
    let lint = &s.models().lints.rows[s.table(ome_top::app::state::View::Lints).visible[0]];
    assert_eq!(format!("Pod {got}"), lint.cells[1].text);
}
