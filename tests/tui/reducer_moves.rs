//! Reducer tests of the Moves view: Alfred's and ome-top's rows merged per (Instance, policy)
//! with a disagreement marker, the moves to act on first, advisory rows grouped by reason
//! (closed, opened by Enter or Space, listed flat under a filter or a sort), the selection kept
//! on its key across feeds, and approvals that need the explicit override exactly when
//! ome-top says the move cannot run.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::dialogs::Modal;
use ome_top::app::state::{AppState, View};
use ome_top::app::views::moves::MoveEntry;
use ome_top::app::{update, Effect, Event};
use ome_top::engine::migration::parse_request_annotation;
use ome_top::protocol::{Command, Op, OpOutcome};
use tui_support::*;

/// Row keys of the Moves table as shown, top to bottom.
fn shown_keys(s: &AppState) -> Vec<String> {
    let t = s.table(View::Moves);
    t.visible
        .iter()
        .map(|i| s.models().moves.rows[*i].key.clone())
        .collect()
}

/// The text of `column` (by title) in the row keyed `key`.
fn cell(s: &AppState, key: &str, column: &str) -> String {
    let col = s
        .models()
        .moves
        .columns
        .iter()
        .position(|c| c.title == column)
        .unwrap();
    let row = s.models().moves.rows.iter().find(|r| r.key == key).unwrap();
    row.cells[col].text.clone()
}

/// Selects the shown row keyed `key` (by moving down from the top).
fn select(s: &mut AppState, key: &str) {
    type_keys(s, "g");
    let pos = shown_keys(s).iter().position(|k| k == key).unwrap();
    for _ in 0..pos {
        type_keys(s, "j");
    }
    assert_eq!(s.table(View::Moves).selected_key.as_deref(), Some(key));
}

fn moves(feed: ome_top::protocol::Feed) -> AppState {
    let mut s = state_with(feed, 160, 48);
    type_keys(&mut s, "3");
    s
}

fn sent(effects: &[Effect]) -> Vec<Op> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(Command { op, .. }) => Some(op.clone()),
            _ => None,
        })
        .collect()
}

const WITHHELD: &str = "defragmentation|prod/chat|engine|0";
const RECOMMENDED: &str = "nodehealth|prod/chat|engine|2";
const SUBMITTED: &str = "nodehealth|prod/chat|engine|1";
const RAW: &str = "advisory|RawDeploymentMigrationUnsupported";
const NON_EXEC: &str = "advisory|NonExecutableObservedFragmentation";

#[test]
fn one_row_per_instance_and_policy_with_both_outcomes_and_the_disagreements() {
    let mut s = moves(alfred_feed());
    type_keys(&mut s, "/~.");
    press(&mut s, KeyCode::Enter);
    // 7 computed rows and 6 of Alfred's: 5 pair up, one of each side stands alone.
    assert_eq!(s.models().moves.rows.len(), 8);
    let keys = shown_keys(&s);
    let unique: std::collections::BTreeSet<&String> = keys.iter().collect();
    assert_eq!(unique.len(), keys.len(), "{keys:?}");
    // Alfred withheld it, ome-top calls it advice: both shown, marked.
    assert_eq!(cell(&s, WITHHELD, "ALFRED"), "withheld");
    assert_eq!(cell(&s, WITHHELD, "OME-TOP"), "advisory");
    assert_eq!(cell(&s, WITHHELD, "≠"), "≠");
    // The same advice on both sides: no mark.
    assert_eq!(cell(&s, RECOMMENDED, "ALFRED"), "advisory");
    assert_eq!(cell(&s, RECOMMENDED, "≠"), "");
    // A different advisory reason is a disagreement too.
    let llm1 = "defragmentation|legacy/llm|engine|1";
    assert_eq!(cell(&s, llm1, "≠"), "≠");
    // Only Alfred has it (a request in flight): ome-top's column is empty, marked.
    assert_eq!(cell(&s, SUBMITTED, "OME-TOP"), "-");
    assert_eq!(cell(&s, SUBMITTED, "WHY"), "▸ submitted");
    assert_eq!(cell(&s, SUBMITTED, "≠"), "≠");
    // Without Alfred's pass nothing is marked.
    let s = moves(fleet_feed());
    assert!(s
        .models()
        .moves
        .rows
        .iter()
        .all(|r| r.cells[0].text.is_empty()));
}

#[test]
fn moves_to_act_on_lead_and_advice_is_grouped_by_reason_closed() {
    let s = moves(alfred_feed());
    // Withheld, then a recommend-only move with a plan, then the request in flight; then one
    // closed group per advisory reason, the largest first.
    assert_eq!(
        shown_keys(&s),
        [WITHHELD, RECOMMENDED, SUBMITTED, RAW, NON_EXEC]
    );
    assert_eq!(cell(&s, RAW, "WORKLOAD"), "▸ 3 advisory");
    assert_eq!(cell(&s, RAW, "WHY"), "RawDeploymentMigrationUnsupported");
    let index = &s.models().move_index;
    assert_eq!((index.actionable, index.advisory, index.groups), (3, 5, 2));
    assert!(matches!(
        index.entries[3],
        MoveEntry::Group { ref reason, count: 3 } if reason == "RawDeploymentMigrationUnsupported"
    ));
}

