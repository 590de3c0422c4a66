//! Unit tests of `Slim`: slim and full decodes convert to the same model objects; bookmarks,
//! nulls and bad input.

use super::*;

use crate::cluster::convert::{self, Interner, Warnings};

/// Two pods (bound with every placement field and a deletion; pending gang member) and a node,
/// each with managed fields, container statuses or images.
const OBJECTS: &str = include_str!("../../../tests/fixtures/k8s/wire-objects.json");

fn items() -> Vec<serde_json::Value> {
    let list: serde_json::Value = serde_json::from_str(OBJECTS).expect("fixture");
    list["items"].as_array().expect("items").clone()
}

fn of_kind(kind: &str) -> Vec<serde_json::Value> {
    items().into_iter().filter(|o| o["kind"] == kind).collect()
}

#[test]
fn a_slim_pod_converts_to_the_same_model_pod() {
    let pods = of_kind("Pod");
    assert_eq!(pods.len(), 2);
    for json in pods {
        let full: core::Pod = serde_json::from_value(json.clone()).expect("full");
        let slim: Slim<core::Pod> = serde_json::from_value(json).expect("slim");
        assert!(slim.0.metadata.managed_fields.is_none());
        assert!(full.metadata.managed_fields.is_some());
        let status = slim.0.status.as_ref().expect("status");
        assert!(status.container_statuses.is_none() && status.init_container_statuses.is_none());
        let (mut wf, mut ws) = (Warnings::new(), Warnings::new());
        let a = convert::pod(&mut Interner::default(), &full, &mut wf).expect("convert full");
        let b = convert::pod(&mut Interner::default(), &slim.0, &mut ws).expect("convert slim");
        assert_eq!(a, b);
        assert_eq!(wf, ws);
    }
}

#[test]
fn a_slim_node_converts_to_the_same_model_node() {
    let json = of_kind("Node").remove(0);
    let full: core::Node = serde_json::from_value(json.clone()).expect("full");
    let slim: Slim<core::Node> = serde_json::from_value(json).expect("slim");
    let status = slim.0.status.as_ref().expect("status");
    assert!(status.images.is_none() && status.addresses.is_none());
    assert!(slim.0.metadata.managed_fields.is_none());
    let (mut wf, mut ws) = (Warnings::new(), Warnings::new());
    let a = convert::node(&mut Interner::default(), &full, &mut wf).expect("convert full");
    let b = convert::node(&mut Interner::default(), &slim.0, &mut ws).expect("convert slim");
    assert_eq!(a, b);
    assert_eq!(wf, ws);
}

#[test]
fn metadata_survives_except_managed_fields() {
    let json = of_kind("Pod").remove(0);
    let full: core::Pod = serde_json::from_value(json.clone()).expect("full");
    let slim: Slim<core::Pod> = serde_json::from_value(json).expect("slim");
    let mut expected = full.metadata.clone();
    expected.managed_fields = None;
    assert_eq!(slim.0.metadata, expected);
    assert_eq!(slim.0.spec, full.spec);
}

#[test]
fn bookmarks_nulls_and_missing_parts_decode() {
    // A watch bookmark carries only a resource version; `null` parts are absent parts.
    let bookmark = r#"{"kind":"Pod","apiVersion":"v1","metadata":{"resourceVersion":"42"}}"#;
    let b: Slim<core::Pod> = serde_json::from_str(bookmark).expect("bookmark");
    assert_eq!(b.0.metadata.resource_version.as_deref(), Some("42"));
    assert!(b.0.spec.is_none() && b.0.status.is_none());
    let nulls = r#"{"metadata":null,"spec":null,"status":null,"extra":{"x":[1,2]}}"#;
    let n: Slim<core::Node> = serde_json::from_str(nulls).expect("nulls");
    assert_eq!(n.0.metadata, ObjectMeta::default());
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for bad in [
        "",
        "7",
        r#"{"metadata":5}"#,
        r#"{"spec":{"containers":"x"}}"#,
        "{",
    ] {
        assert!(
            serde_json::from_str::<Slim<core::Pod>>(bad).is_err(),
            "{bad}"
        );
    }
}

proptest::proptest! {
    /// Truncated or byte-mutated objects never panic the slim decode.
    #[test]
    fn mutated_documents_never_panic(
        which in 0usize..3,
        cut in 0usize..6_000,
        at in 0usize..6_000,
        byte in 0u8..128,
    ) {
        let item = items().swap_remove(which);
        let mut text = serde_json::to_vec(&item).expect("text");
        if let Some(b) = text.get_mut(at) {
            *b = byte;
        }
        text.truncate(cut);
        let _ = serde_json::from_slice::<Slim<core::Pod>>(&text);
        let _ = serde_json::from_slice::<Slim<core::Node>>(&text);
    }
}

#[test]
fn watched_as_the_object_it_wraps() {
    use kube::Resource;
    assert_eq!(Slim::<core::Pod>::kind(&()), "Pod");
    assert_eq!(Slim::<core::Pod>::plural(&()), "pods");
    assert_eq!(Slim::<core::Node>::api_version(&()), "v1");
}
