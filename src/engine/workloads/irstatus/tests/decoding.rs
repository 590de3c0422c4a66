//! Validation order, accepted edge cases, tolerance of unknown fields and the DenseV1 side of
//! the representation union.

use super::*;

#[test]
fn validation_order_first_failure_wins() {
    // An unknown phase (step 3) beats a bad admitted set (step 4) and a bad row order (step 6).
    let unknown = json!([{"value": "Unknown", "indexes": "0-9"}]);
    let r = rejects(|c| {
        c["phases"] = unknown;
        c["admitted"] = json!("");
        c["rowOrder"] = json!([]);
    });
    assert_eq!(r, "value_domain");
    // Value domain is checked before group order, group order before the index set.
    let both = json!([{"value": "Ready", "indexes": "0-9"}, {"value": "Bogus", "indexes": "x"}]);
    assert_eq!(rejects(|c| c["phases"] = both), "value_domain");
    let order = json!([{"value": "rev-b", "indexes": "0"}, {"value": "rev-a", "indexes": "x"}]);
    assert_eq!(rejects(|c| c["targetRevisions"] = order), "canonical_order");
    // Members is parsed before phases are even looked at.
    assert_eq!(
        rejects(|c| {
            c["members"] = json!("0-9,");
            c["phases"] = json!([]);
        }),
        "range_syntax"
    );
    // Entries (step 5) before row order (step 6).
    assert_eq!(
        rejects(|c| {
            c["entries"] = json!([]);
            c["rowOrder"] = json!([1]);
        }),
        "value_domain"
    );
}

#[test]
fn accepted_edge_cases() {
    let neg = json!([{"value": -5, "indexes": "0-6,8-9"}, {"value": 2, "indexes": "7"}]);
    let mut c = base();
    c["incarnations"] = neg;
    let rows = decode(c);
    assert_eq!((rows[0].incarnation, rows[7].incarnation), (-5, 2));
    let mut c = base();
    c["podCounts"] = json!([{"value": 2147483647, "indexes": "0-9"}]);
    assert_eq!(decode(c)[9].pod_count, 2_147_483_647);
    let top = json!({"members": "0,2147483647", "phases": [{"value": "Failed", "indexes": "0,2147483647"}],
        "entries": [{"index": 2147483647, "readySince": TIME}]});
    let rows = decode(top);
    assert_eq!(
        (rows[1].index, rows[1].ready_since.as_deref()),
        (2_147_483_647, Some(TIME))
    );
    let mut c = base();
    c["entries"][0]["conditions"] = json!([]);
    assert_eq!(decode(c)[2].ready_since.as_deref(), Some(TIME));
    let mut c = base();
    c["rowOrder"] = json!([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
    let rows = decode(c);
    assert_eq!(
        rows.iter().map(|r| r.index).collect::<Vec<_>>(),
        (0..10).rev().collect::<Vec<_>>()
    );
    assert_eq!(
        (rows[2].active_ordinal, rows[6].phase.as_str()),
        (1, "Updating")
    );
    assert!(rows[7].ready_since.is_some());
}

#[test]
fn unknown_fields_are_ignored_and_optional_columns_default() {
    let mut c = json!({"members": "0-9", "phases": [{"value": "Deleting", "indexes": "0-9", "x": 1}],
        "futureColumn": {"a": [1]}, "admitted": null, "rowOrder": null, "entries": null});
    c["entries"] = json!([{"index": 4, "operation": {"type": "Delete", "newField": true},
        "announced": ["once"], "somethingElse": 3}]);
    let rows = decode(c);
    assert!(rows
        .iter()
        .all(|r| r.phase == "Deleting" && !r.admitted && r.pod_count == 0));
    assert!(rows[4].has_operation && rows[4].operation.as_ref().unwrap().op_type == "Delete");
    let mut status = columnar(base());
    status["conditions"] = json!([{"type": "Ready"}]);
    status["futureStatusField"] = json!(7);
    assert_eq!(decode_rows(&status, MAX_ROWS).unwrap().len(), 10);
}

#[test]
fn mistyped_columns_are_value_domain() {
    assert_eq!(rejects(|c| c["members"] = json!(5)), "value_domain");
    assert_eq!(rejects(|c| c["rowOrder"] = json!([9, "0"])), "value_domain");
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([3_000_000_000_i64])),
        "value_domain"
    );
    assert_eq!(
        rejects(|c| c["podCounts"][0]["value"] = json!(1.5)),
        "value_domain"
    );
    assert_eq!(
        rejects(|c| c["entries"][0]["readySince"] = json!("yesterday")),
        "value_domain"
    );
    assert_eq!(reason_of(&columnar(json!("0-9")), MAX_ROWS), "value_domain");
}

