//! The reducer's side of a kubeconfig context switch (the list and the switch in progress are
//! `app::contexts`): refusing what cannot be switched (demo, snapshot, an unknown name,
//! replies still awaited), asking the run layer to connect (`Effect::SwitchContext`), then
//! taking in the new context's first feed or the failure. The old session keeps running until
//! the new one has synced, so a failed switch leaves the screen where it was.
//!
//! Owns: `request_switch`, `switched`, `switch_failed`. Plain data; must not
//! import `ratatui`, `tokio` or `kube`.

use std::sync::Arc;

use crate::app::contexts::{ContextEntry, Switching};
use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::query::contexts::unavailable;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::protocol::{Feed, SourceKind};

fn refuse(state: &mut AppState, text: String, level: NoticeLevel) -> Vec<Effect> {
    state.notices.push(text, level, state.session.now);
    vec![Effect::Redraw]
}

/// `:ctx NAME`: asks the run layer to connect to `name`, or says why it will not.
pub fn request_switch(state: &mut AppState, name: &str) -> Vec<Effect> {
    if let Some(why) = unavailable(state) {
        return refuse(state, why.to_string(), NoticeLevel::Error);
    }
    if let Some(effects) = crate::app::update::fleet::show_member(state, name) {
        return effects;
    }
    if state
        .clusters
        .fleet
        .as_ref()
        .is_some_and(|f| f.member(name).is_none())
    {
        let text = format!("{name} is not in the fleet: open it with `ome-top --context {name}`");
        return refuse(state, text, NoticeLevel::Error);
    }
    if state.current_context() == Some(name) {
        return refuse(
            state,
            format!("already on context {name}"),
            NoticeLevel::Info,
        );
    }
    if let Some(s) = &state.clusters.contexts.switching {
        let text = format!("already switching to context {}", s.to);
        return refuse(state, text, NoticeLevel::Error);
    }
    if !state.clusters.contexts.list.iter().any(|c| c.name == name) {
        let text = format!("no context {name} in the kubeconfig");
        return refuse(state, text, NoticeLevel::Error);
    }
    if !state.ops.pending.is_empty() {
        let n = state.ops.pending.len();
        let text = format!("{n} operation(s) still awaiting a reply: switch context when done");
        return refuse(state, text, NoticeLevel::Error);
    }
    state.clusters.contexts.switching = Some(Switching {
        to: name.to_string(),
        since: state.session.now,
    });
    vec![Effect::SwitchContext(name.to_string()), Effect::Redraw]
}

/// The run layer connected: `feed` is the new context's first synced feed, `dismissed` the
/// dismissals its history store holds, `contexts` the kubeconfig's list re-read, `notices`
/// what opening its history store reported. Everything tied to the old cluster is dropped.
pub fn switched(
    state: &mut AppState,
    feed: Arc<Feed>,
    dismissed: Vec<(String, crate::app::state::Dismissed)>,
    contexts: Vec<ContextEntry>,
    notices: Vec<String>,
) -> Vec<Effect> {
    state.clusters.contexts.switching = None;
    if !contexts.is_empty() {
        state.clusters.contexts.list = contexts;
    }
    // Dialogs and tracking name objects of the old cluster; none may act on the new one.
    state
        .overlays
        .modals
        .retain(|m| matches!(m, Modal::Help { .. } | Modal::Palette { .. }));
    state.feed.frozen = None;
    state.views.detail = None;
    state.views.detail_scroll = 0;
    state.history.node_history = None;
    state.history.node_actions = None;
    state.views.pool_scope = None;
    state.history.score_history.clear();
    state.ops.requested.clear();
    state.ops.request_phases.clear();
    state.ops.pending.clear();
    state.ops.dismissed = dismissed.into_iter().collect();
    state.feed.latest = None;
    let access = match &feed.permissions.read_only {
        Some(why) => format!("READ-ONLY: {why}"),
        None => "read-write".to_string(),
    };
    let name = feed
        .source
        .cluster_name()
        .unwrap_or_else(|| "?".to_string());
    let feed_source = feed.source.clone();
    crate::app::update::feed::apply_feed(state, feed);
    for n in notices {
        state.notices.push(n, NoticeLevel::Error, state.session.now);
    }
    let text = if state.clusters.fleet.is_some() {
        // Enter on a fleet row: that cluster's own views; the fleet stays watched.
        if state.views.view == View::Fleet {
            nav::switch_view(state, View::Pools);
        }
        let what = match feed_source {
            SourceKind::Demo(_) => "simulated cluster",
            SourceKind::Live(_) | SourceKind::Snapshot(_) => "context",
        };
        format!("showing {what} {name} ({access}) · esc: back to the fleet")
    } else {
        format!("switched to context {name} ({access})")
    };
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
    vec![Effect::Redraw]
}

/// The switch to `context` failed with `error`; the session stays where it was.
pub fn switch_failed(state: &mut AppState, context: &str, error: &str) -> Vec<Effect> {
    state.clusters.contexts.switching = None;
    let still = state
        .current_context()
        .unwrap_or("the previous context")
        .to_string();
    refuse(
        state,
        format!("cannot switch to context {context}: {error} — still on {still}"),
        NoticeLevel::Error,
    )
}
