//! The Pools view's map in a real terminal: on `ome-top demo --seed 1` at 120×40 the H100
//! pool's map sits under the table with its answer lines; `m` shows it full-size, `m` again
//! returns to the table; at 80×24 the pane keeps the answer and `m` shows the cells.

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
    let full = t.wait_for("one cell per node");
    assert!(full.contains("NVIDIA-H100-80GB-HBM3 map"), "{full}");
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
    assert!(full.contains("one cell per node"), "{full}");
    t.keys("Escape");
    t.wait_for("Pools [3/3]");
}
