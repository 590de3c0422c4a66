//! 80×24 tells rows apart and cuts no word a decision needs: Moves keeps the Instance, so two
//! rows of one workload read apart; a confirm dialog taller than the screen scrolls to its
//! last row with ↓; a notice longer than its line is drawn whole; a lint message cut in the
//! table ends in `…` and reads whole in the lint's detail.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crossterm::event::KeyCode;

use crate::tui_support::*;
use ome_top::app::dialogs::Modal;
use ome_top::app::{update, AppState, Effect, Event};
use ome_top::protocol::OpOutcome;

fn screen_lines(s: &AppState) -> Vec<String> {
    let term = render(s);
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol())
                .collect::<String>()
        })
        .collect()
}

/// The table rows between the header holding `first` and the bottom border.
fn table_rows(lines: &[String], first: &str) -> Vec<String> {
    let header = lines.iter().position(|l| l.contains(first)).unwrap();
    lines[header + 1..]
        .iter()
        .take_while(|l| !l.starts_with('└'))
        .filter(|l| l.trim_matches(|c| c == '│' || c == ' ').len() > 1)
        .map(|l| l.replace('▶', " "))
        .collect()
}

#[test]
fn at_80x24_moves_keep_the_instance_so_two_rows_of_one_workload_read_apart() {
    let mut s = state_with(demo_feed(), 80, 24);
    type_keys(&mut s, "3");
    // The last advisory group opened: several Instances of one workload, one row each.
    type_keys(&mut s, "G");
    press(&mut s, KeyCode::Enter);
    let lines = screen_lines(&s);
    let header = lines.iter().find(|l| l.contains("WORKLOAD")).unwrap();
    assert!(header.contains("INST"), "{}", lines.join("\n"));
    let rows = table_rows(&lines, "WORKLOAD");
    let workload = |r: &str| {
        r.split_whitespace()
            .find(|w| w.contains('/') && !w.starts_with("engine") && !w.contains("advisory"))
            .map(str::to_string)
    };
    let mut pairs = 0;
    for (i, a) in rows.iter().enumerate() {
        for b in &rows[i + 1..] {
            if workload(a).is_some() && workload(a) == workload(b) {
                pairs += 1;
                assert_ne!(
                    a,
                    b,
                    "two rows of one workload read the same:\n{}",
                    lines.join("\n")
                );
            }
        }
    }
    assert!(
        pairs > 0,
        "no workload with two rows:\n{}",
        lines.join("\n")
    );
    insta::assert_snapshot!("moves_group_open_80x24", render(&s).backend());
}

/// The demo's Moves view at 80×24 with the approve dialog of the first move that has one.
fn approve_dialog() -> AppState {
    let mut s = state_with(demo_feed(), 80, 24);
    type_keys(&mut s, "3");
    for _ in 0..6 {
        type_keys(&mut s, "a");
        if matches!(s.modals().last(), Some(Modal::Confirm(_))) {
            return s;
        }
        type_keys(&mut s, "j");
    }
    panic!("no move to approve");
}

#[test]
fn a_dialog_taller_than_80x24_scrolls_to_its_last_row() {
    let mut s = approve_dialog();
    let Some(Modal::Confirm(d)) = s.modals().last() else {
        unreachable!()
    };
    let last = d.lines.last().unwrap().0.clone();
    // Its last two words: wrapped, they share a row.
    let words: Vec<&str> = last.split_whitespace().collect();
    let tail = words[words.len() - 2..].join(" ");
    let before = screen_lines(&s).join("\n");
    assert!(before.contains("↓ shows the rest"), "{before}");
    assert!(!before.contains(&tail), "{before}");
    insta::assert_snapshot!("approve_dialog_top_80x24", render(&s).backend());
    for _ in 0..40 {
        press(&mut s, KeyCode::Down);
    }
    let after = screen_lines(&s).join("\n");
    assert!(
        after.contains(&tail),
        "the last line shows: {tail}\n{after}"
    );
    assert!(after.contains("↑ goes back"), "{after}");
    insta::assert_snapshot!("approve_dialog_end_80x24", render(&s).backend());
    // At the end ↓ does nothing more: one ↑ moves back at once.
    press(&mut s, KeyCode::Up);
    assert!(screen_lines(&s).join("\n").contains("↓ shows the rest"));
    // The table under the dialog did not move.
    assert!(matches!(s.modals().last(), Some(Modal::Confirm(_))));
}

#[test]
fn a_notice_longer_than_its_line_is_drawn_whole() {
    let mut s = state_with(demo_feed(), 80, 24);
    type_keys(&mut s, "2c");
    let sent = type_keys(&mut s, "y");
    let id = sent
        .iter()
        .find_map(|e| match e {
            Effect::Send(c) => Some(c.id),
            _ => None,
        })
        .unwrap();
    let message = "changed since you looked: node/gpu-a100-000 is at resourceVersion 4242 now \
                   (you saw 4100)"
        .to_string();
    let outcome = OpOutcome::Conflict { message };
    update(&mut s, Event::OpDone { id, outcome }, now());
    let lines = screen_lines(&s);
    let shown: String = lines
        .iter()
        .map(|l| l.trim_end())
        .collect::<Vec<_>>()
        .join(" ");
    assert!(shown.contains("review and retry"), "{}", lines.join("\n"));
    assert!(shown.contains("(you saw 4100)"), "{}", lines.join("\n"));
    insta::assert_snapshot!("long_notice_80x24", render(&s).backend());
}

#[test]
fn a_lint_message_cut_in_the_table_ends_in_an_ellipsis_and_reads_whole_in_its_detail() {
    let mut s = state_with(demo_feed(), 80, 24);
    type_keys(&mut s, "6");
    let feed = s.shown().unwrap().clone();
    let first = &feed.analysis.lints[s.selected_source(ome_top::app::state::View::Lints).unwrap()];
    let lines = screen_lines(&s);
    let row = lines.iter().find(|l| l.contains('▶')).unwrap();
    assert!(row.trim_end_matches('│').ends_with('…'), "{row}");
    press(&mut s, KeyCode::Enter);
    let detail = screen_lines(&s)
        .iter()
        .map(|l| l.trim_matches(|c| c == '│' || c == ' ').to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let words: Vec<&str> = first.message.split_whitespace().collect();
    let all = words.join(" ");
    assert!(
        detail.contains(&all[..all.len().min(60)]) && detail.contains(words[words.len() - 1]),
        "{detail}"
    );
}
