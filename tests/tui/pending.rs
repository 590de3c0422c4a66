//! The Pending list under Pools (`p`, `:pending`), the explanation of a pending GPU pod or
//! gang (Enter), its unblock plan walked move by move through the approve dialog (`P`), and
//! the what-if of a change to a node (`W`): reducer tests and whole-screen snapshots at
//! 80×24, 120×40 and 200×60 on the demo world.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::Duration;
use crossterm::event::KeyCode;
use ome_top::app::detail::DetailKind;
use ome_top::app::dialogs::Modal;
use ome_top::app::state::{AppState, View};
use ome_top::app::views::pending::what_if::WHAT_IF_MARK;
use ome_top::app::Effect;
use ome_top::protocol::{Feed, Op};
use ome_top::sim::demo::DemoWorld;

use crate::tui_support::{now, press, render, state_with, type_keys};

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

/// The demo world of `ome-top demo --seed 2 --nodes 90`, five sim minutes in, at `now()`:
/// pending pods and gangs, some with an unblock plan of one move.
pub(crate) fn demo_pending_feed() -> Feed {
    demo_feed_of(2)
}

/// The demo world of `ome-top demo --seed N --nodes 90`, five sim minutes in, at `now()`
/// (seed 8: two gangs whose plan takes two moves).
fn demo_feed_of(seed: u64) -> Feed {
    let start = now() - Duration::minutes(5);
    let mut w = DemoWorld::new(seed, 90, start);
    let mut t = start;
    while t < now() {
        t += Duration::seconds(10);
        w.step(t);
    }
    w.set_churn(false);
    w.feed_default(1, now())
}

/// The Pending list shown, at `w`×`h`.
fn listing(w: u16, h: u16) -> AppState {
    let mut s = state_with(demo_pending_feed(), w, h);
    type_keys(&mut s, "p");
    s
}

/// The row key and position of the first row whose plan cell (the fourth) says `words`.
pub(crate) fn row_saying(s: &AppState, words: &str) -> (usize, String) {
    let rows = &s.pending_nav().rows.rows;
    let at = rows
        .iter()
        .position(|r| r.cells.get(3).is_some_and(|c| c.text.contains(words)))
        .unwrap_or_else(|| panic!("no pending row says {words}"));
    (at, rows[at].key.clone())
}

/// The explanation of the first pending pod with a plan, at `w`×`h`.
fn explaining_a_plan(w: u16, h: u16) -> (AppState, String) {
    explaining(listing(w, h), "move free")
}

/// The explanation of the first row of `s`'s Pending list whose plan says `words`.
fn explaining(mut s: AppState, words: &str) -> (AppState, String) {
    let (at, key) = row_saying(&s, words);
    for _ in 0..at {
        press(&mut s, KeyCode::Down);
    }
    press(&mut s, KeyCode::Enter);
    (s, key)
}

fn detail_kind(s: &AppState) -> Option<DetailKind> {
    s.detail().as_ref().map(|d| d.kind.clone())
}

fn sends_a_write(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Send(_)))
}

#[test]
fn p_in_pools_and_the_palette_show_the_pending_list() {
    let s = listing(120, 40);
    assert!(s.pending_nav().open);
    assert_eq!(s.view(), View::Pools);
    assert!(s.pending_nav().rows.rows.len() >= 3);

    let mut s = state_with(demo_pending_feed(), 120, 40);
    type_keys(&mut s, "2");
    type_keys(&mut s, ":pending");
    press(&mut s, KeyCode::Enter);
    assert!(s.pending_nav().open, "`:pending` opens the list");
    assert_eq!(s.view(), View::Pools);

    press(&mut s, KeyCode::Esc);
    assert!(!s.pending_nav().open, "esc goes back to the Pools table");
}

#[test]
fn enter_on_a_pending_row_explains_that_pod() {
    let mut s = listing(120, 40);
    let (at, key) = row_saying(&s, "move free");
    assert!(at > 0, "the pod with a plan is not the first row: {key}");
    for _ in 0..at {
        press(&mut s, KeyCode::Down);
    }
    press(&mut s, KeyCode::Enter);
    assert_eq!(detail_kind(&s), Some(DetailKind::Pending(key.clone())));
    let d = s.detail().as_ref().unwrap();
    assert!(d.title.contains(&key), "{}", d.title);
    let text: Vec<&str> = d.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(text.iter().any(|l| l.starts_with(&format!("{key} asks "))));
    assert!(text.iter().any(|l| l.starts_with("Why it waits")));
    assert!(text.iter().any(|l| l.contains("move frees node")));
    assert!(text.iter().any(|l| l.trim_start().starts_with("now: ")));

    // Esc goes back to the list, on the same row.
    press(&mut s, KeyCode::Esc);
    assert_eq!(detail_kind(&s), None);
    assert!(s.pending_nav().open);
    assert_eq!(s.pending_nav().table.selected_key.as_deref(), Some(&*key));
}

