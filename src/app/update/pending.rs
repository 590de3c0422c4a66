//! The Pending list under Pools (`pending`, `:pending`): shown and left, its rows rebuilt on a
//! new feed with the selection kept by key, Enter opening the explanation of THAT pod; and
//! the walk through an unblock plan's moves (`approve-plan`): each step opens the usual
//! approve dialog (`approve::start_approve_pair`), confirming sends it and opens the next,
//! cancelling stops the walk. What a what-if computes is `what_if`'s.
//!
//! Owns: `on_action`, `open_list`, `after_feed`, `confirm`, `cancel`, `approve_plan`.

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::dialogs::Modal;
use crate::app::effect::Effect;
use crate::app::layout::screen;
use crate::app::model::moves::MovePair;
use crate::app::model::pending::{PlanStep, PlanWalk};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::table::Tone;
use crate::app::update::{approve, nav, ops, rows};
use crate::app::views::moves::alfred_rows;
use crate::app::views::pending::explain::explain_entry;
use crate::app::views::pending::pending_rows;
use crate::engine::analysis::Analysis;
use crate::engine::unblock::Unblock;

/// Whether the Pending list is what the body shows (no detail over it).
fn list_shown(state: &AppState) -> bool {
    state.views.pending_nav.open && state.views.view == View::Pools && state.views.detail.is_none()
}

/// The actions the Pending list and the plan walk take before the views do; `None`: not
/// theirs (the reducer goes on).
pub fn on_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    if action == Action::Pending {
        open_list(state);
        return Some(vec![Effect::Redraw]);
    }
    if action == Action::ApprovePlan {
        approve_plan(state);
        return Some(vec![Effect::Redraw]);
    }
    if action == Action::WhatIf {
        crate::app::update::what_if::start_what_if(state);
        return Some(vec![Effect::Redraw]);
    }
    let leaves =
        View::shown_by(action).is_some() || matches!(action, Action::NextView | Action::PrevView);
    if leaves {
        state.views.pending_nav.open = false;
        return None;
    }
    if !list_shown(state) || !state.overlays.modals.is_empty() {
        return None;
    }
    list_action(state, action)
}

/// An action on the shown Pending list.
fn list_action(state: &mut AppState, action: Action) -> Option<Vec<Effect>> {
    let page = list_height(state) as isize;
    match action {
        Action::Down => select(state, 1),
        Action::Up => select(state, -1),
        Action::PageDown => select(state, page),
        Action::PageUp => select(state, -page),
        Action::Top => select(state, isize::MIN / 2),
        Action::Bottom => select(state, isize::MAX / 2),
        Action::Open => open_selected(state),
        Action::Back | Action::BackOrQuit => {
            state.views.pending_nav.open = false;
            rows::refresh_view(state, View::Pools);
        }
        _ => return None,
    }
    Some(vec![Effect::Redraw])
}

/// Rows the list shows at once: the body but its borders and header.
pub fn list_height(state: &AppState) -> usize {
    usize::from(screen(state).body.height.saturating_sub(3)).max(1)
}

/// Moves the list's selection by `delta` rows.
fn select(state: &mut AppState, delta: isize) {
    let height = list_height(state);
    let p = &mut state.views.pending_nav;
    let pos = p.table.selected.saturating_add_signed(delta);
    p.table.select(&p.rows, pos, height);
}

/// Enter: the explanation of the selected pending pod.
fn open_selected(state: &mut AppState) {
    let p = &state.views.pending_nav;
    let key = p
        .table
        .selected_row()
        .and_then(|r| p.rows.rows.get(r))
        .map(|r| r.key.clone());
    if let Some(key) = key {
        nav::open_detail(state, DetailKind::Pending(key));
    }
}

/// `pending`: the Pools view with the Pending list shown, its rows up to date.
pub fn open_list(state: &mut AppState) {
    if state.views.view != View::Pools || state.views.detail.is_some() {
        state.views.pool_scope = None;
        nav::switch_view(state, View::Pools);
    }
    state.views.pending_nav.open = true;
    state.views.pending_nav.built = None;
    after_feed(state);
}

/// Rebuilds the list's rows when the shown feed is not the one they were built from (a new
/// feed, a freeze or its end; only while the list is open), the selection kept by key.
pub fn after_feed(state: &mut AppState) {
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let p = &state.views.pending_nav;
    if !p.open || p.built == Some(feed.generation) {
        return;
    }
    let height = list_height(state);
    let p = &mut state.views.pending_nav;
    p.rows = pending_rows(&feed);
    p.built = Some(feed.generation);
    p.table.refresh(&p.rows, |_| true);
    p.table.scroll_into_view(height);
}

/// Why a pending pod's explanation has no plan to walk.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
enum NoSteps {
    /// No data is shown yet.
    #[error("no data yet")]
    NoData,
    /// The pod was placed or deleted since the pane opened.
    #[error("{0} is no longer pending")]
    NotPending(String),
    /// Some node takes it now.
    #[error("{0} fits now: nothing to move")]
    FitsNow(String),
    /// The engine found no plan, and says why.
    #[error("no plan for {pod}: {why}")]
    NoPlan {
        /// The pod.
        pod: String,
        /// Why, in the operator's words.
        why: String,
    },
}

