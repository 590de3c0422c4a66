//! The Pools view's map in a real terminal: on `ome-top demo --seed 1` at 120×40 the H100
//! pool's map sits under the table with its answer lines; `m` shows it full-size, `m` again
//! returns to the table; full size it names every node, the arrows select one and Enter opens
//! it; at 80×24 the pane keeps the answer and `m` shows the named cells; an Unhealthy node
//! nobody cordoned reads `!` and is offered the cordon there.

use crate::support::tmux::Tmux;

#[test]
fn the_map_answers_beside_the_table_and_m_shows_it_full_size() {
    let t = Tmux::start(120, 40, "demo --seed 1");
    t.wait_for("Pools [3/3]");
    t.keys("j");
    let split = t.wait_for("NVIDIA-H100-80GB-HBM3 map");
    assert!(split.contains("one node fits"), "{split}");
    assert!(split.contains("rack-h100-"), "{split}");
    assert!(split.contains("whole node free"), "{split}");
    t.keys("m");
    t.wait_without("Pools [3/3]");
    let full = t.wait_for("each node by name");
    assert!(full.contains("NVIDIA-H100-80GB-HBM3 map"), "{full}");
    assert!(full.contains("gpu-h100-000"), "node names: {full}");
    // The arrows select a node; Enter opens its detail, Esc comes back to the map.
    t.keys("Right");
    t.wait_for("gpu-h100-001 · arrows: select");
    t.keys("Enter");
    t.wait_for("node/gpu-h100-001");
    t.keys("Escape");
    t.wait_for("each node by name");
    t.keys("m");
    t.wait_for("Pools [3/3]");
}

#[test]
fn on_a_small_terminal_the_pane_keeps_the_answer() {
    let t = Tmux::start(80, 24, "demo --seed 1");
    t.wait_for("Pools [3/3]");
    let small = t.wait_for("m: show the map");
    assert!(small.contains("one node fits"), "{small}");
    t.keys("m");
    let full = t.wait_for("whole node free");
    assert!(full.contains("each node by name"), "{full}");
    t.keys("Escape");
    t.wait_for("Pools [3/3]");
}

/// The demo's failing node (gpu-h100-009 with seed 1) turns Unhealthy three sim minutes in and
/// nobody cordons it: the full-size map marks it `!`, its line says it still takes pods and
/// offers `c`; `c` opens the cordon dialog, confirmed it reads `✗`, and the uncordon dialog
/// in Nodes warns.
#[test]
fn an_unhealthy_node_still_schedulable_is_offered_the_cordon_from_the_map() {
    let t = Tmux::start(80, 24, "demo --seed 1 --speed 60");
    t.wait_for("Pools [3/3]");
    t.keys("j");
    t.wait_for("NVIDIA-H100-80GB-HBM3 map");
    t.keys("m");
    let full = t.wait_for("! unhealthy, still schedulable 1");
    assert!(full.contains("gpu-h100-009 !"), "{full}");
    for _ in 0..9 {
        t.keys("Right");
    }
    let line = t.wait_for("gpu-h100-009: unhealthy, still schedulable · c: cordon");
    assert!(line.contains("<c>Map: cordon node"), "{line}");
    t.keys("c");
    let dialog = t.wait_for("Cordon node gpu-h100-009");
    assert!(
        dialog.contains("spec.unschedulable false → true"),
        "{dialog}"
    );
    t.keys("y");
    t.wait_for("gpu-h100-009 ✗");
    t.keys("2");
    t.wait_for("Nodes [");
    t.keys("/");
    t.type_text("gpu-h100-009");
    t.keys("Enter");
    t.wait_for("Nodes [1/120]");
    t.keys("u");
    let warn = t.wait_for("Uncordon node gpu-h100-009");
    assert!(
        warn.contains("⚠ gpu-h100-009 is Unhealthy (GpuUnhealthy is True"),
        "{warn}"
    );
    assert!(
        warn.contains("uncordoning lets new pods land on it"),
        "{warn}"
    );
    t.keys("Escape");
}