#[test]
fn union_dense_cases() {
    assert_eq!(decode_rows(&Value::Null, MAX_ROWS), Ok(vec![]));
    assert_eq!(decode_rows(&json!({}), MAX_ROWS), Ok(vec![]));
    assert_eq!(
        decode_rows(&json!({"instanceStatuses": null}), MAX_ROWS),
        Ok(vec![])
    );
    let nulls = json!({"instanceStatusEncoding": null, "instanceStatusColumns": null, "instanceStatuses": []});
    assert_eq!(decode_rows(&nulls, MAX_ROWS), Ok(vec![]));
    let mut empty_dense = columnar(base());
    empty_dense["instanceStatuses"] = json!([]);
    assert_eq!(decode_rows(&empty_dense, MAX_ROWS).unwrap().len(), 10);
    assert_eq!(
        reason_of(&json!({"instanceStatuses": {}}), MAX_ROWS),
        "value_domain"
    );
    assert_eq!(reason_of(&json!("status"), MAX_ROWS), "value_domain");
}

#[test]
fn dense_rows_are_lenient_but_typed() {
    let status = json!({"instanceStatuses": [
        {"index": 4, "phase": "Ready", "incarnation": 3, "podCount": 1, "servingPodCount": 1,
         "availablePodCount": 1, "admitted": true, "activeOrdinal": 1, "readySince": TIME,
         "readyPodCount": 1, "nodesOccupied": ["n1"], "conditions": [{"type": "AllPodsReady"}],
         "operation": {"type": "Restart", "surgeIndex": 0}},
        {"index": 1, "phase": "Bogus", "podCount": -1, "activeOrdinal": 7, "runningRevision": null}
    ]});
    let rows = decode_rows(&status, MAX_ROWS).unwrap();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0].index, rows[0].incarnation, rows[0].active_ordinal),
        (4, 3, 1)
    );
    assert_eq!(rows[0].ready_since.as_deref(), Some(TIME));
    assert_eq!(
        rows[0].operation.as_ref().and_then(|o| o.surge_index),
        Some(0)
    );
    assert_eq!(
        rows[1],
        InstanceRow {
            index: 1,
            phase: "Bogus".into(),
            pod_count: -1,
            active_ordinal: 7,
            ..InstanceRow::default()
        }
    );
    assert_eq!(
        check_rows(&rows),
        Err(invalid(1, 1, RowProblem::UnknownPhase))
    );
    for bad in [
        json!(3),
        json!({"phase": "Ready"}),
        json!({"index": "3"}),
        json!({"index": 1.5}),
        json!({"index": 3_000_000_000_i64}),
        json!({"index": 1, "podCount": 3_000_000_000_i64}),
        json!({"index": 1, "readySince": "soon"}),
        json!({"index": 1, "admitted": "yes"}),
    ] {
        let status = json!({"instanceStatuses": [bad.clone()]});
        assert_eq!(reason_of(&status, MAX_ROWS), "value_domain", "{bad}");
    }
}

#[test]
fn dense_rows_have_no_codec_bound_but_fail_the_row_check() {
    let many: Vec<Value> = (0..=MAX_ROWS)
        .map(|i| json!({"index": i, "phase": "Ready"}))
        .collect();
    let rows = decode_rows(&json!({"instanceStatuses": many}), 1).unwrap();
    assert_eq!(
        check_rows(&rows),
        Err(RowError::TooManyRows { rows: MAX_ROWS + 1 })
    );
    assert_eq!(check_rows(&rows[..MAX_ROWS]), Ok(()));
}
