//! Reducer tests: key sequences in, state and effects out (no terminal, fixed `now`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::{
    KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ome_top::app::dialogs::Modal;
use ome_top::app::layout::screen;
use ome_top::app::state::View;
use ome_top::app::{update, Effect, Event};
use ome_top::engine::journal::ClearingDecision;
use ome_top::engine::model::vocab::{AdvisoryReason, Outcome};
use ome_top::protocol::{Command, Op, OpOutcome, Permissions};
use tui_support::*;

fn selected_key(s: &ome_top::app::AppState, v: View) -> Option<String> {
    s.table(v).selected_key.clone()
}

fn select_node(s: &mut ome_top::app::AppState, name: &str) {
    type_keys(s, "2/");
    type_keys(s, name);
    press(s, KeyCode::Enter);
    assert_eq!(selected_key(s, View::Nodes).as_deref(), Some(name));
}

/// `default` binds `g` to the first row; `vim` binds `g g`, so there one `g` waits.
#[test]
fn j_k_and_gg_g_move_the_selection() {
    for keymap in ["default", "vim"] {
        let mut s = state_with_keymap(fleet_feed(), 120, 40, keymap);
        type_keys(&mut s, "2jj");
        assert_eq!(s.table(View::Nodes).selected, 2);
        type_keys(&mut s, "k");
        assert_eq!(s.table(View::Nodes).selected, 1);
        type_keys(&mut s, "G");
        let last = s.table(View::Nodes).visible.len() - 1;
        assert_eq!(s.table(View::Nodes).selected, last);
        if keymap == "vim" {
            type_keys(&mut s, "g");
            assert_eq!(
                s.table(View::Nodes).selected,
                last,
                "one g is a pending prefix"
            );
        }
        type_keys(&mut s, "g");
        assert_eq!(s.table(View::Nodes).selected, 0, "{keymap}");
    }
}

#[test]
fn key_releases_are_ignored() {
    let mut s = state_with(fleet_feed(), 120, 40);
    let mut k = KeyEvent::new(KeyCode::Char('2'), KeyModifiers::NONE);
    k.kind = KeyEventKind::Release;
    assert!(update(&mut s, Event::Key(k), now()).is_empty());
    assert_eq!(s.view(), View::Pools);
}

#[test]
fn selection_follows_the_row_key_across_feeds_and_sorting() {
    let mut s = state_with(fleet_feed(), 120, 40);
    select_node(&mut s, "h100-04");
    press(&mut s, KeyCode::Esc);
    assert!(!s.table(View::Nodes).filter.is_active());
    assert_eq!(selected_key(&s, View::Nodes).as_deref(), Some("h100-04"));
    type_keys(&mut s, "S");
    assert_eq!(selected_key(&s, View::Nodes).as_deref(), Some("h100-04"));
    let mut next = fleet_feed();
    next.generation = 2;
    update(&mut s, Event::Feed(Arc::new(next)), now());
    assert_eq!(selected_key(&s, View::Nodes).as_deref(), Some("h100-04"));
}

#[test]
fn filter_is_substring_or_regex_and_esc_restores() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2/h100");
    let h100 = s.table(View::Nodes).visible.len();
    let expected = s
        .models()
        .nodes
        .rows
        .iter()
        .filter(|r| r.key.contains("h100"))
        .count();
    assert_eq!(h100, expected);
    press(&mut s, KeyCode::Esc);
    assert_eq!(
        s.table(View::Nodes).visible.len(),
        s.models().nodes.rows.len()
    );
    type_keys(&mut s, "/~^a100-0[12]$");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.table(View::Nodes).visible.len(), 2);
    assert!(s.modals().is_empty());
}

#[test]
fn sort_cycles_columns_and_reverses() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2sS");
    assert_eq!(s.table(View::Nodes).sort, Some((0, true)));
    let first = s.table(View::Nodes).visible[0];
    let max = s
        .models()
        .nodes
        .rows
        .iter()
        .map(|r| r.key.clone())
        .max()
        .unwrap();
    assert_eq!(s.models().nodes.rows[first].key, max);
}

