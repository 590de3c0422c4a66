//! Alfred's decisions computed by ome-top: the worked example of alfred.md §6.5 as a scenario
//! fleet, the recommend-only and default-install variants and the dispatcher's pass-wide
//! reasons (here); node-health evacuations and the emergency boost (`health`); the arbiter's
//! gates, maintenance windows included (`gates`); the journal's clearing checks (`clearing`);
//! volume-pinned models (`volumes`). The helpers below serve every module.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

mod clearing;
mod gates;
mod health;
mod volumes;

use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::planning::MoveRow;

const EXAMPLE: &str = include_str!("../../../docs/examples/worked-example-6-5.json");
const NOW: &str = "2026-09-28T10:15:00Z";
const PROFILE: &str = "scheduling:\n  profiles:\n    default-scheduler:\n      backend: kube-v135\n      schedulerVersion: v1.35.4\n      configurationID: sha256:abc\n";

fn example() -> Value {
    serde_json::from_str(EXAMPLE).unwrap()
}

fn items(doc: &mut Value) -> &mut Vec<Value> {
    doc["items"].as_array_mut().unwrap()
}

fn item<'a>(doc: &'a mut Value, kind: &str, name: &str) -> &'a mut Value {
    items(doc)
        .iter_mut()
        .find(|i| i["kind"] == kind && i["metadata"]["name"] == name)
        .unwrap_or_else(|| panic!("{kind} {name}"))
}

fn set_config(doc: &mut Value, yaml: &str) {
    item(doc, "ConfigMap", "alfred-config")["data"]["config.yaml"] = yaml.into();
}

fn set_journal(doc: &mut Value, state: &str) {
    item(doc, "ConfigMap", "alfred-dispatch-state")["data"]["state.json"] = state.into();
}

fn run(doc: &Value) -> Analysis {
    run_with(doc, ExecutorSetting::Auto)
}

fn run_with(doc: &Value, executor: ExecutorSetting) -> Analysis {
    let (snap, _) = read_snapshot(doc.to_string().as_bytes()).unwrap();
    analyze(
        &snap,
        &AnalysisOptions {
            now: NOW.parse().unwrap(),
            alfred_namespace: "ome".into(),
            executor,
            placement: Default::default(),
            instance_types: Default::default(),
        },
    )
}

fn row<'a>(a: &'a Analysis, workload: &str) -> &'a MoveRow {
    a.moves
        .iter()
        .find(|r| r.workload.as_ref() == workload)
        .unwrap_or_else(|| panic!("no row for {workload}: {:#?}", a.moves))
}

/// The wire string of an optional reason.
fn text<T: AsRef<str>>(reason: &Option<T>) -> Option<&str> {
    reason.as_ref().map(AsRef::as_ref)
}

fn names(v: &[std::sync::Arc<str>]) -> Vec<&str> {
    v.iter().map(|n| n.as_ref()).collect()
}

fn close(got: f64, want: f64) {
    assert!((got - want).abs() < 5e-5, "got {got}, want {want}");
}

#[test]
fn worked_example_execute_mode_without_a_scheduling_profile() {
    let a = run(&example());
    let gamma = row(&a, "prod/gamma");
    assert_eq!(gamma.policy, "defragmentation");
    assert_eq!(gamma.reason, "Fragmentation");
    close(gamma.score, 0.2925);
    assert_eq!(names(&gamma.hint_targets), vec!["gpu-a"]);
    assert_eq!(gamma.from_node.as_deref(), Some("gpu-b"));
    assert_eq!(gamma.target.as_deref(), Some("gpu-a"));
    // Admitted by the arbiter, withheld by the dispatcher: no profile simulates it.
    assert_eq!(gamma.outcome, "withheld");
    assert_eq!(text(&gamma.dispatch_reason), Some("SourceUnsupported"));
    for w in ["prod/alpha", "prod/beta"] {
        let r = row(&a, w);
        assert_eq!(r.outcome, "advisory");
        assert_eq!(
            text(&r.advisory_reason),
            Some("NonExecutableObservedFragmentation")
        );
        close(r.score, -0.15);
        assert!(r.hint_targets.is_empty());
    }
    let big = row(&a, "prod/big");
    assert_eq!(text(&big.advisory_reason), Some("OMENativeStateIneligible"));
    // Order: the executable row first, then advice by score.
    assert_eq!(a.moves[0].workload.as_ref(), "prod/gamma");
}

