//! Property tests: the codec never panics on arbitrary or mutated JSON, and any non-ascending
//! row order is honoured.

use super::*;
use proptest::prelude::*;

/// Arbitrary JSON, biased towards values the decoder cares about.
fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        (-3i64..12).prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<f64>().prop_map(|f| json!(f)),
        "(0|[1-9][0-9]?)(-[0-9]{1,2})?(,[1-9][0-9]?(-[0-9]{1,2})?){0,2}".prop_map(Value::from),
        prop::sample::select(PHASES.to_vec()).prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map("[a-zA-Z]{1,6}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

const POINTERS: &[&str] = &[
    "/instanceStatusEncoding",
    "/instanceStatusColumns",
    "/instanceStatuses",
    "/c/members",
    "/c/rowOrder",
    "/c/phases",
    "/c/phases/0",
    "/c/phases/0/value",
    "/c/phases/0/indexes",
    "/c/phases/1/indexes",
    "/c/runningRevisions/0/value",
    "/c/runningRevisions/1/indexes",
    "/c/targetRevisions",
    "/c/incarnations/0/value",
    "/c/incarnations/1",
    "/c/podCounts/0/value",
    "/c/servingPodCounts/0/indexes",
    "/c/availablePodCounts",
    "/c/admitted",
    "/c/activeOrdinalOne",
    "/c/entries",
    "/c/entries/0",
    "/c/entries/0/index",
    "/c/entries/1/index",
    "/c/entries/0/readySince",
    "/c/entries/1/lastFailure",
    "/c/entries/0/operation",
    "/c/entries/0/conditions",
    "/instanceStatuses/0",
    "/instanceStatuses/0/index",
];

/// Replaces (or, with `None`, removes) the value at `pointer`, when its parent exists.
fn mutate(status: &mut Value, pointer: &str, value: Option<Value>) {
    let pointer = pointer.replace("/c/", "/instanceStatusColumns/");
    let Some((parent, key)) = pointer.rsplit_once('/') else {
        return;
    };
    match (status.pointer_mut(parent), value) {
        (Some(Value::Object(map)), Some(v)) => {
            map.insert(key.to_string(), v);
        }
        (Some(Value::Object(map)), None) => {
            map.shift_remove(key);
        }
        (Some(Value::Array(items)), v) => {
            let Ok(i) = key.parse::<usize>() else { return };
            match v {
                Some(v) if i < items.len() => items[i] = v,
                Some(v) => items.push(v),
                None if i < items.len() => {
                    items.remove(i);
                }
                None => {}
            }
        }
        _ => {}
    }
}

proptest! {
    #[test]
    fn mutated_json_never_panics(
        dense in any::<bool>(),
        edits in prop::collection::vec((0..POINTERS.len(), prop::option::of(arb_json())), 1..5),
        max in prop_oneof![Just(MAX_ROWS), 0usize..12],
    ) {
        let mut status = if dense {
            json!({"instanceStatuses": [{"index": 0, "phase": "Ready"}, {"index": 3}]})
        } else {
            columnar(base())
        };
        for (which, value) in edits {
            mutate(&mut status, POINTERS[which], value);
        }
        if let Ok(rows) = decode_rows(&status, max) {
            let columnar = status.get("instanceStatusEncoding").is_some_and(|m| !m.is_null());
            prop_assert!(!columnar || (rows.len() <= max && !rows.is_empty()));
            prop_assert!(rows.iter().all(|r| r.has_operation == r.operation.is_some()));
            let _ = check_rows(&rows).map_err(|e| e.to_string());
        }
    }

    #[test]
    fn arbitrary_status_never_panics(status in arb_json(), max in 0usize..20) {
        let _ = decode_rows(&status, max);
        let _ = decode_rows(&json!({"instanceStatusEncoding": "ColumnarV2",
            "instanceStatusColumns": status}), max);
    }

    #[test]
    fn any_non_ascending_row_order_is_accepted(order in Just((0..10).collect::<Vec<i64>>()).prop_shuffle()) {
        prop_assume!(order.windows(2).any(|w| w[0] > w[1]));
        let ascending = decode(base());
        let mut c = base();
        c["rowOrder"] = json!(order);
        let rows = decode(c);
        let want: Vec<_> = order.iter().map(|&i| ascending[i as usize].clone()).collect();
        prop_assert_eq!(rows, want);
    }
}
