//! The `:` palette's k9s commands through the reducer: view aliases and `:q`, unknown words,
//! Tab completion, `:ctx` (listing, refusals, the switch effect and its two answers) and `:ns`
//! (which rows the workload views keep, Pools and Nodes untouched, clearing).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::KeyCode;
use ome_top::action::Action;
use ome_top::app::contexts::ContextEntry;
use ome_top::app::dialogs::Modal;
use ome_top::app::palette::{palette_entries, PaletteEntry};
use ome_top::app::state::{AppState, NoticeLevel, View};
use ome_top::app::{update, Effect, Event};
use ome_top::protocol::{Permissions, SourceKind};
use tui_support::*;

/// Types `:LINE` and Enter; returns the effects of the Enter.
fn run(s: &mut AppState, line: &str) -> Vec<Effect> {
    type_keys(s, ":");
    type_keys(s, line);
    press(s, KeyCode::Enter)
}

fn notice(s: &AppState) -> (String, NoticeLevel) {
    let n = s.notices().last().expect("a notice");
    (n.text.clone(), n.level)
}

fn palette_input(s: &AppState) -> (String, usize) {
    match s.modals().last() {
        Some(Modal::Palette {
            input, selected, ..
        }) => (input.clone(), *selected),
        other => panic!("no palette open: {other:?}"),
    }
}

/// A live state on context `prod-gpu` whose kubeconfig also holds a read-only `staging`.
fn live_state() -> AppState {
    let mut s = state_with(fleet_feed(), 120, 40);
    s.set_contexts(vec![
        ContextEntry {
            name: "prod-gpu".into(),
            read_only: false,
        },
        ContextEntry {
            name: "staging".into(),
            read_only: true,
        },
    ]);
    s
}

#[test]
fn view_words_and_their_short_forms_switch_views() {
    let mut s = state_with(fleet_feed(), 120, 40);
    for (line, view) in [
        ("no", View::Nodes),
        ("mv", View::Moves),
        ("journal", View::Journal),
        ("pg", View::Gangs),
        ("li", View::Lints),
        ("pools", View::Pools),
        ("NODES", View::Nodes),
    ] {
        run(&mut s, line);
        assert_eq!(s.view(), view, ":{line}");
        assert!(s.modals().is_empty());
    }
    assert!(run(&mut s, "q").contains(&Effect::Quit));
    let mut s = state_with(fleet_feed(), 120, 40);
    assert!(run(&mut s, "quit").contains(&Effect::Quit));
    // A word and the action it runs are listed once, as the word.
    let all = palette_entries(&s, "");
    assert!(matches!(all[0], PaletteEntry::Word(w) if w.names[0] == "ctx"));
    assert!(!all.contains(&PaletteEntry::Action(Action::Quit)));
    assert!(!all.contains(&PaletteEntry::Action(Action::ViewNodes)));
    assert!(palette_entries(&s, "view").contains(&PaletteEntry::Action(Action::ViewNodes)));
    // An action name still runs from the palette.
    run(&mut s, "view-lints");
    assert_eq!(s.view(), View::Lints);
}

#[test]
fn an_unknown_command_says_so_and_names_it() {
    let mut s = state_with(fleet_feed(), 120, 40);
    run(&mut s, "frobnicate now");
    assert_eq!(
        notice(&s),
        ("unknown command: frobnicate now".into(), NoticeLevel::Error)
    );
    assert!(s.modals().is_empty());
    assert_eq!(s.view(), View::Pools);
}

#[test]
fn tab_completes_the_word_then_the_argument() {
    let mut s = live_state();
    type_keys(&mut s, ":ct");
    press(&mut s, KeyCode::Tab);
    assert_eq!(palette_input(&s).0, "ctx ");
    type_keys(&mut s, "st");
    press(&mut s, KeyCode::Tab);
    assert_eq!(palette_input(&s).0, "ctx staging");
    press(&mut s, KeyCode::Esc);
    type_keys(&mut s, ":mv");
    press(&mut s, KeyCode::Tab);
    assert_eq!(palette_input(&s).0, "moves");
}