#[test]
fn with_a_profile_the_first_admitted_move_is_next() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(gamma.outcome, "admitted");
    assert_eq!(text(&gamma.dispatch_reason), None);
    assert_eq!(gamma.target.as_deref(), Some("gpu-a"));
}

#[test]
fn recommend_only_turns_planned_moves_into_advice() {
    let mut doc = example();
    set_config(&mut doc, &format!("schemaVersion: 1\n{PROFILE}"));
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(gamma.outcome, "advisory");
    assert_eq!(
        text(&gamma.advisory_reason),
        Some("SimulationRecommendOnly")
    );
    assert_eq!(names(&gamma.hint_targets), vec!["gpu-a"]);
    close(gamma.score, 0.2925);
    // Without a profile for the pods' scheduler the scheduling gate names the problem.
    set_config(&mut doc, "schemaVersion: 1\n");
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").advisory_reason),
        Some("ProfileNotConfigured")
    );
}

#[test]
fn default_install_gives_omenative_unavailable_advice_only() {
    let a = run_with(&example(), ExecutorSetting::Unavailable);
    assert!(a.pools[0].score == 0.0 && a.pools[0].advisory_open);
    for w in ["prod/alpha", "prod/beta", "prod/gamma"] {
        let r = row(&a, w);
        assert_eq!(
            text(&r.advisory_reason),
            Some("OMENativeUnavailable"),
            "{w}"
        );
        assert_eq!(r.score, 0.0);
        assert!(r.hint_targets.is_empty());
    }
}

const STALLED: &str = r#"{"version":"v1","entries":[{"uuid":"7c9e6679-7425-40de-944b-e07fc1f90ae7","workload":{"Namespace":"prod","Name":"chat"},"workloadUID":"u1","irName":"chat-engine","irUID":"u2","component":"engine","instance":0,"fromNode":"gpu-z","payload":"{}","sourceFingerprint":"abc","createdAt":"2026-09-28T09:00:00Z","phase":"stalled","reason":"OwnerUnavailable"}]}"#;

#[test]
fn dispatcher_pass_wide_withhold_reasons() {
    let mut doc = example();
    set_journal(&mut doc, STALLED);
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").dispatch_reason),
        Some("UnresolvedRequest")
    );

    set_journal(&mut doc, r#"{"version":"v1","entries":null}"#);
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").dispatch_reason),
        Some("JournalUnavailable")
    );

    set_journal(
        &mut doc,
        r#"{"version":"v1","entries":[],"backoffUntil":"2026-09-28T10:20:00Z"}"#,
    );
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").dispatch_reason),
        Some("FailureBackoff")
    );

    set_journal(&mut doc, r#"{"version":"v1","entries":[]}"#);
    item(&mut doc, "InferenceService", "alpha")["metadata"]["annotations"]
        ["alfred.ome.io/cooldown-minutes"] = "soon".into();
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").dispatch_reason),
        Some("InvalidCooldown")
    );
}

fn terminal_migration(doc: &mut Value, ir: &str, completed_at: &str) {
    item(doc, "InferenceReplica", ir)["status"]["migrations"] = json!([{
        "requestUUID": "11111111-2222-4333-8444-555555555555", "trigger": "Auto",
        "sourceInstance": 0, "phase": "Relocated", "startedAt": "2026-09-28T09:00:00Z",
        "deadline": "2026-09-28T09:30:00Z", "completedAt": completed_at
    }]);
}
