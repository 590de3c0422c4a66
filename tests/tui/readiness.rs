//! A node the kubelet stopped reporting (`Ready=Unknown`, the `unreachable` taint) still counts
//! as free room, as Alfred counts it, but the screen says so: its Nodes row reads
//! "unreachable" beside its health, and the pool map's legend counts it.

use ome_top::cluster::snapshot_file::read_snapshot;

use crate::tui_support::{feed_of, render, state_with, type_keys};

#[test]
fn an_unreachable_node_is_marked_but_still_counted() {
    let doc = r#"{"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-a", "uid": "a",
            "labels": {"nvidia.com/gpu.product": "H100"}},
         "spec": {"taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute"}]},
         "status": {"allocatable": {"nvidia.com/gpu": "8"},
            "conditions": [{"type": "Ready", "status": "Unknown"}]}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-b", "uid": "b",
            "labels": {"nvidia.com/gpu.product": "H100"}},
         "status": {"allocatable": {"nvidia.com/gpu": "8"},
            "conditions": [{"type": "Ready", "status": "True"}]}}]}"#;
    let snap = read_snapshot(doc.as_bytes()).unwrap().0;
    let feed = feed_of(snap, 1);
    assert_eq!(
        feed.analysis.pools[0].free_gpus, 16,
        "still counted as free"
    );
    let mut s = state_with(feed, 200, 60);
    type_keys(&mut s, "m");
    let map = format!("{:?}", render(&s).backend());
    assert!(
        map.contains("not ready: 1 node, GPUs still counted as free"),
        "{map}"
    );
    type_keys(&mut s, "2");
    let nodes = format!("{:?}", render(&s).backend());
    assert!(nodes.contains("Clear · unreachable"), "{nodes}");
}

#[test]
fn the_pool_panel_names_the_nodes_that_joined_by_instance_type() {
    let doc = r#"{"apiVersion": "v1", "kind": "List", "items": [
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-a", "uid": "a",
            "labels": {"node.kubernetes.io/instance-type": "BM.GPU.H100.8",
                "nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}},
         "status": {"allocatable": {"nvidia.com/gpu": "8"}}},
        {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "gpu-b", "uid": "b",
            "labels": {"node.kubernetes.io/instance-type": "BM.GPU.H100.8"}},
         "status": {"allocatable": {"nvidia.com/gpu": "8"}}}]}"#;
    let snap = read_snapshot(doc.as_bytes()).unwrap().0;
    let s = state_with(feed_of(snap, 1), 200, 60);
    let pools = format!("{:?}", render(&s).backend());
    assert!(
        pools.contains("1 node without the product label joined by instance type: gpu-b"),
        "{pools}"
    );
}
