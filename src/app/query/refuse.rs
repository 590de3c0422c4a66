//! Why a key cannot act here, in the operator's words: a write or a view's own key pressed in
//! another view (`y` outside Nodes), a write the session does not allow (a snapshot is read
//! only), a key bound to nothing here (`d`, `0`). The footer and help leave out what is refused
//! here; pressing it anyway puts the reason on the notice line instead of doing nothing
//! silently. A lint's fix key is the exception: `u` in a reservation-cordon lint's detail
//! uncordons its node (`lint_fix`).
//!
//! Owns: `home_view`, `refusal`, `misplaced`, `unbound_words`, `lint_fix`. Plain data.

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::keys::{key_label, Chord, KeyResolution, Mode};
use crate::app::state::{AppState, View};
use crate::app::views::moves::flight::flight;
use crate::app::views::moves::{action_move, Merged};
use crate::app::views::pending::explain::shows_plan;
use crate::engine::journal::Phase;
use crate::engine::lints::LintRule;
use crate::protocol::{Capability, NotPermitted};

/// The one view an action works in, for the actions that work in one only: the writes.
/// Elsewhere (another view or its detail) they do nothing, so help and the footer leave them
/// out there. (`toggle` works in Gangs and Moves, the views whose keymaps bind it.)
pub fn home_view(action: Action) -> Option<View> {
    match action {
        Action::CordonNode | Action::UncordonNode | Action::ShowYaml => Some(View::Nodes),
        Action::ApproveMove | Action::RejectMove | Action::UndoReject | Action::JumpToJournal => {
            Some(View::Moves)
        }
        Action::ClearJournalEntry => Some(View::Journal),
        Action::PoolMap | Action::Left | Action::Right | Action::ApprovePlan => Some(View::Pools),
        _ => None,
    }
}

/// The capability a write needs.
fn capability(action: Action) -> Option<Capability> {
    match action {
        Action::CordonNode | Action::UncordonNode => Some(Capability::CordonNode),
        Action::ApproveMove => Some(Capability::ApproveMove),
        Action::ClearJournalEntry => Some(Capability::ClearJournalEntry),
        _ => None,
    }
}

/// The fix a lint's detail offers as a key: the action and the node it applies to (index
/// into the shown snapshot's nodes). A reservation cordon's fix is to uncordon the node.
pub fn lint_fix(state: &AppState) -> Option<(Action, usize)> {
    let Some(DetailKind::Lint(key)) = state.views.detail.as_ref().map(|d| &d.kind) else {
        return None;
    };
    let feed = state.shown()?;
    let row = state
        .views
        .models
        .lints
        .rows
        .iter()
        .find(|r| r.key == *key)?;
    let lint = feed.analysis.lints.get(row.source)?;
    if lint.rule != LintRule::ReservationCordon {
        return None;
    }
    let name = lint.object.strip_prefix("Node ")?;
    let node = feed.snapshot.nodes.iter().position(|n| *n.name == *name)?;
    Some((Action::UncordonNode, node))
}

/// Why `action`, a view's own key, does nothing in the shown view (`None`: it works here).
pub fn misplaced(state: &AppState, action: Action) -> Option<String> {
    if let Some(why) = not_in_pending(state, action) {
        return Some(why);
    }
    let home = home_view(action)?;
    if home == state.views.view
        || lint_fix(state).is_some_and(|(a, _)| a == action)
        || crate::app::query::map::cordons_here(state, action)
    {
        return None;
    }
    Some(format!(
        "{} works in {} only: press {} to go there",
        action.description(),
        home.title(),
        home.index() + 1
    ))
}

/// Why a Pools key does nothing on the Pending list or a pending pod's explanation, and why
/// `approve-plan` does nothing elsewhere.
fn not_in_pending(state: &AppState, action: Action) -> Option<String> {
    let explaining = matches!(
        state.views.detail.as_ref().map(|d| &d.kind),
        Some(DetailKind::Pending(_))
    );
    if action == Action::WhatIf {
        return what_if_refusal(state);
    }
    if action == Action::ApprovePlan {
        let plan = state.views.detail.as_ref().is_some_and(shows_plan);
        return match (explaining, plan) {
            (_, true) => None,
            (true, false) => Some("this pending pod has no unblock plan to approve".into()),
            (false, _) => Some(
                "approve-plan works in a pending pod's explanation: p in Pools lists them".into(),
            ),
        };
    }
    let listing = state.views.pending_nav.open && state.views.view == View::Pools && !explaining;
    let unsorted = matches!(
        action,
        Action::Filter | Action::SortNext | Action::SortReverse | Action::ToggleWide
    );
    if listing && action == Action::Pending {
        return Some("the Pending list is shown: enter explains the selected pod".into());
    }
    if listing && unsorted {
        return Some(
            "the Pending list is in the engine's order, pool by pool: no filter or sort".into(),
        );
    }
    (listing && home_view(action) == Some(View::Pools)).then(|| {
        format!(
            "{} works in the Pools table: esc leaves the Pending list",
            action.description()
        )
    })
}

