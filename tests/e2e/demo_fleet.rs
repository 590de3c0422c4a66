//! The Fleet view without a kubeconfig: `ome-top demo` simulates three clusters (`demo-1`,
//! `demo-2`, `demo-3`, seeds 1–3) and shows the first; `7` opens the Fleet view with all three
//! connected, Enter on a row shows that cluster's own views, Esc comes back. `--clusters 1`
//! is one cluster, whose `7` says how to simulate a fleet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use support::tmux::Tmux;

#[test]
fn the_demo_simulates_a_fleet_of_three_a_key_away() {
    let t = Tmux::start(120, 40, "demo");
    let pools = t.wait_for("Pools [3/3]");
    assert!(
        pools.contains("demo seed 1 (fleet of 3 watched)"),
        "the first cluster is shown: {pools}"
    );
    t.keys("7");
    let fleet = t.wait_for("demo fleet of 3 simulated clusters");
    let fleet = if fleet.contains("3/3 connected") {
        fleet
    } else {
        t.wait_for("3/3 connected")
    };
    assert!(fleet.contains("shown: demo-1"), "{fleet}");
    assert!(fleet.contains("[7 Fleet]"), "{fleet}");
    for name in ["│ demo-1 ", "│ demo-2 ", "│ demo-3 "] {
        assert!(fleet.contains(name), "{name}: {fleet}");
    }
    assert!(fleet.contains("Where a request fits"), "{fleet}");

    t.keys("/");
    t.type_text("demo-2");
    t.keys("Enter");
    t.wait_for("/demo-2");
    t.keys("Enter");
    let shown = t.wait_for("demo seed 2 (fleet of 3 watched)");
    assert!(shown.contains("[1 Pools]"), "{shown}");
    t.keys("Escape");
    let back = t.wait_for("shown: demo-2");
    assert!(back.contains("[7 Fleet]"), "{back}");
}

#[test]
fn a_demo_of_one_cluster_says_how_to_simulate_a_fleet() {
    let t = Tmux::start(120, 40, "demo --clusters 1");
    let pools = t.wait_for("Pools [3/3]");
    assert!(!pools.contains("fleet of"), "{pools}");
    t.keys("7");
    t.wait_for("ome-top demo --clusters 3");
}
