//! FailedScheduling Events in both shapes (gangpack.md §5: kube-scheduler writes
//! `events.k8s.io/v1` Events; `kubectl get events` shows the same objects as `v1`): the
//! golden snapshot `gang-events-v1.json` (note, regarding, series, deprecated fields) gives
//! the very `gangs` JSON of `gang-events-core.json` (message, involvedObject, count), which
//! is pinned as `gang-events.gangs.json`. Both carry §5 reasons, a §7.2 step 5 event pin, a
//! Permit timeout (#29) and an event of another scheduler.

use chrono::{TimeZone, Utc};
use serde_json::Value;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::report::json::{analysis_json, Source};

const CORE: &str = include_str!("../../fixtures/k8s/gang-events-core.json");
const EVENTS_V1: &str = include_str!("../../fixtures/k8s/gang-events-v1.json");

/// The `gangs` section `analyze -o json` prints for `doc`, and the read's warnings.
fn gangs_json(doc: &str) -> (Value, Vec<String>) {
    let (snap, warnings) = read_snapshot(doc.as_bytes()).unwrap();
    let opts = AnalysisOptions {
        now: Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let a = analyze(&snap, &opts);
    let doc = analysis_json(&snap, &a, Source::Snapshot, &[]);
    (doc["gangs"].clone(), warnings)
}

fn gang<'a>(gangs: &'a Value, key: &str) -> &'a Value {
    gangs
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["gang"] == key)
        .unwrap()
}

#[test]
fn events_k8s_io_events_give_the_gangs_of_the_same_core_events_gangpack_5() {
    let (core, core_warnings) = gangs_json(CORE);
    let (v1, v1_warnings) = gangs_json(EVENTS_V1);
    assert!(core_warnings.is_empty(), "{core_warnings:?}");
    assert!(v1_warnings.is_empty(), "no unknown kind: {v1_warnings:?}");
    assert_eq!(v1, core);
    // Beside the `analyze` goldens of `analysis_identity`.
    insta::with_settings!({snapshot_path => "../snapshots"}, {
        insta::assert_snapshot!(
            "gang-events.gangs.json",
            serde_json::to_string_pretty(&core).unwrap()
        );
    });
    // What the events say, so the golden above is not a golden of nothing.
    let alpha = gang(&core, "serving/alpha");
    assert_eq!(
        (&alpha["domain"], &alpha["pinSource"]),
        (&"b".into(), &"event".into())
    );
    assert_eq!(alpha["pinAsOf"], "2026-09-28T10:06:00Z");
    let engine = gang(&core, "serving/llm-engine-0");
    assert_eq!(engine["pendingReason"]["source"], "event");
    assert_eq!(
        engine["pendingReason"]["at"], "2026-09-28T10:08:30Z",
        "series.lastObservedTime"
    );
    let gamma = gang(&core, "serving/gamma");
    assert_ne!(
        gamma["pinSource"], "event",
        "the Permit timeout unwound the event pin"
    );
    let delta = gang(&core, "serving/delta");
    assert_ne!(
        delta["pinSource"], "event",
        "another scheduler's event does not count"
    );
}

#[test]
fn an_event_listed_through_both_apis_counts_once() {
    let mut both: Value = serde_json::from_str(CORE).unwrap();
    let v1: Value = serde_json::from_str(EVENTS_V1).unwrap();
    let events = v1["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["apiVersion"] == "events.k8s.io/v1")
        .cloned();
    both["items"].as_array_mut().unwrap().extend(events);
    let (gangs, warnings) = gangs_json(&both.to_string());
    assert!(warnings.is_empty(), "{warnings:?}");
    assert_eq!(gangs, gangs_json(CORE).0);
    let (snap, _) = read_snapshot(both.to_string().as_bytes()).unwrap();
    assert_eq!(snap.events.len(), 6);
}
