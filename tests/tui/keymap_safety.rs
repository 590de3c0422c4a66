//! The shipped keymaps (`keymaps/*.toml`, loaded through `config::load` as the binary loads
//! them) against what the reducer does with keys: every action is bound in a table the reducer
//! reads, and nothing reaches the cluster without a confirmation step. In `app::update::ops` and
//! `app::update::journal` the write actions only push a dialog (`Modal::Confirm`, or the reject
//! choice, whose opt-out pushes one after its reason); only `ops::confirm`, reached through the
//! `confirm` action with a confirm dialog on top, yields an `Effect::Send`. So the checks are:
//! a write's keys open a dialog and send nothing, and from that dialog only the keys the
//! `[confirm]` table binds to `confirm` send. The same holds for the writes a plan or an
//! undo starts: a pending pod's unblock plan (`approve-plan`, one approve dialog per move) and
//! an opted-out workload's opt-in (`undo-reject`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::tui_support;

use std::sync::Arc;

use crossterm::event::{KeyCode, KeyEvent};
use ome_top::action::Action;
use ome_top::app::dialogs::Modal;
use ome_top::app::keys::{Chord, KeyResolution, KeyResolver, Mode};
use ome_top::app::state::View;
use ome_top::app::views::moves::group_key;
use ome_top::app::{update, AppState, Effect, Event};
use ome_top::config::{Mode as Table, PALETTE_ONLY, SHIPPED_KEYMAPS};
use ome_top::protocol::Feed;
use ome_top::run::keymap::ConfigKeys;
use tui_support::*;

use crate::pending::{demo_pending_feed, row_saying};
use crate::undo::opted_out_world;

/// The actions that write to the cluster (docs/actions.md).
const WRITES: [Action; 5] = [
    Action::CordonNode,
    Action::UncordonNode,
    Action::ApproveMove,
    Action::RejectMove,
    Action::ClearJournalEntry,
];

/// Every table the reducer resolves keys in (`app::query::mode::current_mode`).
fn modes() -> Vec<Mode> {
    let mut modes = vec![Mode::Global];
    modes.extend(View::ALL.map(Mode::View));
    modes.extend([Mode::Detail, Mode::Help, Mode::Confirm]);
    modes
}

fn shipped() -> Vec<(&'static str, ConfigKeys)> {
    SHIPPED_KEYMAPS
        .iter()
        .map(|(name, _)| (*name, ConfigKeys::shipped(name).unwrap()))
        .collect()
}

/// Every key sequence any table of the keymap binds, once each.
fn sequences(keys: &ConfigKeys) -> Vec<Vec<KeyEvent>> {
    let mut out: Vec<Vec<KeyEvent>> = Vec::new();
    for table in Table::ALL {
        for b in keys.0.own_bindings(*table) {
            let seq: Vec<KeyEvent> = b.keys.iter().map(|k| k.to_event()).collect();
            if !out.contains(&seq) {
                out.push(seq);
            }
        }
    }
    out
}

fn chords(seq: &[KeyEvent]) -> Vec<Chord> {
    seq.iter().map(Chord::of).collect()
}

fn press_all(s: &mut AppState, seq: &[KeyEvent]) -> Vec<Effect> {
    seq.iter()
        .flat_map(|k| update(s, Event::Key(*k), now()))
        .collect()
}

fn sends(effects: &[Effect]) -> bool {
    effects.iter().any(|e| matches!(e, Effect::Send(_)))
}

#[test]
fn every_action_is_bound_where_the_reducer_reads_keys() {
    for (name, keys) in shipped() {
        for action in Action::ALL.iter().filter(|a| !PALETTE_ONLY.contains(a)) {
            let bound = modes()
                .iter()
                .any(|m| keys.bindings(*m).iter().any(|b| b.action == *action));
            assert!(bound, "keymap {name}: no key reaches {action}");
        }
    }
}

