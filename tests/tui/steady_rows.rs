//! Rows that stay under the cursor: in every list view the selection follows its row's
//! identity across feeds and sorts (and stays on screen); a key that acts on a row never acts
//! on a row that slid under the cursor after the operator's row left the list; the columns a
//! table shows depend on the terminal's size and the view, never on the rows of one feed.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::app::layout::screen;
use ome_top::app::state::{AppState, View};
use ome_top::app::views::moves::MoveEntry;
use ome_top::app::{update, Event};
use ome_top::sim::demo::DemoWorld;

use crate::tui_support;
use tui_support::*;

/// One line of the rendered screen.
fn line(s: &AppState, y: u16) -> String {
    let term = render(s);
    let buf = term.backend().buffer();
    (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect()
}

/// The table's header line as drawn.
fn header(s: &AppState) -> String {
    line(s, screen(s).table.y + 1)
}

/// The column titles of a header line.
fn titles(header: &str) -> Vec<String> {
    header
        .trim_matches(|c: char| c == '│' || c.is_whitespace())
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Feeds of the demo world (`nodes` nodes), one per 30 s of its time over its first hour.
fn demo_feeds(nodes: usize) -> Vec<ome_top::protocol::Feed> {
    let start = now() - chrono::Duration::minutes(70);
    let mut w = DemoWorld::new(1, nodes, start);
    let mut t = start;
    let mut out = Vec::new();
    let mut generation = 0;
    while t < now() {
        t += chrono::Duration::seconds(10);
        w.step(t);
        if (t - start).num_seconds() % 30 == 0 && t > start + chrono::Duration::minutes(10) {
            generation += 1;
            out.push(w.feed_default(generation, t));
        }
    }
    out
}

#[test]
fn the_columns_shown_depend_on_the_terminal_size_and_view_not_on_the_feed() {
    let feeds: Vec<_> = [40, 120].into_iter().flat_map(demo_feeds).collect();
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        for (key, view) in [
            ("1", View::Pools),
            ("2", View::Nodes),
            ("3", View::Moves),
            ("4", View::Journal),
            ("6", View::Lints),
        ] {
            let mut s = state_with(feeds[0].clone(), w, h);
            type_keys(&mut s, key);
            let first = titles(&header(&s));
            for feed in &feeds[1..] {
                update(&mut s, Event::Feed(Arc::new(feed.clone())), now());
                let shown = titles(&header(&s));
                assert_eq!(
                    shown, first,
                    "{view:?} at {w}×{h}: the columns changed with the feed"
                );
            }
        }
    }
}

/// The Moves view with the selection on the last move to act on (right above the first
/// advisory group's row), and that move's index in the analysis.
fn on_the_last_move_to_act_on() -> (AppState, usize) {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "3");
    let index = &s.models().move_index;
    let group = index
        .entries
        .iter()
        .position(|e| matches!(e, MoveEntry::Group { .. }))
        .expect("the fleet has advisory groups");
    assert!(group > 0, "the fleet has moves to act on");
    let Some(MoveEntry::Move(pair)) = index.entries.get(group - 1) else {
        panic!("a move above the group")
    };
    let computed = pair.computed.expect("a move ome-top computed");
    type_keys(&mut s, "G");
    while s.table(View::Moves).selected > group - 1 {
        type_keys(&mut s, "k");
    }
    (s, computed)
}

/// The next feed, `change`d.
fn next_feed(change: impl FnOnce(&mut ome_top::engine::analysis::Analysis)) -> Event {
    let mut next = fleet_feed();
    next.generation = 2;
    let mut analysis = (*next.analysis).clone();
    change(&mut analysis);
    next.analysis = Arc::new(analysis);
    Event::Feed(Arc::new(next))
}

