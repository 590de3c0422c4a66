//! Alfred's decisions computed by ome-top: the worked example of alfred.md §6.5 as a scenario
//! fleet, the recommend-only and default-install variants, node-health evacuations, the
//! emergency boost, maintenance windows, the dispatcher's pass-wide reasons and the arbiter's
//! gates.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::planning::MoveRow;

const EXAMPLE: &str = include_str!("../docs/examples/worked-example-6-5.json");
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

fn unhealthy(doc: &mut Value, node: &str, since: &str) {
    let n = item(doc, "Node", node);
    n["status"]["conditions"]
        .as_array_mut()
        .unwrap()
        .push(json!({"type": "GpuUnhealthy", "status": "True", "lastTransitionTime": since}));
}

#[test]
fn node_health_evacuation_ranks_first_and_scores_priority() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    item(&mut doc, "InferenceService", "gamma")["metadata"]["annotations"]
        ["alfred.ome.io/priority"] = "0.8".into();
    let a = run(&doc);
    let first = &a.moves[0];
    assert_eq!(
        (
            first.workload.as_ref(),
            first.policy.as_str(),
            first.reason.as_str()
        ),
        ("prod/gamma", "nodehealth", "NodeUnhealthy")
    );
    close(first.score, 0.8);
    assert_eq!(first.outcome, "admitted");
    assert_eq!(first.target.as_deref(), Some("gpu-a"));
}

fn terminal_migration(doc: &mut Value, ir: &str, completed_at: &str) {
    item(doc, "InferenceReplica", ir)["status"]["migrations"] = json!([{
        "requestUUID": "11111111-2222-4333-8444-555555555555", "trigger": "Auto",
        "sourceInstance": 0, "phase": "Relocated", "startedAt": "2026-09-28T09:00:00Z",
        "deadline": "2026-09-28T09:30:00Z", "completedAt": completed_at
    }]);
}

#[test]
fn health_cooldown_floor_and_override() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    // 3 minutes ago: inside the 5-minute health floor.
    terminal_migration(&mut doc, "gamma-engine", "2026-09-28T10:12:00Z");
    let a = run(&doc);
    let r = a.moves.iter().find(|r| r.policy == "nodehealth").unwrap();
    assert_eq!(
        (r.outcome.as_str(), text(&r.reject_reason)),
        ("rejected", Some("Cooldown"))
    );
    // 7 minutes ago: past the floor, inside the 30-minute normal window ⇒ overridden.
    terminal_migration(&mut doc, "gamma-engine", "2026-09-28T10:08:00Z");
    let a = run(&doc);
    let r = a.moves.iter().find(|r| r.policy == "nodehealth").unwrap();
    assert_eq!(r.outcome, "admitted");
    assert!(r.cooldown_overridden);
}

#[test]
fn placement_cooldown_rejects_recently_started_pods() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    item(&mut doc, "Pod", "gamma-engine-0-default-0")["status"]["startTime"] =
        "2026-09-28T10:10:00Z".into();
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(
        (gamma.outcome.as_str(), text(&gamma.reject_reason)),
        ("rejected", Some("PlacementCooldown"))
    );
}

#[test]
fn caps_count_everyone_s_migrations() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\nmaxMigrationsPerHour: 1\n{PROFILE}"),
    );
    // Another workload's migration ended 20 minutes ago: one in the hour window.
    terminal_migration(&mut doc, "big-engine", "2026-09-28T09:55:00Z");
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(
        (gamma.outcome.as_str(), text(&gamma.reject_reason)),
        ("rejected", Some("HourlyCap"))
    );

    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\nmaxInFlightMigrations: 1\n{PROFILE}"),
    );
    item(&mut doc, "InferenceReplica", "big-engine")["status"]["migrations"] = json!([{
        "requestUUID": "11111111-2222-4333-8444-555555555555", "trigger": "Manual",
        "sourceInstance": 0, "phase": "Accepted", "startedAt": "2026-09-28T10:10:00Z",
        "deadline": "2026-09-28T10:40:00Z"
    }]);
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(
        (gamma.outcome.as_str(), text(&gamma.reject_reason)),
        ("rejected", Some("InFlightCap"))
    );
}

#[test]
fn an_active_request_elsewhere_withholds_the_next_submission() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    item(&mut doc, "InferenceReplica", "big-engine")["status"]["migrations"] = json!([{
        "requestUUID": "11111111-2222-4333-8444-555555555555", "trigger": "Manual",
        "sourceInstance": 0, "phase": "Accepted", "startedAt": "2026-09-28T10:10:00Z",
        "deadline": "2026-09-28T10:40:00Z"
    }]);
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(
        (gamma.outcome.as_str(), text(&gamma.dispatch_reason)),
        ("withheld", Some("InFlightCap"))
    );
}