#[test]
fn plan_key_opens_the_approve_dialog_and_confirming_sends_the_one_move() {
    let (mut s, key) = explaining_a_plan(120, 40);
    let effects = type_keys(&mut s, "P");
    assert!(!sends_a_write(&effects), "P alone writes nothing");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no confirm dialog: {:?}", s.modals());
    };
    assert!(d.title.starts_with("Approve move of "), "{}", d.title);
    assert!(d.can_confirm(), "{:?}", d.blocked);
    let effects = type_keys(&mut s, "y");
    let sent: Vec<&Op> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(c) => Some(&c.op),
            _ => None,
        })
        .collect();
    assert!(
        matches!(sent.as_slice(), [Op::ApproveMove { .. }]),
        "{sent:?}"
    );
    assert!(
        s.modals().is_empty(),
        "a plan of one move opens no second dialog"
    );
    assert!(s.pending_nav().walk.is_none());
    let notice = s.notices().last().unwrap().text.clone();
    assert!(
        notice.contains(&format!("unblock plan of {key}: 1 of 1 moves requested")),
        "{notice}"
    );
}

#[test]
fn a_gangs_plan_walks_its_moves_one_dialog_at_a_time_and_cancel_stops_it() {
    let mut s = state_with(demo_feed_of(8), 120, 40);
    type_keys(&mut s, "p");
    let (mut s, key) = explaining(s, "2 moves free");
    let d = s.detail().as_ref().unwrap();
    assert!(
        d.lines.iter().any(|l| l.text.starts_with("Gang ")),
        "a gang's pane"
    );
    assert!(d
        .lines
        .iter()
        .any(|l| l.text.starts_with("2 moves free domain ")));

    let dialog_says = |s: &AppState, words: &str| match s.modals().last() {
        Some(Modal::Confirm(d)) => {
            assert_eq!(s.modals().len(), 1, "one dialog at a time");
            assert!(d.lines[0].0.contains(words), "{:?}", d.lines[0]);
        }
        other => panic!("no confirm dialog: {other:?}"),
    };
    assert!(!sends_a_write(&type_keys(&mut s, "P")));
    dialog_says(&s, &format!("unblock plan of {key}: move 1 of 2"));
    let first = type_keys(&mut s, "y");
    assert_eq!(
        first
            .iter()
            .filter(|e| matches!(e, Effect::Send(_)))
            .count(),
        1
    );
    dialog_says(&s, &format!("unblock plan of {key}: move 2 of 2"));

    let second = type_keys(&mut s, "n");
    assert!(!sends_a_write(&second), "cancel writes nothing");
    assert!(s.modals().is_empty());
    assert!(s.pending_nav().walk.is_none(), "cancel stops the walk");
    let notice = s.notices().last().unwrap().text.clone();
    assert!(
        notice.contains(&format!("unblock plan of {key} stopped: 1 of 2")),
        "{notice}"
    );
}

#[test]
fn cancelling_a_plan_dialog_stops_the_walk_and_writes_nothing() {
    let (mut s, key) = explaining_a_plan(120, 40);
    type_keys(&mut s, "P");
    assert!(s.pending_nav().walk.is_some());
    let effects = type_keys(&mut s, "n");
    assert!(!sends_a_write(&effects));
    assert!(s.modals().is_empty());
    assert!(s.pending_nav().walk.is_none());
    let notice = s.notices().last().unwrap().text.clone();
    assert!(
        notice.contains(&format!("unblock plan of {key} stopped: 0 of 1")),
        "{notice}"
    );
    assert_eq!(detail_kind(&s), Some(DetailKind::Pending(key)));
}

#[test]
fn no_plan_says_why_and_the_plan_key_writes_nothing() {
    let mut s = listing(120, 40);
    let (at, key) = row_saying(&s, "no plan");
    for _ in 0..at {
        press(&mut s, KeyCode::Down);
    }
    press(&mut s, KeyCode::Enter);
    assert_eq!(detail_kind(&s), Some(DetailKind::Pending(key)));
    let d = s.detail().as_ref().unwrap();
    assert!(d.lines.iter().any(|l| l.text.starts_with("no plan: ")));
    let effects = type_keys(&mut s, "P");
    assert!(!sends_a_write(&effects));
    assert!(s.modals().is_empty());
    let notice = s.notices().last().unwrap().text.clone();
    assert!(notice.contains("no unblock plan"), "{notice}");
}

#[test]
fn what_if_on_a_node_writes_nothing_and_says_so() {
    let mut s = state_with(demo_pending_feed(), 120, 40);
    type_keys(&mut s, "2");
    let node = s.models().nodes.rows[0].key.clone();
    let mut titles = Vec::new();
    for _ in 0..4 {
        let effects = type_keys(&mut s, "W");
        assert!(
            effects.iter().all(|e| *e == Effect::Redraw),
            "a what-if asks for nothing but a redraw: {effects:?}"
        );
        let d = s.detail().as_ref().unwrap();
        assert_eq!(d.kind, DetailKind::WhatIf(node.clone()));
        assert_eq!(d.lines[0].text, WHAT_IF_MARK);
        assert!(d.title.contains("nothing is written"), "{}", d.title);
        titles.push(d.title.clone());
    }
    assert!(titles[0].contains("cordoned"), "{titles:?}");
    assert!(titles[1].contains("evacuated"), "{titles:?}");
    assert!(titles[2].contains("under maintenance"), "{titles:?}");
    assert_eq!(titles[3], titles[0], "W cycles back to the cordon");
    assert!(s.pending().is_empty(), "no command was sent");
}

