//! The reducer: `update(&mut AppState, Event, now) -> Vec<Effect>`. Pure: no I/O, no clock,
//! no randomness (request UUIDs come from the injected `IdSource`).
//!
//! Every `&mut AppState` handler lives in this folder: navigation and feeds (`nav`), sorting
//! and the column layout (`sort`), a row that slid under the cursor (`slid`), leaving
//! (`quit`), the writes (`ops`, `approve`, `journal`, `track`), contexts, namespace, copy,
//! YAML, the map's layout and its selection (`map`), the jump to a node's timeline
//! (`timeline`), a finished reason prompt (`reason`). Input and the palette only read the
//! state and answer with `Msg`s (`app::msg`) that `msgs` carries out, so nothing outside this
//! folder writes the state or calls back into `apply_action`.
//!
//! Owns: `update`, `apply_action`.

pub mod approve;
pub mod contexts;
pub mod copy;
pub mod feed;
pub mod fleet;
pub mod groups;
pub mod held;
pub mod journal;
pub mod map;
pub mod msgs;
pub mod namespace;
pub mod nav;
pub mod ops;
pub mod order;
pub mod pending;
pub mod quit;
pub mod reason;
pub mod rows;
pub mod slid;
pub mod sort;
pub mod timeline;
pub mod track;
pub mod undo;
pub mod what_if;
pub mod yaml;

use crate::app::query::refuse;

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::event::Event;
use crate::app::state::{AppState, NoticeLevel, View, NOTICE_SECONDS};
use crate::engine::model::Time;

/// Applies one event at time `now`; returns the side work to do.
pub fn update(state: &mut AppState, event: Event, now: Time) -> Vec<Effect> {
    let before = state.session.now;
    // The composition root hands in the time the data runs on (the demo's sim clock in the
    // demo), so ages and request times agree with the analysis they describe.
    state.session.now = now;
    let effects = match event {
        Event::Key(k) => {
            let msgs = crate::app::input::key(state, k);
            msgs::run_msgs(state, msgs)
        }
        Event::Mouse(m) => {
            let msgs = crate::app::input::mouse(state, m);
            msgs::run_msgs(state, msgs)
        }
        Event::Resize(w, h) => {
            state.session.size = (w, h);
            rows::refresh_view(state, state.views.view);
            // The node detail lays its pod and event rows out for the pane's width.
            rows::rebuild_detail(state);
            vec![Effect::Redraw]
        }
        Event::Feed(feed) => {
            feed::apply_feed(state, feed);
            vec![Effect::Redraw]
        }
        Event::OpDone { id, outcome } => ops::op_done(state, id, outcome),
        Event::Fetched { fetch, result } => yaml::fetched(state, fetch, result),
        Event::Tick(t) => tick(state, before, t),
        Event::Action(a) => apply_action(state, a),
        Event::ContextSwitched {
            feed,
            dismissed,
            contexts,
            notices,
        } => contexts::switched(state, feed, dismissed, contexts, notices),
        Event::ContextFailed { context, error } => contexts::switch_failed(state, &context, &error),
        Event::Fleet(e) => fleet::on_event(state, e),
        Event::HistoryFailed(text) => {
            state.notices.push(text, NoticeLevel::Error, now);
            vec![Effect::Redraw]
        }
        Event::NodesHealth(health) => {
            state.history.nodes_health = Some(health);
            // The recorder may have written the open node's rows: read them again.
            state.history.node_history = None;
            rows::rebuild_models(state);
            vec![Effect::Redraw]
        }
        Event::NodeActions { node, actions } => {
            if state.views.detail.as_ref().map(|d| &d.kind) == Some(&DetailKind::Node(node)) {
                state.history.node_actions = Some(actions);
                rows::rebuild_detail(state);
                vec![Effect::Redraw]
            } else {
                Vec::new()
            }
        }
        Event::NodeHistory { node, rows } => {
            if state.views.detail.as_ref().map(|d| &d.kind) == Some(&DetailKind::Node(node)) {
                state.history.node_history = Some(rows);
                rows::rebuild_detail(state);
                vec![Effect::Redraw]
            } else {
                Vec::new()
            }
        }
    };
    map::sync_map(state);
    // A new feed, a freeze or its end: the Pending list follows the shown feed.
    pending::after_feed(state);
    effects
}

/// Redraw when a notice expires or the shown ages may have changed (every 5 s).
fn tick(state: &mut AppState, before: Time, t: Time) -> Vec<Effect> {
    let t = t.max(state.session.now);
    state.session.now = t;
    let expired = state.notices.last().is_some_and(|n| {
        (before - n.at).num_seconds() < NOTICE_SECONDS && (t - n.at).num_seconds() >= NOTICE_SECONDS
    });
    if expired || before.timestamp() / 5 != t.timestamp() / 5 {
        fleet::tick(state);
        vec![Effect::Redraw]
    } else {
        Vec::new()
    }
}

/// `next-theme`: the next theme, named on the notice line.
fn next_theme(state: &mut AppState) {
    state.settings.theme = (state.settings.theme + 1) % state.settings.themes.len().max(1);
    let text = format!("theme: {}", state.theme_name());
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
}

