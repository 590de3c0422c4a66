//! Carries out what input and the palette asked for (`app::msg::Msg`), in order: their effects
//! as they are, their actions through `apply_action`, and each change of the state they
//! decoded from a key or a click (an overlay opened, edited or closed, the filter typed, a
//! sort, a theme, a context or a namespace chosen, a scroll or a selection).
//!
//! Owns: `run_msgs`. Plain data.

use crate::app::effect::Effect;
use crate::app::filter::Filter;
use crate::app::msg::Msg;
use crate::app::state::{AppState, NoticeLevel};
use crate::app::update::{apply_action, contexts, namespace, nav, reason, rows, sort, yaml};

/// Carries out `msgs` in order; returns the side work they ask for.
pub fn run_msgs(state: &mut AppState, msgs: Vec<Msg>) -> Vec<Effect> {
    let mut effects = Vec::new();
    for msg in msgs {
        effects.extend(apply_msg(state, msg));
    }
    effects
}

/// Carries out one message.
fn apply_msg(state: &mut AppState, msg: Msg) -> Vec<Effect> {
    match msg {
        Msg::Effect(e) => return vec![e],
        Msg::Action(a) => return apply_action(state, a),
        Msg::Reason { purpose, reason } => return reason::finish_reason(state, purpose, reason),
        Msg::YamlPane(a) => {
            let msgs = yaml::pane_action(state, a);
            return run_msgs(state, msgs);
        }
        Msg::Context(name) => return contexts::request_switch(state, &name),
        Msg::Namespace(name) => return namespace::set_scope(state, name.as_deref()),
        Msg::PendingKeys(keys) => state.overlays.pending_keys = keys,
        Msg::Notice(text, level) => state.notices.push(text, level, state.session.now),
        Msg::PushModal(m) => state.overlays.modals.push(m),
        Msg::PopModal => {
            state.overlays.modals.pop();
        }
        Msg::SetModal(m) => {
            if let Some(top) = state.overlays.modals.last_mut() {
                *top = m;
            }
        }
        Msg::Filter(text) => {
            state.views.tables[state.views.view.index()].filter = Filter::new(&text);
            rows::refresh_view(state, state.views.view);
        }
        Msg::SortByColumn(col) => sort::sort_by_column(state, col),
        Msg::Theme(name) => set_theme(state, &name),
        Msg::ScrollMap(delta) => state.views.pool_map.scroll(delta),
        Msg::Step(delta) => nav::step(state, delta),
        Msg::ShowView(v) => {
            state.views.pool_scope = None;
            nav::switch_view(state, v);
        }
        Msg::SelectGang(pos) => {
            let height = nav::viewport(state);
            state.views.gang_nav.select(pos, height);
        }
        Msg::SelectRow(pos) => select_row(state, pos),
    }
    Vec::new()
}

/// `:theme NAME`: that theme (the first when none is named so), named on the notice line.
fn set_theme(state: &mut AppState, name: &str) {
    state.settings.theme = state
        .settings
        .themes
        .iter()
        .position(|x| x == name)
        .unwrap_or(0);
    let text = format!("theme: {}", state.theme_name());
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
}

/// Selects the current view's visible row at `pos` (a click on it).
fn select_row(state: &mut AppState, pos: usize) {
    let view = state.views.view;
    let height = nav::viewport(state);
    let Some(model) = state.views.models.table(view) else {
        return;
    };
    let t = &mut state.views.tables[view.index()];
    if pos < t.visible.len() {
        t.select(model, pos, height);
    }
}
