//! Tests of the keymap resolver: multi-key prefixes, fallback tables, user overrides.

use super::*;
use crate::action::View;
use crate::config::error::parse_toml;
use crate::config::keymap_file::parse_keymap;

fn file(label: &str, text: &str) -> KeymapFile {
    parse_keymap(label, &parse_toml(label, text).unwrap()).unwrap()
}

fn keys(s: &str) -> Vec<Key> {
    s.split(' ').map(|k| k.parse().unwrap()).collect()
}

const BASE: &str = r#"
[global]
keymap = [
  { on = "q", action = "quit" },
  { on = ["g", "t"], action = "next-view" },
  { on = "?", action = "help" },
]
[table]
keymap = [
  { on = "j", action = "down", desc = "Down a row" },
  { on = ["g", "g"], action = "top" },
  { on = "G", action = "bottom" },
]
[nodes]
keymap = [{ on = "q", action = "back" }]
"#;

#[test]
fn multi_key_sequences_wait_then_resolve() {
    let km = Keymap::from_file("base", &file("base.toml", BASE));
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("g")),
        Resolution::Prefix
    );
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("g g")),
        Resolution::Action(Action::Top)
    );
    // The table's `g g` makes `g` a prefix there, so `g t` falls through to global.
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("g t")),
        Resolution::Action(Action::NextView)
    );
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("g x")),
        Resolution::Unbound
    );
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &[]),
        Resolution::Unbound
    );
}

#[test]
fn a_mode_table_shadows_its_fallbacks() {
    let km = Keymap::from_file("base", &file("base.toml", BASE));
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("q")),
        Resolution::Action(Action::Back)
    );
    assert_eq!(
        km.resolve_keys(Mode::View(View::Pools), &keys("q")),
        Resolution::Action(Action::Quit)
    );
    // Global alone: `g` only starts `g t` there.
    assert_eq!(
        km.resolve_keys(Mode::Global, &keys("g")),
        Resolution::Prefix
    );
    assert_eq!(
        km.resolve_keys(Mode::Global, &keys("g g")),
        Resolution::Unbound
    );
    // Modal tables do not fall back.
    assert_eq!(
        km.resolve_keys(Mode::Confirm, &keys("q")),
        Resolution::Unbound
    );
}

#[test]
fn terminal_events_resolve_like_keys() {
    let km = Keymap::from_file("base", &file("base.toml", BASE));
    let events: Vec<KeyEvent> = keys("G").iter().map(|k| k.to_event()).collect();
    assert_eq!(
        km.resolve(Mode::Table, &events),
        Resolution::Action(Action::Bottom)
    );
}

#[test]
fn help_lists_reachable_bindings_with_descriptions() {
    let km = Keymap::from_file("base", &file("base.toml", BASE));
    let help = km.bindings(Mode::View(View::Nodes));
    let shown: Vec<(&str, Action)> = help.iter().map(|b| (b.keys.as_str(), b.action)).collect();
    assert_eq!(
        shown,
        vec![
            ("q", Action::Back),
            ("j", Action::Down),
            ("g g", Action::Top),
            ("G", Action::Bottom),
            ("g t", Action::NextView),
            ("?", Action::Help),
        ]
    );
    assert_eq!(help[1].desc, "Down a row");
    assert_eq!(help[2].desc, Action::Top.description());
    assert_eq!(
        km.keys_for(Mode::View(View::Nodes), Action::Top),
        vec!["g g".to_string()]
    );
}

#[test]
fn user_entries_replace_per_mode_and_sequence() {
    let base = Keymap::from_file("base", &file("base.toml", BASE));
    let user = file(
        "user.toml",
        r#"
[table]
keymap = [
  { on = "j", action = "page-down" },
  { on = "G", action = "none" },
  { on = "<C-e>", action = "down" },
]
"#,
    );
    let km = Keymap::overlay("base", &base, &user).unwrap();
    let table = |s: &str| km.resolve_keys(Mode::Table, &keys(s));
    assert_eq!(table("j"), Resolution::Action(Action::PageDown));
    assert_eq!(table("G"), Resolution::Unbound);
    assert_eq!(table("<C-e>"), Resolution::Action(Action::Down));
    assert_eq!(table("g g"), Resolution::Action(Action::Top));
    assert_eq!(table("q"), Resolution::Action(Action::Quit));
    // The base is untouched.
    assert_eq!(
        base.resolve_keys(Mode::Table, &keys("G")),
        Resolution::Action(Action::Bottom)
    );
}

#[test]
fn a_user_key_that_starts_a_base_sequence_is_an_error() {
    let base = Keymap::from_file("base", &file("base.toml", BASE));
    let user = file(
        "user.toml",
        "[table]\nkeymap = [{ on = \"g\", action = \"top\" }]\n",
    );
    let err = Keymap::overlay("base", &base, &user).unwrap_err();
    assert_eq!(
        err.to_string(),
        "user.toml: [table] entry 1: on = \"g\": is the start of \"g g\", bound by \
         base.toml entry 2 (top); expected each key sequence bound once per mode, and \
         none the start of another"
    );
    // Unbinding the longer sequence first makes room for it.
    let user = file(
        "user.toml",
        "[table]\nkeymap = [{ on = [\"g\", \"g\"], action = \"none\" }, \
         { on = \"g\", action = \"top\" }]\n",
    );
    let km = Keymap::overlay("base", &base, &user).unwrap();
    assert_eq!(
        km.resolve_keys(Mode::Table, &keys("g")),
        Resolution::Action(Action::Top)
    );
}

#[test]
fn partly_hidden_fallback_bindings_are_notices() {
    let base = Keymap::from_file("base", &file("base.toml", BASE));
    // Exact rebinds (`q` in [nodes] over global `q`) are deliberate: no notice.
    assert!(base.shadow_notices().is_empty());
    let user = file(
        "user.toml",
        "[nodes]\nkeymap = [{ on = \"g\", action = \"help\" }]\n",
    );
    let km = Keymap::overlay("base", &base, &user).unwrap();
    let messages: Vec<String> = km.shadow_notices().iter().map(|n| n.to_string()).collect();
    assert_eq!(
        messages,
        vec![
            "user.toml: [nodes] entry 1 `g` hides [table] `g g` (top) wherever [nodes] applies",
            "user.toml: [nodes] entry 1 `g` hides [global] `g t` (next-view) wherever [nodes] \
             applies",
        ]
    );
    assert_eq!(
        km.resolve_keys(Mode::View(View::Nodes), &keys("g")),
        Resolution::Action(Action::Help)
    );
}

#[test]
fn mode_tables_keep_their_names_and_order() {
    let names: Vec<&str> = Mode::ALL.iter().map(|m| m.name()).collect();
    let want = [
        "global", "table", "pools", "nodes", "moves", "journal", "gangs", "lints", "fleet",
        "detail", "help", "confirm", "palette", "filter",
    ];
    assert_eq!(names, want);
    for m in Mode::ALL {
        assert_eq!(Mode::from_name(m.name()), Some(*m));
    }
    let mut sorted = Mode::ALL.to_vec();
    sorted.sort();
    assert_eq!(sorted, Mode::ALL, "file order is the declaration order");
    assert_eq!(
        Mode::View(View::Moves).chain(),
        [Mode::View(View::Moves), Mode::Table, Mode::Global]
    );
}