/// Applies an action to the view (no modal on top, or one that passes actions through).
pub fn apply_action(state: &mut AppState, action: Action) -> Vec<Effect> {
    if let Some(why) = refuse::misplaced(state, action) {
        state
            .notices
            .push(why, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    }
    if slid::refuse_slid(state, action) {
        return vec![Effect::Redraw];
    }
    // Any other key takes the row under the cursor as seen.
    state.views.tables[state.views.view.index()].slid = None;
    if let Some(effects) = pending::on_action(state, action) {
        return effects;
    }
    if action == Action::ViewFleet {
        return fleet::show_fleet(state);
    }
    if let Some(v) = View::shown_by(action) {
        if v != View::Nodes {
            state.views.pool_scope = None;
        }
        nav::switch_view(state, v);
        return vec![Effect::Redraw];
    }
    if let Some(effects) = quit::quit_action(state, action) {
        return effects;
    }
    if scroll_dialog(state, action) {
        return vec![Effect::Redraw];
    }
    let page = nav::viewport(state) as isize;
    let (view, detail_open) = (state.views.view, state.views.detail.is_some());
    match action {
        Action::Help => state.overlays.modals.push(Modal::Help { scroll: 0 }),
        Action::CommandPalette => state.overlays.modals.push(Modal::Palette {
            input: String::new(),
            selected: 0,
            chosen: false,
        }),
        Action::Filter if view != View::Gangs && !detail_open => {
            let before = state.table(view).filter.text.clone();
            let cursor = before.len();
            let modals = &mut state.overlays.modals;
            modals.push(Modal::FilterInput { before, cursor });
        }
        Action::Back => {
            if !nav::back(state) && !fleet::back_to_fleet(state) {
                return Vec::new();
            }
        }
        Action::Down => nav::step(state, 1),
        Action::Up => nav::step(state, -1),
        Action::PageDown => nav::step(state, page),
        Action::PageUp => nav::step(state, -page),
        Action::Top => nav::jump(state, false),
        Action::Bottom => nav::jump(state, true),
        Action::Open if view == View::Fleet => return fleet::open_row(state),
        Action::Open => nav::open(state),
        Action::Toggle if view == View::Gangs => nav::open(state),
        Action::Toggle if view == View::Moves && !detail_open => nav::toggle_moves_group(state),
        Action::PoolMap => nav::toggle_map(state),
        Action::Left | Action::Right => {
            let delta = if action == Action::Left { -1 } else { 1 };
            if !map::select_sideways(state, delta) {
                return Vec::new();
            }
        }
        Action::NextView | Action::PrevView => nav::cycle_view(state, action == Action::NextView),
        Action::SortNext => sort::sort_next(state),
        Action::SortReverse => sort::sort_reverse(state),
        Action::Freeze => feed::toggle_freeze(state),
        Action::ToggleWide => sort::toggle_wide(state),
        Action::CopyName => return copy::copy_name(state),
        Action::NextTheme => next_theme(state),
        Action::ShowYaml => return yaml::show_yaml(state),
        Action::NodeTimeline => {
            if !timeline::jump_to_timeline(state) {
                return Vec::new();
            }
        }
        Action::CordonNode if crate::app::query::map::map_shown_full(state) => {
            map::cordon_selected(state)
        }
        Action::CordonNode if view == View::Nodes => ops::start_cordon(state, true),
        Action::UncordonNode if view == View::Nodes => ops::start_cordon(state, false),
        Action::CordonNode | Action::UncordonNode => {
            if let Some((a, node)) = refuse::lint_fix(state) {
                ops::start_cordon_at(state, node, a == Action::CordonNode);
            }
        }
        Action::ApproveMove if view == View::Moves => approve::start_approve(state),
        Action::RejectMove if view == View::Moves => ops::start_reject(state),
        Action::UndoReject if view == View::Moves => return undo::undo_reject(state),
        Action::ClearJournalEntry if view == View::Journal => journal::start_clear(state),
        Action::JumpToJournal if view == View::Moves => held::jump_to_journal(state),
        Action::Confirm => return pending::confirm(state),
        Action::Cancel => pending::cancel(state),
        _ => return Vec::new(),
    }
    vec![Effect::Redraw]
}

/// ↑/↓ (and the page keys) scroll a confirm dialog taller than the screen; `false` when no
/// dialog is on top or the action is no scroll.
fn scroll_dialog(state: &mut AppState, action: Action) -> bool {
    let size = state.session.size;
    let bindings = state
        .settings
        .keys
        .bindings(crate::app::keys::Mode::Confirm);
    let Some(Modal::Confirm(d)) = state.overlays.modals.last_mut() else {
        return false;
    };
    let page = i32::from(size.1 / 2).max(1);
    let delta = match action {
        Action::Down => 1,
        Action::Up => -1,
        Action::PageDown => page,
        Action::PageUp => -page,
        _ => return false,
    };
    d.scroll_by(delta, size, &bindings);
    true
}