#[test]
fn ctx_lists_the_contexts_with_the_current_and_read_only_ones_marked() {
    let mut s = live_state();
    let entries = palette_entries(&s, "ctx ");
    let labels: Vec<String> = entries.iter().map(PaletteEntry::label).collect();
    assert_eq!(labels.len(), 2, "{labels:?}");
    assert!(labels[0].starts_with("ctx prod-gpu") && labels[0].ends_with("current"));
    assert!(labels[1].starts_with("ctx staging") && labels[1].ends_with("read-only"));
    // Opening the list selects the current context: Enter there changes nothing.
    type_keys(&mut s, ":ctx ");
    assert_eq!(palette_input(&s).1, 0);
    let effects = press(&mut s, KeyCode::Enter);
    assert!(!effects
        .iter()
        .any(|e| matches!(e, Effect::SwitchContext(_))));
    assert_eq!(
        notice(&s),
        ("already on context prod-gpu".into(), NoticeLevel::Info)
    );
}

#[test]
fn ctx_name_asks_the_run_layer_and_the_new_context_replaces_the_old() {
    let mut s = live_state();
    let effects = run(&mut s, "ctx staging");
    assert!(effects.contains(&Effect::SwitchContext("staging".into())));
    assert_eq!(s.contexts().switching.as_ref().unwrap().to, "staging");
    let screen = buffer_text(&s);
    assert!(
        screen.contains("⟳ connecting to context staging for 0s — still showing prod-gpu"),
        "{screen}"
    );
    // A second switch waits for the first.
    let effects = run(&mut s, "ctx staging");
    assert!(!effects
        .iter()
        .any(|e| matches!(e, Effect::SwitchContext(_))));
    assert_eq!(notice(&s).0, "already switching to context staging");
    // Answered: the new context's first feed, read-only by config.toml.
    s.set_pool_scope(Some("A100-40G".into()));
    let mut feed = fleet_feed();
    feed.source = SourceKind::Live("staging".into());
    feed.permissions = Permissions::read_only("read-only for context staging (config.toml)");
    let contexts = s.contexts().list.clone();
    let effects = update(
        &mut s,
        Event::ContextSwitched {
            feed: Arc::new(feed),
            dismissed: vec![(
                "k".into(),
                ome_top::app::state::Dismissed {
                    fingerprint: "fp".into(),
                    by: Some("alice".into()),
                    reason: "peak".into(),
                    at: now(),
                },
            )],
            contexts,
            notices: Vec::new(),
        },
        now(),
    );
    assert_eq!(effects, vec![Effect::Redraw]);
    assert!(s.contexts().switching.is_none());
    assert_eq!(s.pool_scope(), None, "pools of the old cluster");
    assert_eq!(
        s.dismissed().get("k").map(|d| d.fingerprint.as_str()),
        Some("fp")
    );
    let (text, level) = notice(&s);
    assert_eq!(level, NoticeLevel::Info);
    assert!(
        text.starts_with("switched to context staging (READ-ONLY"),
        "{text}"
    );
    let header = buffer_text(&s);
    assert!(header.contains("ctx staging"), "{header}");
    assert!(
        header.contains("READ-ONLY (read-only for context staging (config.toml))"),
        "{header}"
    );
    assert!(!header.contains("connecting to context"), "{header}");
    // And back: the list marks the new current context.
    let entries = palette_entries(&s, "ctx ");
    assert!(
        matches!(&entries[1], PaletteEntry::Context { name, current: true, .. } if name == "staging")
    );
    assert!(run(&mut s, "ctx prod-gpu").contains(&Effect::SwitchContext("prod-gpu".into())));
}

#[test]
fn a_failed_switch_says_why_and_stays() {
    let mut s = live_state();
    run(&mut s, "ctx staging");
    let effects = update(
        &mut s,
        Event::ContextFailed {
            context: "staging".into(),
            error: "cluster unreachable: connection refused".into(),
        },
        now(),
    );
    assert_eq!(effects, vec![Effect::Redraw]);
    assert!(s.contexts().switching.is_none());
    assert_eq!(
        notice(&s),
        (
            "cannot switch to context staging: cluster unreachable: connection refused \
             — still on prod-gpu"
                .into(),
            NoticeLevel::Error
        )
    );
    assert!(buffer_text(&s).contains("ctx prod-gpu"));
}