#[test]
fn enter_on_a_pool_scopes_the_nodes_view() {
    let mut s = state_with(fleet_feed(), 120, 40);
    let pool = selected_key(&s, View::Pools).unwrap();
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.view(), View::Nodes);
    assert_eq!(s.pool_scope(), Some(pool.as_str()));
    let n = s
        .shown()
        .unwrap()
        .analysis
        .nodes
        .iter()
        .filter(|n| n.pool.as_deref() == Some(pool.as_str()))
        .count();
    assert_eq!(s.table(View::Nodes).visible.len(), n);
    press(&mut s, KeyCode::Esc);
    assert_eq!(s.pool_scope(), None);
}

#[test]
fn cordon_confirm_sends_one_command_and_op_done_closes_the_loop() {
    let mut s = state_with(fleet_feed(), 120, 40);
    select_node(&mut s, "h100-04");
    type_keys(&mut s, "c");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no confirm dialog")
    };
    assert!(
        d.lines[0].0.contains("spec.unschedulable false → true"),
        "{:?}",
        d.lines
    );
    type_keys(&mut s, "r");
    type_keys(&mut s, "xid 79");
    press(&mut s, KeyCode::Enter);
    let effects = type_keys(&mut s, "y");
    let rv = s
        .shown()
        .unwrap()
        .snapshot
        .nodes
        .iter()
        .find(|n| &*n.name == "h100-04")
        .unwrap()
        .resource_version
        .clone();
    let sent: Vec<&Command> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(c) => Some(c),
            _ => None,
        })
        .collect();
    assert_eq!(sent.len(), 1);
    assert_eq!(
        sent[0].op,
        Op::Cordon {
            node: "h100-04".into(),
            resource_version: rv,
            reason: Some("xid 79".into())
        }
    );
    let id = sent[0].id;
    assert!(s.pending().contains_key(&id));
    assert!(update(
        &mut s,
        Event::OpDone {
            id: id + 99,
            outcome: OpOutcome::Failed {
                message: "x".into()
            }
        },
        now()
    )
    .is_empty());
    let done = update(
        &mut s,
        Event::OpDone {
            id,
            outcome: OpOutcome::Done {
                message: "cordoned".into(),
                resource_version: None,
            },
        },
        now(),
    );
    assert!(done.iter().any(|e| matches!(e, Effect::RecordAudit { .. })));
    assert!(s.pending().is_empty());
    assert!(s.notice().unwrap().text.contains("cordon done"));
}

#[test]
fn actions_are_refused_with_the_permission_reason() {
    let mut feed = fleet_feed();
    feed.permissions = Permissions::read_only("offline snapshot: actions disabled");
    let mut s = state_with(feed, 120, 40);
    select_node(&mut s, "h100-04");
    assert!(type_keys(&mut s, "c")
        .iter()
        .all(|e| !matches!(e, Effect::Send(_))));
    assert!(s.modals().is_empty());
    assert!(s
        .notice()
        .unwrap()
        .text
        .contains("offline snapshot: actions disabled"));
}

