//! The §3.5 rejection tables: one test per catalogue reason and rule, plus the catalogue itself.

use super::*;

#[test]
fn catalogue_reasons_and_messages() {
    use CodecError::*;
    let all = [
        UnknownEncoding,
        RepresentationUnion,
        RangeSyntax,
        RangeOrder,
        RangeOverflow,
        CardinalityLimit,
        Coverage,
        CanonicalOrder,
        ValueDomain,
    ];
    let reasons: Vec<_> = all.iter().map(|e| e.reason()).collect();
    assert_eq!(
        reasons,
        [
            "unknown_encoding",
            "representation_union",
            "range_syntax",
            "range_order",
            "range_overflow",
            "cardinality_limit",
            "coverage",
            "canonical_order",
            "value_domain",
        ]
    );
    let messages: Vec<_> = all.iter().map(|e| e.to_string()).collect();
    assert_eq!(
        messages,
        [
            "instance status encoding is unknown",
            "instance status representation is invalid",
            "instance index set syntax is invalid",
            "instance index set order is invalid",
            "instance index set exceeds the supported index domain",
            "instance status cardinality limit is invalid",
            "instance status column coverage is invalid",
            "instance status column order is not canonical",
            "instance status value is outside its supported domain",
        ]
    );
}

#[test]
fn base_payload_expands() {
    let rows = decode(base());
    let mut want: Vec<_> = (0..10)
        .map(|i| row(i, "Ready", ["rev-a", ""], 1, [1; 3], true, 0))
        .collect();
    want[3].phase = "Updating".into();
    want[3].target_revision = "rev-b".into();
    want[7] = row(7, "Ready", ["rev-b", ""], 2, [1; 3], true, 1);
    want[8].admitted = false;
    want[2].ready_since = Some(TIME.into());
    assert_eq!(rows, want);
    assert_eq!(check_rows(&rows), Ok(()));
}

#[test]
fn table_members_range_syntax() {
    assert_eq!(members(""), "range_syntax");
    assert_eq!(members("0-9 "), "range_syntax");
    assert_eq!(members("00-9"), "range_syntax");
    assert_eq!(members("+0-9"), "range_syntax");
    assert_eq!(members("0-9,"), "range_syntax");
    assert_eq!(rejects(|c| c["members"] = Value::Null), "range_syntax");
}

#[test]
fn table_members_range_order() {
    assert_eq!(members("9-0"), "range_order");
    assert_eq!(members("0-8,9-9"), "range_order");
    assert_eq!(members("0-5,5-9"), "range_order");
    assert_eq!(members("1,0"), "range_order");
}

#[test]
fn table_index_set_canonical_order() {
    assert_eq!(members("0-4,5-9"), "canonical_order");
    let split = json!([{"value": "Ready", "indexes": "0-2,3-9"}]);
    assert_eq!(rejects(|c| c["phases"] = split), "canonical_order");
    assert_eq!(
        rejects(|c| c["activeOrdinalOne"] = json!("7,8")),
        "canonical_order"
    );
}

#[test]
fn table_range_overflow() {
    assert_eq!(members("0-2147483648"), "range_overflow");
    assert_eq!(members(&"9".repeat(40)), "range_overflow");
}

#[test]
fn table_cardinality_limit() {
    assert_eq!(reason_of(&columnar(base()), 9), "cardinality_limit");
    assert_eq!(reason_of(&columnar(base()), 0), "cardinality_limit");
    let wide = json!([{"value": "Ready", "indexes": "0-10"}]);
    assert_eq!(rejects(|c| c["phases"] = wide), "cardinality_limit");
    assert_eq!(
        rejects(|c| c["admitted"] = json!("0-10")),
        "cardinality_limit"
    );
    let two = json!([{"value": "Failed", "indexes": "0"}, {"value": "Ready", "indexes": "0"}]);
    assert_eq!(
        rejects(|c| {
            c["members"] = json!("0");
            c["phases"] = two;
        }),
        "cardinality_limit"
    );
    let eleven: Vec<Value> = (0..11)
        .map(|i| json!({"index": i, "readySince": TIME}))
        .collect();
    assert_eq!(
        rejects(|c| c["entries"] = json!(eleven)),
        "cardinality_limit"
    );
}