#[test]
fn enter_and_space_open_and_close_a_group_and_it_stays_open_across_feeds() {
    let mut s = moves(alfred_feed());
    select(&mut s, RAW);
    press(&mut s, KeyCode::Enter);
    assert!(
        s.detail().is_none(),
        "Enter on a group opens the group, not a detail"
    );
    let llm = [
        "defragmentation|legacy/llm|engine|0",
        "defragmentation|legacy/llm|engine|1",
        "defragmentation|legacy/llm|engine|2",
    ];
    let keys = shown_keys(&s);
    assert_eq!(keys[3..7], [RAW, llm[0], llm[1], llm[2]]);
    assert_eq!(cell(&s, RAW, "WORKLOAD"), "▾ 3 advisory");
    // A new feed keeps the group open and the selection on its row.
    type_keys(&mut s, "j");
    let mut next = alfred_feed();
    next.generation = 2;
    update(&mut s, Event::Feed(Arc::new(next)), now());
    assert_eq!(shown_keys(&s)[3..7], [RAW, llm[0], llm[1], llm[2]]);
    assert_eq!(s.table(View::Moves).selected_key.as_deref(), Some(llm[0]));
    // Space on a move of an open group closes it and selects the group's row.
    press(&mut s, KeyCode::Char(' '));
    assert_eq!(
        shown_keys(&s),
        [WITHHELD, RECOMMENDED, SUBMITTED, RAW, NON_EXEC]
    );
    assert_eq!(s.table(View::Moves).selected_key.as_deref(), Some(RAW));
    // Space on the group row opens it again; Space on a move to act on does nothing.
    press(&mut s, KeyCode::Char(' '));
    assert_eq!(shown_keys(&s).len(), 8);
    type_keys(&mut s, "g");
    press(&mut s, KeyCode::Char(' '));
    assert_eq!(shown_keys(&s).len(), 8);
}

#[test]
fn a_filter_or_a_sort_lists_every_move_without_groups() {
    let mut s = moves(alfred_feed());
    type_keys(&mut s, "/legacy");
    assert_eq!(
        shown_keys(&s).len(),
        3,
        "closed groups hide nothing from a filter"
    );
    assert!(s.models().move_index.flat);
    press(&mut s, KeyCode::Esc);
    assert_eq!(shown_keys(&s).len(), 5, "the groups are back");
    type_keys(&mut s, "s");
    assert_eq!(shown_keys(&s).len(), 8);
    assert!(shown_keys(&s).iter().all(|k| !k.starts_with("advisory|")));
    // `s` walks the shown columns, then back to the engine's order.
    let shown = s
        .models()
        .moves
        .columns
        .iter()
        .filter(|c| !c.wide_only)
        .count();
    type_keys(&mut s, &"s".repeat(shown - 1));
    assert!(s.table(View::Moves).sort.is_some());
    type_keys(&mut s, "s");
    assert_eq!(s.table(View::Moves).sort, None);
    assert_eq!(shown_keys(&s).len(), 5);
}

#[test]
fn a_selected_move_that_turns_advisory_moves_to_its_group_row() {
    let mut s = moves(alfred_feed());
    select(&mut s, RECOMMENDED);
    // The next pass drops the plan: the move is plain advice now, inside a closed group.
    let mut feed = alfred_feed();
    feed.generation = 2;
    let mut a = (*feed.analysis).clone();
    let row = a
        .moves
        .iter_mut()
        .find(|m| m.policy.as_str() == "nodehealth" && m.instance == 2)
        .unwrap();
    row.plan = None;
    feed.analysis = Arc::new(a);
    update(&mut s, Event::Feed(Arc::new(feed)), now());
    assert!(!shown_keys(&s).contains(&RECOMMENDED.to_string()));
    assert_eq!(
        s.table(View::Moves).selected_key.as_deref(),
        Some("advisory|ProfileNotConfigured")
    );
}

#[test]
fn an_executable_move_confirms_with_y_and_writes_no_override() {
    let mut s = moves(alfred_feed());
    select(&mut s, RECOMMENDED);
    type_keys(&mut s, "a");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    assert!(d.blocked.is_none(), "{:?}", d.lines);
    assert!(
        d.lines[0].0.starts_with("ome-top: can run"),
        "{:?}",
        d.lines
    );
    let ops = sent(&type_keys(&mut s, "y"));
    let [Op::ApproveMove {
        value, overrode, ..
    }] = &ops[..]
    else {
        panic!("{ops:?}")
    };
    assert_eq!(*overrode, None);
    let key = "ome.io/migration-request-v1-00000000-0000-4000-8000-000000000001";
    let request = parse_request_annotation(key, value).unwrap();
    assert_eq!(
        (request.instance, request.from_node.as_str()),
        (2, "h100-04")
    );
    assert_eq!(request.hint_target_nodes, ["h100-01", "h100-02"]);
}