#[test]
fn ctx_refuses_what_it_cannot_switch() {
    let mut s = live_state();
    run(&mut s, "ctx nope");
    assert_eq!(notice(&s).0, "no context nope in the kubeconfig");
    // A reply still awaited would come back from the replaced session.
    type_keys(&mut s, "2");
    type_keys(&mut s, "c");
    type_keys(&mut s, "y");
    assert_eq!(s.pending().len(), 1);
    let effects = run(&mut s, "ctx staging");
    assert!(!effects
        .iter()
        .any(|e| matches!(e, Effect::SwitchContext(_))));
    assert!(
        notice(&s).0.contains("awaiting a reply"),
        "{:?}",
        notice(&s)
    );
    // The demo and a snapshot have no contexts.
    for (source, word) in [
        (SourceKind::Demo(1), "the demo"),
        (SourceKind::Snapshot("fleet.json".into()), "a snapshot"),
    ] {
        let mut feed = fleet_feed();
        feed.source = source;
        let mut s = state_with(feed, 120, 40);
        let entries = palette_entries(&s, "ctx");
        assert!(
            matches!(&entries[..], [PaletteEntry::Unavailable(why)] if why.ends_with(word)),
            "{entries:?}"
        );
        let effects = run(&mut s, "ctx staging");
        assert!(!effects
            .iter()
            .any(|e| matches!(e, Effect::SwitchContext(_))));
        assert_eq!(
            notice(&s),
            (
                format!("switching context needs a live cluster: this is {word}"),
                NoticeLevel::Error
            )
        );
    }
}

#[test]
fn a_confirm_waits_for_a_switch_under_way() {
    let mut s = live_state();
    run(&mut s, "ctx staging");
    type_keys(&mut s, "2c");
    assert!(matches!(s.modals().last(), Some(Modal::Confirm(_))));
    let effects = type_keys(&mut s, "y");
    assert!(!effects.iter().any(|e| matches!(e, Effect::Send(_))));
    assert_eq!(
        notice(&s).0,
        "switching to context staging: confirm once it is done"
    );
}

/// The `ns/name` workload texts of the visible rows of `view` (column `col`).
fn visible(s: &AppState, view: View, col: usize) -> Vec<String> {
    let model = s.models().table(view).unwrap();
    s.table(view)
        .visible
        .iter()
        .map(|i| model.rows[*i].cells[col].text.clone())
        .collect()
}

#[test]
fn ns_scopes_the_workload_views_and_leaves_pools_and_nodes_whole() {
    let mut s = state_with(fleet_feed(), 160, 48);
    let seen: Vec<String> = palette_entries(&s, "ns ")
        .iter()
        .filter_map(|e| match e {
            PaletteEntry::Namespace { name, .. } => name.clone(),
            _ => None,
        })
        .collect();
    assert!(seen.contains(&"prod".to_string()) && seen.contains(&"research".to_string()));
    let unscoped = |s: &mut AppState, key: &str, view: View, col: usize| {
        type_keys(s, key);
        visible(s, view, col)
    };
    // Sorted by WORKLOAD, the Moves view lists every move (no advisory groups), as it does
    // under a namespace scope.
    let workload = 3;
    let moves = unscoped(&mut s, "3W", View::Moves, workload);
    assert_eq!(s.models().moves.columns[workload].title, "WORKLOAD");
    let lints = unscoped(&mut s, "6", View::Lints, 1);
    let nodes = unscoped(&mut s, "2", View::Nodes, 0).len();
    let pools = unscoped(&mut s, "1", View::Pools, 0).len();
    assert!(moves.iter().any(|w| w.starts_with("prod/")));
    assert!(moves.iter().any(|w| !w.starts_with("prod/")), "{moves:?}");
    run(&mut s, "ns prod");
    assert_eq!(s.namespace_scope(), Some("prod"));
    assert!(notice(&s).0.starts_with("namespace prod"));
    let want: Vec<&String> = moves.iter().filter(|w| w.starts_with("prod/")).collect();
    type_keys(&mut s, "3");
    let shown = visible(&s, View::Moves, workload);
    assert_eq!(shown.iter().collect::<Vec<_>>(), want);
    assert!(buffer_text(&s).contains(" ns:prod"));
    type_keys(&mut s, "6");
    let shown = visible(&s, View::Lints, 1);
    let want: Vec<&String> = lints.iter().filter(|o| o.contains(" prod/")).collect();
    assert_eq!(shown.iter().collect::<Vec<_>>(), want, "of {lints:?}");
    type_keys(&mut s, "4");
    assert!(visible(&s, View::Journal, 1)
        .iter()
        .all(|w| w.starts_with("prod/")));
    assert_eq!(unscoped(&mut s, "2", View::Nodes, 0).len(), nodes);
    assert_eq!(unscoped(&mut s, "1", View::Pools, 0).len(), pools);
    // A namespace without workloads empties the workload views; `all` and `-` clear.
    run(&mut s, "ns kube-system");
    type_keys(&mut s, "3");
    assert!(visible(&s, View::Moves, workload).is_empty());
    run(&mut s, "ns all");
    assert_eq!(s.namespace_scope(), None);
    assert_eq!(visible(&s, View::Moves, workload), moves);
    run(&mut s, "ns prod");
    run(&mut s, "ns -");
    assert_eq!(s.namespace_scope(), None);
    run(&mut s, "ns Not_A_Name");
    assert_eq!(notice(&s).0, "not a namespace name: Not_A_Name");
    assert_eq!(s.namespace_scope(), None);
}