#[test]
fn bombs_fail_fast_with_cardinality_limit() {
    assert_eq!(members("0-2147483647"), "cardinality_limit");
    assert_eq!(members("0-9,11-2147483647"), "cardinality_limit");
    let bomb = json!([{"value": "Ready", "indexes": "0-2147483647"}]);
    assert_eq!(rejects(|c| c["phases"] = bomb), "cardinality_limit");
    assert_eq!(
        rejects(|c| c["admitted"] = json!("0-2147483647")),
        "cardinality_limit"
    );
}

#[test]
fn table_phase_coverage() {
    let obj = |c: &mut Value| c.as_object_mut().unwrap().remove("phases");
    assert_eq!(
        rejects(|c| {
            obj(c);
        }),
        "coverage"
    );
    assert_eq!(rejects(|c| c["phases"] = Value::Null), "coverage");
    assert_eq!(rejects(|c| c["phases"] = json!([])), "coverage");
    let short = json!([{"value": "Ready", "indexes": "0-8"}]);
    assert_eq!(rejects(|c| c["phases"] = short), "coverage");
    let extra = json!([{"value": "Ready", "indexes": "0-8,10"}]);
    assert_eq!(rejects(|c| c["phases"] = extra), "coverage");
    let dup = json!([{"value": "Failed", "indexes": "3"}, {"value": "Ready", "indexes": "0-9"}]);
    assert_eq!(rejects(|c| c["phases"] = dup), "coverage");
    let both = json!({"members": "0-4", "phases": [
        {"value": "Failed", "indexes": "0-4"}, {"value": "Ready", "indexes": "0-4"}]});
    assert_eq!(reason_of(&columnar(both), MAX_ROWS), "coverage");
}

#[test]
fn table_group_canonical_order() {
    let two_ready =
        json!([{"value": "Ready", "indexes": "0-4"}, {"value": "Ready", "indexes": "5-9"}]);
    assert_eq!(rejects(|c| c["phases"] = two_ready), "canonical_order");
    let unsorted =
        json!([{"value": "Updating", "indexes": "3"}, {"value": "Ready", "indexes": "0-2,4-9"}]);
    assert_eq!(rejects(|c| c["phases"] = unsorted), "canonical_order");
    let revs = json!([{"value": "rev-b", "indexes": "0-4"}, {"value": "rev-a", "indexes": "5-9"}]);
    assert_eq!(rejects(|c| c["runningRevisions"] = revs), "canonical_order");
    let incs = json!([{"value": 10, "indexes": "0-4"}, {"value": 9, "indexes": "5-9"}]);
    assert_eq!(rejects(|c| c["incarnations"] = incs), "canonical_order");
    let counts = json!([{"value": 2, "indexes": "0-4"}, {"value": 1, "indexes": "5-9"}]);
    assert_eq!(
        rejects(|c| c["availablePodCounts"] = counts),
        "canonical_order"
    );
}

#[test]
fn table_value_domain() {
    let unknown = json!([{"value": "Unknown", "indexes": "0-9"}]);
    assert_eq!(rejects(|c| c["phases"] = unknown), "value_domain");
    let empty_rev = json!([{"value": "", "indexes": "0-9"}]);
    assert_eq!(
        rejects(|c| c["runningRevisions"] = empty_rev),
        "value_domain"
    );
    assert_eq!(
        rejects(|c| c["runningRevisions"] = json!([])),
        "value_domain"
    );
    let zero_inc = json!([{"value": 0, "indexes": "0-9"}]);
    assert_eq!(rejects(|c| c["incarnations"] = zero_inc), "value_domain");
    let zero = json!([{"value": 0, "indexes": "0-9"}]);
    assert_eq!(rejects(|c| c["podCounts"] = zero), "value_domain");
    let negative = json!([{"value": -1, "indexes": "0-9"}]);
    assert_eq!(
        rejects(|c| c["servingPodCounts"] = negative),
        "value_domain"
    );
    assert_eq!(rejects(|c| c["entries"] = json!([])), "value_domain");
    assert_eq!(rejects(|c| c["rowOrder"] = json!([])), "value_domain");
}

