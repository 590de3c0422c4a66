//! End to end in a real terminal: runs the real `ome-top demo --seed 1` binary inside tmux,
//! walks every view with the default keys, opens a node detail and the help overlay, quits (`q`
//! asks first, never from a detail; Ctrl-C at once), and checks the captured pane each time. Needs `tmux` (a missing tmux fails with what to install).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use crate::support;

use std::thread::sleep;
use std::time::{Duration, Instant};

use support::tmux::Tmux;

#[test]
fn demo_in_a_real_terminal_walks_every_view() {
    let t = Tmux::start(160, 45, "demo --seed 1 --clusters 1");
    let pools = t.wait_for("Pools [3/3]");
    assert!(pools.contains("demo seed 1"), "{pools}");
    assert!(pools.contains("NVIDIA-H100-80GB-HBM3"), "{pools}");
    assert!(pools.contains("gaudi2"), "{pools}");

    t.keys("2");
    let nodes = t.wait_for("Nodes [");
    assert!(
        nodes.contains("gpu-h100-") || nodes.contains("gpu-a100-"),
        "{nodes}"
    );
    t.keys("Enter");
    let detail = t.wait_for("health:");
    assert!(detail.contains("Node"), "{detail}");
    t.keys("Escape");
    t.wait_without("health:");

    t.keys("3");
    let moves = t.wait_for("Moves [");
    assert!(moves.contains("Fragmentation"), "{moves}");

    t.keys("4");
    let journal = t.wait_for("Journal [");
    assert!(journal.contains("stalled"), "{journal}");

    t.keys("5");
    let gangs = t.wait_for("Gangs [");
    assert!(gangs.contains("ome.io/rack"), "{gangs}");

    t.keys("6");
    let lints = t.wait_for("Lints [");
    assert!(lints.contains("reservation-cordon"), "{lints}");

    t.keys("?");
    // `?` shows the view's legend with the keys.
    let help = t.wait_for("Help: what this view shows");
    assert!(
        help.contains("[Lints: what the columns and symbols mean]"),
        "{help}"
    );
    t.keys("Escape");
    t.wait_without("Help: what this view shows");

    // `q` on a list asks first; `n` stays.
    t.keys("q");
    t.wait_for("Quit ome-top? y/n");
    t.keys("n");
    t.wait_without("Quit ome-top? y/n");
    assert!(t.alive());
    // In a detail `q` goes back, never out.
    t.keys("Enter");
    t.wait_for("rule: ");
    t.keys("q");
    t.wait_without("rule: ");
    let lints = t.wait_for("Lints [");
    assert!(!lints.contains("Quit ome-top?"), "{lints}");
    assert!(t.alive(), "q in a detail quit");
    // On the list again: `q` asks, `y` quits.
    t.keys("q");
    t.wait_for("Quit ome-top? y/n");
    t.keys("y");
    let deadline = Instant::now() + Duration::from_secs(10);
    while t.alive() && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    assert!(!t.alive(), "q then y did not quit:\n{}", t.pane());
}

#[test]
fn ctrl_c_quits_the_demo_at_once() {
    let t = Tmux::start(120, 40, "demo --seed 1");
    t.wait_for("Pools [3/3]");
    t.keys("C-c");
    let deadline = Instant::now() + Duration::from_secs(10);
    while t.alive() && Instant::now() < deadline {
        sleep(Duration::from_millis(100));
    }
    assert!(!t.alive(), "ctrl-c did not quit:\n{}", t.pane());
}
