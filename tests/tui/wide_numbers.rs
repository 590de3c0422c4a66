//! No number on screen loses its leading digits: a node with a million GPUs shows every digit
//! of its counts in the Nodes table, the Pools table and panel, and the node detail, at each
//! snapshot size (a cell too narrow would cut a right-aligned number from the left).

#![allow(clippy::unwrap_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

fn wide_feed(gpus: u32) -> ome_top::protocol::Feed {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    let node = snap
        .nodes
        .iter_mut()
        .find(|n| n.name.as_ref() == "h100-01")
        .unwrap();
    node.gpu_allocatable = gpus;
    node.gpu_capacity = gpus;
    feed_of(snap, 1)
}

fn screen(s: &ome_top::app::state::AppState) -> String {
    format!("{}", render(s).backend())
}

#[test]
fn every_digit_of_a_wide_count_is_shown() {
    for gpus in [1_000_000u32, 98_765_432] {
        let free = (gpus - 6).to_string();
        for (w, h) in SIZES {
            let mut s = state_with(wide_feed(gpus), w, h);
            // Pools: the H100 pool's total and free GPUs.
            let pools = screen(&s);
            let a = &s.shown().unwrap().analysis;
            let h100 = a.pools.iter().find(|p| p.name.contains("H100")).unwrap();
            for n in [
                format!(" {} ", h100.free_gpus),
                format!("/{} ", h100.total_gpus),
            ] {
                assert!(pools.contains(&n), "{n} at {w}x{h}:\n{pools}");
            }
            type_keys(&mut s, "2");
            let nodes = screen(&s);
            assert!(nodes.contains(&format!("6/{gpus}")), "{w}x{h}:\n{nodes}");
            type_keys(&mut s, "/h100-01");
            press(&mut s, crossterm::event::KeyCode::Enter);
            press(&mut s, crossterm::event::KeyCode::Enter);
            let detail = screen(&s);
            assert!(
                detail.contains(&format!("{free} free")),
                "{w}x{h}:\n{detail}"
            );
        }
    }
}
