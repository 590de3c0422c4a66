//! An Unhealthy node that nobody cordoned or tainted still receives pods: the pool map marks
//! it `!` ("unhealthy, still schedulable"), the full-size map's line of the selected node says
//! so with the cordon key, `c` there opens the usual cordon dialog, and the uncordon dialog of
//! an Unhealthy node warns that new pods would land on it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::sync::Arc;

use chrono::Duration;
use crossterm::event::KeyCode;

use crate::tui_support::*;
use ome_top::app::dialogs::Modal;
use ome_top::app::effect::Effect;
use ome_top::app::event::Event;
use ome_top::app::state::AppState;
use ome_top::app::update;
use ome_top::protocol::Op;
use ome_top::sim::demo::DemoWorld;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

/// `ome-top demo --seed 1` ten sim minutes in: its failing node has turned Unhealthy, and
/// nothing cordoned it.
fn world() -> DemoWorld {
    let start = now() - Duration::minutes(10);
    let mut w = DemoWorld::new(1, 120, start);
    let mut t = start;
    while t < now() {
        t += Duration::seconds(10);
        w.step(t);
    }
    w
}

fn screen_text(s: &AppState) -> String {
    let term = render(s);
    let buf = term.backend().buffer();
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            out.push_str(buf[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The Pools view on the failing node's pool, its map full-size, the failing node selected.
fn map_on(w: &DemoWorld, size: (u16, u16)) -> AppState {
    let name = w.failing_node();
    let mut s = state_with(w.feed_default(1, now()), size.0, size.1);
    let pool = |s: &AppState| {
        let feed = s.shown().unwrap();
        let i = feed.snapshot.nodes.iter().position(|n| n.name == name);
        let key = feed.analysis.nodes[i.unwrap()].pool.clone().unwrap();
        feed.analysis.pools.iter().position(|p| *p.name == *key)
    };
    let want = pool(&s);
    for _ in 0..5 {
        if s.pool_map().pool == want {
            break;
        }
        type_keys(&mut s, "j");
    }
    assert_eq!(s.pool_map().pool, want);
    type_keys(&mut s, "m");
    let map = &s.models().pool_maps[want.unwrap()];
    let cell = map.names.iter().position(|n| **n == *name).unwrap();
    for _ in 0..cell {
        type_keys(&mut s, "l");
    }
    assert_eq!(s.pool_map().selected_cell(), Some(cell));
    s
}

#[test]
fn the_map_says_an_unhealthy_uncordoned_node_still_takes_pods_and_offers_the_cordon() {
    let w = world();
    let name = w.failing_node();
    for size in SIZES {
        let s = map_on(&w, size);
        let text = screen_text(&s);
        assert!(
            text.contains(&format!("{name}: unhealthy, still schedulable · c: cordon")),
            "{size:?}: the selected node's line\n{text}"
        );
        assert!(
            text.contains("! unhealthy, still schedulable 1"),
            "{size:?}: the legend\n{text}"
        );
        assert!(
            text.contains(&format!("{name} !")),
            "{size:?}: its cell\n{text}"
        );
        assert!(text.contains("<c>Map: cordon node"), "{text}");
        let (width, height) = size;
        insta::assert_snapshot!(
            format!("map_unhealthy_full_{width}x{height}"),
            render(&s).backend()
        );
    }
}

#[test]
fn c_on_the_map_opens_the_usual_cordon_dialog_of_the_selected_node() {
    let w = world();
    let name = w.failing_node();
    let mut s = map_on(&w, (80, 24));
    type_keys(&mut s, "c");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no cordon dialog: {:?}", s.notice());
    };
    assert_eq!(d.title, format!("Cordon node {name}"));
    assert!(matches!(&d.op, Some(Op::Cordon { node, .. }) if *node == name));
    let effects = type_keys(&mut s, "y");
    assert!(effects
        .iter()
        .any(|e| matches!(e, Effect::Send(c) if matches!(&c.op, Op::Cordon { node, .. } if *node == name))));
}

#[test]
fn uncordoning_an_unhealthy_node_warns_that_new_pods_would_land_on_it() {
    let mut w = world();
    let name = w.failing_node();
    let mut s = map_on(&w, (80, 24));
    type_keys(&mut s, "c");
    let sent = type_keys(&mut s, "y");
    let op = sent
        .iter()
        .find_map(|e| match e {
            Effect::Send(c) => Some(c.op.clone()),
            _ => None,
        })
        .unwrap();
    w.apply(&op, now());
    update::update(
        &mut s,
        Event::Feed(Arc::new(w.feed_default(2, now()))),
        now(),
    );
    // The map now marks it ✗ (unhealthy, no new pods): cordoned.
    let text = screen_text(&s);
    assert!(text.contains(&format!("{name} ✗")), "{text}");
    type_keys(&mut s, "2/");
    type_keys(&mut s, &name);
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "u");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no uncordon dialog: {:?}", s.notice());
    };
    let warning = d
        .lines
        .iter()
        .find(|(t, _)| t.starts_with('⚠'))
        .expect("a warning line");
    assert!(
        warning.0.starts_with(&format!(
            "⚠ {name} is Unhealthy (GpuUnhealthy is True since "
        )),
        "{}",
        warning.0
    );
    assert!(warning
        .0
        .ends_with("): uncordoning lets new pods land on it"));
    assert_eq!(warning.1, ome_top::app::table::Tone::Degraded);
    insta::assert_snapshot!("uncordon_unhealthy_80x24", render(&s).backend());
}
