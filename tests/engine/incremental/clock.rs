//! Time without a full pass: `Deadlines` against `analyze` itself. For generated fleets and
//! the shipped snapshots, at random analysis times and any `t` between the analysis's time and
//! its next deadline, `analyze(snap, t)` equals `analyze(snap, now)` but for `now` (and, when
//! the pools drift, the figures `Incremental::retime` moves: it must reach `analyze(snap, t)`
//! exactly). `Incremental::advance` after random events, to any later time, equals the full
//! analysis at the time it reports. At a suspect node's and a pending pod's deadline the
//! analysis does change.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;
use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{
    analysis_drifts, analyze, Advance, Analysis, AnalysisOptions, Deadlines, ExecutorSetting,
    Incremental,
};
use ome_top::engine::model::{ClusterSnapshot, NodeCondition, Time};
use ome_top::sim::cluster::{generate_cluster, generate_cluster_unpublished, ClusterSpec};

use super::{change, op};

fn base() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap()
}

fn options(now: Time) -> AnalysisOptions {
    AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

const SHIPPED: [&str; 7] = [
    "docs/examples/mixed-fleet.json",
    "docs/examples/worked-example-6-5.json",
    "tests/fixtures/k8s/gangs.json",
    "tests/fixtures/k8s/lints.json",
    "tests/fixtures/k8s/ir-example-6.json",
    "tests/fixtures/k8s/multinode-lws.json",
    "tests/fixtures/k8s/ome-samples/gpu16-pending.json",
];

/// How many fleets `fleet` knows.
const FLEETS: u8 = 2 + SHIPPED.len() as u8 + TIMED;

fn fleet(which: u8) -> ClusterSnapshot {
    let spec = |seed, nodes, pods| ClusterSpec { seed, nodes, pods };
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let read = |doc: &[u8]| read_snapshot(doc).unwrap().0;
    match which as usize {
        0 => generate_cluster(&spec(3, 24, 260), base()),
        1 => generate_cluster_unpublished(&spec(11, 16, 300), base()),
        n if n < 2 + SHIPPED.len() => read(&std::fs::read(root.join(SHIPPED[n - 2])).unwrap()),
        n => read(timed((n - 2 - SHIPPED.len()) as u8).to_string().as_bytes()),
    }
}

/// Variants of the worked example of alfred.md §6.5 in execute mode, each with a rule that
/// reads the time near `base()`.
const TIMED: u8 = 7;

fn timed(which: u8) -> Value {
    let example = std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/examples/worked-example-6-5.json"),
    );
    let mut doc: Value = serde_json::from_slice(&example.unwrap()).unwrap();
    let mut config = format!("schemaVersion: 1\nmode: execute\n{PROFILE}");
    match which {
        0 => {
            item(&mut doc, "Pod", "gamma-engine-0-default-0")["status"]["startTime"] =
                "2026-09-28T10:10:00Z".into();
        }
        1 => {
            config.push_str("maxMigrationsPerHour: 1\n");
            item(&mut doc, "InferenceReplica", "big-engine")["status"]["migrations"] = json!([{
                "requestUUID": "11111111-2222-4333-8444-555555555555", "trigger": "Auto",
                "sourceInstance": 0, "phase": "Relocated", "startedAt": "2026-09-28T09:00:00Z",
                "deadline": "2026-09-28T09:30:00Z", "completedAt": "2026-09-28T09:55:00Z"
            }]);
        }
        2 => {
            let entries: Vec<Value> = (0..4)
                .map(|i| {
                    let phase = if i == 0 { "completed" } else { "failed" };
                    let done = Some("2026-09-28T09:50:00Z");
                    journal_entry(i, phase, "gpu-x", "2026-09-28T09:20:00Z", done)
                })
                .collect();
            set_journal(&mut doc, json!({"version": "v1", "entries": entries}));
        }
        3 => {
            let done = Some("2026-09-28T10:10:00Z");
            let entry = journal_entry(1, "completed", "gpu-b", "2026-09-28T10:00:00Z", done);
            set_journal(&mut doc, json!({"version": "v1", "entries": [entry]}));
        }
        4 => config.push_str(
            "maintenanceWindows:\n  - days: [Sat]\n    start: \"01:00\"\n    end: \"05:00\"\n  - days: [Mon]\n    start: \"10:30\"\n    end: \"11:00\"\n",
        ),
        5 => doc["items"].as_array_mut().unwrap().push(json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "big-2", "namespace": "prod",
                "creationTimestamp": "2026-09-28T09:58:00Z"},
            "spec": {"containers": [{"name": "m",
                "resources": {"limits": {"nvidia.com/gpu": "8"}}}]},
            "status": {"phase": "Pending"}
        })),
        _ => {
            let node = item(&mut doc, "Node", "gpu-b");
            node["status"]["conditions"].as_array_mut().unwrap().push(json!({
                "type": "GpuUnhealthy", "status": "False",
                "lastTransitionTime": "2026-09-28T10:00:00Z"
            }));
        }
    }
    item(&mut doc, "ConfigMap", "alfred-config")["data"]["config.yaml"] = config.into();
    doc
}

