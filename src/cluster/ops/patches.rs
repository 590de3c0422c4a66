//! The JSON Patch bodies ome-top sends (RFC 6902), built from `json_patch`'s typed operations
//! and its JSON Pointer type (which escapes `~` and `/` in a reference token): cordon/uncordon
//! of a Node, the migration request annotation of an approval (alfred.md §3.1; the engine
//! builds and validates the value) and the opt-out annotations of an InferenceService.
//!
//! Every body starts with `test` operations: the API server applies the operations in order and
//! rejects the whole patch when a `test` fails, so a patch either lands on exactly the object state
//! it was built from or changes nothing. Pure.

use json_patch::jsonptr::PointerBuf;
use json_patch::{AddOperation, Patch, PatchOperation, RemoveOperation, TestOperation};
use serde_json::Value;

/// Annotation that opts an InferenceService out of Alfred's moves (alfred.md §4).
pub const MOVABLE_ANNOTATION: &str = "alfred.ome.io/movable";
/// Free-text reason stored next to [`MOVABLE_ANNOTATION`].
pub const OPT_OUT_REASON_ANNOTATION: &str = "alfred.ome.io/opt-out-reason";

/// `{"op": "test", "path": <tokens>, "value": value}`; `tokens` are unescaped.
fn test(tokens: &[&str], value: Value) -> PatchOperation {
    PatchOperation::Test(TestOperation {
        path: PointerBuf::from_tokens(tokens.iter().copied()),
        value,
    })
}

/// `{"op": "add", "path": <tokens>, "value": value}`; `tokens` are unescaped.
fn add(tokens: &[&str], value: Value) -> PatchOperation {
    PatchOperation::Add(AddOperation {
        path: PointerBuf::from_tokens(tokens.iter().copied()),
        value,
    })
}

/// The start of every InferenceService patch: `test` uid and resourceVersion (the ones the
/// operator saw, so a changed or recreated object fails the patch), then `add` an empty
/// annotations map when the object has none (an `add` below a missing parent fails).
fn annotations_prelude(uid: &str, resource_version: &str, has_annotations: bool) -> Patch {
    let mut ops = vec![
        test(&["metadata", "uid"], uid.into()),
        test(&["metadata", "resourceVersion"], resource_version.into()),
    ];
    if !has_annotations {
        ops.push(add(
            &["metadata", "annotations"],
            Value::Object(Default::default()),
        ));
    }
    Patch(ops)
}

/// `add` of annotation `key` = `value` (replacing an earlier value of that key only).
fn add_annotation(key: &str, value: &str) -> PatchOperation {
    add(&["metadata", "annotations", key], value.into())
}

/// Cordon (`unschedulable = true`) or uncordon (`false`) a Node whose `metadata.uid` is `uid`
/// and whose whole `spec` was `spec` when read.
///
/// Why `spec` and not `resourceVersion`: a Node's resourceVersion moves with every status
/// heartbeat (about every 10 s per kubelet or kwok), so a resourceVersion test would fail on
/// almost every live cluster. The heartbeat never touches `spec`; testing the whole `spec`
/// catches every concurrent cordon, uncordon, taint or podCIDR change between the read and the
/// write. `add` replaces the member when present and creates it when absent (the API server
/// omits `unschedulable: false`).
pub fn node_unschedulable_patch(uid: &str, spec: &Value, unschedulable: bool) -> Patch {
    Patch(vec![
        test(&["metadata", "uid"], uid.into()),
        test(&["spec"], spec.clone()),
        add(&["spec", "unschedulable"], unschedulable.into()),
    ])
}

/// The approval of a move (alfred.md §3.1): the `test`s and annotations map of
/// [`annotations_prelude`], then `add` request `key` = `value`. `key` is the engine's
/// `annotation_key` (`ome.io/migration-request-v1-<uuid>`), `value` its validated JSON text.
pub fn migration_request_patch(
    uid: &str,
    resource_version: &str,
    has_annotations: bool,
    key: &str,
    value: &str,
) -> Patch {
    let mut patch = annotations_prelude(uid, resource_version, has_annotations);
    patch.0.push(add_annotation(key, value));
    patch
}

/// Opt an InferenceService out: the `test`s and annotations map of [`annotations_prelude`],
/// then `add` `alfred.ome.io/movable: "false"` and `alfred.ome.io/opt-out-reason: <reason>`
/// (replacing earlier values of those two keys, touching no other annotation).
pub fn opt_out_patch(
    uid: &str,
    resource_version: &str,
    has_annotations: bool,
    reason: &str,
) -> Patch {
    let mut patch = annotations_prelude(uid, resource_version, has_annotations);
    patch.0.push(add_annotation(MOVABLE_ANNOTATION, "false"));
    patch
        .0
        .push(add_annotation(OPT_OUT_REASON_ANNOTATION, reason));
    patch
}

/// Undo an opt-out: `test` uid and resourceVersion, then `remove` each of
/// `alfred.ome.io/movable` and `alfred.ome.io/opt-out-reason` that `present` holds (a
/// `remove` of an absent member fails, and the resourceVersion test guarantees `present` is
/// what the server holds). Touches no other annotation.
pub fn opt_in_patch(uid: &str, resource_version: &str, present: &[&str]) -> Patch {
    let mut patch = annotations_prelude(uid, resource_version, true);
    for key in [MOVABLE_ANNOTATION, OPT_OUT_REASON_ANNOTATION] {
        if present.contains(&key) {
            patch.0.push(PatchOperation::Remove(RemoveOperation {
                path: PointerBuf::from_tokens(["metadata", "annotations", key]),
            }));
        }
    }
    patch
}

