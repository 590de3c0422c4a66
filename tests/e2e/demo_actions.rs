//! End to end in a real terminal against the simulated cluster (`ome-top demo`): the operator's
//! move and journal actions with the default keys, and their effect on the demo world —
//! an approved move is run by the demo's migration consumer to `Completed` (announced phase by
//! phase), a dismissed row disappears, an opted-out workload fails the approval pre-check,
//! and a cleared stalled entry leaves the journal (and with it Alfred's blocking banner).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use crate::support;

use std::time::{Duration, Instant};

use support::tmux::Tmux;

fn start_demo() -> Tmux {
    let t = Tmux::start(200, 50, "demo --seed 1");
    t.wait_for("Pools [");
    t
}

/// Switches to the view of `key` and filters it with `text`; returns once the selected row
/// shows `row_text` (the title shows the filter itself, and the demo's first pass may have no
/// matching row yet).
fn open_view(t: &Tmux, key: &str, title: &str, text: &str, row_text: &str) -> String {
    t.keys(key);
    t.wait_for(title);
    t.keys("/");
    t.type_text(text);
    t.keys("Enter");
    t.wait_for(&format!("] /{text} "));
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let pane = t.pane();
        let selected = pane.lines().find(|l| l.starts_with("│▶"));
        if selected.is_some_and(|l| l.contains(row_text)) {
            return pane;
        }
        assert!(
            Instant::now() < deadline,
            "no row shows {row_text}:\n{pane}"
        );
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// A Moves row's workload (`ns/name`), Instance (`engine/0`) and the policy word after WHY —
/// the row's identity on screen.
fn move_of(line: &str) -> Option<(String, String, String)> {
    let words: Vec<&str> = line
        .trim_start_matches(['│', '▶'])
        .split_whitespace()
        .collect();
    let at = words.iter().position(|w| w.contains('/'))?;
    // WHY is one word on these rows (an advisory reason); the policy follows it.
    let (workload, inst, policy) = (words.get(at)?, words.get(at + 1)?, words.get(at + 3)?);
    Some((workload.to_string(), inst.to_string(), policy.to_string()))
}

/// The selected Moves row (`▶` line).
fn selected_move(pane: &str) -> (String, String, String) {
    let line = pane
        .lines()
        .find(|l| l.starts_with("│▶"))
        .unwrap_or_else(|| panic!("no selected row:\n{pane}"));
    move_of(line).unwrap_or_else(|| panic!("not a move row: {line}"))
}

/// The text between `after` and the next occurrence of `until` on the first line holding it.
fn between<'a>(pane: &'a str, after: &str, until: &str) -> &'a str {
    let line = pane.lines().find(|l| l.contains(after)).unwrap();
    let rest = &line[line.find(after).unwrap() + after.len()..];
    &rest[..rest.find(until).unwrap_or(rest.len())]
}

#[test]
fn approve_runs_the_migration_to_completion() {
    let t = start_demo();
    // Withheld rows passed every eligibility gate; only Alfred's journal holds them back.
    open_view(&t, "3", "Moves [", "UnresolvedRequest", "UnresolvedRequest");
    t.keys("a");
    let dialog = t.wait_for("Pre-checks for");
    for text in [
        "InFlightCap",
        "y confirm",
        "add annotation ome.io/migration-request-v1-",
    ] {
        assert!(dialog.contains(text), "{text:?} missing:\n{dialog}");
    }
    assert!(!dialog.contains("not met"), "{dialog}");
    let workload = between(&dialog, "Approve move of ", " ").to_string();
    t.keys("y");
    let done = t.wait_for("approve done: migration request ");
    let uuid = between(&done, "migration request ", " ").to_string();
    assert!(done.contains(&format!("written on {workload}")), "{done}");
    // The demo's consumer takes it through every phase; the last notice says it ended.
    let ended = format!("migration {uuid} of {workload} ");
    let pane = t.wait_for("Completed (ended)");
    assert!(pane.contains(&ended), "{pane}");
    t.keys("C-c");
}

#[test]
fn dismiss_hides_a_row_and_opt_out_blocks_approval() {
    let t = start_demo();
    let pane = open_view(
        &t,
        "3",
        "Moves [",
        "NonExecutableObservedFragmentation",
        "│▶",
    );
    let (workload, inst, policy) = selected_move(&pane);
    let (workload, inst, policy) = (&workload, &inst, &policy);
    // Another workload listed, for the opt-out (the dismissed row may be its workload's last).
    let other = pane
        .lines()
        .filter(|l| l.starts_with("│ "))
        .filter_map(move_of)
        .map(|(w, _, _)| w)
        .find(|w| w != workload)
        .unwrap_or_else(|| panic!("one workload only:\n{pane}"));
    let same_row = |p: &str| {
        p.lines().any(|l| {
            [workload, inst, policy]
                .iter()
                .all(|w| l.contains(w.as_str()))
        })
    };
    t.keys("r");
    t.wait_for("Reject the move of");
    t.keys("d");
    t.wait_for("dismiss: reason");
    t.type_text("handled by the rack swap");
    t.keys("Enter");
    let pane = t.wait_for("dismissed: handled by the rack swap");
    assert!(
        !same_row(&pane),
        "{workload} {inst} {policy} still shown:\n{pane}"
    );

    // A fresh filter on the workload (Esc clears the current one).
    t.keys("Escape");
    t.wait_without("/NonExecutableObservedFragmentation ");
    let workload = &other;
    open_view(&t, "3", "Moves [", workload, "│▶");
    t.keys("r");
    t.wait_for("Reject the move of");
    t.keys("o");
    t.wait_for("alfred.ome.io/opt-out-reason");
    t.type_text("tenant freeze");
    t.keys("Enter");
    let dialog = t.wait_for(&format!("Opt {workload} out"));
    assert!(
        dialog.contains("alfred.ome.io/movable = \"false\""),
        "{dialog}"
    );
    t.keys("y");
    t.wait_for("opt out done");
    t.keys("a");
    t.wait_for("[✗ not met] the workload is not opted out");
    t.keys("n");
    t.wait_without("Pre-checks for");
    t.keys("C-c");
}

#[test]
fn clearing_the_stalled_entry_removes_it_from_the_journal() {
    let t = start_demo();
    open_view(&t, "4", "Journal [", "stalled", "AcknowledgementTimeout");
    assert!(t.pane().contains("⊘ UnresolvedRequest"), "{}", t.pane());
    t.keys("x");
    // The dialog's body (the footer also names the action).
    let dialog = t.wait_for("remove entry ");
    assert!(dialog.contains("[✓ met]"), "{dialog}");
    let uuid = between(&dialog, "remove entry ", " ").to_string();
    if dialog.contains("cannot confirm") {
        t.keys("o");
        t.wait_for("ARMED");
    }
    t.keys("y");
    t.wait_for("clear done");
    t.wait_without(&uuid[..8]);
    t.wait_without("⊘ UnresolvedRequest");
    t.keys("C-c");
}
