//! No GPU pod is dropped silently: a MultiNode InferenceService as OME documents it today
//! (`engine: {minReplicas: 1, worker: {size: 1}}`, its pods run by a LeaderWorkerSet, no
//! InferenceReplica) is OMENative by its shape, so Alfred counts no demand for its pods; the
//! analysis keeps that rule and `analyze` names the pods, the service and why in a warning.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};

use ome_top::report::json::{analysis_json, Source};

/// A LeaderWorkerSet pod of `llama`'s engine as OME's controller labels it.
fn lws_pod(name: &str, role: &str) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "prod", "uid": format!("uid-{name}"),
            "labels": {"ome.io/inferenceservice": "llama", "component": "engine",
                "leaderworkerset.sigs.k8s.io/name": "llama-engine",
                "leaderworkerset.sigs.k8s.io/worker-index": role},
            "ownerReferences": [{"apiVersion": "apps/v1", "kind": "StatefulSet",
                "name": "llama-engine", "uid": "uid-sts", "controller": true}]},
        "spec": {"nodeName": "gpu-a", "containers": [{"name": "ome-container", "image": "i",
            "resources": {"limits": {"nvidia.com/gpu": "4"}}}]},
        "status": {"phase": "Running",
            "conditions": [{"type": "Ready", "status": "True"}]},
    })
}

#[test]
fn a_multinode_service_without_a_replica_is_named_not_dropped() {
    let doc = json!({"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node",
         "metadata": {"name": "gpu-a", "uid": "uid-gpu-a",
            "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}},
         "status": {"allocatable": {"nvidia.com/gpu": "8"}}},
        {"apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
         "metadata": {"name": "llama", "namespace": "prod", "uid": "uid-llama", "generation": 1},
         "spec": {"model": {"name": "llama-3-1-405b"}, "runtime": {"name": "srt-405b"},
            "engine": {"minReplicas": 1, "worker": {"size": 1}}}},
        lws_pod("llama-engine-0", "0"),
        lws_pod("llama-engine-0-1", "1"),
    ]});
    let (snap, a) = crate::analyzed_doc(&doc, "2026-11-01T12:00:00Z");
    let comp = &a.workloads.components[0];
    assert!(
        comp.instances.is_empty(),
        "Alfred's rule: no Instance without a replica"
    );
    assert_eq!(comp.unowned.len(), 2);
    let json = analysis_json(&snap, &a, Source::Snapshot, &[]);
    let warnings: Vec<&str> = json["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let want = "InferenceService prod/llama engine: 2 GPU pods (8 GPUs) on 1 node \
                (llama-engine-0, llama-engine-0-1) belong to no Instance: OMENative by its \
                shape, but no InferenceReplica: OME before v1.3 runs it as a LeaderWorkerSet; \
                Alfred counts no demand for them";
    assert!(warnings.contains(&want), "{warnings:#?}");
}
