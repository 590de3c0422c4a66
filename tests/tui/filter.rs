//! The `/` filter prompt as an operator types into it: regex first, a substring when the text
//! is not an expression, `!` to keep the rows that do not match, and the shell's line-editing
//! chords (Ctrl-U deletes to the start, Ctrl-W deletes a word, Home/End and arrows move the
//! cursor; other Ctrl chords type nothing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ome_top::app::state::View;
use ome_top::app::{update, Event};

use crate::tui_support;
use tui_support::*;

fn ctrl(s: &mut ome_top::app::AppState, c: char) {
    let k = KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
    update(s, Event::Key(k), now());
}

fn visible_keys(s: &ome_top::app::AppState) -> Vec<String> {
    let t = s.table(View::Nodes);
    t.visible
        .iter()
        .map(|&i| s.models().nodes.rows[i].key.clone())
        .collect()
}

#[test]
fn regex_first_and_bang_inverts() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2/^a100-0[12]$");
    assert_eq!(visible_keys(&s).len(), 2);
    let all = s.models().nodes.rows.len();
    ctrl(&mut s, 'u');
    assert_eq!(s.table(View::Nodes).filter.text, "");
    assert_eq!(visible_keys(&s).len(), all);
    type_keys(&mut s, "!h100");
    let kept = visible_keys(&s);
    assert!(!kept.is_empty() && kept.iter().all(|k| !k.contains("h100")));
    assert_eq!(
        kept.len(),
        s.models()
            .nodes
            .rows
            .iter()
            .filter(|r| !r.haystack.contains("h100"))
            .count()
    );
}

#[test]
fn ctrl_w_deletes_a_word_and_other_chords_type_nothing() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2/h100 clear");
    ctrl(&mut s, 'w');
    assert_eq!(s.table(View::Nodes).filter.text, "h100 ");
    ctrl(&mut s, 'c');
    ctrl(&mut s, 'x');
    assert_eq!(s.table(View::Nodes).filter.text, "h100 ");
    ctrl(&mut s, 'w');
    assert_eq!(s.table(View::Nodes).filter.text, "");
    press(&mut s, KeyCode::Enter);
    assert!(s.modals().is_empty());
}

#[test]
fn home_end_and_arrows_move_the_cursor_and_typing_inserts_there() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2/100-0");
    press(&mut s, KeyCode::Home);
    type_keys(&mut s, "h");
    assert_eq!(s.table(View::Nodes).filter.text, "h100-0");
    press(&mut s, KeyCode::End);
    type_keys(&mut s, "4");
    assert_eq!(s.table(View::Nodes).filter.text, "h100-04");
    press(&mut s, KeyCode::Left);
    press(&mut s, KeyCode::Left);
    press(&mut s, KeyCode::Backspace);
    assert_eq!(s.table(View::Nodes).filter.text, "h10004");
    press(&mut s, KeyCode::Delete);
    assert_eq!(s.table(View::Nodes).filter.text, "h1004");
    // Ctrl-U deletes to the start, keeping what is after the cursor.
    ctrl(&mut s, 'u');
    assert_eq!(s.table(View::Nodes).filter.text, "4");
    ctrl(&mut s, 'e');
    type_keys(&mut s, "0é");
    assert_eq!(s.table(View::Nodes).filter.text, "40é");
    press(&mut s, KeyCode::Left);
    press(&mut s, KeyCode::Backspace);
    assert_eq!(s.table(View::Nodes).filter.text, "4é");
    let screen = format!("{:?}", render(&s).backend());
    assert!(screen.contains("/4▏é"), "the cursor is drawn where it is");
}