/// `[palette]` and `[filter]` bind `confirm` to Enter too, as the run / keep-filter key of a
/// text prompt: `app::input` reads those prompts' keys itself, and the palette never offers
/// `confirm` (`palette_entries`), so neither reaches `ops::confirm`.
#[test]
fn confirm_resolves_only_in_the_confirm_dialog() {
    for (name, keys) in shipped() {
        for table in Table::ALL {
            let binds_confirm = keys
                .0
                .own_bindings(*table)
                .iter()
                .any(|b| b.action == Action::Confirm);
            let prompt = matches!(table, Table::Confirm | Table::Palette | Table::Filter);
            assert!(!binds_confirm || prompt, "{name} [{table}] binds confirm");
        }
        let seqs = sequences(&keys);
        for mode in modes() {
            for seq in &seqs {
                let got = keys.resolve(mode, &chords(seq));
                if mode == Mode::Confirm {
                    let write = matches!(got, KeyResolution::Action(a) if WRITES.contains(&a));
                    assert!(!write, "{name} [confirm] {seq:?} starts a write");
                } else {
                    let confirm = KeyResolution::Action(Action::Confirm);
                    assert_ne!(got, confirm, "{name} {mode:?} {seq:?}");
                }
            }
        }
        let confirm_keys = keys.bindings(Mode::Confirm);
        assert!(
            confirm_keys.iter().any(|b| b.action == Action::Confirm),
            "{name}: the confirm dialog cannot be confirmed"
        );
    }
}

/// The object a write applies to: its view and how to select it (a node by name, else the
/// first row; the fixture's first journal entry is the stalled one).
fn case(write: Action) -> (View, Option<&'static str>) {
    match write {
        Action::CordonNode => (View::Nodes, Some("h100-04")),
        Action::UncordonNode => (View::Nodes, Some("h100-09")),
        Action::ApproveMove | Action::RejectMove => (View::Moves, None),
        _ => (View::Journal, None),
    }
}

/// A state on `view` with the object selected, its detail open when `detail`.
fn ready(feed: &Feed, keys: &ConfigKeys, view: View, node: Option<&str>, detail: bool) -> AppState {
    let ids = Box::new(CountingIds(0));
    let mut s = AppState::new(Box::new(ConfigKeys(keys.0.clone())), ids, now());
    s.set_themes(vec!["default".into()], "default");
    update(&mut s, Event::Resize(160, 48), now());
    update(&mut s, Event::Feed(Arc::new(feed.clone())), now());
    let switch = match view {
        View::Nodes => Action::ViewNodes,
        View::Moves => Action::ViewMoves,
        _ => Action::ViewJournal,
    };
    update(&mut s, Event::Action(switch), now());
    if let Some(name) = node {
        update(&mut s, Event::Action(Action::Filter), now());
        type_keys(&mut s, name);
        press(&mut s, KeyCode::Enter);
        assert_eq!(s.table(view).selected_key.as_deref(), Some(name));
    }
    if detail {
        update(&mut s, Event::Action(Action::Open), now());
        assert!(s.detail().is_some());
    }
    s
}

/// Presses `seq` in a fresh state holding the dialog `open` builds; whether it sent.
fn sends_from_dialog(open: &dyn Fn() -> AppState, seq: &[KeyEvent]) -> bool {
    let mut s = open();
    sends(&press_all(&mut s, seq))
}

/// From the dialog `open` builds, only the `[confirm]` table's confirm keys send, and they do
/// when the dialog's checks pass. Returns how many key sequences sent.
fn only_confirm_sends(
    name: &str,
    keys: &ConfigKeys,
    open: &dyn Fn() -> AppState,
    what: &str,
) -> usize {
    let can = match open().modals().last() {
        Some(Modal::Confirm(d)) => d.can_confirm(),
        other => panic!("{name} {what}: no confirm dialog but {other:?}"),
    };
    let mut sent = 0;
    for seq in sequences(keys) {
        let confirms =
            keys.resolve(Mode::Confirm, &chords(&seq)) == KeyResolution::Action(Action::Confirm);
        let sends = sends_from_dialog(open, &seq);
        assert_eq!(
            sends,
            confirms && can,
            "{name} {what}: {seq:?} in the dialog"
        );
        sent += usize::from(sends);
    }
    sent
}

/// The reject choice sends nothing itself; its opt-out (a reason, then a confirm dialog) sends
/// only on a confirm key.
fn reject_then_opt_out(name: &str, keys: &ConfigKeys, open: &dyn Fn() -> AppState, what: &str) {
    let top = open().modals().last().cloned();
    let choice = matches!(top, Some(Modal::RejectChoice { .. }));
    assert!(choice, "{name} {what}: {top:?}");
    for seq in sequences(keys) {
        let sent = sends_from_dialog(open, &seq);
        assert!(!sent, "{name} {what}: {seq:?} in the reject choice");
    }
    let opt_out = || {
        let mut s = open();
        type_keys(&mut s, "otenant freeze");
        assert!(!sends(&press(&mut s, KeyCode::Enter)));
        s
    };
    let sent = only_confirm_sends(name, keys, &opt_out, what);
    assert!(sent > 0, "{name} {what}: the opt-out never sent");
}

