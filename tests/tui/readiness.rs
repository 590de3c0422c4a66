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
        map.contains("1 not ready, its GPUs still counted as free"),
        "{map}"
    );
    type_keys(&mut s, "2");
    let nodes = format!("{:?}", render(&s).backend());
    assert!(nodes.contains("Clear · unreachable"), "{nodes}");
}