/// A patch body that is not a JSON Patch.
#[derive(Debug, thiserror::Error)]
#[error("malformed JSON Patch: {0}")]
pub struct MalformedPatch(serde_json::Error);

/// Converts a patch body written as JSON into kube's typed JSON Patch; fails only on a
/// malformed body.
pub fn typed(body: Value) -> Result<Patch, MalformedPatch> {
    serde_json::from_value(body).map_err(MalformedPatch)
}

#[cfg(test)]
mod tests {
    use super::*;
    use json_patch::jsonptr::Token;
    use serde_json::json;

    /// The body as it goes on the wire.
    fn wire(patch: &Patch) -> Value {
        serde_json::to_value(patch).unwrap()
    }

    #[test]
    fn node_patch_tests_uid_and_spec_then_sets_the_flag() {
        let spec = json!({"providerID": "kwok://gpu-1", "taints": []});
        let body = wire(&node_unschedulable_patch("u-1", &spec, true));
        assert_eq!(
            body,
            json!([
                {"op": "test", "path": "/metadata/uid", "value": "u-1"},
                {"op": "test", "path": "/spec", "value": {"providerID": "kwok://gpu-1", "taints": []}},
                {"op": "add", "path": "/spec/unschedulable", "value": true},
            ])
        );
        assert_eq!(
            wire(&node_unschedulable_patch("u", &json!({}), false))[2]["value"],
            false
        );
        assert!(typed(body).is_ok());
    }

    #[test]
    fn opt_out_patch_shapes() {
        let body = wire(&opt_out_patch(
            "uid-1",
            "42",
            false,
            "batch job; do not move",
        ));
        assert_eq!(
            body,
            json!([
                {"op": "test", "path": "/metadata/uid", "value": "uid-1"},
                {"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
                {"op": "add", "path": "/metadata/annotations", "value": {}},
                {"op": "add", "path": "/metadata/annotations/alfred.ome.io~1movable", "value": "false"},
                {"op": "add", "path": "/metadata/annotations/alfred.ome.io~1opt-out-reason",
                 "value": "batch job; do not move"},
            ])
        );
        let with = wire(&opt_out_patch("uid-1", "42", true, "r"));
        assert_eq!(with.as_array().map(Vec::len), Some(4));
        assert!(typed(with).is_ok());
    }

    #[test]
    fn opt_in_patch_removes_only_the_opt_out_annotations_present() {
        let both = [MOVABLE_ANNOTATION, OPT_OUT_REASON_ANNOTATION, "other"];
        assert_eq!(
            wire(&opt_in_patch("uid-1", "42", &both)),
            json!([
                {"op": "test", "path": "/metadata/uid", "value": "uid-1"},
                {"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
                {"op": "remove", "path": "/metadata/annotations/alfred.ome.io~1movable"},
                {"op": "remove", "path": "/metadata/annotations/alfred.ome.io~1opt-out-reason"},
            ])
        );
        let movable_only = wire(&opt_in_patch("u", "1", &[MOVABLE_ANNOTATION]));
        assert_eq!(movable_only.as_array().map(Vec::len), Some(3));
        assert_eq!(
            movable_only[2]["path"],
            "/metadata/annotations/alfred.ome.io~1movable"
        );
    }

    #[test]
    fn migration_request_patch_shapes() {
        const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";
        let key = format!("ome.io/migration-request-v1-{UUID}");
        let patch = wire(&migration_request_patch("uid-1", "42", false, &key, "{}"));
        let want = json!([
            {"op": "test", "path": "/metadata/uid", "value": "uid-1"},
            {"op": "test", "path": "/metadata/resourceVersion", "value": "42"},
            {"op": "add", "path": "/metadata/annotations", "value": {}},
            {
                "op": "add",
                "path": format!("/metadata/annotations/ome.io~1migration-request-v1-{UUID}"),
                "value": "{}",
            },
        ]);
        assert_eq!(patch, want);
        let patch = wire(&migration_request_patch("uid-1", "42", true, "a~b/c", "v"));
        assert_eq!(patch.as_array().unwrap().len(), 3);
        assert_eq!(patch[2]["path"], "/metadata/annotations/a~0b~1c");
        assert_eq!(Token::new("~1/").encoded(), "~01~1");
    }

    #[test]
    fn wire_bytes_keep_the_operation_member_order() {
        let patch = node_unschedulable_patch("u", &json!({}), true);
        assert_eq!(
            serde_json::to_string(&patch).unwrap(),
            concat!(
                r#"[{"op":"test","path":"/metadata/uid","value":"u"},"#,
                r#"{"op":"test","path":"/spec","value":{}},"#,
                r#"{"op":"add","path":"/spec/unschedulable","value":true}]"#
            )
        );
    }

    #[test]
    fn malformed_bodies_are_refused() {
        assert!(typed(json!([{"op": "frobnicate", "path": "/x"}])).is_err());
        assert!(typed(json!({"op": "add"})).is_err());
    }
}
