//! The Pools view's map on the demo cluster: whole-screen snapshots beside the table and
//! full-size at 80×24, 120×40 and 200×60, the key that toggles it and scrolls it, and the
//! theme slots its cells use.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::Duration;
use crossterm::event::KeyCode;

use crate::tui_support::*;
use ome_top::app::layout::screen;
use ome_top::app::model::map::layout::{cell_area, Level};
use ome_top::app::state::{AppState, View};
use ome_top::protocol::Feed;
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::demo::DemoWorld;
use ome_top::ui::theme::{Slot, Theme};

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

/// The demo cluster (seed 7, 120 nodes) ten sim minutes in: the failing H100 node has turned
/// unhealthy and gangs hold their racks.
fn demo_feed() -> Feed {
    let start = now() - Duration::minutes(10);
    let mut w = DemoWorld::new(7, 120, start);
    let mut t = start;
    while t < now() {
        t += Duration::seconds(10);
        w.step(t);
    }
    w.feed_default(1, now())
}

fn demo(w: u16, h: u16, keys: &str) -> AppState {
    let mut s = state_with(demo_feed(), w, h);
    type_keys(&mut s, keys);
    s
}

fn h100(s: &AppState) -> usize {
    let feed = s.shown().unwrap();
    let p = feed
        .analysis
        .pools
        .iter()
        .position(|p| p.name.contains("H100"));
    p.unwrap()
}

#[test]
fn pools_view_with_the_map_of_the_selected_pool() {
    for (w, h) in SIZES {
        // `j`: the H100 pool, where the 8-GPU pods wait.
        let s = demo(w, h, "j");
        assert_eq!(s.pool_map().pool, Some(h100(&s)));
        insta::assert_snapshot!(format!("pool_map_{w}x{h}"), render(&s).backend());
    }
}

#[test]
fn the_map_full_size() {
    for (w, h) in SIZES {
        let s = demo(w, h, "jm");
        assert!(s.pool_map().full);
        insta::assert_snapshot!(format!("pool_map_full_{w}x{h}"), render(&s).backend());
    }
}

#[test]
fn m_toggles_the_full_map_and_esc_returns_to_the_table() {
    let mut s = demo(120, 40, "j");
    let selected = s.table(View::Pools).selected;
    type_keys(&mut s, "m");
    assert!(s.pool_map().full);
    // Moving keys move the map's selected tile, not the table (the map fits: no scroll).
    type_keys(&mut s, "jj");
    assert_eq!(s.table(View::Pools).selected, selected);
    assert_eq!(s.pool_map().offset, 0);
    press(&mut s, KeyCode::Esc);
    assert!(!s.pool_map().full);
    type_keys(&mut s, "mm");
    assert!(!s.pool_map().full);
    // In another view `m` does nothing.
    type_keys(&mut s, "2m");
    assert!(!s.pool_map().full);
}

/// A generated fleet without topology labels: its largest pool is one run of cells.
fn flat_fleet(nodes: usize) -> Feed {
    let spec = ClusterSpec {
        seed: 3,
        nodes,
        pods: nodes,
    };
    feed_of(generate_cluster(&spec, now()), 1)
}

#[test]
fn a_map_longer_than_the_pane_scrolls_and_a_new_pool_starts_at_the_top() {
    let mut s = state_with(flat_fleet(3_000), 80, 24);
    // The H100 pool, about 1,500 nodes.
    let i = h100(&s);
    while s.selected_source(View::Pools) != Some(i) {
        type_keys(&mut s, "j");
    }
    type_keys(&mut s, "m");
    assert_eq!(s.pool_map().layout.level, Level::Nodes);
    // At 80×24 the full-size map shows 13 lines, a few named tiles each; the pool needs more.
    let lines = s.pool_map().named.lines.len();
    assert_eq!(s.pool_map().page, 13);
    assert!(lines > 13, "{lines} lines");
    // Moving keys move the selected tile; the map scrolls when it leaves the page.
    type_keys(&mut s, "jjj");
    assert_eq!(s.pool_map().offset, 0);
    press(&mut s, KeyCode::PageDown);
    assert_eq!(
        s.pool_map().offset,
        16 + 1 - 13,
        "the selection stays in view"
    );
    type_keys(&mut s, "G");
    let bottom = lines - 13;
    assert_eq!(s.pool_map().offset, bottom, "kept within the map");
    let screen = format!("{:?}", render(&s).backend());
    let note = format!("lines {}–{lines} of {lines}", bottom + 1);
    assert!(screen.contains(&note), "{note}: {screen}");
    type_keys(&mut s, "g");
    assert_eq!(s.pool_map().offset, 0);
    type_keys(&mut s, "Gmk");
    assert!(!s.pool_map().full);
    assert_eq!(
        s.pool_map().offset,
        0,
        "another pool's map starts at its top"
    );
}