/// Enter right after a feed that moved the cursor off the operator's row: nothing opens, a
/// notice says so; the next Enter acts on the row now under the cursor.
fn enter_acts_only_once_seen(s: &mut AppState, chosen: &str) {
    let under = s.table(View::Moves).selected_key.clone().unwrap();
    assert_ne!(under, chosen, "the chosen move left the list");
    let open_before = s.models().move_index.open.clone();
    press(s, KeyCode::Enter);
    assert_eq!(
        s.models().move_index.open,
        open_before,
        "Enter opened a group the operator never chose"
    );
    assert!(
        s.detail().is_none(),
        "Enter opened a row the operator never chose"
    );
    let notice = s.notice().map(|n| n.text.clone()).unwrap_or_default();
    let went = notice.contains("left the list") || notice.contains("went into its closed");
    assert!(went && notice.contains("again"), "{notice}");
    press(s, KeyCode::Enter);
    let opened = s.models().move_index.open != open_before || s.detail().is_some();
    assert!(opened, "the second Enter acts on the row under the cursor");
}

#[test]
fn enter_never_opens_a_group_that_slid_under_the_cursor() {
    // The chosen move becomes advice: it goes into its closed group and the group's row is
    // now under the cursor.
    let (mut s, computed) = on_the_last_move_to_act_on();
    let chosen = s.table(View::Moves).selected_key.clone().unwrap();
    let reason = ome_top::engine::model::vocab::AdvisoryReason::NoSurgeHeadroom;
    let feed = next_feed(|a| {
        a.moves[computed].outcome = ome_top::engine::model::vocab::Outcome::Advisory;
        a.moves[computed].advisory_reason = Some(reason);
        a.moves[computed].plan = None;
    });
    update(&mut s, feed, now());
    let under = s.table(View::Moves).selected_key.clone().unwrap();
    assert!(under.starts_with("advisory|"), "{under}");
    enter_acts_only_once_seen(&mut s, &chosen);
}

#[test]
fn enter_never_opens_the_row_that_took_a_gone_rows_place() {
    let (mut s, computed) = on_the_last_move_to_act_on();
    let chosen = s.table(View::Moves).selected_key.clone().unwrap();
    let feed = next_feed(|a| {
        a.moves.remove(computed);
    });
    update(&mut s, feed, now());
    enter_acts_only_once_seen(&mut s, &chosen);
}

#[test]
fn a_row_that_moves_keeps_the_selection_and_enter_opens_it() {
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "4");
    type_keys(&mut s, "j");
    let chosen = s.table(View::Journal).selected_key.clone().unwrap();
    // Sorting puts the row elsewhere; the cursor goes with it and it stays on screen.
    type_keys(&mut s, "S");
    assert_eq!(
        s.table(View::Journal).selected_key.as_deref(),
        Some(chosen.as_str())
    );
    press(&mut s, KeyCode::Enter);
    let d = s.detail().as_ref().expect("a detail");
    assert_eq!(
        d.kind,
        ome_top::app::detail::DetailKind::Journal(chosen.clone())
    );
}

#[test]
fn after_a_sort_the_selected_row_is_the_same_row_and_on_screen() {
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        for key in ["1", "2", "3", "4", "6"] {
            let mut s = state_with(demo_feed(), w, h);
            type_keys(&mut s, key);
            let view = s.view();
            let rows = s.table(view).visible.len();
            if rows < 3 {
                continue;
            }
            // A row past the first page where there is one (a move, not a group's row).
            for _ in 0..(rows - 1).min(30) {
                type_keys(&mut s, "j");
            }
            while s
                .table(view)
                .selected_key
                .as_deref()
                .is_some_and(|k| k.starts_with("advisory|"))
            {
                type_keys(&mut s, "k");
            }
            let chosen = s.table(view).selected_key.clone();
            for sort in ["s", "S", "s", "s", "S"] {
                type_keys(&mut s, sort);
                let t = s.table(view);
                assert_eq!(t.selected_key, chosen, "{view:?} {w}×{h} after {sort}");
                let at = t.visible.iter().position(|i| {
                    Some(&s.models().table(view).unwrap().rows[*i].key) == chosen.as_ref()
                });
                assert_eq!(at, Some(t.selected), "{view:?} {w}×{h} after {sort}");
                let height = screen(&s).table_rows();
                assert!(
                    t.offset <= t.selected && t.selected < t.offset + height,
                    "{view:?} {w}×{h} after {sort}: row {} not in {}..{}",
                    t.selected,
                    t.offset,
                    t.offset + height
                );
            }
        }
    }
}
