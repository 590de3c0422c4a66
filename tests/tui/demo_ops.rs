//! Operator ops against the demo world: compare-and-swap cordons, journal clearing only for
//! stalled entries, opt-out, determinism under ops, and Alfred dispatching once unblocked.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::{Duration, TimeZone, Utc};
use ome_top::engine::analysis::{Analysis, ALFRED_JOURNAL};
use ome_top::engine::journal::{parse_journal, Phase};
use ome_top::engine::model::vocab::AdvisoryReason;
use ome_top::engine::model::{Name, Time};
use ome_top::protocol::{Op, OpOutcome};
use ome_top::sim::demo::DemoWorld;

fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

fn analysis(w: &DemoWorld) -> Analysis {
    (*w.feed_default(1, w.now()).analysis).clone()
}

fn node_rv(w: &DemoWorld, node: &str) -> Name {
    let snap = w.snapshot();
    snap.nodes
        .iter()
        .find(|n| &*n.name == node)
        .unwrap()
        .resource_version
        .clone()
}

#[test]
fn cordon_is_a_compare_and_swap() {
    let mut w = DemoWorld::new(9, 60, start());
    let node: Name = w.snapshot().nodes[10].name.clone();
    let seen = node_rv(&w, &node);
    let cordon = |rv: Name| Op::Cordon {
        node: node.clone(),
        resource_version: rv,
        reason: None,
    };
    let stale: Name = "1".into();
    let out = w.apply(&cordon(stale.clone()), start());
    match out {
        OpOutcome::Conflict { message } => assert!(message.contains("changed since you looked")),
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        w.apply(&cordon(seen.clone()), start()),
        OpOutcome::Done { .. }
    ));
    let now_rv = node_rv(&w, &node);
    assert_ne!(now_rv, seen);
    assert!(w.snapshot().nodes[10].unschedulable);
    let uncordon = |rv: Name| Op::Uncordon {
        node: node.clone(),
        resource_version: rv,
        reason: None,
    };
    assert!(matches!(
        w.apply(&uncordon(seen), start()),
        OpOutcome::Conflict { .. }
    ));
    assert!(matches!(
        w.apply(&uncordon(now_rv), start()),
        OpOutcome::Done { .. }
    ));
    assert!(!w.snapshot().nodes[10].unschedulable);
}

/// The demo records an Event for each cordon and uncordon, as the live path does, with the
/// operator's reason in its note; a refused write records none.
#[test]
fn cordon_and_uncordon_leave_an_event_with_the_reason() {
    let mut w = DemoWorld::new(9, 60, start());
    let node: Name = w.snapshot().nodes[10].name.clone();
    let ours = |w: &DemoWorld| -> Vec<(String, String, Option<Time>)> {
        w.snapshot()
            .events
            .iter()
            .filter(|e| e.object_name == node && e.source.as_ref() == "ome-top")
            .map(|e| (e.reason.to_string(), e.message.clone(), e.last_seen))
            .collect()
    };
    let stale = Op::Cordon {
        node: node.clone(),
        resource_version: "1".into(),
        reason: Some("bad fan".into()),
    };
    assert!(matches!(
        w.apply(&stale, start()),
        OpOutcome::Conflict { .. }
    ));
    assert!(ours(&w).is_empty(), "a conflict writes no Event");
    let at = start() + Duration::minutes(3);
    let cordon = Op::Cordon {
        node: node.clone(),
        resource_version: node_rv(&w, &node),
        reason: Some("  bad fan ".into()),
    };
    assert!(matches!(w.apply(&cordon, at), OpOutcome::Done { .. }));
    let uncordon = Op::Uncordon {
        node: node.clone(),
        resource_version: node_rv(&w, &node),
        reason: None,
    };
    assert!(matches!(w.apply(&uncordon, at), OpOutcome::Done { .. }));
    assert_eq!(
        ours(&w),
        [
            (
                "OmeTopCordon".to_string(),
                "cordoned by demo with ome-top: bad fan".to_string(),
                Some(at)
            ),
            (
                "OmeTopUncordon".to_string(),
                "uncordoned by demo with ome-top".to_string(),
                Some(at)
            ),
        ]
    );
}

fn journal_rv(w: &DemoWorld) -> Name {
    w.snapshot()
        .config_map("ome", ALFRED_JOURNAL)
        .unwrap()
        .resource_version
        .clone()
}

#[test]
fn only_stalled_journal_entries_are_cleared() {
    let mut w = DemoWorld::new(11, 120, start());
    let snap = w.snapshot();
    let text = &snap.config_map("ome", ALFRED_JOURNAL).unwrap().data["state.json"];
    let journal = parse_journal(text.as_bytes()).unwrap();
    let clear = |uuid: &str, rv: Name| Op::ClearJournalEntry {
        namespace: "ome".into(),
        uuid: uuid.into(),
        resource_version: rv,
        override_checks: false,
    };
    let completed = journal
        .entries
        .iter()
        .find(|e| e.phase == Phase::Completed)
        .unwrap();
    let out = w.apply(&clear(&completed.uuid, journal_rv(&w)), start());
    assert!(matches!(out, OpOutcome::Refused { .. }), "{out:?}");
    let stalled = journal
        .entries
        .iter()
        .find(|e| e.phase == Phase::Stalled)
        .unwrap();
    let out = w.apply(&clear(&stalled.uuid, "1".into()), start());
    assert!(matches!(out, OpOutcome::Conflict { .. }), "{out:?}");
    let out = w.apply(&clear(&stalled.uuid, journal_rv(&w)), start());
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    let a = analysis(&w);
    let after = a.journal.journal().unwrap();
    assert_eq!(after.entries.len(), journal.entries.len() - 1);
    assert!(after.entries.iter().all(|e| e.phase != Phase::Stalled));
    assert_eq!(after.backoff_until, journal.backoff_until);
}

