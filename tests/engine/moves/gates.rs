//! The arbiter's gates on the worked example: placement cooldown, the hourly and in-flight
//! caps over everyone's migrations, an active request elsewhere, maintenance windows, the
//! circuit breaker from the journal's outcomes and the node cooldown after Alfred's own
//! dispatch.

use serde_json::{json, Value};

use super::{example, item, row, run, set_config, set_journal, terminal_migration, text, PROFILE};

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
