//! Unit tests of `Store`: relist semantics, deletes and unconvertible objects.

use std::collections::BTreeMap;

use k8s_openapi::api::core::v1::ConfigMap as K8sConfigMap;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::ObjectMeta;
use kube::runtime::watcher::Event;

use super::{Conversion, SharedNames, Store};
use crate::cluster::convert::{self, ConvertError, Interner, Warnings};
use crate::engine::model::ConfigMap;

fn cm(name: &str, value: &str) -> K8sConfigMap {
    K8sConfigMap {
        metadata: ObjectMeta {
            name: Some(name.to_string()),
            namespace: Some("ome".to_string()),
            ..ObjectMeta::default()
        },
        data: Some(BTreeMap::from([("v".to_string(), value.to_string())])),
        ..K8sConfigMap::default()
    }
}

/// `v = "bad"` cannot be converted, `v = "skip"` is not of interest, `v = "odd"` converts
/// with a warning.
fn test_convert(
    i: &mut Interner,
    c: &K8sConfigMap,
    w: &mut Warnings,
) -> Result<Option<ConfigMap>, ConvertError> {
    let v = c.data.as_ref().and_then(|d| d.get("v")).cloned();
    match v.as_deref() {
        Some("bad") => Err(ConvertError {
            object: convert::object_id("ConfigMap", &c.metadata),
            field: "data.v".to_string(),
            message: "bad value".to_string(),
        }),
        Some("skip") => Ok(None),
        other => {
            if other == Some("odd") {
                w.push(format!(
                    "{}: odd",
                    convert::object_id("ConfigMap", &c.metadata)
                ));
            }
            Ok(Some(convert::config_map(i, c)))
        }
    }
}

fn key(c: &K8sConfigMap) -> String {
    format!(
        "{}/{}",
        c.metadata.namespace.as_deref().unwrap_or_default(),
        c.metadata.name.as_deref().unwrap_or_default()
    )
}

const CONV: Conversion<K8sConfigMap, ConfigMap> = Conversion {
    key,
    convert: test_convert,
};

fn contents(store: &Store<ConfigMap>) -> Vec<(String, String)> {
    store
        .values()
        .iter()
        .map(|c| (c.name.to_string(), c.data["v"].clone()))
        .collect()
}

fn relist(store: &mut Store<ConfigMap>, objects: &[K8sConfigMap]) -> bool {
    let mut changed = store.apply(Event::Init, &CONV);
    for o in objects {
        changed |= store.apply(Event::InitApply(o.clone()), &CONV);
    }
    assert!(
        !changed,
        "Init and InitApply must not change the visible contents"
    );
    store.apply(Event::InitDone, &CONV)
}

#[test]
fn relist_replaces_the_contents_exactly() {
    let mut store = Store::default();
    assert!(relist(
        &mut store,
        &[cm("a", "1"), cm("b", "1"), cm("c", "1")]
    ));
    assert_eq!(store.len(), 3);
    // While disconnected, "a" was deleted, "b" changed and "d" created.
    store.apply(Event::Init, &CONV);
    store.apply(Event::InitApply(cm("b", "2")), &CONV);
    // Mid-relist the previous contents stay visible (stale but complete).
    assert_eq!(store.len(), 3);
    store.apply(Event::InitApply(cm("c", "1")), &CONV);
    store.apply(Event::InitApply(cm("d", "1")), &CONV);
    assert!(store.apply(Event::InitDone, &CONV));

    let mut fresh = Store::default();
    relist(&mut fresh, &[cm("b", "2"), cm("c", "1"), cm("d", "1")]);
    assert_eq!(contents(&store), contents(&fresh));
    assert_eq!(
        contents(&store),
        vec![
            ("b".to_string(), "2".to_string()),
            ("c".to_string(), "1".to_string()),
            ("d".to_string(), "1".to_string())
        ]
    );
}

#[test]
fn an_interrupted_relist_is_discarded_by_the_next_init() {
    let mut store = Store::default();
    relist(&mut store, &[cm("a", "1")]);
    store.apply(Event::Init, &CONV);
    store.apply(Event::InitApply(cm("half", "1")), &CONV);
    // The list failed; the watcher starts over.
    relist(&mut store, &[cm("a", "1"), cm("z", "1")]);
    let names: Vec<String> = contents(&store).into_iter().map(|(n, _)| n).collect();
    assert_eq!(names, vec!["a", "z"]);
}

#[test]
fn apply_and_delete_change_the_live_contents() {
    let mut store = Store::default();
    relist(&mut store, &[cm("a", "1")]);
    assert!(store.apply(Event::Apply(cm("b", "1")), &CONV));
    assert!(store.apply(Event::Apply(cm("a", "2")), &CONV));
    assert_eq!(
        contents(&store),
        vec![
            ("a".to_string(), "2".to_string()),
            ("b".to_string(), "1".to_string())
        ]
    );
    assert!(store.apply(Event::Delete(cm("a", "2")), &CONV));
    assert!(!store.apply(Event::Delete(cm("never", "1")), &CONV));
    assert_eq!(contents(&store), vec![("b".to_string(), "1".to_string())]);
}

