//! The reducer tracks an approved migration request to its end: each phase the
//! InferenceReplica's `status.migrations[]` row reports for the request raises one notice, the
//! terminal phase says the request ended, and nothing is announced twice.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use ome_top::app::{update, Event};
use ome_top::engine::model::{ClusterSnapshot, MigrationStatus};
use ome_top::protocol::{Op, OpOutcome};
use tui_support::*;

fn fleet_with(migration: Option<(&str, &str)>) -> ClusterSnapshot {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    add_journal(&mut snap);
    if let Some((uuid, phase)) = migration {
        let ir = snap
            .replicas
            .iter_mut()
            .find(|ir| &*ir.namespace == "prod" && &*ir.component == "engine")
            .unwrap();
        ir.status.migrations.push(MigrationStatus {
            request_uuid: uuid.into(),
            trigger: "Manual".into(),
            source_instance: Some(2),
            surge_instance: Some(5),
            phase: phase.into(),
            from_node: Some("h100-04".into()),
            started_at: Some(now()),
            deadline: Some(now() + chrono::Duration::minutes(30)),
            completed_at: (phase == "Completed").then(now),
            message: None,
        });
    }
    snap
}

fn notices(s: &ome_top::app::AppState) -> Vec<String> {
    s.notices().iter().map(|n| n.text.clone()).collect()
}

#[test]
fn an_approved_request_is_announced_phase_by_phase_until_it_ends() {
    let mut s = state_with(feed_of(fleet_with(None), 1), 160, 48);
    type_keys(&mut s, "3a");
    let effects = type_keys(&mut s, "y");
    let Some(ome_top::app::Effect::Send(cmd)) = effects.first().cloned() else {
        panic!("no command sent: {effects:?}")
    };
    let Op::ApproveMove { uuid, .. } = cmd.op.clone() else {
        panic!("{cmd:?}")
    };
    let done = OpOutcome::Done {
        message: "written".into(),
        resource_version: Some("2".into()),
    };
    update(
        &mut s,
        Event::OpDone {
            id: cmd.id,
            outcome: done,
        },
        now(),
    );
    let before = notices(&s).len();

    let phases = [
        "Accepted",
        "Accepted",
        "SurgePending",
        "Completed",
        "Completed",
    ];
    for (generation, phase) in (2..).zip(phases) {
        let feed = feed_of(fleet_with(Some((&uuid, phase))), generation);
        update(&mut s, Event::Feed(Arc::new(feed)), now());
    }
    let announced: Vec<String> = notices(&s).split_off(before);
    let prefix = format!("migration {uuid} of prod/chat engine/2: ");
    assert_eq!(
        announced,
        [
            format!("{prefix}Accepted"),
            format!("{prefix}SurgePending"),
            format!("{prefix}Completed (ended)"),
        ]
    );
    assert_eq!(s.request_phases()[&uuid], "Completed");
}
