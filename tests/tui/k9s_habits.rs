//! k9s habits: a command ome-top does not have says "unknown command" (no jump to a view
//! whose name it starts); `:ns` names only a namespace the data holds and keeps the Moves
//! view's moves to act on and its advisory groups; `w` acts in every view or says why not; `T`
//! names the theme it puts on; a sort from an advisory group's row lands on one of its moves.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crossterm::event::KeyCode;
use ome_top::app::state::{AppState, NoticeLevel, View};
use ome_top::app::views::moves::MoveEntry;

use crate::tui_support;
use tui_support::*;

/// Types `:LINE` and Enter.
fn run(s: &mut AppState, line: &str) {
    type_keys(s, ":");
    type_keys(s, line);
    press(s, KeyCode::Enter);
}

fn notice(s: &AppState) -> (String, NoticeLevel) {
    let n = s.notice().expect("a notice");
    (n.text.clone(), n.level)
}

#[test]
fn pods_and_other_unknown_words_say_unknown_command_and_stay() {
    for line in ["po", "pods", "dp", "n"] {
        let mut s = state_with(fleet_feed(), 120, 40);
        type_keys(&mut s, "4");
        run(&mut s, line);
        assert_eq!(s.view(), View::Journal, ":{line} jumped");
        assert_eq!(
            notice(&s),
            (format!("unknown command: {line}"), NoticeLevel::Error)
        );
    }
    // A suggestion chosen with ↓, or completed with Tab, still runs.
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, ":po");
    press(&mut s, KeyCode::Tab);
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.view(), View::Pools);
    type_keys(&mut s, ":mo");
    press(&mut s, KeyCode::Down);
    press(&mut s, KeyCode::Up);
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.view(), View::Moves);
}

#[test]
fn ns_of_a_namespace_the_data_lacks_warns_and_keeps_the_scope() {
    let mut s = state_with(fleet_feed(), 120, 40);
    run(&mut s, "ns nosuch");
    assert_eq!(s.namespace_scope(), None);
    let (text, level) = notice(&s);
    assert_eq!(level, NoticeLevel::Error);
    assert!(text.contains("no namespace nosuch"), "{text}");
    run(&mut s, "ns prod");
    assert_eq!(s.namespace_scope(), Some("prod"));
    run(&mut s, "ns nosuch");
    assert_eq!(
        s.namespace_scope(),
        Some("prod"),
        "a typo keeps the scope in force"
    );
}

#[test]
fn ns_keeps_the_moves_to_act_on_first_and_the_advisory_groups() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "3");
    // A namespace with moves to act on and advice.
    let workloads = |s: &AppState| -> Vec<(bool, String)> {
        let m = s.models();
        (m.move_index.entries.iter().zip(&m.moves.rows))
            .map(|(e, r)| {
                (
                    matches!(e, MoveEntry::Group { .. }),
                    r.cells[3].text.clone(),
                )
            })
            .collect()
    };
    let all = workloads(&s);
    let ns = all
        .iter()
        .find(|(g, w)| !g && w.contains('/'))
        .map(|(_, w)| w.split('/').next().unwrap().to_string())
        .unwrap();
    run(&mut s, &format!("ns {ns}"));
    let index = &s.models().move_index;
    assert!(!index.flat, "the scope keeps the groups");
    assert!(index.actionable > 0);
    let scoped = workloads(&s);
    let moves: Vec<&String> = scoped.iter().filter(|(g, _)| !g).map(|(_, w)| w).collect();
    assert!(
        moves.iter().all(|w| w.starts_with(&format!("{ns}/"))),
        "{moves:?}"
    );
    // The groups count the namespace's advice only.
    for (e, row) in index.entries.iter().zip(&s.models().moves.rows) {
        if let MoveEntry::Group { count, .. } = e {
            assert!(row.cells[3].text.contains(&count.to_string()));
        }
    }
    assert!(
        index.actionable + index.advisory < all.iter().filter(|(g, _)| !g).count() + 1000,
        "counts are the namespace's"
    );
    let visible = s.table(View::Moves).visible.len();
    assert_eq!(
        visible,
        s.models().moves.rows.len(),
        "group rows are not filtered out"
    );
}

#[test]
fn w_acts_in_every_view_or_says_why_not() {
    for key in ["1", "2", "3", "4", "5", "6"] {
        let mut s = state_with(fleet_feed(), 120, 40);
        type_keys(&mut s, key);
        let view = s.view();
        let before = s.notices().len();
        type_keys(&mut s, "w");
        assert!(s.notices().len() > before, "{view:?}: w said nothing");
        let (text, _) = notice(&s);
        if view == View::Gangs {
            assert!(text.contains("Gangs"), "{text}");
        } else {
            assert!(text.contains("wide"), "{view:?}: {text}");
        }
    }
    // In a detail it says why not.
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2");
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "w");
    assert!(notice(&s).0.starts_with("w "), "{}", notice(&s).0);
}

#[test]
fn next_theme_names_the_theme_now_on() {
    let mut s = state_with(fleet_feed(), 120, 40);
    s.set_themes(vec!["default".into(), "light".into()], "default");
    type_keys(&mut s, "T");
    assert_eq!(s.theme_name(), "light");
    assert_eq!(notice(&s), ("theme: light".into(), NoticeLevel::Info));
    type_keys(&mut s, "T");
    assert_eq!(notice(&s).0, "theme: default");
}

#[test]
fn a_sort_from_a_group_row_lands_on_one_of_its_moves_on_screen() {
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let mut s = state_with(demo_feed(), w, h);
        type_keys(&mut s, "3");
        // The last group's row (its moves are far down the sorted list).
        let group = s
            .models()
            .move_index
            .entries
            .iter()
            .rposition(|e| matches!(e, MoveEntry::Group { .. }))
            .unwrap();
        let MoveEntry::Group { reason, .. } = s.models().move_index.entries[group].clone() else {
            unreachable!()
        };
        let members: Vec<String> = s
            .models()
            .move_index
            .collapsed
            .iter()
            .filter(|(_, g)| g.ends_with(&reason))
            .map(|(k, _)| k.clone())
            .collect();
        while s.table(View::Moves).selected < group {
            type_keys(&mut s, "j");
        }
        type_keys(&mut s, "S");
        let t = s.table(View::Moves);
        let key = t.selected_key.clone().unwrap();
        assert!(members.contains(&key), "{key} is not in the group {reason}");
        let rows = ome_top::app::layout::screen(&s).table_rows();
        assert!(
            t.offset <= t.selected && t.selected < t.offset + rows,
            "{w}×{h}"
        );
    }
}
