//! The truth right after an action, and every row to act on carrying its action (issue 27,
//! items 3 and 4), on the demo world of `ome-top demo --seed 1`: a move approved here shows in
//! flight and its detail stays open across feeds; the selection follows its row; the Moves
//! order holds while the operator looks; a withheld move jumps to the journal entry holding
//! it; a lint's fix key runs the node op; a key that cannot act says why.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::tui_support;

use std::sync::Arc;

use chrono::Duration;
use crossterm::event::KeyCode;
use ome_top::app::detail::DetailKind;
use ome_top::app::dialogs::Modal;
use ome_top::app::state::View;
use ome_top::app::{update, AppState, Effect, Event};
use ome_top::protocol::{Feed, Op, OpOutcome, Permissions};
use ome_top::sim::demo::DemoWorld;
use tui_support::*;

/// The demo world ten sim minutes in, at `now()`.
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

/// Steps the world 10 sim seconds and hands its feed to the reducer.
fn next_feed(w: &mut DemoWorld, s: &mut AppState, generation: u64) {
    let t = w.now() + Duration::seconds(10);
    w.step(t);
    update(s, Event::Feed(Arc::new(w.feed_default(generation, t))), t);
}

fn keys_of(s: &AppState) -> Vec<String> {
    let t = s.table(View::Moves);
    let rows = &s.models().moves.rows;
    t.visible.iter().map(|i| rows[*i].key.clone()).collect()
}

fn selected_key(s: &AppState) -> Option<String> {
    s.table(View::Moves).selected_key.clone()
}

/// Moves the Moves selection to the first row whose cell `col` satisfies `want`.
fn select_row(s: &mut AppState, col: usize, want: impl Fn(&str) -> bool) -> String {
    let keys = keys_of(s);
    let rows = &s.models().moves.rows;
    let pos = keys
        .iter()
        .position(|k| {
            let row = rows.iter().find(|r| r.key == *k).unwrap();
            want(&row.cells[col].text)
        })
        .unwrap_or_else(|| panic!("no such row in {keys:?}"));
    type_keys(s, "g");
    for _ in 0..pos {
        type_keys(s, "j");
    }
    keys[pos].clone()
}

