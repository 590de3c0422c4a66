//! Unit tests of `ListSplitter`: the items and envelope of a List cut at any byte boundary
//! equal serde_json's reading of the whole body.

use proptest::prelude::*;
use serde_json::Value;

use super::*;

/// Splits `body` fed in `cuts` pieces; the items as trees and the envelope.
fn split(body: &[u8], cuts: &[usize]) -> Result<(Vec<Value>, Envelope), SplitError> {
    let mut s = ListSplitter::default();
    let mut items = Vec::new();
    let mut from = 0;
    let mut points: Vec<usize> = cuts.iter().map(|c| c % (body.len() + 1)).collect();
    points.sort_unstable();
    points.push(body.len());
    for to in points {
        s.feed::<SplitError>(&body[from..to.max(from)], |item| {
            items.push(serde_json::from_slice(item).expect("an item's text is JSON"));
            Ok(())
        })?;
        from = to.max(from);
    }
    assert_eq!(s.items(), items.len());
    Ok((items, s.finish()?))
}

const POD_LIST: &str = r#"{"kind":"PodList","apiVersion":"v1","metadata":{"resourceVersion":"4711"},"items":[{"metadata":{"name":"a","annotations":{"x":"}]\"{[","items":"[{"}},"spec":{"containers":[{"name":"c"}]}},{"metadata":{"name":"b\\"}}]}"#;

#[test]
fn items_and_the_resource_version_come_out_of_a_list() {
    let (items, env) = split(POD_LIST.as_bytes(), &[]).expect("a list");
    let whole: Value = serde_json::from_str(POD_LIST).expect("json");
    assert_eq!(items, whole["items"].as_array().expect("items").clone());
    assert_eq!(env.kind.as_deref(), Some("PodList"));
    assert_eq!(env.metadata.resource_version.as_deref(), Some("4711"));
}

#[test]
fn an_empty_or_null_items_list_is_a_list_and_other_bodies_are_not() {
    for body in [
        r#"{"kind":"NodeList","metadata":{"resourceVersion":"1"},"items":[]}"#,
        r#"{"kind":"NodeList","metadata":{"resourceVersion":"1"},"items":null}"#,
        "{ \"items\" : [ ] , \"metadata\" : { } }",
    ] {
        let (items, _) = split(body.as_bytes(), &[]).expect(body);
        assert!(items.is_empty(), "{body}");
    }
    let not = |body: &str| split(body.as_bytes(), &[]).expect_err(body);
    assert!(matches!(
        not(r#"{"items":[1]}"#),
        SplitError::NotAnObject(0)
    ));
    assert!(matches!(
        not(r#"{"items":[{},"x"]}"#),
        SplitError::NotAnObject(1)
    ));
    assert!(matches!(not(r#"{"items":[{"a":1}"#), SplitError::Truncated));
    assert!(matches!(not(r#"{"kind":"Status"}"#), SplitError::NoItems));
    assert!(matches!(not("42"), SplitError::Envelope(_)));
    assert!(matches!(not("[]"), SplitError::NoItems));
    // A nested "items" key is an object's own business.
    let (items, _) = split(
        br#"{"kind":"XList","metadata":{"items":[{"a":1}]},"items":[{"b":2}]}"#,
        &[],
    )
    .expect("a list");
    assert_eq!(items, vec![serde_json::json!({"b": 2})]);
}

fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "[a-z\\\\\"{}\\[\\],: ]{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            proptest::collection::btree_map("[a-z\"\\\\]{0,5}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn object() -> impl Strategy<Value = Value> {
    proptest::collection::btree_map("[a-z\"\\\\]{0,5}", value(), 0..4)
        .prop_map(|m| Value::Object(m.into_iter().collect()))
}

proptest! {
    #[test]
    fn any_list_cut_anywhere_gives_serde_jsons_items(
        items in proptest::collection::vec(object(), 0..5),
        before in value(),
        after in value(),
        pretty in any::<bool>(),
        cuts in proptest::collection::vec(any::<usize>(), 0..12),
    ) {
        let list = serde_json::json!({
            "kind": "ThingList",
            "before": before,
            "metadata": {"resourceVersion": "12"},
            "items": items,
            "after": after,
        });
        let body = if pretty {
            serde_json::to_vec_pretty(&list)
        } else {
            serde_json::to_vec(&list)
        }.expect("json");
        let (got, env) = split(&body, &cuts).expect("a list");
        prop_assert_eq!(got, items);
        prop_assert_eq!(env.metadata.resource_version.as_deref(), Some("12"));
    }
}
