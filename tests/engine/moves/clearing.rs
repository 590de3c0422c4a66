//! Clearing a stalled journal entry: the checks per stalled reason, decided from what the
//! snapshot shows (the workload, its request annotation, its migration audit history).

use serde_json::json;

use ome_top::engine::analysis::Analysis;

use super::{example, item, items, run, set_journal, STALLED};

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
