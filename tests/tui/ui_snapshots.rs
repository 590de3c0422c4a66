//! Whole-screen snapshots of every view, overlay and special state at 80×24, 120×40 and 200×60
//! (ratatui `TestBackend` + insta; fixed `now`, fixture data), and buffer assertions where
//! colour carries meaning (health and fragmentation through theme slots).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::history_fixture;
use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::contexts::ContextEntry;
use ome_top::app::state::AppState;
use ome_top::app::{update, Event};
use ome_top::protocol::ApiStatus;
use ome_top::ui::theme::{Slot, Theme};
use tui_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];
/// The Moves view and its dialogs (the same sizes: every view is looked at in 120×40 too).
const MOVES_SIZES: [(u16, u16); 3] = SIZES;

fn snap_at(name: &str, build: impl Fn(u16, u16) -> AppState) {
    snap_sizes(&SIZES, name, build);
}

fn snap_sizes(sizes: &[(u16, u16)], name: &str, build: impl Fn(u16, u16) -> AppState) {
    for (w, h) in sizes {
        let s = build(*w, *h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&s).backend());
    }
}

/// The mixed fleet with Alfred's pass, Moves shown, then `keys`.
fn moves(keys: &'static str) -> impl Fn(u16, u16) -> AppState {
    move |w, h| {
        let mut s = state_with(alfred_feed(), w, h);
        type_keys(&mut s, "3");
        type_keys(&mut s, keys);
        s
    }
}

fn fleet(keys: &'static str) -> impl Fn(u16, u16) -> AppState {
    move |w, h| {
        let mut s = state_with(fleet_feed(), w, h);
        type_keys(&mut s, keys);
        s
    }
}

fn fixture(path: &'static str, keys: &'static str) -> impl Fn(u16, u16) -> AppState {
    move |w, h| {
        let mut s = state_with(feed_of(snapshot(path), 1), w, h);
        type_keys(&mut s, keys);
        s
    }
}

#[test]
fn pools_view() {
    snap_at("pools", fleet("j"));
}

#[test]
fn nodes_view() {
    snap_at("nodes", fleet("2"));
}

/// The node detail, its YAML pane and the sizes an operator's terminal has (the detail's
/// sections must not push the OME summary off at any of them).
const DETAIL_SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

fn node_detail_at(w: u16, h: u16) -> AppState {
    let mut s = state_with(node_detail_feed(), w, h);
    type_keys(&mut s, "2/h100-04");
    press(&mut s, KeyCode::Enter);
    press(&mut s, KeyCode::Enter);
    s
}

#[test]
fn nodes_view_wide() {
    snap_at("nodes_wide", fleet("2w"));
}

#[test]
fn node_detail() {
    for (w, h) in DETAIL_SIZES {
        let s = node_detail_at(w, h);
        insta::assert_snapshot!(format!("node_detail_{w}x{h}"), render(&s).backend());
    }
}

/// The rest of the 80×24 detail, a page and two pages down (pods and events too wide for the
/// pane put their workload or message on indented lines).
#[test]
fn node_detail_scrolled() {
    let mut s = node_detail_at(80, 24);
    press(&mut s, KeyCode::PageDown);
    insta::assert_snapshot!("node_detail_scrolled_80x24", render(&s).backend());
    press(&mut s, KeyCode::PageDown);
    insta::assert_snapshot!("node_detail_scrolled_twice_80x24", render(&s).backend());
}

/// The node detail's health timeline with the history store attached (its rows and the
/// health answers), scrolled to the timeline's heading (the pane's last section).
#[test]
fn node_timeline() {
    for (w, h) in DETAIL_SIZES {
        let mut s = node_detail_at(w, h);
        let at = now();
        update(&mut s, Event::NodesHealth(history_fixture::fleet()), at);
        let rows = history_fixture::h100_04_rows();
        let node = "h100-04".to_string();
        update(&mut s, Event::NodeHistory { node, rows }, at);
        let lines = &s.detail().as_ref().unwrap().lines;
        let heading = lines
            .iter()
            .position(|l| l.text.starts_with("Health timeline"));
        s.set_detail_scroll(heading.unwrap());
        insta::assert_snapshot!(format!("node_timeline_{w}x{h}"), render(&s).backend());
    }
}