/// The first map cell (labels left out) showing `glyph`.
fn find_cell(
    s: &AppState,
    t: &ratatui::Terminal<ratatui::backend::TestBackend>,
    glyph: &str,
) -> Option<(u16, u16)> {
    let a = cell_area(screen(s).map);
    let layout = &s.pool_map().layout;
    let buf = t.backend().buffer();
    (0..a.height).find_map(|row| {
        let y = a.y + row;
        layout
            .line(s.pool_map().offset + usize::from(row))
            .iter()
            .find_map(|seg| {
                let x0 = a.x + seg.x + layout.label_width;
                (x0..x0 + seg.len as u16)
                    .map(|x| (x, y))
                    .find(|p| buf[*p].symbol() == glyph)
            })
    })
}

#[test]
fn cells_take_their_colour_from_theme_slots() {
    let s = demo(200, 60, "j");
    let theme = Theme::default_theme();
    let t = render_with(&s, &theme);
    let fg = |glyph: &str| {
        let at = find_cell(&s, &t, glyph).unwrap_or_else(|| panic!("no {glyph} in the map"));
        t.backend().buffer()[at].fg
    };
    // The demo's failing node, unhealthy and never cordoned: still schedulable, reversed.
    assert_eq!(Some(fg("!")), theme.style(Slot::HealthFailed).fg);
    let at = find_cell(&s, &t, "!").unwrap();
    let reversed = ratatui::style::Modifier::REVERSED;
    assert!(t.backend().buffer()[at].modifier.contains(reversed));
    assert_eq!(Some(fg("·")), theme.style(Slot::MapNone).fg);
    let some = (1..8)
        .map(|d| d.to_string())
        .find(|d| find_cell(&s, &t, d).is_some())
        .unwrap();
    assert_eq!(Some(fg(&some)), theme.style(Slot::MapSome).fg);
}

/// Beside the table, the wheel over the map scrolls the map; over the table it moves the
/// selection.
#[test]
fn the_wheel_over_the_split_map_scrolls_the_map() {
    use crossterm::event::{KeyModifiers, MouseEvent, MouseEventKind};
    use ome_top::app::{update, Event};
    let mut s = state_with(flat_fleet(3_000), 80, 24);
    let i = h100(&s);
    while s.selected_source(View::Pools) != Some(i) {
        type_keys(&mut s, "j");
    }
    assert!(!s.pool_map().full);
    let lines = s.pool_map().layout.lines.len();
    assert!(
        lines > s.pool_map().page,
        "{lines} lines, page {}",
        s.pool_map().page
    );
    let wheel = |kind, at: (u16, u16)| {
        Event::Mouse(MouseEvent {
            kind,
            column: at.0,
            row: at.1,
            modifiers: KeyModifiers::NONE,
        })
    };
    let map = screen(&s).map;
    let over_map = (map.x + 2, map.y + 2);
    update(&mut s, wheel(MouseEventKind::ScrollDown, over_map), now());
    assert_eq!(s.pool_map().offset, 3);
    assert_eq!(
        s.selected_source(View::Pools),
        Some(i),
        "the pool stays selected"
    );
    update(&mut s, wheel(MouseEventKind::ScrollUp, over_map), now());
    assert_eq!(s.pool_map().offset, 0);
    let table = screen(&s).table;
    update(
        &mut s,
        wheel(MouseEventKind::ScrollUp, (table.x + 2, table.y + 3)),
        now(),
    );
    assert_ne!(
        s.selected_source(View::Pools),
        Some(i),
        "over the table it moves"
    );
}