#[test]
fn maintenance_windows_drop_non_emergency_moves() {
    let mut doc = example();
    // 2026-09-28 is a Monday; the window is on Saturdays only.
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\nmaintenanceWindows:\n  - days: [Sat]\n    start: \"01:00\"\n    end: \"05:00\"\n{PROFILE}"),
    );
    let a = run(&doc);
    assert!(
        a.moves.iter().all(|r| r.workload.as_ref() != "prod/gamma"),
        "{:#?}",
        a.moves
    );
    assert!(
        a.moves.iter().any(|r| r.workload.as_ref() == "prod/alpha"),
        "advice is kept"
    );
}

#[test]
fn emergency_boost_for_a_long_pending_pod_the_move_seats() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    items(&mut doc).push(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "big-2", "namespace": "prod", "creationTimestamp": "2026-09-28T09:50:00Z"},
        "spec": {"containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "8"}}}]},
        "status": {"phase": "Pending"}
    }));
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert!(gamma.emergency);
    let plan = gamma.plan.as_ref().unwrap();
    let benefit = plan.before - plan.after.unwrap();
    close(gamma.score, 2.0 * (benefit - 0.15));
}

#[test]
fn raw_and_lws_workloads_get_their_advice() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    items(&mut doc).push(
        json!({"apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": "legacy", "namespace": "prod", "uid": "u-legacy"},
        "spec": {"deploymentMode": "RawDeployment", "engine": {}}}),
    );
    items(&mut doc).push(json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "legacy-engine-abc", "namespace": "prod",
            "labels": {"ome.io/inferenceservice": "legacy", "component": "engine"}},
        "spec": {"nodeName": "gpu-b", "containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "1"}}}]},
        "status": {"phase": "Running"}}));
    unhealthy(&mut doc, "gpu-b", "2026-09-28T10:00:00Z");
    let a = run(&doc);
    let raw: Vec<&MoveRow> = a
        .moves
        .iter()
        .filter(|r| r.workload.as_ref() == "prod/legacy")
        .collect();
    assert!(raw.iter().any(|r| r.policy == "nodehealth"
        && text(&r.advisory_reason) == Some("RawDeploymentMigrationUnsupported")));
}

fn journal_entry(
    uuid_tail: u32,
    phase: &str,
    from: &str,
    created: &str,
    completed: Option<&str>,
) -> Value {
    let mut e = json!({
        "uuid": format!("7c9e6679-7425-40de-944b-{uuid_tail:012}"),
        "workload": {"Namespace": "prod", "Name": "old"}, "workloadUID": "u1",
        "irName": "old-engine", "irUID": "u2", "component": "engine", "instance": 0,
        "fromNode": from, "targets": ["gpu-q"], "payload": "{}", "sourceFingerprint": "abc",
        "createdAt": created, "phase": phase, "reason": "TerminalStatusObserved"
    });
    if let Some(c) = completed {
        e["completedAt"] = c.into();
    }
    e
}

#[test]
fn circuit_breaker_from_the_journal_outcomes() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    let entries: Vec<Value> = (0..4)
        .map(|i| {
            let phase = if i == 0 { "completed" } else { "failed" };
            journal_entry(
                i,
                phase,
                "gpu-x",
                "2026-09-28T08:00:00Z",
                Some("2026-09-28T09:50:00Z"),
            )
        })
        .collect();
    set_journal(
        &mut doc,
        &json!({"version": "v1", "entries": entries}).to_string(),
    );
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(text(&gamma.reject_reason), Some("CircuitBreakerOpen"));
}

#[test]
fn node_cooldown_from_alfred_s_own_recent_dispatch() {
    let mut doc = example();
    set_config(
        &mut doc,
        &format!("schemaVersion: 1\nmode: execute\n{PROFILE}"),
    );
    let entry = journal_entry(
        1,
        "completed",
        "gpu-b",
        "2026-09-28T10:00:00Z",
        Some("2026-09-28T10:10:00Z"),
    );
    set_journal(
        &mut doc,
        &json!({"version": "v1", "entries": [entry]}).to_string(),
    );
    let a = run(&doc);
    let gamma = row(&a, "prod/gamma");
    assert_eq!(text(&gamma.reject_reason), Some("NodeCooldown"));
    // Outside perNodeCooldownMinutes (10) the node is free again.
    let entry = journal_entry(
        1,
        "completed",
        "gpu-b",
        "2026-09-28T09:00:00Z",
        Some("2026-09-28T10:04:00Z"),
    );
    set_journal(
        &mut doc,
        &json!({"version": "v1", "entries": [entry]}).to_string(),
    );
    let a = run(&doc);
    assert_eq!(row(&a, "prod/gamma").outcome, "admitted");
}