#[test]
fn approve_shows_prechecks_annotation_and_warning_with_the_injected_uuid() {
    let mut s = state_with(fleet_feed(), 160, 48);
    type_keys(&mut s, "3a");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    let text: Vec<&str> = d.lines.iter().map(|(t, _)| t.as_str()).collect();
    assert!(text
        .iter()
        .any(|t| t.contains("the Instance is still Ready")));
    assert!(text.iter().any(|t| t.contains("no in-flight request")));
    assert!(text.iter().any(|t| t.contains("not opted out")));
    assert!(text
        .iter()
        .any(|t| t.contains("InFlightCap") && t.contains("cooldown")));
    let uuid = "00000000-0000-4000-8000-000000000001";
    match d.op.clone() {
        Some(Op::ApproveMove { uuid: u, value, .. }) => {
            assert_eq!(u, uuid);
            assert!(value.contains("\"requested_by\":\"ome-top\""));
            let effects = type_keys(&mut s, "y");
            assert!(effects.iter().any(|e| matches!(
                e,
                Effect::Send(Command {
                    op: Op::ApproveMove { .. },
                    ..
                })
            )));
            assert_eq!(s.requested()[0].uuid, uuid);
        }
        _ => {
            assert!(d.blocked.is_some());
            let effects = type_keys(&mut s, "y");
            assert!(effects.iter().all(|e| !matches!(e, Effect::Send(_))));
        }
    }
}

#[test]
fn reject_dismiss_moves_the_row_under_dismissed_and_records_it() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "3");
    let row = selected_key(&s, View::Moves).unwrap();
    let (key, _) = ome_top::app::views::moves::dismissal(&s, &row).unwrap();
    assert!(
        key.starts_with("move|nodehealth|prod/chat|engine|2|"),
        "{key}"
    );
    type_keys(&mut s, "rd");
    type_keys(&mut s, "known noisy");
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects.iter().any(|e| matches!(e, Effect::RecordDismissal { key: k, reason, .. } if *k == key && reason == "known noisy")));
    // Out of the moves to act on, into the closed "dismissed" group, which says so.
    let group = ome_top::app::views::moves::group_key("dismissed");
    assert!(s.models().moves.rows.iter().all(|r| r.key != row));
    assert_eq!(s.models().move_index.collapsed.get(&row), Some(&group));
    let header = s
        .models()
        .moves
        .rows
        .iter()
        .find(|r| r.key == group)
        .unwrap();
    assert_eq!(header.cells[3].text, "▸ 1 dismissed");
    // Opened, the row says who dismissed it, when and why.
    let d = &s.dismissed()[&key];
    assert_eq!((d.by.as_deref(), d.reason.as_str()), (None, "known noisy"));
}

#[test]
fn a_dismissal_survives_a_rescore_and_ends_when_the_targets_or_the_gate_change() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "3");
    let row = selected_key(&s, View::Moves).unwrap();
    type_keys(&mut s, "rd");
    type_keys(&mut s, "seen it");
    press(&mut s, KeyCode::Enter);
    let listed = |s: &ome_top::app::AppState| s.models().moves.rows.iter().any(|r| r.key == row);
    assert!(!listed(&s));
    let with_moves = |edit: &dyn Fn(&mut ome_top::engine::planning::MoveRow), generation| {
        let mut feed = fleet_feed();
        let mut analysis = (*feed.analysis).clone();
        assert!(
            !analysis.moves.is_empty(),
            "the mixed fleet has computed moves"
        );
        analysis.moves.iter_mut().for_each(edit);
        feed.analysis = Arc::new(analysis);
        feed.generation = generation;
        Event::Feed(Arc::new(feed))
    };
    let rescored = with_moves(&|m| m.score += 0.5, 2);
    update(&mut s, rescored, now());
    assert!(!listed(&s), "a rescore keeps it dismissed");
    assert!(
        s.models().moves.rows.len() > 1,
        "the other moves are listed"
    );
    let reordered = with_moves(&|m| m.hint_targets.reverse(), 3);
    update(&mut s, reordered, now());
    assert!(
        !listed(&s),
        "the same targets in another order keep it dismissed"
    );
    let gated = with_moves(
        &|m| {
            m.outcome = match m.outcome {
                Outcome::Rejected => Outcome::Admitted,
                _ => Outcome::Rejected,
            }
        },
        4,
    );
    update(&mut s, gated, now());
    assert!(listed(&s), "another gate's verdict shows it again");
    let mut s2 = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s2, "3rd");
    type_keys(&mut s2, "seen it");
    press(&mut s2, KeyCode::Enter);
    let retargeted = with_moves(&|m| m.hint_targets.push("gpu-elsewhere".into()), 5);
    update(&mut s2, retargeted, now());
    assert!(listed(&s2), "new targets show it again");
}

