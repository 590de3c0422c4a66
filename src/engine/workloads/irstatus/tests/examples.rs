//! The worked examples of spec §3.6, decoded field by field.

use super::*;
use serde::Deserialize;

#[test]
fn example_1_eight_instances_one_mid_update() {
    let columns = json!({
        "members": "0-7",
        "phases": [{"value": "Ready", "indexes": "0-2,4-7"}, {"value": "Updating", "indexes": "3"}],
        "runningRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "0-7"}],
        "targetRevisions": [{"value": "chat-engine-7b1e22c0", "indexes": "3"}],
        "incarnations": [{"value": 1, "indexes": "0-4,6-7"}, {"value": 2, "indexes": "5"}],
        "podCounts": [{"value": 1, "indexes": "0-2,4-7"}, {"value": 2, "indexes": "3"}],
        "servingPodCounts": [{"value": 1, "indexes": "0-7"}],
        "availablePodCounts": [{"value": 1, "indexes": "0-7"}],
        "admitted": "0-7",
        "activeOrdinalOne": "6",
        "entries": [
            {"index": 3, "operation": {"id": "upd-3-1", "type": "Update", "step": "WaitReady",
              "startedAt": "2026-09-28T10:10:00Z", "lastProgressAt": "2026-09-28T10:11:30Z",
              "deadline": "2026-09-28T10:40:00Z", "targetRevision": "chat-engine-7b1e22c0"}},
            {"index": 5, "lastFailure": {"podName": "chat-engine-5-default-0",
              "containerName": "ome-container", "reason": "OOMKilled", "exitCode": 137,
              "time": "2026-09-28T07:03:12Z"}}
        ]
    });
    let operation = InstanceOperation::deserialize(&columns["entries"][0]["operation"]).unwrap();
    let (run, tgt) = ("chat-engine-5d8f9c7a", "chat-engine-7b1e22c0");
    let mut want: Vec<_> = (0..8)
        .map(|i| row(i, "Ready", [run, ""], 1, [1; 3], true, 0))
        .collect();
    want[3] = row(3, "Updating", [run, tgt], 1, [2, 1, 1], true, 0);
    want[3].has_operation = true;
    want[3].operation = Some(operation);
    want[5].incarnation = 2;
    want[6].active_ordinal = 1;
    let rows = decode(columns);
    assert_eq!(rows, want);
    let op = rows[3].operation.as_ref().unwrap();
    assert_eq!(
        (op.op_type.as_str(), op.step.as_str(), op.surge_index),
        ("Update", "WaitReady", None)
    );
    assert_eq!(op.deadline.as_deref(), Some("2026-09-28T10:40:00Z"));
    assert_eq!(check_rows(&rows), Ok(()));
}

#[test]
fn example_2_sparse_migration_stored_order() {
    let columns = json!({
        "members": "0,2-3,7",
        "rowOrder": [2, 0, 3, 7],
        "phases": [{"value": "Creating", "indexes": "7"}, {"value": "Migrating", "indexes": "2"},
                   {"value": "Ready", "indexes": "0,3"}],
        "runningRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "0,2-3"}],
        "targetRevisions": [{"value": "chat-engine-5d8f9c7a", "indexes": "7"}],
        "incarnations": [{"value": 1, "indexes": "0,2,7"}, {"value": 4, "indexes": "3"}],
        "podCounts": [{"value": 1, "indexes": "0,2-3,7"}],
        "servingPodCounts": [{"value": 1, "indexes": "0,2-3"}],
        "availablePodCounts": [{"value": 1, "indexes": "0,2-3"}],
        "admitted": "0,2-3",
        "entries": [
            {"index": 2, "operation": {"id": "mig-7c9e", "type": "Migrate", "step": "SurgeWait",
              "startedAt": "2026-09-28T10:12:00Z", "lastProgressAt": "2026-09-28T10:12:05Z",
              "deadline": "2026-09-28T10:42:00Z", "surgeIndex": 7, "fromNode": "gpu-b",
              "requestUUID": "7c9e6679-7425-40de-944b-e07fc1f90ae7"}},
            {"index": 7, "operation": {"id": "create-7-1", "type": "Create", "step": "WaitReady",
              "startedAt": "2026-09-28T10:12:05Z", "lastProgressAt": "2026-09-28T10:12:05Z",
              "deadline": "2026-09-28T10:42:05Z", "targetRevision": "chat-engine-5d8f9c7a"}}
        ]
    });
    let rev = "chat-engine-5d8f9c7a";
    let rows = decode(columns);
    let plain = |r: &InstanceRow| InstanceRow {
        has_operation: false,
        operation: None,
        ..r.clone()
    };
    assert_eq!(
        rows.iter().map(plain).collect::<Vec<_>>(),
        vec![
            row(2, "Migrating", [rev, ""], 1, [1, 1, 1], true, 0),
            row(0, "Ready", [rev, ""], 1, [1, 1, 1], true, 0),
            row(3, "Ready", [rev, ""], 4, [1, 1, 1], true, 0),
            row(7, "Creating", ["", rev], 1, [1, 0, 0], false, 0),
        ]
    );
    let ops: Vec<_> = rows
        .iter()
        .map(|r| (r.has_operation, r.operation.as_ref()))
        .collect();
    let migrate = ops[0].1.unwrap();
    assert_eq!(
        (migrate.op_type.as_str(), migrate.surge_index),
        ("Migrate", Some(7))
    );
    assert_eq!(migrate.from_node, "gpu-b");
    assert_eq!(migrate.request_uuid, "7c9e6679-7425-40de-944b-e07fc1f90ae7");
    assert!(ops[0].0 && !ops[1].0 && ops[1].1.is_none() && !ops[2].0);
    assert_eq!(ops[3].1.map(|o| o.op_type.as_str()), Some("Create"));
    assert_eq!(check_rows(&rows), Ok(()));
}

#[test]
fn example_3_minimal_payload() {
    let rows =
        decode(json!({"members": "0-2,9", "phases": [{"value": "Pending", "indexes": "0-2,9"}]}));
    let want: Vec<_> = [0, 1, 2, 9]
        .iter()
        .map(|&i| row(i, "Pending", ["", ""], 0, [0; 3], false, 0))
        .collect();
    assert_eq!(rows, want);
}