#[test]
fn opting_out_makes_the_workload_ineligible() {
    let mut w = DemoWorld::new(13, 120, start());
    let a = analysis(&w);
    let v = a.verdicts.iter().find(|v| v.baseline.is_ok()).unwrap();
    let comp = &a.workloads.components[v.component];
    let snap = w.snapshot();
    let isvc = &snap.isvcs[comp.isvc];
    let op = Op::OptOut {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
        reason: "latency-critical".into(),
    };
    assert!(matches!(w.apply(&op, start()), OpOutcome::Done { .. }));
    assert!(matches!(w.apply(&op, start()), OpOutcome::Conflict { .. }));
    let a = analysis(&w);
    let key = isvc.key();
    let verdicts: Vec<_> = a
        .verdicts
        .iter()
        .filter(|v| a.workloads.components[v.component].isvc < w.snapshot().isvcs.len())
        .filter(|v| w.snapshot().isvcs[a.workloads.components[v.component].isvc].key() == key)
        .collect();
    assert!(!verdicts.is_empty());
    let ineligible = Err(AdvisoryReason::OmeNativeStateIneligible);
    assert!(verdicts.iter().all(|v| v.baseline == ineligible));
    let snap = w.snapshot();
    let isvc = snap.isvcs.iter().find(|s| s.key() == key).unwrap();
    assert_eq!(isvc.annotation("alfred.ome.io/movable"), Some("false"));
    // One Event for the write that was done (none for the conflict), with the reason.
    let events: Vec<&str> = snap
        .events
        .iter()
        .filter(|e| e.reason.as_ref() == "OmeTopOptOut" && e.object_name == *isvc.name())
        .map(|e| e.message.as_str())
        .collect();
    assert_eq!(
        events,
        ["opted out of Alfred's moves by demo with ome-top: latency-critical"]
    );
    assert_eq!(
        isvc.annotation("alfred.ome.io/opt-out-reason"),
        Some("latency-critical")
    );
}

#[test]
fn same_seed_and_ops_give_identical_snapshots() {
    let script = |seed: u64| {
        let mut w = DemoWorld::new(seed, 80, start());
        let mut snaps = Vec::new();
        for k in 1..=40 {
            let t = start() + Duration::seconds(15 * k);
            w.step(t);
            if k == 10 {
                let node = w.snapshot().nodes[3].clone();
                let op = Op::Cordon {
                    node: node.name.clone(),
                    resource_version: node.resource_version.clone(),
                    reason: None,
                };
                w.apply(&op, t);
            }
            snaps.push(w.snapshot());
        }
        snaps
    };
    let (a, b) = (script(21), script(21));
    assert!(a == b, "same seed and ops diverged");
    assert!(script(22).last() != a.last());
}

#[test]
fn alfred_dispatches_once_the_stalled_entry_is_cleared() {
    let mut w = DemoWorld::new(42, 120, start());
    let snap = w.snapshot();
    let text = &snap.config_map("ome", ALFRED_JOURNAL).unwrap().data["state.json"];
    let stalled = parse_journal(text.as_bytes())
        .unwrap()
        .entries
        .into_iter()
        .find(|e| e.phase == Phase::Stalled)
        .unwrap();
    let op = Op::ClearJournalEntry {
        namespace: "ome".into(),
        uuid: stalled.uuid.clone(),
        resource_version: journal_rv(&w),
        override_checks: false,
    };
    assert!(matches!(w.apply(&op, start()), OpOutcome::Done { .. }));
    let mut t = start();
    let mut completed = false;
    while t < start() + Duration::minutes(40) && !completed {
        t += Duration::seconds(10);
        w.step(t);
        let a = analysis(&w);
        completed = a.journal.journal().unwrap().entries.iter().any(|e| {
            e.phase == Phase::Completed
                && e.created_at >= start()
                && e.payload.contains("\"alfred\"")
        });
    }
    assert!(completed, "Alfred never completed a dispatched migration");
}

#[test]
fn a_long_unblocked_run_keeps_a_readable_journal() {
    let mut w = DemoWorld::new(42, 120, start());
    let snap = w.snapshot();
    let text = &snap.config_map("ome", ALFRED_JOURNAL).unwrap().data["state.json"];
    let stalled = parse_journal(text.as_bytes())
        .unwrap()
        .entries
        .into_iter()
        .find(|e| e.phase == Phase::Stalled)
        .unwrap();
    let op = Op::ClearJournalEntry {
        namespace: "ome".into(),
        uuid: stalled.uuid,
        resource_version: journal_rv(&w),
        override_checks: false,
    };
    assert!(matches!(w.apply(&op, start()), OpOutcome::Done { .. }));
    // Three hours in coarse steps: Alfred keeps dispatching and pruning as it appends.
    for k in 1..=360 {
        w.step(start() + Duration::seconds(30 * k));
    }
    let a = analysis(&w);
    let journal = a
        .journal
        .journal()
        .expect("journal stays strictly readable");
    // Terminal entries are pruned only when Alfred appends, so the bound is the strict
    // reader's, not an age.
    assert!(
        journal.entries.len() < 256,
        "{} entries",
        journal.entries.len()
    );
    assert!(
        w.migrations().len() > 3,
        "{} migrations",
        w.migrations().len()
    );
}
