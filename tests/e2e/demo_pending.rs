//! End to end in a real terminal on the simulated cluster (`ome-top demo`): the Pending list
//! (`p`), the explanation of a pending pod with an unblock plan (Enter), the plan's first move
//! in the usual approve dialog (`P`) and `n` stopping the walk with nothing written, then the
//! what-if of a cordon and of an evacuation on a node (`W`, `W`), marked as writing nothing.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use crate::support;

use std::time::{Duration, Instant};

use support::tmux::Tmux;

/// Whether a Pending list line offers a plan.
fn has_plan(line: &str) -> bool {
    line.contains(" move free ") || line.contains(" moves free ")
}

/// Waits until a row of the Pending list offers a plan, freezes the data and selects it.
fn select_a_plan(t: &Tmux) {
    let deadline = Instant::now() + Duration::from_secs(90);
    while !t.pane().lines().any(has_plan) {
        assert!(Instant::now() < deadline, "no plan:\n{}", t.pane());
        std::thread::sleep(Duration::from_millis(300));
    }
    t.keys("f");
    let pane = t.wait_for("FROZEN");
    let rows: Vec<&str> = pane
        .lines()
        .filter(|l| l.starts_with("│ ") || l.starts_with("│▶"))
        .collect();
    let at = rows.iter().position(|l| l.starts_with("│▶")).unwrap();
    let to = rows.iter().position(|l| has_plan(l)).unwrap();
    for _ in at..to {
        t.keys("j");
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    while !t.pane().lines().any(|l| l.starts_with("│▶") && has_plan(l)) {
        assert!(
            Instant::now() < deadline,
            "plan row not selected:\n{}",
            t.pane()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

#[test]
fn pending_plan_and_what_if_in_the_demo() {
    let t = Tmux::start(120, 40, "demo --seed 8 --nodes 90 --clusters 1 --speed 20");
    t.wait_for("Pools [");
    t.keys("p");
    t.wait_for("Pending GPU pods [");
    select_a_plan(&t);

    t.keys("Enter");
    t.wait_for("is Pending (esc back)");
    let pane = t.wait_for("approves these moves one by one");
    assert!(
        pane.contains("Why it waits: per node of its pool"),
        "{pane}"
    );
    assert!(pane.contains("Unblock plan"), "{pane}");

    t.keys("P");
    let dialog = t.wait_for("move 1 of ");
    assert!(dialog.contains("Approve move of "), "{dialog}");
    assert!(dialog.contains("y confirm"), "{dialog}");
    t.keys("n");
    t.wait_without("Approve move of ");
    t.wait_for("is Pending (esc back)");

    t.keys("Escape");
    t.wait_for("Pending GPU pods [");
    t.keys("2");
    t.wait_for("Nodes [");
    t.keys("W");
    let cordon = t.wait_for("WHAT IF — nothing is written");
    assert!(
        cordon.contains("is cordoned — nothing is written"),
        "{cordon}"
    );
    assert!(
        cordon.contains("Per pool: largest request one node fits"),
        "{cordon}"
    );
    t.keys("W");
    let evacuated = t.wait_for("is evacuated (drained) — nothing is written");
    assert!(evacuated.contains("Displaced Instances"), "{evacuated}");
}
