//! GPU pods no Instance holds show where the operator looks: a MultiNode InferenceService as
//! OME documents it today (its pods run by a LeaderWorkerSet, no InferenceReplica) gets a
//! header badge, and a line in Pools and Moves, whose demand and moves leave its pods out.

use crate::tui_support::{feed_of, render, snapshot, state_with, type_keys};

#[test]
fn pods_without_an_instance_have_a_badge_and_a_line_in_pools_and_moves() {
    let feed = feed_of(snapshot("tests/fixtures/k8s/multinode-lws.json"), 1);
    let mut s = state_with(feed, 200, 60);
    let pools = format!("{:?}", render(&s).backend());
    assert!(
        pools.contains("⚠ 2 GPU pods without an Instance"),
        "{pools}"
    );
    let line = "prod/llama engine: 2 GPU pods (8 GPUs) without an Instance: OMENative by its shape";
    assert!(pools.contains(line), "{pools}");
    type_keys(&mut s, "3");
    let moves = format!("{:?}", render(&s).backend());
    assert!(moves.contains(line), "{moves}");
    type_keys(&mut s, "2");
    let nodes = format!("{:?}", render(&s).backend());
    assert!(
        !nodes.contains(line),
        "Nodes has no demand to explain: {nodes}"
    );
}
