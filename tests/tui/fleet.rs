//! The Fleet view (issue 30): its rows from fixture analyses of three contexts (two answering,
//! one unreachable) as whole-screen snapshots at 80×24, 120×40 and 200×60, and the reducer's
//! fleet: Enter on a row shows that cluster (an instant switch, the others stay watched), Esc
//! comes back, a member that does not answer says why and when it is tried again, the fleet
//! view writes nothing, and `:ctx` stays inside the fleet.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::contexts::ContextEntry;
use ome_top::app::dialogs::Modal;
use ome_top::app::fleet::{FleetEvent, MemberState};
use ome_top::app::state::View;
use ome_top::app::{update, AppState, Effect, Event};
use ome_top::protocol::{Feed, SourceKind};
use tui_support::*;

const CONTEXTS: [&str; 3] = ["prod-eu", "prod-us", "lab"];

fn on(mut feed: Feed, context: &str) -> Arc<Feed> {
    feed.source = SourceKind::Live(context.into());
    Arc::new(feed)
}

fn member(s: &mut AppState, context: &str, state: MemberState) -> Vec<Effect> {
    let event = FleetEvent::Member {
        context: context.into(),
        state,
    };
    update(s, Event::Fleet(event), now())
}

/// `ome-top fleet` on three contexts: prod-eu (the mixed fleet with Alfred's pass), prod-us
/// (the mixed fleet with a stalled journal entry, read-only), lab unreachable; nothing shown.
fn fleet_state(w: u16, h: u16) -> AppState {
    let mut s = AppState::new(shipped_keys("default"), Box::new(CountingIds(0)), now());
    s.set_themes(vec!["default".into()], "default");
    s.set_contexts(
        CONTEXTS
            .into_iter()
            .map(|name| ContextEntry {
                name: name.into(),
                read_only: false,
            })
            .collect(),
    );
    update(&mut s, Event::Resize(w, h), now());
    let contexts = CONTEXTS.map(String::from).to_vec();
    update(
        &mut s,
        Event::Fleet(FleetEvent::Started { contexts }),
        now(),
    );
    member(
        &mut s,
        "prod-eu",
        MemberState::Answered(on(alfred_feed(), "prod-eu")),
    );
    let mut us = fleet_feed();
    us.permissions = ome_top::protocol::Permissions::read_only("read-only for context prod-us");
    member(&mut s, "prod-us", MemberState::Answered(on(us, "prod-us")));
    let failed = MemberState::Failed {
        error: "cluster unreachable: https://10.0.0.9:6443/: connection refused".into(),
        retry_at: now() + chrono::Duration::seconds(20),
    };
    member(&mut s, "lab", failed);
    s
}

/// The row of `context` (its first) selected.
fn select(s: &mut AppState, context: &str) {
    for _ in 0..40 {
        let source = s.selected_source(View::Fleet).unwrap();
        if s.models().fleet.context_of(source) == Some(context) {
            return;
        }
        press(s, KeyCode::Down);
    }
    panic!("no row of {context}");
}

fn notice(s: &AppState) -> String {
    s.notice().map(|n| n.text.clone()).unwrap_or_default()
}

#[test]
fn fleet_view_at_three_sizes() {
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let s = fleet_state(w, h);
        assert_eq!(s.view(), View::Fleet);
        insta::assert_snapshot!(format!("fleet_{w}x{h}"), render(&s).backend());
    }
}

#[test]
fn the_unreachable_context_comes_first_with_its_error_and_next_try() {
    let s = fleet_state(200, 60);
    let m = &s.models().fleet;
    assert_eq!(m.context_of(m.table.rows[0].source), Some("lab"));
    let attention = &m.table.rows[0].cells.last().unwrap().text;
    assert!(attention.contains("connection refused"), "{attention}");
    assert!(attention.contains("next try in 20s"), "{attention}");
    assert!(!m.fits.is_empty());
    assert!(m.fits.iter().all(|l| l.contains("fits now in:")));
    assert!(m.fits.iter().all(|l| l.contains("lab (unreachable)")));
}