fn detail_text(s: &AppState) -> String {
    let d = s.detail().as_ref().expect("a detail is open");
    d.lines
        .iter()
        .map(|l| l.text.as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

fn notice_text(s: &AppState) -> String {
    s.notice().map(|n| n.text.clone()).unwrap_or_default()
}

#[test]
fn an_approved_move_shows_in_flight_and_its_detail_stays_open() {
    let mut w = world();
    let mut s = state_with(w.feed_default(1, now()), 120, 40);
    type_keys(&mut s, "3");
    // The first move to act on (the demo's first rows are node-health moves).
    let key = select_row(&mut s, 3, |c| !c.starts_with('▸'));
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "a");
    if let Some(Modal::Confirm(d)) = s.modals().last() {
        if d.overridable {
            type_keys(&mut s, "o");
        }
    }
    let effects = type_keys(&mut s, "y");
    let Some(Effect::Send(cmd)) = effects.first().cloned() else {
        panic!("no command sent: {effects:?}")
    };
    let Op::ApproveMove { uuid, .. } = cmd.op.clone() else {
        panic!("{cmd:?}")
    };
    let outcome = w.apply(&cmd.op, w.now());
    assert!(matches!(outcome, OpOutcome::Done { .. }), "{outcome:?}");
    update(
        &mut s,
        Event::OpDone {
            id: cmd.id,
            outcome,
        },
        w.now(),
    );
    let mut seen_in_flight = false;
    // 30 s and more of feeds: the detail never closes nor changes its move.
    for generation in 2..14 {
        next_feed(&mut w, &mut s, generation);
        let kind = s.detail().as_ref().map(|d| d.kind.clone());
        assert_eq!(
            kind,
            Some(DetailKind::Move(key.clone())),
            "feed {generation}"
        );
        let text = detail_text(&s);
        assert!(!text.contains("verdict: cannot run"), "{text}");
        assert!(!text.contains("≠ Alfred and ome-top disagree"), "{text}");
        assert!(text.contains(&uuid), "{text}");
        seen_in_flight |= text.contains(&format!("in flight: requested here as {uuid}"));
    }
    assert!(seen_in_flight);
}

#[test]
fn the_selection_follows_its_row_and_the_order_holds_across_feeds() {
    let mut w = world();
    let mut s = state_with(w.feed_default(1, now()), 120, 40);
    type_keys(&mut s, "3jj");
    let picked = selected_key(&s).unwrap();
    let before = keys_of(&s);
    let mut engine_moved = false;
    for generation in 2..20 {
        next_feed(&mut w, &mut s, generation);
        let now_keys = keys_of(&s);
        // Rows seen before keep their relative order; the selection stays on its row.
        let kept: Vec<&String> = now_keys.iter().filter(|k| before.contains(k)).collect();
        let was: Vec<&String> = before.iter().filter(|k| now_keys.contains(k)).collect();
        assert_eq!(kept, was, "feed {generation}");
        if now_keys.contains(&picked) {
            assert_eq!(
                selected_key(&s).as_ref(),
                Some(&picked),
                "feed {generation}"
            );
        }
        // The engine's own order of this feed, as a fresh look would list it.
        let mut fresh = state_with(w.feed_default(generation, w.now()), 120, 40);
        type_keys(&mut fresh, "3");
        engine_moved |= keys_of(&fresh) != now_keys;
    }
    // The feeds did reorder the engine's rows: the held order is what kept them in place.
    assert!(engine_moved);
    // Asking for a new order (entering Moves again) lists the engine's order, marks cleared.
    type_keys(&mut s, "3");
    let fresh = state_with(w.feed_default(99, w.now()), 120, 40);
    let mut fresh = fresh;
    type_keys(&mut fresh, "3");
    assert_eq!(keys_of(&s), keys_of(&fresh));
    let marked = s
        .models()
        .moves
        .rows
        .iter()
        .any(|r| r.cells[3].text.starts_with("• "));
    assert!(!marked);
}

#[test]
fn a_move_withheld_by_the_journal_names_the_entry_and_jumps_to_it() {
    let w = world();
    let mut s = state_with(w.feed_default(1, now()), 120, 40);
    type_keys(&mut s, "3");
    let analysis = s.shown().unwrap().analysis.clone();
    let holder = ome_top::app::views::moves::held::holder(&analysis)
        .unwrap()
        .uuid
        .clone();
    let short: String = holder.chars().take(8).collect();
    select_row(&mut s, 5, |c| c == format!("UnresolvedRequest → {short}"));
    type_keys(&mut s, "J");
    assert_eq!(s.view(), View::Journal);
    assert_eq!(
        s.detail().as_ref().map(|d| d.kind.clone()),
        Some(DetailKind::Journal(holder.clone()))
    );
    let text = detail_text(&s);
    assert!(
        text.contains("withheld now; clearing it (x) releases"),
        "{text}"
    );
    type_keys(&mut s, "x");
    assert!(matches!(s.modals().last(), Some(Modal::Confirm(_))));
}

#[test]
fn a_reservation_cordon_lint_uncordons_its_node_from_its_detail() {
    let feed = feed_of(snapshot("tests/fixtures/k8s/lints.json"), 1);
    let mut s = state_with(feed, 120, 40);
    type_keys(&mut s, "6");
    let rows = &s.models().lints.rows;
    let pos = s
        .table(View::Lints)
        .visible
        .iter()
        .position(|i| rows[*i].key.starts_with("reservation-cordon|Node c1"))
        .unwrap();
    for _ in 0..pos {
        type_keys(&mut s, "j");
    }
    press(&mut s, KeyCode::Enter);
    assert!(detail_text(&s).contains("u uncordons node c1"));
    type_keys(&mut s, "u");
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        panic!("no confirm dialog: {:?}", notice_text(&s))
    };
    assert_eq!(d.title, "Uncordon node c1");
    let effects = type_keys(&mut s, "y");
    let sent = effects.iter().any(|e| {
        matches!(e, Effect::Send(c) if matches!(&c.op, Op::Uncordon { node, .. } if &**node == "c1"))
    });
    assert!(sent, "{effects:?}");
}