/// The Nodes view with the history store's columns (FLAPS; MTTR in the wide layout).
#[test]
fn nodes_view_with_history() {
    for (keys, name) in [("2", "nodes_history"), ("2w", "nodes_history_wide")] {
        snap_at(name, |w, h| {
            let mut s = state_with(fleet_feed(), w, h);
            update(&mut s, Event::NodesHealth(history_fixture::fleet()), now());
            type_keys(&mut s, keys);
            s
        });
    }
}

#[test]
fn node_yaml_pane() {
    let yaml = "apiVersion: v1\nkind: Node\nmetadata:\n  labels:\n    kubernetes.io/hostname: h100-04\n  name: h100-04\nspec:\n  taints:\n  - effect: NoSchedule\n    key: nvidia.com/gpu\n    value: present\nstatus:\n  capacity:\n    nvidia.com/gpu: \"8\"\n";
    for (w, h) in DETAIL_SIZES {
        let mut s = node_detail_at(w, h);
        type_keys(&mut s, "y");
        let loading = render(&s);
        insta::assert_snapshot!(format!("node_yaml_reading_{w}x{h}"), loading.backend());
        let fetch = ome_top::protocol::Fetch::NodeYaml(Arc::from("h100-04"));
        let result = Ok(yaml.to_string());
        update(&mut s, Event::Fetched { fetch, result }, now());
        insta::assert_snapshot!(format!("node_yaml_{w}x{h}"), render(&s).backend());
    }
}