#[test]
fn enter_shows_the_cluster_at_once_and_esc_comes_back_to_the_fleet() {
    let mut s = fleet_state(120, 40);
    select(&mut s, "prod-us");
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects.contains(&Effect::ShowContext("prod-us".into())));
    // The run layer swaps the shown channels and answers with the member's feed.
    let feed = on(fleet_feed(), "prod-us");
    let switched = Event::ContextSwitched {
        feed,
        dismissed: Vec::new(),
        contexts: Vec::new(),
        notices: Vec::new(),
    };
    update(&mut s, switched, now());
    assert_eq!(s.view(), View::Pools);
    assert_eq!(s.current_context(), Some("prod-us"));
    assert!(
        notice(&s).contains("esc: back to the fleet"),
        "{}",
        notice(&s)
    );
    assert_eq!(
        s.fleet().unwrap().members.len(),
        3,
        "the others stay watched"
    );
    insta::assert_snapshot!("fleet_member_pools_120x40", render(&s).backend());
    type_keys(&mut s, "2");
    press(&mut s, KeyCode::Esc);
    assert_eq!(s.view(), View::Fleet);
    // Enter on the shown cluster again needs no switch.
    select(&mut s, "prod-us");
    assert!(press(&mut s, KeyCode::Enter)
        .iter()
        .all(|e| !matches!(e, Effect::ShowContext(_))));
    assert_eq!(s.view(), View::Pools);
}

#[test]
fn enter_on_an_unreachable_context_says_why_and_switches_nothing() {
    let mut s = fleet_state(120, 40);
    select(&mut s, "lab");
    let effects = press(&mut s, KeyCode::Enter);
    assert_eq!(effects, vec![Effect::Redraw]);
    assert!(notice(&s).contains("lab cannot be read"), "{}", notice(&s));
    assert!(notice(&s).contains("in 20s"), "{}", notice(&s));
    assert_eq!(s.view(), View::Fleet);
}

#[test]
fn the_fleet_view_writes_nothing() {
    let mut s = fleet_state(120, 40);
    select(&mut s, "prod-eu");
    for keys in ["c", "u", "a", "x", "C", "y"] {
        let effects = type_keys(&mut s, keys);
        assert!(
            effects.iter().all(|e| !matches!(e, Effect::Send(_))),
            "{keys}: {effects:?}"
        );
        assert!(
            !s.modals()
                .iter()
                .any(|m| matches!(m, Modal::Confirm { .. })),
            "{keys} opened a confirm dialog"
        );
        press(&mut s, KeyCode::Esc);
    }
}

#[test]
fn ctx_shows_a_member_and_refuses_a_context_outside_the_fleet() {
    let mut s = fleet_state(120, 40);
    type_keys(&mut s, ":ctx prod-eu");
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects.contains(&Effect::ShowContext("prod-eu".into())));
    let mut s = fleet_state(120, 40);
    type_keys(&mut s, ":ctx staging");
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects
        .iter()
        .all(|e| !matches!(e, Effect::ShowContext(_) | Effect::SwitchContext(_))));
    assert!(notice(&s).contains("not in the fleet"), "{}", notice(&s));
}

#[test]
fn fleet_opens_from_one_context_and_is_refused_without_contexts() {
    let mut s = state_with(fleet_feed(), 120, 40);
    let effects = type_keys(&mut s, "7");
    assert!(!effects.contains(&Effect::OpenFleet));
    assert!(
        notice(&s).contains("the fleet needs kubeconfig contexts"),
        "{}",
        notice(&s)
    );
    assert_eq!(s.view(), View::Pools);
    // Tab never lands on a fleet that is not watched.
    for _ in 0..View::COUNT {
        press(&mut s, KeyCode::Tab);
        assert_ne!(s.view(), View::Fleet);
    }
    s.set_contexts(vec![ContextEntry {
        name: "prod-gpu".into(),
        read_only: false,
    }]);
    type_keys(&mut s, ":fleet");
    let effects = press(&mut s, KeyCode::Enter);
    assert!(effects.contains(&Effect::OpenFleet), "{effects:?}");
    let contexts = vec!["prod-gpu".to_string(), "staging".to_string()];
    update(
        &mut s,
        Event::Fleet(FleetEvent::Started { contexts }),
        now(),
    );
    assert_eq!(s.view(), View::Fleet);
}

#[test]
fn help_shows_the_fleet_legend() {
    let mut s = fleet_state(80, 24);
    type_keys(&mut s, "?");
    let term = render(&s);
    let buf = term.backend().buffer();
    let text: String = (0..buf.area.height)
        .flat_map(|y| (0..buf.area.width).map(move |x| (x, y)))
        .map(|(x, y)| buf[(x, y)].symbol().to_string())
        .collect();
    assert!(
        text.contains("[Fleet: what the columns and symbols mean]"),
        "{text}"
    );
    assert!(text.contains("CONTEXT"), "{text}");
}

#[test]
fn every_fleet_column_has_a_legend_line() {
    let s = fleet_state(200, 60);
    let legend = ome_top::app::views::legends::legend(View::Fleet);
    for c in &s.models().fleet.table.columns {
        assert!(
            legend.iter().any(|l| l.term == c.title),
            "no legend for {}",
            c.title
        );
    }
}
