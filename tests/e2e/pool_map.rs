//! The Pools view's map in a real terminal: on `ome-top demo --seed 1` at 120×40 the H100
//! pool's map sits under the table with its answer lines; `m` shows it full-size, `m` again
//! returns to the table; full size it names every node, the arrows select one and Enter opens
//! it; at 80×24 the pane keeps the answer and `m` shows the named cells.

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