#[test]
fn clearing_needs_a_stalled_entry_and_passing_checks_or_an_override() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "4j");
    type_keys(&mut s, "x");
    assert!(s.modals().is_empty());
    assert!(s.notice().unwrap().text.contains("only stalled entries"));
    type_keys(&mut s, "kx");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    let clearable = matches!(
        s.shown().unwrap().analysis.clearing[0].1.decision,
        ClearingDecision::Clearable
    );
    assert_eq!(d.blocked.is_none(), clearable);
    if !clearable {
        assert!(type_keys(&mut s, "y")
            .iter()
            .all(|e| !matches!(e, Effect::Send(_))));
        type_keys(&mut s, "o");
    }
    let effects = type_keys(&mut s, "y");
    let op = effects
        .iter()
        .find_map(|e| match e {
            Effect::Send(c) => Some(c.op.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(
        op,
        Op::ClearJournalEntry {
            namespace: "ome".into(),
            uuid: "00000000-0000-4000-8000-000000000001".into(),
            resource_version: "4711".into(),
            override_checks: !clearable,
        }
    );
}

#[test]
fn freeze_keeps_rows_until_unfrozen() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "2");
    let rows = s.models().nodes.rows.len();
    type_keys(&mut s, "f");
    let mut snap = (*fleet_feed().snapshot).clone();
    snap.nodes.pop();
    let next = feed_of(snap, 2);
    update(&mut s, Event::Feed(Arc::new(next)), now());
    assert_eq!(s.models().nodes.rows.len(), rows);
    type_keys(&mut s, "f");
    assert_eq!(s.models().nodes.rows.len(), rows - 1);
}

#[test]
fn help_palette_and_mouse() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "?");
    assert!(matches!(s.modals().last(), Some(Modal::Help { .. })));
    press(&mut s, KeyCode::Esc);
    assert!(s.modals().is_empty());
    type_keys(&mut s, ":view-lints");
    press(&mut s, KeyCode::Enter);
    assert_eq!(s.view(), View::Lints);
    type_keys(&mut s, "2");
    let y = screen(&s).first_row_y() + 3;
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: 5,
        row: y,
        modifiers: KeyModifiers::NONE,
    };
    update(&mut s, Event::Mouse(click), now());
    assert_eq!(s.table(View::Nodes).selected, 3);
}

#[test]
fn an_action_in_a_detail_applies_to_the_detail_not_the_moved_selection() {
    let mut s = state_with(fleet_feed(), 160, 48);
    type_keys(&mut s, "3/~ProfileNotConfigured|NonExecutable");
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Enter);
    let on_the_move = |s: &ome_top::app::AppState| {
        let lines = &s.detail().as_ref().unwrap().lines;
        lines
            .iter()
            .any(|l| l.text == "prod/chat / engine / instance 2")
    };
    assert!(on_the_move(&s));
    // The next feed changes the move's content (same identity): the filter now hides its row,
    // the table selection moves to the next one, the detail stays on its move.
    let mut feed = fleet_feed();
    feed.generation = 2;
    let mut analysis = (*feed.analysis).clone();
    analysis.moves[0].advisory_reason = Some(AdvisoryReason::NoSurgeHeadroom);
    feed.analysis = Arc::new(analysis);
    update(&mut s, Event::Feed(Arc::new(feed)), now());
    assert!(on_the_move(&s));
    type_keys(&mut s, "a");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no confirm dialog")
    };
    assert!(
        d.lines
            .iter()
            .any(|(t, _)| t == "Pre-checks for prod/chat engine/2"),
        "{:?}",
        d.lines
    );
}
