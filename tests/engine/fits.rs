//! "Why is my 8-GPU model Pending while GPUs are free?" on a small hand-built fleet: the
//! worked example of alfred.md §6.5 (nodes A free 6, B free 7, C free 0; the repack lands the
//! three 1-GPU pods on A: A 5, B 8, C 0) with pending pods added. The largest request that
//! fits on one node now is 7 GPUs, after the repack 8; an 8-GPU pod has no slot now and one
//! after the repack.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use serde_json::{json, Value};

use ome_top::engine::pools::PendingSize;

const EXAMPLE: &str = include_str!("../../docs/examples/worked-example-6-5.json");
const NOW: &str = "2026-09-28T10:15:00Z";

fn pending(name: &str, gpus: u32, created: &str) -> Value {
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "prod", "uid": format!("uid-{name}"),
                     "creationTimestamp": created},
        "spec": {"containers": [{"name": "c", "image": "i",
                  "resources": {"limits": {"nvidia.com/gpu": gpus.to_string()}}}]},
        "status": {"phase": "Pending"},
    })
}

#[test]
fn an_eight_gpu_pod_fits_after_the_repack_not_now() {
    let mut doc: Value = serde_json::from_str(EXAMPLE).unwrap();
    let items = doc["items"].as_array_mut().unwrap();
    items.push(pending("big-a", 8, "2026-09-28T08:15:00Z"));
    items.push(pending("big-b", 8, "2026-09-28T10:00:00Z"));
    items.push(pending("small", 1, "2026-09-28T10:10:00Z"));
    let (_, a) = crate::analyzed_doc(&doc, NOW);
    let pool = &a.pools[0];
    assert_eq!((pool.free_gpus, pool.whole_free_nodes), (13, 0));
    assert_eq!((pool.largest_fit_now, pool.largest_fit_after), (7, 8));
    let by_size = pool.pending_sizes.clone();
    let size = |gpus, pods, oldest_minutes, room_now, room_after| PendingSize {
        gpus,
        pods,
        oldest_minutes,
        room_now,
        room_after,
    };
    assert_eq!(
        by_size,
        vec![size(8, 2, 120.0, 0, 1), size(1, 1, 5.0, 13, 13)]
    );
}

#[test]
fn a_pod_larger_than_every_node_has_no_room_in_json() {
    // The worked example's nodes have 8 GPUs each; an OME runtime that asks 16 GPUs in one pod
    // can never run there, though the ladder snaps it onto 8.
    let mut doc: Value = serde_json::from_str(EXAMPLE).unwrap();
    let items = doc["items"].as_array_mut().unwrap();
    items.push(pending("huge", 16, "2026-09-28T09:15:00Z"));
    items.push(pending("big", 8, "2026-09-28T10:00:00Z"));
    let (snap, a) = crate::analyzed_doc(&doc, NOW);
    let json = ome_top::report::json::analysis_json(
        &snap,
        &a,
        ome_top::report::json::Source::Snapshot,
        &[],
    );
    let pool = &json["pools"][0];
    assert_eq!(pool["largestFitNow"], 7);
    assert_eq!(pool["largestFitAfterRepack"], 8);
    assert_eq!(
        pool["pending"],
        json!([
            {"gpus": 16, "pods": 1, "oldestMinutes": 60.0, "roomNow": 0, "roomAfterRepack": 0},
            {"gpus": 8, "pods": 1, "oldestMinutes": 15.0, "roomNow": 0, "roomAfterRepack": 1},
        ])
    );
    assert_eq!(a.pools[0].largest_node_gpus, 8);
}