#[test]
fn ns_scopes_the_gangs_tree() {
    let feed = feed_of(snapshot("tests/fixtures/k8s/gangs.json"), 1);
    let mut s = state_with(feed, 160, 48);
    let gangs = |s: &AppState| -> Vec<String> {
        let mut out = Vec::new();
        for key in &s.models().gangs.roots {
            for domain in &key.children {
                out.extend(domain.children.iter().map(|g| g.id.clone()));
            }
        }
        out
    };
    type_keys(&mut s, "5");
    let all = gangs(&s);
    let ns = all
        .first()
        .and_then(|g| g.split('/').next())
        .expect("the fleet has gangs")
        .to_string();
    run(&mut s, &format!("ns {ns}"));
    let scoped = gangs(&s);
    let want: Vec<String> = all
        .iter()
        .filter(|g| g.starts_with(&format!("{ns}/")))
        .cloned()
        .collect();
    assert_eq!(scoped, want);
    assert!(!scoped.is_empty());
    // A namespace the data lacks is refused: the tree stays scoped as it was.
    run(&mut s, "ns nobody-here");
    assert_eq!(gangs(&s), want);
    run(&mut s, "ns all");
    assert_eq!(gangs(&s), all);
}

#[test]
fn ns_lists_all_first_and_refuses_a_name_the_data_lacks() {
    let mut s = state_with(fleet_feed(), 120, 40);
    let entries = palette_entries(&s, "ns ");
    assert!(matches!(
        &entries[0],
        PaletteEntry::Namespace {
            name: None,
            current: true,
            ..
        }
    ));
    // A name the data lacks is not offered, and typed out it is refused, the scope kept.
    assert!(palette_entries(&s, "ns team-z").is_empty());
    run(&mut s, "ns team-z");
    assert_eq!(s.namespace_scope(), None);
    assert!(
        notice(&s).0.starts_with("no namespace team-z"),
        "{:?}",
        notice(&s)
    );
    run(&mut s, "ns research");
    assert_eq!(s.namespace_scope(), Some("research"));
    // The list then opens on the scope in force.
    type_keys(&mut s, ":ns ");
    let (_, selected) = palette_input(&s);
    let entries = palette_entries(&s, "ns ");
    assert!(
        matches!(&entries[selected], PaletteEntry::Namespace { current: true, name: Some(n), .. } if n == "research")
    );
}

/// Every cell of the rendered screen, row by row.
fn buffer_text(s: &AppState) -> String {
    let t = render(s);
    let buf = t.backend().buffer();
    (0..buf.area.height)
        .map(|y| {
            (0..buf.area.width)
                .map(|x| buf[(x, y)].symbol().to_string())
                .collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The keymap's `[palette]` table applies: the vim keymap's `<C-n>`/`<C-p>` choose like
/// ↓/↑ and `<C-c>` closes.
#[test]
fn the_keymaps_palette_keys_choose_and_close() {
    let mut s = state_with_keymap(fleet_feed(), 120, 40, "vim");
    type_keys(&mut s, ":");
    let start = palette_input(&s).1;
    let ctrl = |c| {
        Event::Key(crossterm::event::KeyEvent::new(
            KeyCode::Char(c),
            crossterm::event::KeyModifiers::CONTROL,
        ))
    };
    update(&mut s, ctrl('n'), now());
    assert_eq!(palette_input(&s), (String::new(), start + 1));
    update(&mut s, ctrl('p'), now());
    assert_eq!(palette_input(&s), (String::new(), start));
    update(&mut s, ctrl('c'), now());
    assert!(s.modals().is_empty(), "{:?}", s.modals());
}
