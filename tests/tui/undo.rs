//! Rejections an operator can take back (`U` in Moves): a dismissal is forgotten and the move
//! is listed again (the history store is told, and audits it); an opted-out workload's moves
//! read "opted out: <reason>" under their own group, and `U` opts the workload back in through
//! a confirm dialog that sends one compare-and-swap write; an opt-out of a workload Alfred is
//! evacuating for node maintenance warns first.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::dialogs::Modal;
use ome_top::app::state::View;
use ome_top::app::views::moves::{dismissal, group_key};
use ome_top::app::{update, AppState, Effect, Event};
use ome_top::engine::model::vocab::Reason;
use ome_top::protocol::{Command, Op, OpOutcome};
use ome_top::sim::demo::DemoWorld;

use crate::demo_world::{run, start};
use crate::tui_support::*;

fn selected(s: &AppState) -> String {
    s.table(View::Moves).selected_key.clone().unwrap()
}

fn row_text(s: &AppState, key: &str) -> Option<String> {
    let row = s.models().moves.rows.iter().find(|r| r.key == key)?;
    Some(
        row.cells
            .iter()
            .map(|c| c.text.as_str())
            .collect::<Vec<_>>()
            .join(" "),
    )
}

/// Opens the closed group `name` (the cursor goes to its header, then Space) and selects its
/// first row.
fn open_group(s: &mut AppState, name: &str) {
    let header = group_key(name);
    let at = s
        .models()
        .moves
        .rows
        .iter()
        .position(|r| r.key == header)
        .unwrap_or_else(|| panic!("no {name} group"));
    type_keys(s, "g");
    for _ in 0..at {
        type_keys(s, "j");
    }
    assert_eq!(selected(s), header);
    type_keys(s, " ");
    type_keys(s, "j");
}

#[test]
fn u_forgets_a_dismissal_and_the_move_is_listed_again() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "3");
    let row = selected(&s);
    let (key, _) = dismissal(&s, &row).unwrap();
    type_keys(&mut s, "rd");
    type_keys(&mut s, "known noisy");
    press(&mut s, KeyCode::Enter);
    assert!(
        row_text(&s, &row).is_none(),
        "dismissed: in the closed group"
    );
    open_group(&mut s, "dismissed");
    assert_eq!(selected(&s), row);
    assert!(row_text(&s, &row).unwrap().contains("dismissed by you"));

    let effects = type_keys(&mut s, "U");
    assert!(
        effects
            .iter()
            .any(|e| matches!(e, Effect::ForgetDismissal { key: k, .. } if *k == key)),
        "{effects:?}"
    );
    assert!(s.dismissed().is_empty());
    let text = row_text(&s, &row).expect("listed again");
    assert!(!text.contains("dismissed"), "{text}");
    assert!(!s.models().move_index.collapsed.contains_key(&row));
    // Nothing left to undo on that row now.
    type_keys(&mut s, "U");
    assert!(s.modals().is_empty());
}

/// The demo at seed 1 after a few minutes, with the workload of the first move Alfred
/// published opted out through the demo's own write path; returns the world and that workload.
pub(crate) fn opted_out_world() -> (DemoWorld, String) {
    let mut w = DemoWorld::new(1, 120, start());
    run(&mut w, start() + chrono::Duration::minutes(10));
    let a = w.feed_default(1, w.now()).analysis;
    let snap = w.snapshot();
    let workload = a
        .moves
        .iter()
        .map(|m| m.workload.to_string())
        .next()
        .expect("the demo has a move");
    let isvc = snap.isvcs.iter().find(|i| i.key() == workload).unwrap();
    let op = Op::OptOut {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
        reason: "latency sensitive".into(),
    };
    assert!(matches!(w.apply(&op, w.now()), OpOutcome::Done { .. }));
    (w, workload)
}