#[test]
fn a_write_key_only_opens_a_dialog_and_only_confirm_sends() {
    let feed = fleet_feed();
    for (name, keys) in shipped() {
        for (write, detail) in WRITES.into_iter().flat_map(|w| [(w, false), (w, true)]) {
            let (view, node) = case(write);
            let mode = if detail {
                Mode::Detail
            } else {
                Mode::View(view)
            };
            let mut bound = keys.bindings(mode);
            bound.retain(|b| b.action == write);
            assert!(!bound.is_empty(), "{name}: no key for {write} in {mode:?}");
            for b in bound {
                let seq: Vec<KeyEvent> = b
                    .keys
                    .iter()
                    .map(|c| KeyEvent::new(c.code, c.mods))
                    .collect();
                let what = format!("{write} by {seq:?} in {mode:?}");
                let open = || {
                    let mut s = ready(&feed, &keys, view, node, detail);
                    assert!(!sends(&press_all(&mut s, &seq)), "{name} {what} sent");
                    s
                };
                if write == Action::RejectMove {
                    reject_then_opt_out(name, &keys, &open, &what);
                    continue;
                }
                let sent = only_confirm_sends(name, &keys, &open, &what);
                // Cordoning has no pre-checks: its dialog must send on confirm.
                let no_prechecks = matches!(write, Action::CordonNode | Action::UncordonNode);
                assert!(sent > 0 || !no_prechecks, "{name} {what}: never sent");
            }
        }
    }
}

/// The key sequences `keys` binds to `action` in `mode`.
fn bound(keys: &ConfigKeys, mode: Mode, action: Action) -> Vec<Vec<KeyEvent>> {
    let mut bound = keys.bindings(mode);
    bound.retain(|b| b.action == action);
    bound
        .iter()
        .map(|b| {
            b.keys
                .iter()
                .map(|c| KeyEvent::new(c.code, c.mods))
                .collect()
        })
        .collect()
}

/// Runs `actions` on `s`, whichever keys the keymap binds to them.
fn act(s: &mut AppState, actions: &[Action]) {
    for a in actions {
        update(s, Event::Action(*a), now());
    }
}

/// `open` with `seq` pressed, sending nothing.
fn pressed(open: &dyn Fn() -> AppState, seq: &[KeyEvent], what: &str) -> AppState {
    let mut s = open();
    assert!(!sends(&press_all(&mut s, seq)), "{what} sent");
    s
}

#[test]
fn a_plan_and_an_opt_in_only_open_dialogs_and_only_confirm_sends() {
    let pending = demo_pending_feed();
    let (world, _) = opted_out_world();
    let opted_out = world.feed_default(2, world.now());
    for (name, keys) in shipped() {
        // The explanation of the first pending pod whose plan frees room by a move.
        let explained = || {
            let mut s = state_with_keymap(pending.clone(), 120, 40, name);
            act(&mut s, &[Action::Pending]);
            let (at, _) = row_saying(&s, "move free");
            act(&mut s, &vec![Action::Down; at]);
            act(&mut s, &[Action::Open]);
            s
        };
        let plan_keys = bound(&keys, Mode::Detail, Action::ApprovePlan);
        assert!(!plan_keys.is_empty(), "{name}: no key approves a plan");
        for seq in plan_keys {
            let what = format!("approve-plan by {seq:?}");
            let sent = only_confirm_sends(name, &keys, &|| pressed(&explained, &seq, &what), &what);
            assert!(sent > 0, "{name} {what}: never sent");
        }
        // The first row of the opted-out group, opened.
        let listed = || {
            let mut s = state_with_keymap(opted_out.clone(), 200, 60, name);
            act(&mut s, &[Action::ViewMoves, Action::Top]);
            let rows = &s.models().moves.rows;
            let header = rows.iter().position(|r| r.key == group_key("opted out"));
            act(
                &mut s,
                &vec![Action::Down; header.expect("an opted out group")],
            );
            act(&mut s, &[Action::Toggle, Action::Down]);
            s
        };
        let undo_keys = bound(&keys, Mode::View(View::Moves), Action::UndoReject);
        assert!(!undo_keys.is_empty(), "{name}: no key undoes a rejection");
        for seq in undo_keys {
            let what = format!("undo-reject by {seq:?}");
            let sent = only_confirm_sends(name, &keys, &|| pressed(&listed, &seq, &what), &what);
            assert!(sent > 0, "{name} {what}: never sent");
        }
    }
}