/// The plan's steps of the pending pod `key` in the shown feed.
fn plan_steps(state: &AppState, key: &str) -> Result<Vec<PlanStep>, NoSteps> {
    let feed = state.shown().ok_or(NoSteps::NoData)?;
    let entry = explain_entry(feed, key).ok_or_else(|| NoSteps::NotPending(key.into()))?;
    let plan = match entry.unblock {
        Unblock::Plan(p) => p,
        Unblock::FitsNow => return Err(NoSteps::FitsNow(key.into())),
        Unblock::NoPlan(why) => {
            return Err(NoSteps::NoPlan {
                pod: key.into(),
                why: why.words(),
            })
        }
    };
    let a = &feed.analysis;
    Ok((plan.moves.iter())
        .filter_map(|m| a.moves.get(m.row))
        .map(|r| PlanStep {
            workload: r.workload.to_string(),
            component: r.component.to_string(),
            instance: r.instance,
        })
        .collect())
}

/// `approve-plan` in a pending pod's explanation: walks its plan's moves, the first dialog
/// opened now.
pub fn approve_plan(state: &mut AppState) {
    let Some(DetailKind::Pending(key)) = state.views.detail.as_ref().map(|d| d.kind.clone()) else {
        let text = "approve-plan works in a pending pod's explanation: p lists them in Pools";
        return state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
    };
    match plan_steps(state, &key) {
        Ok(steps) if !steps.is_empty() => {
            state.views.pending_nav.walk = Some(PlanWalk {
                pod: key,
                steps,
                at: 0,
                sent: 0,
            });
            open_step(state);
        }
        Ok(_) => state.notices.push(
            format!("no move to approve for {key}"),
            NoticeLevel::Error,
            state.session.now,
        ),
        Err(why) => state
            .notices
            .push(why.to_string(), NoticeLevel::Error, state.session.now),
    }
}

/// The merged move of `step` in `a`: ome-top's row with a plan, and Alfred's of the same
/// Instance and policy.
fn pair_of(a: &Analysis, step: &PlanStep) -> Option<MovePair> {
    let same =
        |w: &str, c: &str, i: i64| w == step.workload && c == step.component && i == step.instance;
    let computed = (a.moves.iter())
        .position(|m| m.plan.is_some() && same(&m.workload, &m.component, m.instance))?;
    let policy = &a.moves[computed].policy;
    let alfred = alfred_rows(a).iter().position(|r| {
        same(&r.workload, &r.component, i64::from(r.instance)) && r.policy == *policy
    });
    Some(MovePair {
        alfred,
        computed: Some(computed),
    })
}

/// Opens the dialog of the walk's current step; ends the walk when it cannot.
fn open_step(state: &mut AppState) {
    let Some(w) = state.views.pending_nav.walk.clone() else {
        return;
    };
    let Some(step) = w.steps.get(w.at) else {
        state.views.pending_nav.walk = None;
        let text = format!(
            "unblock plan of {}: {} of {} moves requested",
            w.pod,
            w.sent,
            w.steps.len()
        );
        return state
            .notices
            .push(text, NoticeLevel::Info, state.session.now);
    };
    let pair = state.shown().and_then(|f| pair_of(&f.analysis, step));
    let depth = state.overlays.modals.len();
    if let Some(pair) = pair {
        approve::start_approve_pair(state, pair);
    }
    let opened = state.overlays.modals.len() > depth;
    if let Some(Modal::Confirm(d)) = state.overlays.modals.last_mut().filter(|_| opened) {
        let line = format!(
            "unblock plan of {}: move {} of {} (cancelling stops the plan)",
            w.pod,
            w.at + 1,
            w.steps.len()
        );
        d.lines.insert(0, (line, Tone::Accent));
    }
    if state.overlays.modals.len() == depth {
        state.views.pending_nav.walk = None;
        let text = format!(
            "unblock plan stopped at move {} of {}: {} {} Instance {} is no longer a move to approve",
            w.at + 1,
            w.steps.len(),
            step.workload,
            step.component,
            step.instance
        );
        state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
    }
}

/// `confirm`: the open dialog's; when it belongs to a plan walk and was sent, the next step's
/// dialog opens.
pub fn confirm(state: &mut AppState) -> Vec<Effect> {
    let walking = state.views.pending_nav.walk.is_some()
        && matches!(state.overlays.modals.last(), Some(Modal::Confirm(_)));
    let depth = state.overlays.modals.len();
    let mut effects = ops::confirm(state);
    if walking && state.overlays.modals.len() < depth {
        if let Some(w) = state.views.pending_nav.walk.as_mut() {
            w.sent += 1;
            w.at += 1;
        }
        open_step(state);
        effects.push(Effect::Redraw);
    }
    effects
}

/// `cancel`: closes the open dialog; a plan walk's stops there.
pub fn cancel(state: &mut AppState) {
    let walking = matches!(state.overlays.modals.last(), Some(Modal::Confirm(_)));
    state.overlays.modals.pop();
    let walk = if walking {
        state.views.pending_nav.walk.take()
    } else {
        None
    };
    if let Some(w) = walk {
        let text = format!(
            "unblock plan of {} stopped: {} of {} moves requested",
            w.pod,
            w.sent,
            w.steps.len()
        );
        state
            .notices
            .push(text, NoticeLevel::Info, state.session.now);
    }
}
