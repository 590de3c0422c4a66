//! The reducer's side of the fleet: taking in what the run layer says about each
//! watched context, showing the Fleet view (or asking the run layer to open the fleet of the
//! configured contexts, `:fleet` in a single-context run), Enter on a row (that cluster's own
//! views: its session is open, so the switch is instant and the others stay watched) and Esc
//! back to the fleet. The fleet view itself writes nothing: every write stays in one cluster's
//! views, under its own feed's permissions.
//!
//! Owns: `on_event`, `show_fleet`, `open_row`, `back_to_fleet`, `tick`,
//! `show_member`, `shown_cluster`. Plain
//! data; must not import `ratatui`, `tokio` or `kube`.

use crate::app::contexts::Switching;
use crate::app::effect::Effect;
use crate::app::fleet::{Fleet, FleetEvent, MemberState};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::app::update::rows;
use crate::fmt;

/// The run layer's news about the fleet.
pub fn on_event(state: &mut AppState, event: FleetEvent) -> Vec<Effect> {
    match event {
        FleetEvent::Started { contexts } => {
            let mut fleet = Fleet::new(&contexts, state.session.now);
            fleet.shown = true;
            state.clusters.fleet = Some(fleet);
            nav::switch_view(state, View::Fleet);
            vec![Effect::Redraw]
        }
        FleetEvent::Watching { contexts } => {
            state.clusters.fleet = Some(Fleet::new(&contexts, state.session.now));
            Vec::new()
        }
        FleetEvent::Unavailable(why) => {
            state
                .notices
                .push(why, NoticeLevel::Error, state.session.now);
            vec![Effect::Redraw]
        }
        FleetEvent::Member { context, state: st } => {
            let Some(fleet) = state.clusters.fleet.as_mut() else {
                return Vec::new();
            };
            let Some(m) = fleet.members.iter_mut().find(|m| m.context == context) else {
                return Vec::new();
            };
            m.state = st;
            fleet.generation += 1;
            if state.views.view != View::Fleet {
                return Vec::new();
            }
            rows::switch_rows(state, View::Fleet);
            vec![Effect::Redraw]
        }
    }
}

/// `view-fleet` (`7`, `:fleet`): the Fleet view, or the fleet opened first.
pub fn show_fleet(state: &mut AppState) -> Vec<Effect> {
    if let Some(fleet) = state.clusters.fleet.as_mut() {
        fleet.shown = true;
        state.views.pool_scope = None;
        nav::switch_view(state, View::Fleet);
        return vec![Effect::Redraw];
    }
    if let Some(why) = crate::app::query::fleet::unavailable(state) {
        state
            .notices
            .push(why, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    }
    let text = "opening the fleet: every configured context, in parallel".to_string();
    state
        .notices
        .push(text, NoticeLevel::Info, state.session.now);
    vec![Effect::OpenFleet, Effect::Redraw]
}

/// Enter on a Fleet row: that cluster's own views. Its session is open, so the run layer
/// swaps the shown channels at once; a member not connected says why and when it is tried
/// again.
pub fn open_row(state: &mut AppState) -> Vec<Effect> {
    let Some(source) = state.selected_source(View::Fleet) else {
        return Vec::new();
    };
    let Some(context) = state
        .views
        .models
        .fleet
        .context_of(source)
        .map(str::to_string)
    else {
        return Vec::new();
    };
    let member = state
        .clusters
        .fleet
        .as_ref()
        .and_then(|f| f.member(&context));
    let refused = match member.map(|m| &m.state) {
        Some(MemberState::Answered(_)) => None,
        Some(MemberState::Connecting { .. }) | None => Some(format!(
            "{context} is still connecting: its views open once it answers"
        )),
        Some(MemberState::Failed { error, retry_at }) => Some(format!(
            "{context} cannot be read: {error} — tried again {}",
            fmt::relative(state.session.now, *retry_at)
        )),
    };
    if let Some(text) = refused {
        state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    }
    if shown_cluster(state).as_deref() == Some(context.as_str()) {
        nav::switch_view(state, View::Pools);
        return vec![Effect::Redraw];
    }
    if let Some(why) = busy(state) {
        state
            .notices
            .push(why, NoticeLevel::Error, state.session.now);
        return vec![Effect::Redraw];
    }
    state.clusters.contexts.switching = Some(Switching {
        to: context.clone(),
        since: state.session.now,
    });
    vec![Effect::ShowContext(context), Effect::Redraw]
}

/// Why the shown cluster cannot change now: a switch under way, or replies still awaited
/// (they come back on the shown session's channel).
fn busy(state: &AppState) -> Option<String> {
    if let Some(s) = &state.clusters.contexts.switching {
        return Some(format!("already switching to context {}", s.to));
    }
    let n = state.ops.pending.len();
    (n > 0)
        .then(|| format!("{n} operation(s) still awaiting a reply: open another cluster when done"))
}

/// Esc with nothing else to close in one cluster's views: back to the fleet, when the
/// operator came from it. Returns whether it went.
pub fn back_to_fleet(state: &mut AppState) -> bool {
    let came_from_fleet = state.clusters.fleet.as_ref().is_some_and(|f| f.shown);
    if !came_from_fleet || state.views.view == View::Fleet {
        return false;
    }
    state.views.pool_scope = None;
    nav::switch_view(state, View::Fleet);
    true
}

/// Time passed: the Fleet view's freshness and retry times are worded again.
pub fn tick(state: &mut AppState) {
    if state.views.view == View::Fleet && state.clusters.fleet.is_some() {
        state.views.models.fleet.built = 0;
        rows::switch_rows(state, View::Fleet);
    }
}

/// `:ctx NAME` while a fleet is watched: a member is shown at once (`None` for another
/// context, which the ordinary switch handles).
pub fn show_member(state: &mut AppState, name: &str) -> Option<Vec<Effect>> {
    let fleet = state.clusters.fleet.as_ref()?;
    fleet.member(name)?;
    if shown_cluster(state).as_deref() == Some(name) {
        return None;
    }
    if let Some(why) = busy(state) {
        state
            .notices
            .push(why, NoticeLevel::Error, state.session.now);
        return Some(vec![Effect::Redraw]);
    }
    state.clusters.contexts.switching = Some(Switching {
        to: name.to_string(),
        since: state.session.now,
    });
    Some(vec![Effect::ShowContext(name.to_string()), Effect::Redraw])
}

/// The fleet member shown in one cluster's views: its context, or a simulated cluster's name.
pub fn shown_cluster(state: &AppState) -> Option<String> {
    state.feed.latest.as_ref()?.source.cluster_name()
}
