//! Property tests: arbitrary, structurally mutated and byte-mutated documents never panic and
//! every key is accounted for.

use super::*;
use proptest::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// Replaces the subtree reached by following `path` (indices modulo each container's size)
/// with `with`; at a leaf the leaf itself is replaced.
fn mutate(v: &mut Value, path: &[usize], with: Value, delete: bool) {
    let Some((&step, rest)) = path.split_first() else {
        return *v = with;
    };
    match v {
        Value::Object(m) if !m.is_empty() => {
            let key = m.keys().nth(step % m.len()).unwrap().clone();
            if delete && rest.is_empty() {
                m.shift_remove(&key);
            } else {
                mutate(m.get_mut(&key).unwrap(), rest, with, delete);
            }
        }
        Value::Array(a) if !a.is_empty() => {
            let n = a.len();
            mutate(&mut a[step % n], rest, with, delete)
        }
        _ => *v = with,
    }
}

fn arb_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(|i| json!(i)),
        any::<f64>().prop_map(|f| json!(f)),
        ".{0,12}".prop_map(Value::String),
        Just(json!("2026-09-28T10:15:02.418093721Z")),
        Just(json!(-1)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            prop::collection::btree_map("[a-zA-Z]{1,8}", inner, 0..4)
                .prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

fn check_total(d: &BTreeMap<String, String>) {
    let r = parse_recommendations(d);
    if let Some(Ok(c)) = &r.last_cycle {
        let mut rows = c.rows().to_vec();
        sort_rows_for_display(&mut rows);
        let _ = rows.iter().map(row_identity).count();
    }
    assert_eq!(
        r.nodes.len() + r.unknown_keys.len() + usize::from(r.last_cycle.is_some()),
        d.len()
    );
}

proptest! {
    #[test]
    fn arbitrary_strings_never_panic(text in ".{0,200}", key in "(node\\.|node-hash\\.|x)?[a-z.]{0,8}") {
        check_total(&data(&[("last-cycle.json", &text), (&key, &text), ("node.n", &text)]));
    }

    #[test]
    fn mutated_documents_never_panic(
        path in prop::collection::vec(any::<usize>(), 0..6),
        with in arb_json(),
        delete in any::<bool>(),
        node in any::<bool>(),
    ) {
        let base = if node { NODE_TEXT } else { EXECUTE_EXAMPLE };
        let mut v: Value = serde_json::from_str(base).unwrap();
        mutate(&mut v, &path, with, delete);
        let text = v.to_string();
        check_total(&data(&[("last-cycle.json", &text), ("node.n", &text)]));
        let rows = parse_recommendations(&data(&[("last-cycle.json", &text)])).last_cycle;
        if let Some(Ok(c)) = rows {
            prop_assert!(c.rows().len() <= 7);
        }
    }

    #[test]
    fn byte_mutated_text_never_panics(at in any::<usize>(), cut in 0usize..8, ins in ".{0,4}") {
        let mut text = RECOMMEND_ONLY_ROW.to_string();
        let mut at = at % (text.len() + 1);
        while !text.is_char_boundary(at) { at -= 1; }
        let mut end = (at + cut).min(text.len());
        while !text.is_char_boundary(end) { end -= 1; }
        text.replace_range(at..end.max(at), &ins);
        let doc = format!(r#"{{"timestamp":"x","recommendations":[{text}]}}"#);
        check_total(&data(&[("last-cycle.json", &doc), ("node.n", &text)]));
    }
}
