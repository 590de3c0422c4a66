//! `what-if` on a node (the Nodes view's selection or the open node's detail): the what-if of
//! cordoning it, computed once and shown in the detail pane; pressed again in that pane, the
//! next change (evacuation, then the maintenance label, then the cordon again). In the Pools
//! table: a dialog for new values of Alfred's policy, then their what-if. Nothing is written:
//! no effect but a redraw leaves here.
//!
//! Owns: `start_what_if`, `policy_typed`.

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::dialogs::{Modal, ReasonPurpose};
use crate::app::effect::Effect;
use crate::app::model::pending::{WhatIfKind, WhatIfShown};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::views::context::detail_key;
use crate::app::views::pending::policy::{parse_policy, policy_line, policy_pane};
use crate::app::views::pending::what_if::what_if_pane;

/// The node and the change the next what-if shows (`policy`: Alfred's policy values), if
/// one is at hand.
fn target(state: &AppState) -> Option<(String, WhatIfKind)> {
    let policy = ("policy".to_string(), WhatIfKind::Policy);
    match state.views.detail.as_ref().map(|d| &d.kind) {
        Some(DetailKind::WhatIf(_))
            if state.views.pending_nav.what_if.as_ref().map(|w| w.kind)
                == Some(WhatIfKind::Policy) =>
        {
            Some(policy)
        }
        Some(DetailKind::WhatIf(node)) => {
            let kind = state
                .views
                .pending_nav
                .what_if
                .as_ref()
                .map_or(WhatIfKind::Cordon, |w| w.kind.next());
            Some((node.clone(), kind))
        }
        Some(DetailKind::Node(node)) => Some((node.clone(), WhatIfKind::Cordon)),
        Some(_) => None,
        None if state.views.view == View::Nodes => {
            let model = &state.views.models.nodes;
            let row = state.table(View::Nodes).selected_row()?;
            Some((model.rows.get(row)?.key.clone(), WhatIfKind::Cordon))
        }
        None if state.views.view == View::Pools && !state.views.pending_nav.open => Some(policy),
        None => None,
    }
}

/// Computes and shows the what-if of the node at hand.
pub fn start_what_if(state: &mut AppState) {
    let Some((node, kind)) = target(state) else {
        let text = "what-if works on a node (Nodes, or its detail) or on Alfred's policy (Pools)";
        return state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
    };
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    if kind == WhatIfKind::Policy {
        let line = policy_line(&feed.analysis.config);
        return open_policy_dialog(state, line);
    }
    let key = detail_key(state, Action::WhatIf);
    let pane = what_if_pane(&feed, &node, kind, key.as_deref());
    state.views.detail = Some(pane.clone());
    state.views.detail_scroll = 0;
    state.views.pending_nav.what_if = Some(WhatIfShown { node, kind, pane });
}

/// The dialog that takes new policy values, starting from `line`.
fn open_policy_dialog(state: &mut AppState, line: String) {
    state.overlays.modals.push(Modal::ReasonInput {
        purpose: ReasonPurpose::WhatIfPolicy,
        prompt: "Alfred's policy values to analyse:".into(),
        buffer: line,
    });
}

/// The values typed into the policy dialog: their what-if in the detail pane, or why they do
/// not read (the dialog opens again on the typed line). Nothing is written.
pub fn policy_typed(state: &mut AppState, line: &str) -> Vec<Effect> {
    let Some(feed) = state.shown().cloned() else {
        return vec![Effect::Redraw];
    };
    match parse_policy(line) {
        Ok(values) => {
            let key = detail_key(state, Action::WhatIf);
            let pane = policy_pane(&feed, &values, key.as_deref());
            state.views.detail = Some(pane.clone());
            state.views.detail_scroll = 0;
            state.views.pending_nav.what_if = Some(WhatIfShown {
                node: "policy".into(),
                kind: WhatIfKind::Policy,
                pane,
            });
        }
        Err(why) => {
            let text = format!("policy values not read: {why}");
            state
                .notices
                .push(text, NoticeLevel::Error, state.session.now);
            open_policy_dialog(state, line.to_string());
        }
    }
    vec![Effect::Redraw]
}