#[test]
fn unconvertible_objects_are_counted_and_named_not_kept() {
    let mut store = Store::default();
    relist(&mut store, &[cm("good", "1"), cm("broken", "bad")]);
    assert_eq!(store.len(), 1);
    assert_eq!(store.unconvertible(), 1);
    let warnings = store.warnings();
    assert_eq!(warnings.len(), 1);
    assert!(warnings[0].contains("ConfigMap ome/broken"), "{warnings:?}");
    assert!(warnings[0].contains("bad value"), "{warnings:?}");

    // A good object turning bad drops its previous version.
    store.apply(Event::Apply(cm("good", "bad")), &CONV);
    assert_eq!(store.len(), 0);
    assert_eq!(store.unconvertible(), 2);

    // Fixing and deleting clear the warnings.
    store.apply(Event::Apply(cm("good", "1")), &CONV);
    store.apply(Event::Delete(cm("broken", "bad")), &CONV);
    assert_eq!(store.unconvertible(), 0);
    assert!(store.warnings().is_empty());
}

#[test]
fn conversion_warnings_follow_the_object_and_skipped_objects_vanish() {
    let mut store = Store::default();
    relist(&mut store, &[cm("a", "odd"), cm("b", "skip")]);
    assert_eq!(store.len(), 1);
    assert_eq!(store.warnings(), vec!["ConfigMap ome/a: odd".to_string()]);
    assert_eq!(store.unconvertible(), 0);
    store.apply(Event::Apply(cm("a", "skip")), &CONV);
    assert!(store.is_empty());
    assert!(store.warnings().is_empty());
}

#[test]
fn clear_empties_objects_warnings_and_any_relist() {
    let mut store = Store::default();
    relist(&mut store, &[cm("a", "1"), cm("b", "bad")]);
    store.apply(Event::Init, &CONV);
    store.apply(Event::InitApply(cm("c", "1")), &CONV);
    assert!(store.clear());
    assert!(!store.apply(Event::InitDone, &CONV));
    assert!(store.is_empty());
    assert!(store.warnings().is_empty());
    assert!(!store.clear());
}

#[test]
fn churn_keeps_the_contents_right_across_interner_renewals() {
    let mut store = Store::default();
    relist(&mut store, &[]);
    for n in 0..3000 {
        store.apply(Event::Apply(cm(&format!("p{n}"), "1")), &CONV);
        if n >= 10 {
            store.apply(Event::Delete(cm(&format!("p{}", n - 10), "1")), &CONV);
        }
    }
    let names: Vec<String> = contents(&store).into_iter().map(|(n, _)| n).collect();
    let mut expected: Vec<String> = (2990..3000).map(|n| format!("p{n}")).collect();
    expected.sort();
    assert_eq!(names, expected);
}

#[test]
fn stores_of_one_session_share_their_strings() {
    let names = SharedNames::default();
    let mut journal: Store<ConfigMap> = Store::sharing(names.clone());
    let mut audit: Store<ConfigMap> = Store::sharing(names);
    let mut alone: Store<ConfigMap> = Store::default();
    for store in [&mut journal, &mut audit, &mut alone] {
        store.apply(Event::Apply(cm("x", "1")), &CONV);
    }
    let ns = |s: &Store<ConfigMap>| s.values()[0].namespace.clone();
    assert!(crate::engine::fast::same_allocation(
        &ns(&journal),
        &ns(&audit)
    ));
    assert!(!crate::engine::fast::same_allocation(
        &ns(&journal),
        &ns(&alone)
    ));
    assert_eq!(ns(&journal), ns(&alone));
}

#[test]
fn a_list_in_any_order_with_repeated_keys_keeps_each_key_s_last_arrival() {
    let mut store = Store::default();
    relist(
        &mut store,
        &[
            cm("c", "1"),
            cm("a", "1"),
            cm("b", "1"),
            cm("a", "2"),
            cm("b", "skip"),
            cm("c", "bad"),
            cm("d", "bad"),
            cm("d", "3"),
        ],
    );
    assert_eq!(
        contents(&store),
        vec![
            ("a".to_string(), "2".to_string()),
            ("d".to_string(), "3".to_string())
        ]
    );
    // "c" was last not understood; "b" last not of interest, so leaves no trace.
    assert_eq!(store.unconvertible(), 1);
    assert_eq!(store.warnings().len(), 1);
    assert!(
        store.warnings()[0].contains("ome/c"),
        "{:?}",
        store.warnings()
    );
}

#[test]
fn a_list_counts_what_it_received_until_it_is_done() {
    let mut store = Store::default();
    assert_eq!(store.listing(), None);
    store.apply(Event::Init, &CONV);
    assert_eq!(store.listing(), Some(0));
    store.apply(Event::InitApply(cm("a", "1")), &CONV);
    store.apply(Event::InitApply(cm("b", "skip")), &CONV);
    assert_eq!(store.listing(), Some(2));
    store.apply(Event::InitDone, &CONV);
    assert_eq!(store.listing(), None);
    assert_eq!(store.len(), 1);
}