fn read_only(mut feed: Feed) -> Feed {
    feed.permissions = Permissions::read_only("offline snapshot: actions disabled");
    feed
}

#[test]
fn a_key_that_cannot_act_here_says_why_and_the_footer_does_not_offer_it() {
    let mut s = state_with(world().feed_default(1, now()), 120, 40);
    type_keys(&mut s, "3");
    type_keys(&mut s, "d");
    assert_eq!(
        notice_text(&s),
        "d does nothing here: ? lists the keys of this screen"
    );
    type_keys(&mut s, "y");
    assert_eq!(
        notice_text(&s),
        "y (Node YAML) works in Nodes only: press 2 to go there"
    );
    type_keys(&mut s, "0");
    assert_eq!(
        notice_text(&s),
        "0 does nothing here: ? lists the keys of this screen"
    );
    press(&mut s, KeyCode::Enter);
    type_keys(&mut s, "c");
    assert_eq!(
        notice_text(&s),
        "Cordon node works in Nodes only: press 2 to go there"
    );

    let mut s = state_with(read_only(fleet_feed()), 120, 40);
    type_keys(&mut s, "2");
    let hints = ome_top::ui::footer::footer_hints(&s);
    assert!(!hints.iter().any(|(_, d)| d.contains("ordon")), "{hints:?}");
    assert!(hints.iter().any(|(_, d)| d == "Node YAML"), "{hints:?}");
    type_keys(&mut s, "c");
    assert!(notice_text(&s).contains("offline snapshot: actions disabled"));

    // Only a stalled journal entry offers the clear key.
    let mut s = state_with(fleet_feed(), 120, 40);
    type_keys(&mut s, "4");
    let clear = |s: &AppState| {
        ome_top::ui::footer::footer_hints(s)
            .iter()
            .any(|(_, d)| d.starts_with("Clear"))
    };
    assert!(clear(&s));
    type_keys(&mut s, "j");
    assert!(!clear(&s));
}

#[test]
fn a_move_only_pacing_holds_says_when_it_can_run() {
    use ome_top::app::views::moves::pacing::{pacing, pacing_words};
    use ome_top::engine::model::vocab::RejectReason;
    let feed = demo_feed();
    let snap = &feed.snapshot;
    let mut a = (*feed.analysis).clone();
    // A workload moved 10 minutes ago: its cooldown ends `per-workload cooldown` after that.
    let c = a
        .workloads
        .components
        .iter()
        .position(|c| !c.instances.is_empty())
        .unwrap();
    let isvc = a.workloads.components[c].isvc;
    let last = a.now - Duration::minutes(10);
    a.workloads.migrations[isvc].last_migration = Some(last);
    let a = &a;
    let p = pacing(snap, a, &RejectReason::Cooldown, Some((c, 0))).unwrap();
    let window = i64::from(a.config.per_workload_cooldown_minutes);
    assert_eq!(p.at, Some(last + Duration::minutes(window)));
    assert!(
        p.why.contains(&format!("cooldown of {window} min")),
        "{}",
        p.why
    );
    let words = pacing_words(&p, a.now, |t| t.to_rfc3339());
    let end = last + Duration::minutes(window);
    let want = if end > a.now {
        "can run at "
    } else {
        "can run now: "
    };
    assert!(words.starts_with(want), "{words}");
    // The hourly cap, full at one move, lets one through an hour after that move (the
    // arbiter's own count: `engine::planning::hourly_cap_ends`).
    let mut capped = a.clone();
    capped.config.max_migrations_per_hour = 1;
    let p = pacing(snap, &capped, &RejectReason::HourlyCap, Some((c, 0))).unwrap();
    assert_eq!(p.at, Some(last + Duration::hours(1)));
    assert!(p.why.contains("hourly cap"), "{}", p.why);
    // Below the cap no clock holds the move.
    let mut roomy = a.clone();
    roomy.config.max_migrations_per_hour = 100;
    let p = pacing(snap, &roomy, &RejectReason::HourlyCap, Some((c, 0))).unwrap();
    assert_eq!(p.at, None);
    // A gate that is not pacing has no such answer.
    assert_eq!(
        pacing(snap, a, &RejectReason::NotMovable, Some((c, 0))),
        None
    );
}
