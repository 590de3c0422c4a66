//! Whole-screen snapshots (80×24, 120×40, 200×60) of what issue 27's items 3 and 4 changed: a
//! move approved here shown in flight in its detail, a reservation-cordon lint's detail with
//! its fix key, and a refused key's reason on the notice line.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::{update, Event};
use tui_support::*;

const SIZES: [(u16, u16); 3] = [(80, 24), (120, 40), (200, 60)];

fn snap(name: &str, build: impl Fn(u16, u16) -> ome_top::app::AppState) {
    for (w, h) in SIZES {
        let s = build(w, h);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&s).backend());
    }
}

#[test]
fn a_move_approved_here_shows_in_flight() {
    snap("move_in_flight", |w, h| {
        let mut s = state_with(alfred_feed(), w, h);
        type_keys(&mut s, "3");
        press(&mut s, KeyCode::Enter);
        type_keys(&mut s, "ay");
        // The next feed: OME has not accepted the request yet.
        let mut next = alfred_feed();
        next.generation = 2;
        update(&mut s, Event::Feed(Arc::new(next)), now());
        s
    });
}

#[test]
fn a_reservation_cordon_lint_offers_its_fix_key() {
    snap("lint_fix", |w, h| {
        let mut s = state_with(feed_of(snapshot("tests/fixtures/k8s/lints.json"), 1), w, h);
        type_keys(&mut s, "6jjj");
        press(&mut s, KeyCode::Enter);
        s
    });
}

#[test]
fn a_key_that_cannot_act_here_says_why() {
    snap("refused_key", |w, h| {
        let mut s = state_with(alfred_feed(), w, h);
        type_keys(&mut s, "3y");
        s
    });
}
