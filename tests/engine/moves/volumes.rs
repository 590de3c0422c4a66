//! Models on volumes: a model on a ReadWriteOnce claim pins the whole component (one advisory
//! row, no repack item); a shared claim keeps the move; a model that does not resolve is
//! advice too.

use serde_json::{json, Value};

use super::{example, item, items, row, run, text};

fn serve_model(doc: &mut Value, isvc: &str, model: Value, claim_modes: &[&str]) {
    item(doc, "InferenceService", isvc)["spec"]["model"] =
        json!({"name": "llama", "kind": "BaseModel"});
    items(doc).push(model);
    items(doc).push(json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": {"namespace": "prod", "name": "weights"},
        "spec": {"accessModes": claim_modes}
    }));
}

fn base_model(uri: &str) -> Value {
    json!({
        "apiVersion": "ome.io/v1beta1", "kind": "BaseModel",
        "metadata": {"namespace": "prod", "name": "llama"},
        "spec": {"storage": {"storageUri": uri}}
    })
}

#[test]
fn a_model_on_a_read_write_once_claim_is_volume_pinned_component_wide() {
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://weights/llama"),
        &["ReadWriteOnce"],
    );
    let a = run(&doc);
    let rows: Vec<_> = a
        .moves
        .iter()
        .filter(|r| r.workload.as_ref() == "prod/gamma")
        .collect();
    assert_eq!(rows.len(), 1, "{rows:#?}");
    assert_eq!(rows[0].instance, -1);
    assert_eq!(rows[0].outcome, "advisory");
    assert_eq!(text(&rows[0].advisory_reason), Some("VolumePinned"));
    assert_eq!(rows[0].from_node.as_deref(), Some("gpu-b"));
    assert_eq!(rows[0].score, 0.0);
    // gamma's pod is no longer a repack item.
    let base = run(&example());
    assert_eq!(a.pools[0].movable_pods + 1, base.pools[0].movable_pods);
}

#[test]
fn shared_claims_keep_the_move_and_missing_models_are_unresolved() {
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://weights/llama"),
        &["ReadWriteMany"],
    );
    assert_eq!(row(&run(&doc), "prod/gamma").outcome, "withheld");
    let mut doc = example();
    serve_model(
        &mut doc,
        "gamma",
        base_model("pvc://other-claim/llama"),
        &["ReadWriteMany"],
    );
    let a = run(&doc);
    assert_eq!(
        text(&row(&a, "prod/gamma").advisory_reason),
        Some("ModelUnresolved")
    );
    assert_eq!(row(&a, "prod/gamma").instance, -1);
}
