//! What the operator wrote is kept and times mean something: the node detail opens with the
//! health summary and `t` jumps to the timeline, the operator actions recorded on a node with
//! their reasons, a replayed snapshot aged against its own time (`--now` or its newest
//! timestamp) with the header saying so, and the full-size pool map's named tiles, selected
//! with the arrows and opened with Enter.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::path::Path;

use chrono::{Duration, TimeZone, Utc};
use crossterm::event::KeyCode;

use crate::history_fixture;
use crate::tui_support::*;
use ome_top::app::detail::DetailKind;
use ome_top::app::state::{AppState, NodeAction, View};
use ome_top::app::{update, Event};
use ome_top::run::{snapshot_feed, TuiOptions};
use ome_top::sim::demo::DemoWorld;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

fn screen(s: &AppState) -> String {
    let t = render(s);
    let buf = t.backend().buffer();
    let area = buf.area;
    (0..area.height)
        .map(|y| {
            (0..area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// h100-04's detail with the store's rows, health answers and two recorded actions.
fn node_with_history(w: u16, h: u16) -> AppState {
    let mut s = state_with(node_detail_feed(), w, h);
    type_keys(&mut s, "2/h100-04");
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Enter);
    let at = now();
    update(&mut s, Event::NodesHealth(history_fixture::fleet()), at);
    let node = "h100-04".to_string();
    let rows = history_fixture::h100_04_rows();
    update(&mut s, Event::NodeHistory { node, rows }, at);
    let action = |mins: i64, action: &str, reason: Option<&str>| NodeAction {
        at: at - Duration::minutes(mins),
        actor: "alice@example.com".into(),
        action: action.into(),
        result: "done".into(),
        reason: reason.map(str::to_string),
        message: format!("node/h100-04 {action}"),
    };
    let actions = vec![
        // The cordon of 02:00 yesterday (the timeline's cordoned episode), written then.
        action(32 * 60 + 15, "cordon-node", Some("fan replacement")),
        action(90, "cordon-node", Some("GPU Xid 79 errors")),
        action(30, "uncordon-node", None),
    ];
    let node = "h100-04".to_string();
    update(&mut s, Event::NodeActions { node, actions }, at);
    s
}

/// The detail opens with the health summary (state, episodes counted as the flap count
/// counts them, what is open) before any Kubernetes section; `t` scrolls to the timeline.
#[test]
fn node_detail_opens_with_the_health_summary_and_t_jumps_to_the_timeline() {
    for (w, h) in SIZES {
        let mut s = node_with_history(w, h);
        let lines: Vec<String> = s
            .detail()
            .as_ref()
            .unwrap()
            .lines
            .iter()
            .map(|l| l.text.clone())
            .collect();
        let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
        assert!(at("health:") < at("health episodes"));
        assert!(at("health episodes") < at("Health timeline"));
        assert!(at("Health timeline") < at("Operator actions"));
        assert!(
            at("Operator actions") < at("Labels"),
            "OME first: {lines:#?}"
        );
        // The count agrees with the listed episodes: Unhealthy two days ago and since 09:40.
        assert!(
            lines[at("health episodes")].contains("in 7 days: 2 "),
            "{}",
            lines[at("health episodes")]
        );
        assert!(
            lines.iter().any(|l| l.contains("t jumps to it")),
            "{lines:#?}"
        );
        // The cordoned episode carries the reason its cordon was written with.
        let cordoned = lines.iter().position(|l| l.contains("⚑ cordoned")).unwrap();
        let text = lines[cordoned..=cordoned + 1].join(" ");
        assert!(text.contains("reason: fan replacement"), "{text}");
        insta::assert_snapshot!(format!("kept_node_detail_{w}x{h}"), render(&s).backend());
        type_keys(&mut s, "t");
        let heading = at("Health timeline");
        let max = lines.len() - (usize::from(h) - 3 - 2 - 2);
        assert_eq!(s.detail_scroll(), heading.min(max), "{w}x{h}");
        insta::assert_snapshot!(format!("kept_node_timeline_{w}x{h}"), render(&s).backend());
    }
}

/// The audit rows recorded on the node, newest first, each with the operator's reason.
#[test]
fn node_detail_lists_the_operator_actions_with_their_reasons() {
    let s = node_with_history(120, 40);
    let lines: Vec<&str> = s
        .detail()
        .as_ref()
        .unwrap()
        .lines
        .iter()
        .map(|l| l.text.as_str())
        .collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with("Operator actions"))
        .unwrap();
    assert!(lines[i + 1].contains("uncordon-node done · alice@example.com"));
    assert_eq!(lines[i + 2], "      no reason given");
    assert!(lines[i + 3].contains("cordon-node done · alice@example.com"));
    assert_eq!(lines[i + 4], "      reason: GPU Xid 79 errors");
    // Closed and opened again, the detail waits for the store's answer (nothing stale), and
    // another node's answer is not taken.
    let mut again = node_with_history(120, 40);
    press(&mut again, KeyCode::Esc);
    press(&mut again, KeyCode::Enter);
    let shown = |s: &AppState| format!("{:?}", s.detail()).contains("Operator actions");
    assert!(!shown(&again));
    let node = "h100-05".to_string();
    update(
        &mut again,
        Event::NodeActions {
            node,
            actions: vec![],
        },
        now(),
    );
    assert!(!shown(&again));
}

/// Relative (tests run in the crate's root), so the header's file name is the same on every
/// machine.
fn mixed_fleet() -> &'static Path {
    Path::new("docs/examples/mixed-fleet.json")
}

/// A snapshot replayed years later is aged against its newest timestamp, or `--now`; the
/// header says "snapshot of <time>" and the pending pods' ages are the snapshot's.
#[test]
fn a_snapshot_is_aged_against_its_own_time() {
    let years_later = Utc.with_ymd_and_hms(2027, 4, 24, 0, 0, 0).unwrap();
    let feed = snapshot_feed(mixed_fleet(), &TuiOptions::default(), years_later).unwrap();
    let taken = feed.snapshot.newest_time().unwrap();
    assert_eq!(
        feed.analysis.now, taken,
        "its newest timestamp, not the clock"
    );
    assert!(taken < now());
    let asked = Utc.with_ymd_and_hms(2026, 9, 28, 12, 0, 0).unwrap();
    let opts = TuiOptions {
        snapshot_now: Some(asked),
        ..TuiOptions::default()
    };
    let at_asked = snapshot_feed(mixed_fleet(), &opts, years_later).unwrap();
    assert_eq!(at_asked.analysis.now, asked, "--now wins");
    for (w, h) in SIZES {
        // The app's clock stands at the snapshot's time (run::AppClock::fixed).
        let mut s = AppState::new(shipped_keys("default"), Box::new(CountingIds(0)), taken);
        update(&mut s, Event::Resize(w, h), taken);
        update(
            &mut s,
            Event::Feed(std::sync::Arc::new(feed.clone())),
            taken,
        );
        let text = screen(&s);
        let first = text.lines().next().unwrap();
        assert!(first.contains("snapshot of 2026-09-28 10:10:00"), "{first}");
        assert!(!text.contains("208d"), "no wall-clock ages: {text}");
        assert!(
            text.contains("waiting 0s"),
            "the newest pod, just created: {text}"
        );
        insta::assert_snapshot!(format!("kept_snapshot_{w}x{h}"), render(&s).backend());
    }
}

/// The demo cluster ten sim minutes in (seed 7, 120 nodes).
fn demo_state(w: u16, h: u16) -> AppState {
    let start = now() - Duration::minutes(10);
    let mut world = DemoWorld::new(7, 120, start);
    let mut t = start;
    while t < now() {
        t += Duration::seconds(10);
        world.step(t);
    }
    state_with(world.feed_default(1, now()), w, h)
}

/// The full-size map names every node; the arrows move the selected tile, Enter opens its
/// node's detail and Esc comes back to the map.
#[test]
fn the_full_map_names_nodes_and_enter_opens_the_selected_one() {
    for (w, h) in SIZES {
        let mut s = demo_state(w, h);
        type_keys(&mut s, "m");
        assert!(s.pool_map().full);
        let pool = s.pool_map().pool.unwrap();
        let names = s.models().pool_maps[pool].names.clone();
        let text = screen(&s);
        assert!(text.contains(&names[0]), "names shown: {text}");
        assert_eq!(s.pool_map().selected_cell(), Some(0));
        press(&mut s, KeyCode::Right);
        press(&mut s, KeyCode::Down);
        let cell = s.pool_map().selected_cell().unwrap();
        let named = &s.pool_map().named;
        // One right, then one line down in the same column (the line's last tile when it
        // is shorter).
        let expected = (1, 1.min(named.lines[1].len - 1));
        assert_eq!(named.place(cell).unwrap(), expected, "{w}x{h}");
        assert_eq!(cell, named.lines[1].start + expected.1);
        press(&mut s, KeyCode::Left);
        assert_eq!(s.pool_map().selected_cell(), Some(cell - 1));
        press(&mut s, KeyCode::Right);
        insta::assert_snapshot!(format!("kept_map_selected_{w}x{h}"), render(&s).backend());
        press(&mut s, KeyCode::Enter);
        let kind = s.detail().as_ref().map(|d| d.kind.clone());
        assert_eq!(kind, Some(DetailKind::Node(names[cell].clone())));
        assert_eq!(s.view(), View::Pools);
        press(&mut s, KeyCode::Esc);
        assert!(s.detail().is_none() && s.pool_map().full, "back on the map");
        assert_eq!(
            s.pool_map().selected_cell(),
            Some(cell),
            "the selection kept"
        );
    }
}

/// A selection far down a long pool's map scrolls it; `g` and `G` reach its ends.
#[test]
fn the_selection_scrolls_a_long_full_map() {
    let mut s = state_with(
        feed_of(
            ome_top::sim::cluster::generate_cluster(
                &ome_top::sim::cluster::ClusterSpec {
                    seed: 3,
                    nodes: 600,
                    pods: 600,
                },
                now(),
            ),
            1,
        ),
        80,
        24,
    );
    type_keys(&mut s, "m");
    let lines = s.pool_map().named.lines.len();
    let page = s.pool_map().page;
    assert!(lines > page, "{lines} lines, page {page}");
    type_keys(&mut s, "G");
    assert_eq!(s.pool_map().offset, lines - page);
    let last = s.pool_map().selected_cell().unwrap();
    assert_eq!(s.pool_map().named.place(last).unwrap().0, lines - 1);
    let text = screen(&s);
    assert!(text.contains(&format!("of {lines}")), "{text}");
    type_keys(&mut s, "g");
    assert_eq!(
        (s.pool_map().offset, s.pool_map().selected_cell()),
        (0, Some(0))
    );
}