#[test]
fn moves_view() {
    snap_sizes(&MOVES_SIZES, "moves", moves(""));
    // A group opened (Enter on its row): its moves under it.
    snap_sizes(&MOVES_SIZES, "moves_group_open", |w, h| {
        let mut s = moves("jjj")(w, h);
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn move_detail() {
    // Alfred withheld it, ome-top calls it advice: both, the disagreement, the checklist.
    snap_sizes(&MOVES_SIZES, "move_detail", |w, h| {
        let mut s = moves("")(w, h);
        press(&mut s, KeyCode::Enter);
        s
    });
    // No room for the surge copy: the candidate targets against the footprint.
    snap_sizes(&MOVES_SIZES, "move_detail_no_headroom", |w, h| {
        let mut s = state_with(demo_feed(), w, h);
        type_keys(&mut s, "3/NoSurgeHeadroom");
        press(&mut s, KeyCode::Enter);
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn approve_dialogs() {
    // ome-top says it can run (Alfred withheld it; to ome-top it does not pay off): `y`.
    snap_sizes(&MOVES_SIZES, "confirm_approve", moves("a"));
    // ome-top says it cannot (no room for the surge copy): the verdict in words and the
    // override, off, then armed.
    let no_room = |keys: &'static str| {
        move |w, h| {
            let mut s = state_with(demo_feed(), w, h);
            type_keys(&mut s, "3/NoSurgeHeadroom");
            press(&mut s, KeyCode::Enter);
            type_keys(&mut s, keys);
            s
        }
    };
    snap_sizes(&MOVES_SIZES, "confirm_approve_override", no_room("a"));
    snap_sizes(&MOVES_SIZES, "confirm_approve_armed", no_room("ao"));
}

#[test]
fn journal_view_and_detail() {
    snap_at("journal", fleet("4"));
    snap_at("journal_detail", |w, h| {
        let mut s = state_with(fleet_feed(), w, h);
        type_keys(&mut s, "4");
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn gangs_view_expanded() {
    // The tree opens at gang level: every topology key and domain is open at once.
    snap_at("gangs", fixture("tests/fixtures/k8s/gangs.json", "5"));
}

#[test]
fn lints_view_and_detail() {
    snap_at("lints", fixture("tests/fixtures/k8s/lints.json", "6"));
    snap_at("lint_detail", |w, h| {
        let mut s = fixture("tests/fixtures/k8s/lints.json", "6j")(w, h);
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn help_overlay() {
    snap_at("help", fleet("2?"));
}

#[test]
fn command_palette() {
    snap_at("palette", fleet(":view"));
}

/// The fleet on context `prod-gpu`, whose kubeconfig also holds a read-only `staging`.
fn with_contexts(mut s: AppState) -> AppState {
    s.set_contexts(
        ["prod-gpu", "staging"]
            .into_iter()
            .map(|name| ContextEntry {
                name: name.into(),
                read_only: name == "staging",
            })
            .collect(),
    );
    s
}

#[test]
fn command_palette_contexts() {
    snap_at("palette_contexts", |w, h| {
        let mut s = with_contexts(state_with(fleet_feed(), w, h));
        type_keys(&mut s, ":ctx ");
        s
    });
}

/// Moves scoped to namespace `prod` while a switch to `staging` connects.
#[test]
fn namespace_scope_while_switching_context() {
    snap_at("switching_ns_prod", |w, h| {
        let mut s = with_contexts(state_with(fleet_feed(), w, h));
        type_keys(&mut s, ":ns prod");
        press(&mut s, KeyCode::Enter);
        type_keys(&mut s, "3:ctx staging");
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn confirm_dialogs() {
    snap_at("confirm_cordon", |w, h| {
        let mut s = state_with(fleet_feed(), w, h);
        type_keys(&mut s, "2/h100-04");
        press(&mut s, KeyCode::Enter);
        type_keys(&mut s, "c");
        s
    });
    snap_at("confirm_clear", fleet("4x"));
}

#[test]
fn loading_before_the_first_feed() {
    snap_at("loading", |w, h| {
        let mut s = AppState::new(shipped_keys("default"), Box::new(CountingIds(0)), now());
        update(&mut s, Event::Resize(w, h), now());
        s
    });
}

#[test]
fn api_unreachable_banner() {
    snap_at("api_unreachable", |w, h| {
        let mut feed = fleet_feed();
        feed.api = ApiStatus::Reconnecting {
            since: now() - chrono::Duration::seconds(95),
            error: "connection refused".into(),
        };
        state_with(feed, w, h)
    });
}

#[test]
fn terminal_too_small() {
    let s = state_with(fleet_feed(), 79, 23);
    insta::assert_snapshot!("too_small", render(&s).backend());
}

fn find(t: &ratatui::Terminal<ratatui::backend::TestBackend>, needle: &str) -> (u16, u16) {
    let buf = t.backend().buffer();
    for y in 0..buf.area.height {
        let line: String = (0..buf.area.width)
            .map(|x| buf[(x, y)].symbol().to_string())
            .collect();
        if let Some(byte) = line.find(needle) {
            let col = line[..byte].chars().count() as u16;
            return (col, y);
        }
    }
    panic!("{needle:?} not on screen");
}

#[test]
fn health_states_use_their_theme_slots() {
    let mut s = state_with(fleet_feed(), 200, 60);
    type_keys(&mut s, "2");
    let theme = Theme::default_theme();
    let t = render_with(&s, &theme);
    for (word, slot) in [
        ("✗ Unhealthy", Slot::HealthFailed),
        ("~ Suspect", Slot::HealthDegraded),
        ("? Unknown", Slot::HealthUnknown),
        ("✓ Clear", Slot::HealthOk),
    ] {
        let (x, y) = find(&t, word);
        let cell = &t.backend().buffer()[(x, y)];
        assert_eq!(cell.fg, theme.style(slot).fg.unwrap(), "{word}");
    }
}

#[test]
fn fragmentation_band_uses_its_theme_slot_and_word() {
    let s = state_with(fleet_feed(), 200, 60);
    let theme = Theme::default_theme();
    let t = render_with(&s, &theme);
    let a = &s.shown().unwrap().analysis;
    let threshold = a.config.policies.defragmentation.fragmentation_threshold;
    for p in &a.pools {
        let text = format!("{:.3}", p.score);
        let (x, y) = find(&t, &text);
        let slot = if p.score > threshold {
            Slot::FragHigh
        } else if p.score > threshold / 2.0 {
            Slot::FragMid
        } else {
            Slot::FragLow
        };
        assert_eq!(
            t.backend().buffer()[(x, y)].fg,
            theme.style(slot).fg.unwrap(),
            "{}",
            p.name
        );
    }
}

#[test]
fn mono_theme_keeps_states_readable_without_colour() {
    let mut s = state_with(fleet_feed(), 200, 60);
    type_keys(&mut s, "2");
    let t = render_with(&s, &Theme::mono());
    let (x, y) = find(&t, "✗ Unhealthy");
    assert_eq!(
        t.backend().buffer()[(x, y)].fg,
        ratatui::style::Color::Reset
    );
}

#[test]
fn frozen_view_is_marked() {
    let mut s = state_with(fleet_feed(), 200, 60);
    type_keys(&mut s, "f");
    let mut next = fleet_feed();
    next.generation = 9;
    update(&mut s, Event::Feed(Arc::new(next)), now());
    find(&render(&s), "FROZEN");
}

/// The mixed fleet whose `alfred-config` is rejected and whose `last-cycle.json` is cut short
/// (`truncated`) or an array.
fn unreadable_feed(last_cycle: &str) -> ome_top::protocol::Feed {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    for cm in &mut snap.config_maps {
        if cm.name.as_ref() == "alfred-config" {
            cm.data.insert(
                "config.yaml".into(),
                "schemaVersion: 1\nmode: sideways\n".into(),
            );
        }
    }
    let mut data = std::collections::BTreeMap::new();
    data.insert("last-cycle.json".to_string(), last_cycle.to_string());
    snap.config_maps.push(ome_top::engine::model::ConfigMap {
        namespace: Arc::from("ome"),
        name: Arc::from("alfred-recommendations"),
        resource_version: Arc::from("7"),
        data,
    });
    feed_of(snap, 1)
}

#[test]
fn unreadable_config_maps_have_a_badge_and_a_banner_in_the_view_that_uses_them() {
    let truncated = r#"{"timestamp": "2026-09-28T10:14:00Z", "recommendations": [{"workl"#;
    snap_at("unreadable_moves", |w, h| {
        let mut s = state_with(unreadable_feed(truncated), w, h);
        type_keys(&mut s, "3");
        s
    });
    // The Pools view uses alfred-config only; the Journal view neither.
    let mut s = state_with(unreadable_feed("[]"), 120, 40);
    let screen = format!("{}", render(&s).backend());
    assert!(screen.contains("✗ alfred-config rejected"), "{screen}");
    assert!(screen.contains("✗ recommendations unreadable"), "{screen}");
    assert!(
        screen.contains("alfred-config rejected: config.yaml: mode:"),
        "{screen}"
    );
    assert!(!screen.contains("showing computed moves only"), "{screen}");
    type_keys(&mut s, "3");
    let screen = format!("{}", render(&s).backend());
    assert!(
        screen.contains("recommendations unreadable: last-cycle.json: JSON is an array, not an object; showing computed moves only"),
        "{screen}"
    );
    type_keys(&mut s, "4");
    let screen = format!("{}", render(&s).backend());
    assert!(!screen.contains("using defaults"), "{screen}");
    assert!(screen.contains("✗ alfred-config rejected"), "{screen}");
}

/// An `alfred-config` without its `config.yaml` key is rejected as Alfred rejects it: the
/// badge, and the Pools banner saying so.
#[test]
fn an_alfred_config_without_its_key_is_rejected_on_screen() {
    let mut snap = snapshot("docs/examples/mixed-fleet.json");
    for cm in &mut snap.config_maps {
        if cm.name.as_ref() == "alfred-config" {
            cm.data.clear();
        }
    }
    let s = state_with(feed_of(snap, 1), 120, 40);
    let screen = format!("{}", render(&s).backend());
    assert!(screen.contains("✗ alfred-config rejected"), "{screen}");
    assert!(
        screen.contains("alfred-config rejected: ome/alfred-config has no config.yaml key"),
        "{screen}"
    );
}