const PROFILE: &str = "scheduling:\n  profiles:\n    default-scheduler:\n      backend: kube-v135\n      schedulerVersion: v1.35.4\n      configurationID: sha256:abc\n";

fn item<'a>(doc: &'a mut Value, kind: &str, name: &str) -> &'a mut Value {
    let items = doc["items"].as_array_mut().unwrap();
    let found = items
        .iter_mut()
        .find(|i| i["kind"] == kind && i["metadata"]["name"] == name);
    found.unwrap_or_else(|| panic!("{kind} {name}"))
}

fn set_journal(doc: &mut Value, state: Value) {
    item(doc, "ConfigMap", "alfred-dispatch-state")["data"]["state.json"] =
        state.to_string().into();
}

fn journal_entry(n: u32, phase: &str, from: &str, created: &str, done: Option<&str>) -> Value {
    let mut e = json!({
        "uuid": format!("7c9e6679-7425-40de-944b-{n:012}"),
        "workload": {"Namespace": "prod", "Name": "old"}, "workloadUID": "u1",
        "irName": "old-engine", "irUID": "u2", "component": "engine", "instance": 0,
        "fromNode": from, "targets": ["gpu-q"], "payload": "{}", "sourceFingerprint": "abc",
        "createdAt": created, "phase": phase, "reason": "TerminalStatusObserved"
    });
    if let Some(c) = done {
        e["completedAt"] = c.into();
    }
    e
}

/// `a` rendered with `now` taken out.
fn timeless(a: &Analysis) -> String {
    let mut a = a.clone();
    a.now = Time::default();
    format!("{a:#?}")
}

/// The first line where two renderings differ, with some context.
fn diff(got: &str, want: &str) -> String {
    let line = got
        .lines()
        .zip(want.lines())
        .position(|(x, y)| x != y)
        .unwrap_or(0);
    let around = |s: &str| {
        let lines: Vec<&str> = s.lines().skip(line.saturating_sub(8)).take(16).collect();
        lines.join("\n")
    };
    format!(
        "line {line}\n--- got\n{}\n--- want\n{}",
        around(got),
        around(want)
    )
}

/// The instants `snap` records (and `base()`): analysis times near them straddle the rules'
/// windows.
fn stamps(snap: &ClusterSnapshot) -> Vec<Time> {
    let pods = snap
        .pods
        .iter()
        .flat_map(|p| [p.created, p.started, p.unschedulable_since]);
    let nodes = snap
        .nodes
        .iter()
        .flat_map(|n| n.conditions.iter().map(|c| c.last_transition));
    let mut all: Vec<Time> = pods.chain(nodes).flatten().collect();
    all.push(base());
    all.sort();
    all.dedup();
    all
}