#[test]
fn what_if_of_an_evacuation_shows_displaced_instances_pools_and_budget() {
    let mut s = state_with(demo_pending_feed(), 120, 40);
    type_keys(&mut s, "2");
    // A node with GPU pods on it displaces something.
    let busy = (s.models().nodes.rows.iter())
        .position(|r| r.cells.iter().any(|c| c.text.starts_with("8/8")));
    for _ in 0..busy.unwrap_or(0) {
        press(&mut s, KeyCode::Down);
    }
    type_keys(&mut s, "WW");
    let d = s.detail().as_ref().unwrap();
    let text: Vec<&str> = d.lines.iter().map(|l| l.text.as_str()).collect();
    for heading in [
        "Displaced Instances",
        "Per pool: largest request one node fits",
        "Alfred's budget for moving them",
    ] {
        assert!(
            text.iter().any(|l| l.starts_with(heading)),
            "{heading}: {text:#?}"
        );
    }
    assert!(text.iter().any(|l| l.contains(" → ")), "{text:#?}");
}

#[test]
fn what_if_of_policy_values_typed_into_the_dialog_writes_nothing() {
    let mut s = state_with(demo_pending_feed(), 120, 40);
    let effects = type_keys(&mut s, "W");
    assert!(!sends_a_write(&effects));
    let Some(Modal::ReasonInput { buffer, .. }) = s.modals().last() else {
        panic!("no policy dialog: {:?}", s.modals());
    };
    assert!(
        buffer.starts_with("threshold="),
        "the values in force: {buffer}"
    );
    // A value that does not read says why and keeps the dialog open on the typed line.
    for _ in 0..buffer.len() {
        press(&mut s, KeyCode::Backspace);
    }
    type_keys(&mut s, "threshold=2");
    press(&mut s, KeyCode::Enter);
    assert!(s
        .notices()
        .last()
        .unwrap()
        .text
        .contains("a number from 0 to 1"));
    assert!(matches!(s.modals().last(), Some(Modal::ReasonInput { .. })));
    for _ in 0.."threshold=2".len() {
        press(&mut s, KeyCode::Backspace);
    }
    type_keys(
        &mut s,
        "threshold=0.9 in-flight=1 per-hour=2 windows=Sat@01:00-02:00",
    );
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects.iter().all(|e| *e == Effect::Redraw), "{effects:?}");
    assert!(s.pending().is_empty(), "no command was sent");
    let d = s.detail().as_ref().unwrap();
    assert_eq!(d.lines[0].text, WHAT_IF_MARK);
    let text: Vec<&str> = d.lines.iter().map(|l| l.text.as_str()).collect();
    assert!(
        text.contains(&"what if: threshold=0.9 in-flight=1 per-hour=2 windows=Sat@01:00-02:00"),
        "{text:#?}"
    );
    assert!(
        text.iter()
            .any(|l| l.contains("in flight 0 of cap 1 · last hour")),
        "{text:#?}"
    );
    assert!(text
        .iter()
        .any(|l| l.starts_with("Moves Alfred would admit this pass: ")));
}

#[test]
fn pending_screens_at_every_size() {
    for (w, h) in SIZES {
        insta::assert_snapshot!(
            format!("pending_list_{w}x{h}"),
            render(&listing(w, h)).backend()
        );
        let (s, _) = explaining_a_plan(w, h);
        insta::assert_snapshot!(format!("pending_explain_{w}x{h}"), render(&s).backend());
        let (mut s, _) = explaining_a_plan(w, h);
        type_keys(&mut s, "P");
        insta::assert_snapshot!(format!("pending_plan_dialog_{w}x{h}"), render(&s).backend());
        let mut s = state_with(demo_feed_of(8), w, h);
        type_keys(&mut s, "p");
        let (s, _) = explaining(s, "2 moves free");
        insta::assert_snapshot!(format!("pending_gang_plan_{w}x{h}"), render(&s).backend());
        let mut s = state_with(demo_pending_feed(), w, h);
        type_keys(&mut s, "2W");
        insta::assert_snapshot!(format!("what_if_cordon_{w}x{h}"), render(&s).backend());
        type_keys(&mut s, "W");
        insta::assert_snapshot!(format!("what_if_evacuate_{w}x{h}"), render(&s).backend());
        let mut s = state_with(demo_pending_feed(), w, h);
        type_keys(&mut s, "W");
        insta::assert_snapshot!(
            format!("what_if_policy_dialog_{w}x{h}"),
            render(&s).backend()
        );
        press(&mut s, KeyCode::Enter);
        insta::assert_snapshot!(format!("what_if_policy_{w}x{h}"), render(&s).backend());
    }
}