#[test]
fn advice_that_only_does_not_pay_off_still_runs_with_y_and_alfreds_targets() {
    let mut s = moves(alfred_feed());
    select(&mut s, WITHHELD);
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "a");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    let text: Vec<&str> = d.lines.iter().map(|(t, _)| t.as_str()).collect();
    assert!(
        text[0].starts_with("ome-top: can run (a target has room), though no move here pays off"),
        "{text:?}"
    );
    assert!(text.contains(&"≠ Alfred published withheld (SerialDispatchLimit): they disagree"));
    assert!(text.contains(&"Pre-checks for prod/chat engine/0"));
    assert!(d.blocked.is_none() && !d.overridable);
    let ops = sent(&type_keys(&mut s, "y"));
    let [Op::ApproveMove {
        value, overrode, ..
    }] = &ops[..]
    else {
        panic!("{ops:?}")
    };
    assert_eq!(*overrode, None);
    // The request is Alfred's move: ome-top's row names no target, Alfred's does.
    let key = "ome.io/migration-request-v1-00000000-0000-4000-8000-000000000001";
    let request = parse_request_annotation(key, value).unwrap();
    assert_eq!(
        (request.instance, request.from_node.as_str()),
        (0, "h100-01")
    );
    assert_eq!(request.hint_target_nodes, ["h100-03"]);
}

#[test]
fn a_move_that_cannot_run_needs_the_override_and_the_audit_effect_carries_it() {
    let mut s = moves(demo_feed());
    type_keys(&mut s, "/NoSurgeHeadroom");
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "a");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    let text: Vec<&str> = d.lines.iter().map(|(t, _)| t.as_str()).collect();
    assert_eq!(
        text[0],
        "ome-top: cannot run: no node in the pool has room for the Instance's surge copy \
         (NoSurgeHeadroom)"
    );
    assert!(
        text.contains(&"Pre-checks for team-b/embed-113 engine/0"),
        "{text:?}"
    );
    assert!(d.overridable);
    // Plain `y` sends nothing and says how to go ahead.
    assert!(sent(&type_keys(&mut s, "y")).is_empty());
    assert!(s.notice().unwrap().text.contains("press o to override"));
    assert!(matches!(s.modals().last(), Some(Modal::Confirm(_))));
    // `o` arms, `o` disarms, `o` arms again; then `y` sends the request with its override.
    type_keys(&mut s, "oo");
    assert!(sent(&type_keys(&mut s, "y")).is_empty());
    type_keys(&mut s, "o");
    let ops = sent(&type_keys(&mut s, "y"));
    let [op @ Op::ApproveMove {
        value, overrode, ..
    }] = &ops[..]
    else {
        panic!("{ops:?}")
    };
    assert_eq!(overrode.as_deref(), Some("NoSurgeHeadroom"));
    let key = "ome.io/migration-request-v1-00000000-0000-4000-8000-000000000001";
    let request = parse_request_annotation(key, value).unwrap();
    assert_eq!(
        (request.instance, request.from_node.as_str()),
        (0, "gpu-a100-005")
    );
    let id = s.pending().keys().next().copied().unwrap();
    let done = update(
        &mut s,
        Event::OpDone {
            id,
            outcome: OpOutcome::Done {
                message: "written".into(),
                resource_version: Some("8".into()),
            },
        },
        now(),
    );
    assert!(done
        .iter()
        .any(|e| matches!(e, Effect::RecordAudit { op: o, .. } if o == op)));
}

#[test]
fn a_move_nothing_would_run_is_refused_without_an_override() {
    let mut s = moves(alfred_feed());
    select(&mut s, RAW);
    // On a group row there is no move to approve or reject.
    type_keys(&mut s, "a");
    assert!(s.modals().is_empty());
    assert!(s.notice().unwrap().text.contains("select a move"));
    type_keys(&mut s, "r");
    assert!(s.modals().is_empty());
    assert!(s
        .notice()
        .unwrap()
        .text
        .starts_with("reject: select a move"));
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "j");
    type_keys(&mut s, "a");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    assert!(!d.overridable);
    assert!(d.op.is_none());
    assert!(
        d.blocked.as_deref().unwrap().contains("RawDeployment"),
        "{d:?}"
    );
    type_keys(&mut s, "o");
    assert!(sent(&type_keys(&mut s, "y")).is_empty());
}