/// `t` in `[now, limit)`, `frac` of the way (the instant before `limit` when `frac` is 1).
fn between(now: Time, limit: Time, frac: f64) -> Time {
    let span = (limit - now).num_nanoseconds().unwrap_or(i64::MAX).max(1);
    let step = ((span - 1) as f64 * frac.clamp(0.0, 1.0)) as i64;
    now + Duration::nanoseconds(step)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 160, ..ProptestConfig::default() })]

    /// Between an analysis's time and its next deadline the analysis is the same but for
    /// `now` and the drifting figures, and `retime` reaches the full analysis exactly.
    #[test]
    fn nothing_changes_before_the_next_deadline(
        which in 0u8..FLEETS,
        stamp in any::<prop::sample::Index>(),
        offset_s in -75i64 * 60..75 * 60,
        offset_ns in 0i64..1_000_000_000,
        frac in prop_oneof![Just(0.0), Just(1.0), 0.0f64..1.0],
    ) {
        let snap = fleet(which);
        let stamps = stamps(&snap);
        let near = stamps[stamp.index(stamps.len())];
        let now = near + Duration::seconds(offset_s) + Duration::nanoseconds(offset_ns);
        let at_now = analyze(&snap, &options(now));
        let deadlines = Deadlines::of(&snap, &at_now);
        let limit = deadlines.next().unwrap_or(now + Duration::days(30));
        let t = between(now, limit, frac);
        let at_t = analyze(&snap, &options(t));
        if !analysis_drifts(&snap, &at_now) {
            let (got, want) = (timeless(&at_t), timeless(&at_now));
            prop_assert!(got == want, "{which} at {t} (deadline {limit}): {}", diff(&got, &want));
        }
        let mut inc = Incremental::new(snap.clone(), options(now));
        let how = inc.retime(t);
        prop_assert!(how != Advance::Full || t == now || analysis_drifts(&snap, &at_now),
            "{which}: a full pass before the deadline");
        let (got, want) = (format!("{:#?}", inc.analysis()), format!("{at_t:#?}"));
        prop_assert!(got == want, "{which} retimed to {t}: {}", diff(&got, &want));
    }

    /// After random events at the analysis's time, `advance` to any later time (before or past
    /// the deadlines the events brought) leaves the full analysis at the time it reports.
    #[test]
    fn advance_after_events_equals_the_full_analysis(
        which in 0u8..FLEETS,
        ops in prop::collection::vec(op(), 1..8),
        later_s in 0i64..3 * 3600,
    ) {
        let snap = fleet(which);
        let mut inc = Incremental::new(snap, options(base()));
        for op in &ops {
            if let Some(c) = change(inc.snapshot(), op) {
                inc.apply(c);
            }
        }
        let t = base() + Duration::seconds(later_s);
        let before = inc.analysis().clone();
        let due = inc.next_deadline().is_some_and(|d| d <= t);
        let how = inc.advance(t);
        prop_assert!(!due || how == Advance::Full, "a passed deadline is a full pass");
        let want = analyze(inc.snapshot(), inc.options());
        let got = format!("{:#?}", inc.analysis());
        prop_assert!(got == format!("{want:#?}"), "{}", diff(&got, &format!("{want:#?}")));
        if how == Advance::Kept {
            // Kept: the full analysis at `t` is the same but for `now`.
            let at_t = analyze(inc.snapshot(), &options(t));
            prop_assert_eq!(timeless(&at_t), timeless(&before));
        }
    }
}

/// A node whose trigger condition turned False a minute ago is Suspect until the suspicion
/// window ends: that instant is a deadline, and there the node is Clear.
#[test]
fn a_suspect_node_clears_at_its_deadline() {
    let mut snap = generate_cluster(
        &ClusterSpec {
            seed: 3,
            nodes: 8,
            pods: 40,
        },
        base(),
    );
    snap.nodes[0].conditions = vec![NodeCondition {
        kind: Arc::from("GpuUnhealthy"),
        status: Arc::from("False"),
        last_transition: Some(base() - Duration::minutes(1)),
    }];
    let a = analyze(&snap, &options(base()));
    let until = a.nodes[0].health.suspect_until().expect("suspect");
    let deadlines = Deadlines::of(&snap, &a);
    assert!(deadlines.next().is_some_and(|d| d <= until));
    let before = analyze(&snap, &options(until - Duration::nanoseconds(1)));
    assert_eq!(before.nodes[0].health, a.nodes[0].health);
    let at = analyze(&snap, &options(until));
    assert_eq!(at.nodes[0].health.name(), "Clear");
    let mut inc = Incremental::new(snap, options(base()));
    assert_eq!(inc.advance(until), Advance::Full);
    assert_eq!(inc.analysis().nodes[0].health.name(), "Clear");
}

/// A pending pod added between full passes brings its emergency age: a deadline then, where
/// the incremental analysis runs a full pass.
#[test]
fn a_new_pending_pod_brings_its_deadline() {
    let snap = fleet(0);
    let mut inc = Incremental::new(snap.clone(), options(base()));
    let Some(p) = snap
        .pods
        .iter()
        .position(|p| p.node.is_some() && p.gpus > 0)
    else {
        panic!("no GPU pod")
    };
    let mut pod = snap.pods[p].clone();
    pod.name = Arc::from("waiting");
    pod.node = None;
    pod.phase = ome_top::engine::model::PodPhase::Pending;
    pod.created = Some(base() - Duration::minutes(3));
    pod.unschedulable_since = None;
    inc.apply(ome_top::engine::analysis::Change::Pod(Arc::new(pod)));
    let limit = inc.analysis().config.emergency_pending_age_minutes;
    let due = base() - Duration::minutes(3) + Duration::minutes(i64::from(limit));
    let next = inc.next_deadline().expect("a deadline");
    assert!(next <= due + Duration::nanoseconds(1), "{next} after {due}");
    assert!(inc.drifts(), "a pending pod's wait moves with the time");
    assert_ne!(inc.advance(base() + Duration::seconds(1)), Advance::Kept);
    assert_eq!(
        inc.advance(due + Duration::seconds(1)),
        Advance::Full,
        "past the emergency age"
    );
}