#[test]
fn an_opted_out_workload_reads_its_reason_and_u_opts_it_back_in() {
    let (w, workload) = opted_out_world();
    let mut s = state_with(w.feed_default(2, w.now()), 200, 60);
    type_keys(&mut s, "3");
    let header = s
        .models()
        .moves
        .rows
        .iter()
        .find(|r| r.key == group_key("opted out"))
        .expect("an opted out group");
    assert!(header.cells[5].text.contains("U opts back in"));
    open_group(&mut s, "opted out");
    let text = row_text(&s, &selected(&s)).unwrap();
    assert!(text.contains(&workload), "{text}");
    assert!(text.contains("opted out: latency sensitive"), "{text}");
    assert!(!text.contains("Ineligible"), "no eligibility code: {text}");

    type_keys(&mut s, "U");
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    assert_eq!(d.title, format!("Opt {workload} back in"));
    let lines: Vec<&str> = d.lines.iter().map(|(t, _)| t.as_str()).collect();
    assert!(lines
        .iter()
        .any(|l| l.contains("opted out: latency sensitive")));
    assert!(lines
        .iter()
        .any(|l| l.contains("remove alfred.ome.io/movable and alfred.ome.io/opt-out-reason")));
    assert!(lines.iter().any(|l| l.contains("test on uid")));
    let effects = type_keys(&mut s, "y");
    let sent: Vec<&Op> = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Send(Command { op, .. }) => Some(op),
            _ => None,
        })
        .collect();
    assert!(
        matches!(sent[..], [Op::OptIn { name, .. }] if workload.ends_with(&format!("/{name}"))),
        "{sent:?}"
    );
}

#[test]
fn opting_in_through_the_demo_removes_both_annotations_once() {
    let (mut w, workload) = opted_out_world();
    let snap = w.snapshot();
    let isvc = snap.isvcs.iter().find(|i| i.key() == workload).unwrap();
    let op = Op::OptIn {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
    };
    assert!(matches!(w.apply(&op, w.now()), OpOutcome::Done { .. }));
    // The resourceVersion moved on: the same write again is a conflict, not a second write.
    assert!(matches!(w.apply(&op, w.now()), OpOutcome::Conflict { .. }));
    let snap = w.snapshot();
    let isvc = snap.isvcs.iter().find(|i| i.key() == workload).unwrap();
    assert_eq!(isvc.annotation("alfred.ome.io/movable"), None);
    assert_eq!(isvc.annotation("alfred.ome.io/opt-out-reason"), None);
    let events = snap
        .events
        .iter()
        .filter(|e| e.reason.as_ref() == "OmeTopOptIn" && e.object_name == *isvc.name())
        .count();
    assert_eq!(events, 1);
    // Not opted out any more: another opt-in is refused without a write.
    let again = Op::OptIn {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
    };
    assert!(matches!(
        w.apply(&again, w.now()),
        OpOutcome::Refused { .. }
    ));
}

#[test]
fn opting_out_a_workload_under_a_maintenance_evacuation_warns_first() {
    let feed = fleet_feed();
    let mut analysis = (*feed.analysis).clone();
    let first = analysis
        .moves
        .first_mut()
        .expect("the mixed fleet has moves");
    first.reason = Reason::NodeMaintenance;
    let workload = first.workload.to_string();
    let from = first.from_node.as_deref().map(str::to_string);
    let mut feed = feed;
    feed.analysis = Arc::new(analysis);
    let mut s = state_with(feed, 120, 40);
    update(&mut s, Event::Resize(120, 40), now());
    type_keys(&mut s, "3");
    type_keys(&mut s, "ro");
    type_keys(&mut s, "batch window");
    press(&mut s, KeyCode::Enter);
    let Some(Modal::Confirm(d)) = s.modals().last().cloned() else {
        panic!("no confirm dialog")
    };
    assert_eq!(d.title, format!("Opt {workload} out"));
    let (warning, _) = &d.lines[0];
    assert!(
        warning.starts_with("⚠ being evacuated for node maintenance"),
        "the warning comes first: {:?}",
        d.lines
    );
    if let Some(from) = from {
        assert!(warning.contains(&from), "{warning}");
    }
    assert!(warning.contains("holds the maintenance up"), "{warning}");
}
