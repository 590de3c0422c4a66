//! The header's notices read as separate items: a count with its noun in the singular when
//! it is one, and " · " between notices (an offline feed's "data as of" included).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support;
use tui_support::*;

fn second_line(feed: ome_top::protocol::Feed) -> String {
    let s = state_with(feed, 120, 40);
    let t = render(&s);
    let buf = t.backend().buffer();
    (0..buf.area.width)
        .map(|x| buf[(x, 1)].symbol().to_string())
        .collect::<String>()
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