/// Why `what-if` does nothing here: it works on a node (the Nodes view, a node's detail, a
/// what-if's pane) and on Alfred's policy (the Pools table).
fn what_if_refusal(state: &AppState) -> Option<String> {
    let here = match state.views.detail.as_ref().map(|d| &d.kind) {
        Some(DetailKind::Node(_) | DetailKind::WhatIf(_)) => true,
        Some(_) => false,
        // The full-size map's keys act on its node; the policy what-if is the table's.
        None => {
            let table =
                !state.views.pending_nav.open && !crate::app::query::map::map_shown_full(state);
            state.views.view == View::Nodes || (state.views.view == View::Pools && table)
        }
    };
    (!here).then(|| {
        "What if works on a node (Nodes, or its detail) or on Alfred's policy (Pools)".into()
    })
}

/// Why `action` cannot act here (`None`: it can): another view's key, or a write the
/// session refuses (read-only, or denied by the cluster; a permission not yet probed is
/// offered and checked when pressed).
pub fn refusal(state: &AppState, action: Action) -> Option<String> {
    if let Some(why) = misplaced(state, action) {
        return Some(why);
    }
    if action == Action::ViewFleet {
        return crate::app::query::fleet::unavailable(state);
    }
    if action == Action::ApproveMove && requested_in_flight(state) {
        return Some("this move is already requested here and in flight".into());
    }
    if action == Action::ClearJournalEntry && !stalled_entry(state) {
        return Some("only a stalled journal entry can be cleared".into());
    }
    if action == Action::JumpToJournal
        && crate::app::views::moves::held::journal_entry_of(state).is_none()
    {
        return Some("no journal entry is behind this move".into());
    }
    let cap = capability(action)?;
    match state.shown()?.permissions.check(cap) {
        Err(why @ (NotPermitted::ReadOnly(_) | NotPermitted::Denied(_))) => Some(format!(
            "{} is not possible here: {why}",
            action.description()
        )),
        _ => None,
    }
}

/// Whether the selected journal entry (or the open detail's) is stalled.
fn stalled_entry(state: &AppState) -> bool {
    let (Some(i), Some(feed)) = (state.action_source(View::Journal), state.shown()) else {
        return false;
    };
    let journal = feed.analysis.journal.journal();
    journal
        .and_then(|j| j.entries.get(i))
        .is_some_and(|e| e.phase == Phase::Stalled)
}

/// Whether the selected move (or the open detail's) was requested here and has not ended.
fn requested_in_flight(state: &AppState) -> bool {
    let (Some(pair), Some(feed)) = (action_move(state), state.shown()) else {
        return false;
    };
    let Some(f) = Merged::of(&feed.analysis, pair).and_then(|m| m.primary()) else {
        return false;
    };
    let f = f.fields();
    let at = (f.workload, f.component, f.instance);
    flight(&state.ops.requested, &state.ops.request_phases, feed, at)
        .is_some_and(|x| x.mine && !x.ended())
}

/// What a key bound to nothing here says: where it works, if in another view, else that it
/// does nothing here and `?` lists the keys.
pub fn unbound_words(state: &AppState, keys: &[Chord]) -> String {
    let label = key_label(keys);
    let elsewhere = View::ALL.into_iter().find_map(|v| {
        match state.settings.keys.resolve(Mode::View(v), keys) {
            KeyResolution::Action(a) if home_view(a) == Some(v) => Some((a, v)),
            _ => None,
        }
    });
    match elsewhere {
        Some((a, v)) => format!(
            "{label} ({}) works in {} only: press {} to go there",
            a.description(),
            v.title(),
            v.index() + 1
        ),
        None => format!("{label} does nothing here: ? lists the keys of this screen"),
    }
}
