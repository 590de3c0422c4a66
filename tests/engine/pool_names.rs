//! Pools as operators name them: two `BM.GPU.H100.8` nodes, only one of them labelled by GPU
//! feature discovery with its product, form one pool named by the product (the unlabelled one
//! adopts what its shape's labelled nodes agree on), and the analysis says which node was
//! reconciled.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};

fn node(name: &str, labels: Value) -> Value {
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "labels": labels},
        "status": {"allocatable": {"nvidia.com/gpu": "8"}}})
}

#[test]
fn one_node_shape_is_one_pool_when_only_some_nodes_carry_the_product_label() {
    let shape = "BM.GPU.H100.8";
    let doc = json!({"apiVersion": "v1", "kind": "List", "items": [
        node("gpu-a", json!({"node.kubernetes.io/instance-type": shape,
            "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"})),
        node("gpu-b", json!({"node.kubernetes.io/instance-type": shape})),
        node("gpu-c", json!({"node.kubernetes.io/instance-type": "BM.GPU4.8"})),
    ]});
    let (snap, a) = crate::analyzed_doc(&doc, "2026-11-01T12:00:00Z");
    let pools: Vec<(&str, usize)> = a.pools.iter().map(|p| (&*p.name, p.nodes.len())).collect();
    assert_eq!(pools, [("A100-40G", 1), ("NVIDIA-H100-80GB-HBM3", 2)]);
    let reconciled: Vec<&str> = snap
        .nodes
        .iter()
        .zip(&a.nodes)
        .filter(|(_, s)| s.reconciled)
        .map(|(n, _)| &*n.name)
        .collect();
    assert_eq!(reconciled, ["gpu-b"]);
}
