//! The JSON Patch bodies ome-top sends (RFC 6902), built as plain JSON so tests can compare
//! them byte for byte: cordon/uncordon of a Node and the opt-out annotations of an
//! InferenceService. (The migration request patch is the engine's `json_patch_for_request`.)
//!
//! Every body starts with `test` operations: the API server applies the operations in order and
//! rejects the whole patch when a `test` fails, so a patch either lands on exactly the object
//! state it was built from or changes nothing. Pure; must not import `app`, `ui`, `ratatui` or
//! `crossterm`.

use serde_json::{json, Value};

use crate::engine::migration::escape_json_pointer;

/// Annotation that opts an InferenceService out of Alfred's moves (alfred.md §4).
pub const MOVABLE_ANNOTATION: &str = "alfred.ome.io/movable";
/// Free-text reason stored next to [`MOVABLE_ANNOTATION`].
pub const OPT_OUT_REASON_ANNOTATION: &str = "alfred.ome.io/opt-out-reason";

/// Cordon (`unschedulable = true`) or uncordon (`false`) a Node whose `metadata.uid` is `uid`
/// and whose whole `spec` was `spec` when read.
///
/// Why `spec` and not `resourceVersion`: a Node's resourceVersion moves with every status
/// heartbeat (about every 10 s per kubelet or kwok), so a resourceVersion test would fail on
/// almost every live cluster. The heartbeat never touches `spec`; testing the whole `spec`
/// catches every concurrent cordon, uncordon, taint or podCIDR change between the read and the
/// write. `add` replaces the member when present and creates it when absent (the API server
/// omits `unschedulable: false`).
pub fn node_unschedulable_patch(uid: &str, spec: &Value, unschedulable: bool) -> Value {
    json!([
        {"op": "test", "path": "/metadata/uid", "value": uid},
        {"op": "test", "path": "/spec", "value": spec},
        {"op": "add", "path": "/spec/unschedulable", "value": unschedulable},
    ])
}

/// Opt an InferenceService out: `test` uid and resourceVersion (the ones the operator saw),
/// `add` an empty annotations map when the object has none, then `add`
/// `alfred.ome.io/movable: "false"` and `alfred.ome.io/opt-out-reason: <reason>` (replacing
/// earlier values of those two keys, touching no other annotation).
pub fn opt_out_patch(
    uid: &str,
    resource_version: &str,
    has_annotations: bool,
    reason: &str,
) -> Value {
    let mut ops = vec![
        json!({"op": "test", "path": "/metadata/uid", "value": uid}),
        json!({"op": "test", "path": "/metadata/resourceVersion", "value": resource_version}),
    ];
    if !has_annotations {
        ops.push(json!({"op": "add", "path": "/metadata/annotations", "value": {}}));
    }
    for (key, value) in [
        (MOVABLE_ANNOTATION, "false"),
        (OPT_OUT_REASON_ANNOTATION, reason),
    ] {
        let path = format!("/metadata/annotations/{}", escape_json_pointer(key));
        ops.push(json!({"op": "add", "path": path, "value": value}));
    }
    Value::Array(ops)
}

/// Converts a patch body into kube's typed JSON Patch; fails only on a malformed body.
pub fn typed(body: Value) -> Result<json_patch::Patch, String> {
    serde_json::from_value(body).map_err(|e| format!("malformed JSON Patch: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_patch_tests_uid_and_spec_then_sets_the_flag() {
        let spec = json!({"providerID": "kwok://gpu-1", "taints": []});
        let body = node_unschedulable_patch("u-1", &spec, true);
        assert_eq!(
            body,
            json!([
                {"op": "test", "path": "/metadata/uid", "value": "u-1"},
                {"op": "test", "path": "/spec", "value": {"providerID": "kwok://gpu-1", "taints": []}},
                {"op": "add", "path": "/spec/unschedulable", "value": true},
            ])
        );
        assert_eq!(
            node_unschedulable_patch("u", &json!({}), false)[2]["value"],
            false
        );
        assert!(typed(body).is_ok());
    }

    #[test]
    fn opt_out_patch_shapes() {
        let body = opt_out_patch("uid-1", "42", false, "batch job; do not move");
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
        let with = opt_out_patch("uid-1", "42", true, "r");
        assert_eq!(with.as_array().map(Vec::len), Some(4));
        assert!(typed(with).is_ok());
    }

    #[test]
    fn malformed_bodies_are_refused() {
        assert!(typed(json!([{"op": "frobnicate", "path": "/x"}])).is_err());
        assert!(typed(json!({"op": "add"})).is_err());
    }
}
