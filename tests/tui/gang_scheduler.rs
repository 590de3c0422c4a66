//! A coscheduling PodGroup that OMEGangPack never sees (its pods name another scheduler) is
//! told apart in the Gangs view's pin panel: "not an OMEGangPack gang: scheduled by X", not
//! the Blocked words that say the PodGroup makes a pin impossible.

use ome_top::cluster::snapshot_file::read_snapshot;

use crate::tui_support::{feed_of, render, state_with, type_keys};

#[test]
fn a_gang_on_another_scheduler_says_so_instead_of_blocked() {
    let path = format!(
        "{}/tests/fixtures/k8s/gangs.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(path).unwrap().replace(
        r#""schedulerName": "ome-scheduler""#,
        r#""schedulerName": "scheduler-plugins-scheduler""#,
    );
    let snap = read_snapshot(text.as_bytes()).unwrap().0;
    let mut s = state_with(feed_of(snap, 1), 200, 60);
    type_keys(&mut s, "5");
    let screen = format!("{:?}", render(&s).backend());
    assert!(
        screen.contains("not an OMEGangPack gang: scheduled by scheduler-plugins-scheduler"),
        "{screen}"
    );
    assert!(!screen.contains("makes a pin impossible"), "{screen}");
    assert!(
        screen.contains("not OMEGangPack"),
        "the tree's gang line: {screen}"
    );
    assert!(!screen.contains("Blocked"), "{screen}");
}
