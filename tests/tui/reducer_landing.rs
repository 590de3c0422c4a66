//! Where an approved move ended, as the Moves row and the move's detail say it: the node the
//! new Instance runs on (before → after) and how long the move took, back on the source when
//! the new Instance landed on the node it left, and the failure with OME's message when it
//! failed. The row keeps the move row's key, so the selection stays on it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::state::View;
use ome_top::app::{update, AppState, Event};
use ome_top::engine::model::{ClusterSnapshot, LabelInt, MigrationStatus, Pod};
use ome_top::protocol::{Op, OpOutcome};
use tui_support::*;

/// What the approval wrote: the request, the row key and the source node.
struct Approved {
    uuid: String,
    key: String,
    from: String,
}

fn approve(s: &mut AppState) -> Approved {
    type_keys(s, "3");
    let key = s.table(View::Moves).selected_key.clone().unwrap();
    type_keys(s, "a");
    let effects = type_keys(s, "y");
    let Some(ome_top::app::Effect::Send(cmd)) = effects.first().cloned() else {
        panic!("no command sent: {effects:?}")
    };
    let Op::ApproveMove { uuid, .. } = cmd.op.clone() else {
        panic!("{cmd:?}")
    };
    let outcome = OpOutcome::Done {
        message: "written".into(),
        resource_version: Some("2".into()),
    };
    update(
        s,
        Event::OpDone {
            id: cmd.id,
            outcome,
        },
        now(),
    );
    let r = s.requested().last().unwrap();
    Approved {
        uuid,
        key,
        from: r.from_node.clone().unwrap(),
    }
}

/// The fleet after the migration of `r`: the IR row in `phase` (surge Instance 9), and when it
/// completed, the source Instance's pods relabelled as Instance 9 on `to`.
fn after(r: &Approved, phase: &str, to: Option<&str>, message: Option<&str>) -> ClusterSnapshot {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    let (ns, name) = r.key.split('|').nth(1).unwrap().split_once('/').unwrap();
    let comp = r.key.split('|').nth(2).unwrap().to_string();
    let source: i64 = r.key.split('|').nth(3).unwrap().parse().unwrap();
    let ir = snap
        .replicas
        .iter_mut()
        .find(|ir| {
            &*ir.namespace == ns && ir.parent.as_deref() == Some(name) && *ir.component == comp
        })
        .unwrap();
    ir.status.migrations.push(MigrationStatus {
        request_uuid: r.uuid.as_str().into(),
        trigger: "Manual".into(),
        source_instance: Some(source),
        surge_instance: Some(9),
        phase: phase.into(),
        from_node: Some(r.from.as_str().into()),
        started_at: Some(now() - chrono::Duration::seconds(95)),
        deadline: Some(now() + chrono::Duration::minutes(30)),
        completed_at: Some(now() - chrono::Duration::seconds(20)),
        message: message.map(Into::into),
    });
    let uid = ir.uid.clone();
    if let Some(to) = to {
        let pods: Vec<Pod> = snap
            .pods
            .iter()
            .map(|p| {
                let mut p = p.clone();
                let ours = p.controller.as_ref().is_some_and(|o| o.uid == uid);
                if ours && p.ome.instance_index.value() == Some(source) {
                    p.ome.instance_index = LabelInt::Value(9);
                    p.node = Some(to.into());
                }
                p
            })
            .collect();
        snap.pods = pods.into();
    }
    snap
}

fn row_cells(s: &AppState, key: &str) -> Vec<String> {
    let row = s.models().moves.rows.iter().find(|r| r.key == key);
    let row = row.unwrap_or_else(|| panic!("no Moves row {key}"));
    row.cells.iter().map(|c| c.text.clone()).collect()
}

fn detail_text(s: &AppState) -> String {
    let d = s.detail().as_ref().expect("a detail is open");
    d.lines
        .iter()
        .map(|l| l.text.clone())
        .collect::<Vec<_>>()
        .join("\n")
}

fn feed(s: &mut AppState, snap: ClusterSnapshot, generation: u64) {
    update(s, Event::Feed(Arc::new(feed_of(snap, generation))), now());
}

#[test]
fn a_completed_move_names_the_new_node_and_how_long_it_took() {
    let mut s = state_with(feed_of(fleet_of_journal(), 1), 160, 48);
    let r = approve(&mut s);
    let to = "h100-07";
    assert_ne!(r.from, to);
    feed(&mut s, after(&r, "Completed", Some(to), None), 2);
    let cells = row_cells(&s, &r.key);
    assert_eq!(cells[1], "moved", "{cells:?}");
    assert_eq!(cells[7], r.from, "FROM: {cells:?}");
    assert_eq!(cells[8], to, "TARGETS: {cells:?}");
    assert!(
        cells[5].contains("1m 15s") || cells[5].contains("in 1m"),
        "{cells:?}"
    );
    assert_eq!(
        s.table(View::Moves).selected_key.as_deref(),
        Some(r.key.as_str())
    );
    press(&mut s, KeyCode::Enter);
    let text = detail_text(&s);
    assert!(
        text.contains(&format!("moved {} → {to} in 1m", r.from)),
        "{text}"
    );
    assert!(text.contains("Instance 9"), "{text}");
    assert!(!text.contains("replaced this Instance"), "{text}");
}

#[test]
fn a_move_whose_copy_landed_on_the_node_it_left_says_so() {
    let mut s = state_with(feed_of(fleet_of_journal(), 1), 160, 48);
    let r = approve(&mut s);
    let from = r.from.clone();
    feed(&mut s, after(&r, "Completed", Some(&from), None), 2);
    let cells = row_cells(&s, &r.key);
    assert_eq!(cells[1], "moved back", "{cells:?}");
    assert!(cells[5].starts_with("back on the source"), "{cells:?}");
    press(&mut s, KeyCode::Enter);
    let text = detail_text(&s);
    assert!(
        text.contains(&format!("runs on {from}, the node it left")),
        "{text}"
    );
}

#[test]
fn a_failed_move_says_why_and_where_the_instance_stays() {
    let mut s = state_with(feed_of(fleet_of_journal(), 1), 160, 48);
    let r = approve(&mut s);
    let why = "no node had room for the surge copy before the deadline";
    feed(&mut s, after(&r, "Failed", None, Some(why)), 2);
    let cells = row_cells(&s, &r.key);
    assert_eq!(cells[1], "failed", "{cells:?}");
    assert_eq!(cells[5], format!("failed: {why}"), "{cells:?}");
    press(&mut s, KeyCode::Enter);
    let text = detail_text(&s);
    assert!(
        text.contains(&format!("failed in 1m: {why}"))
            && text.contains(&format!("stays on {}", r.from)),
        "{text}"
    );
}

fn fleet_of_journal() -> ClusterSnapshot {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    snap
}