fn stalled(reason: &str, workload: &str) -> String {
    STALLED
        .replace("OwnerUnavailable", reason)
        .replace(r#""Name":"chat""#, &format!(r#""Name":"{workload}""#))
        .replace("chat-engine", &format!("{workload}-engine"))
}

fn clearing(a: &Analysis) -> String {
    use ome_top::engine::journal::ClearingDecision;
    match &a.clearing[0].1.decision {
        ClearingDecision::Clearable => "clearable".into(),
        ClearingDecision::Wait(why) => format!("wait: {why}"),
        ClearingDecision::NotStalled => "not stalled".into(),
    }
}

#[test]
fn clearing_checks_per_stalled_reason_from_the_snapshot() {
    let mut doc = example();
    // The workload `prod/chat` does not exist: OwnerUnavailable is verifiably clearable.
    set_journal(&mut doc, &stalled("OwnerUnavailable", "chat"));
    assert_eq!(clearing(&run(&doc)), "clearable");
    // ConsumerDeadlineExceeded always waits for the migration to end.
    set_journal(&mut doc, &stalled("ConsumerDeadlineExceeded", "gamma"));
    assert!(clearing(&run(&doc)).starts_with("wait"));
    // AcknowledgementTimeout with the request annotation still on the ISVC: wait.
    set_journal(&mut doc, &stalled("AcknowledgementTimeout", "gamma"));
    item(&mut doc, "InferenceService", "gamma")["metadata"]["annotations"]
        ["ome.io/migration-request-v1-7c9e6679-7425-40de-944b-e07fc1f90ae7"] = "{}".into();
    assert!(clearing(&run(&doc)).starts_with("wait"));
    // Neither annotation nor history row: clear.
    let mut doc = example();
    set_journal(&mut doc, &stalled("AcknowledgementTimeout", "gamma"));
    assert_eq!(clearing(&run(&doc)), "clearable");
    // Another reason: clear once the audit history shows the request ended.
    items(&mut doc).push(json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "gamma-ome-migration-audit", "namespace": "prod"},
        "data": {"history.json": r#"{"entries":[{"requestUUID":"7c9e6679-7425-40de-944b-e07fc1f90ae7","component":"engine","sourceInstance":0,"phase":"Completed","startedAt":"2026-09-28T09:00:00Z","completedAt":"2026-09-28T09:10:00Z"}]}"#}}));
    set_journal(&mut doc, &stalled("MigrationStatusInvalid", "gamma"));
    assert_eq!(clearing(&run(&doc)), "clearable");
}

fn serve_model(doc: &mut Value, isvc: &str, model: Value, claim_modes: &[&str]) {
    item(doc, "InferenceService", isvc)["spec"]["model"] =
        json!({"name": "llama", "kind": "BaseModel"});
    items(doc).push(model);
    items(doc).push(json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"namespace": "prod", "name": "weights"},
        "spec": {"accessModes": claim_modes}
    }));
}

fn base_model(uri: &str) -> Value {
    json!({
        "apiVersion": "ome.io/v1beta1", "kind": "BaseModel",
        "metadata": {"namespace": "prod", "name": "llama"},
        "spec": {"storage": {"storageUri": uri}}
    })
}

#[test]
fn a_model_on_a_read_write_once_claim_is_volume_pinned_component_wide() {
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://weights/llama"),
        &["ReadWriteOnce"],
    );
    let a = run(&doc);
    let rows: Vec<_> = a
        .moves
        .iter()
        .filter(|r| r.workload.as_ref() == "prod/gamma")
        .collect();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].instance, -1);
    assert_eq!(rows[0].outcome, "advisory");
    assert_eq!(text(&rows[0].advisory_reason), Some("VolumePinned"));
    assert_eq!(rows[0].from_node.as_deref(), Some("gpu-b"));
    assert_eq!(rows[0].score, 0.0);
    // gamma's pod is no longer a repack item.
    let base = run(&example());
    assert_eq!(a.pools[0].movable_pods + 1, base.pools[0].movable_pods);
}

#[test]
fn shared_claims_keep_the_move_and_missing_models_are_unresolved() {
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://weights/llama"),
        &["ReadWriteMany"],
    );
    assert_eq!(row(&run(&doc), "prod/gamma").outcome, "withheld");
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://other-claim/llama"),
        &["ReadWriteMany"],
    );
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").advisory_reason),
        Some("ModelUnresolved")
    );
    assert_eq!(row(&a, "prod/gamma").instance, -1);
}
