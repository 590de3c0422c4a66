//! The header's notices read as separate items: a count with its noun in the singular when
//! it is one, and " · " between notices (an offline feed's "data as of" included); on a
//! narrow terminal the read-only reason moves to the second line instead of being cut.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support;
use tui_support::*;

fn line_at(feed: ome_top::protocol::Feed, width: u16, y: u16) -> String {
    let s = state_with(feed, width, 40);
    let t = render(&s);
    let buf = t.backend().buffer();
    (0..buf.area.width)
        .map(|x| buf[(x, y)].symbol().to_string())
        .collect::<String>()
}

fn second_line(feed: ome_top::protocol::Feed) -> String {
    line_at(feed, 120, 1)
}

#[test]
fn at_80_columns_the_read_only_reason_moves_to_the_second_line_whole() {
    let why = "context prod-gpu is marked read-only in config.toml";
    let mut feed = fleet_feed();
    feed.permissions = ome_top::protocol::Permissions::read_only(why);
    let wide = line_at(feed.clone(), 200, 0);
    assert!(wide.contains(&format!("READ-ONLY ({why})")), "{wide}");
    let first = line_at(feed.clone(), 80, 0);
    let second = line_at(feed, 80, 1);
    assert!(
        first.contains("ctx prod-gpu") && first.contains("READ-ONLY"),
        "{first}"
    );
    assert!(second.starts_with(&format!("read-only: {why}")), "{second}");
}

#[test]
fn notices_are_separated_and_counted_in_words() {
    let mut one = fleet_feed();
    one.sources.clear();
    one.warnings = vec!["skipped 1 object of unknown kind Deployment".into()];
    let line = second_line(one);
    assert!(line.contains("⚠ 1 warning · data as of"), "{line}");
    let mut two = fleet_feed();
    two.sources.clear();
    two.warnings = vec!["a".into(), "b".into()];
    assert!(second_line(two).contains("⚠ 2 warnings · data as of"));
}

#[test]
fn sources_that_do_not_fit_collapse_to_a_count_and_name_only_what_needs_a_look() {
    use ome_top::protocol::{Presence, SourceState};
    let mut feed = fleet_feed();
    let listed = feed.sources[0].clone();
    for name in [
        "inferenceservices",
        "inferencereplicas",
        "podgroups",
        "config",
    ] {
        feed.sources.push(SourceState {
            name,
            ..listed.clone()
        });
    }
    feed.sources.push(SourceState {
        name: "basemodels",
        presence: Presence::CrdAbsent,
        last_change: None,
        objects: 0,
        listing: None,
    });
    let wide = line_at(feed.clone(), 200, 1);
    assert!(
        wide.contains("inferencereplicas") && wide.contains("basemodels CRD absent"),
        "{wide}"
    );
    let narrow = line_at(feed.clone(), 80, 1);
    let listed = feed
        .sources
        .iter()
        .filter(|s| s.presence == Presence::Present)
        .count();
    assert!(
        narrow.starts_with(&format!("{listed} sources listed · ")),
        "{narrow}"
    );
    assert!(narrow.contains("basemodels CRD absent"), "{narrow}");
    assert!(!narrow.contains("inferencereplicas"), "{narrow}");
}

#[test]
fn a_list_in_progress_shows_how_many_objects_arrived() {
    let mut feed = fleet_feed();
    feed.api = ome_top::protocol::ApiStatus::Connecting;
    for s in &mut feed.sources {
        if s.name == "pods" {
            s.presence = ome_top::protocol::Presence::Pending;
            s.listing = Some(23_500);
        }
        if s.name == "nodes" {
            s.listing = Some(999);
        }
    }
    let line = second_line(feed.clone());
    assert!(line.contains("pods 23,500 listed…"), "{line}");
    assert!(line.contains("nodes 999 listed…"), "{line}");
    // A list that delivered nothing yet reads like a pending source.
    for s in &mut feed.sources {
        s.listing = s.listing.map(|_| 0);
    }
    let line = second_line(feed);
    assert!(line.contains("pods …"), "{line}");
}