#[test]
fn table_subset_coverage() {
    let overlap =
        json!([{"value": "rev-a", "indexes": "0-6"}, {"value": "rev-b", "indexes": "6-9"}]);
    assert_eq!(rejects(|c| c["runningRevisions"] = overlap), "coverage");
    let outside = json!([{"value": "rev-a", "indexes": "10"}]);
    assert_eq!(rejects(|c| c["targetRevisions"] = outside), "coverage");
    assert_eq!(rejects(|c| c["admitted"] = json!("0-7,12")), "coverage");
    assert_eq!(rejects(|c| c["activeOrdinalOne"] = json!("10")), "coverage");
}

#[test]
fn table_entry_coverage() {
    assert_eq!(
        rejects(|c| c["entries"][1]["index"] = json!(11)),
        "coverage"
    );
    assert_eq!(rejects(|c| c["entries"][1]["index"] = json!(2)), "coverage");
    assert_eq!(
        rejects(|c| c["entries"][0] = json!({"index": 2})),
        "coverage"
    );
    let only_empty = json!({"index": 2, "conditions": []});
    assert_eq!(rejects(|c| c["entries"][0] = only_empty), "coverage");
    let only_announced = json!({"index": 2, "announced": ["x"]});
    assert_eq!(rejects(|c| c["entries"][0] = only_announced), "coverage");
}

#[test]
fn table_entries_out_of_order() {
    assert_eq!(
        rejects(|c| c["entries"].as_array_mut().unwrap().swap(0, 1)),
        "canonical_order"
    );
}

#[test]
fn table_row_order_ascending() {
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])),
        "canonical_order"
    );
}

#[test]
fn table_row_order_coverage() {
    assert_eq!(rejects(|c| c["rowOrder"] = json!([9, 0])), "coverage");
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([9, 0, 1, 2, 3, 4, 5, 6, 7, 8, 8])),
        "coverage"
    );
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([9, 0, 1, 2, 3, 4, 5, 6, 7, 7])),
        "coverage"
    );
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([10, 0, 1, 2, 3, 4, 5, 6, 7, 8])),
        "coverage"
    );
    assert_eq!(
        rejects(|c| c["rowOrder"] = json!([-1, 0, 1, 2, 3, 4, 5, 6, 7, 8])),
        "coverage"
    );
}

#[test]
fn table_representation_union() {
    let unmarked = json!({"instanceStatusColumns": base()});
    assert_eq!(reason_of(&unmarked, MAX_ROWS), "representation_union");
    let no_columns = json!({"instanceStatusEncoding": "ColumnarV2"});
    assert_eq!(reason_of(&no_columns, MAX_ROWS), "representation_union");
    let null_columns =
        json!({"instanceStatusEncoding": "ColumnarV2", "instanceStatusColumns": null});
    assert_eq!(reason_of(&null_columns, MAX_ROWS), "representation_union");
    let mut mixed = columnar(base());
    mixed["instanceStatuses"] = json!([{"index": 0, "phase": "Ready"}]);
    assert_eq!(reason_of(&mixed, MAX_ROWS), "representation_union");
}

#[test]
fn table_unknown_encoding() {
    for marker in [json!("ColumnarV3"), json!(""), json!("DenseV1"), json!(2)] {
        let status = json!({"instanceStatusEncoding": marker, "instanceStatusColumns": base()});
        assert_eq!(reason_of(&status, MAX_ROWS), "unknown_encoding", "{marker}");
    }
}
