//! `what-if` on a node (the Nodes view's selection or the open node's detail): the what-if of
//! cordoning it, computed once and shown in the detail pane; pressed again in that pane, the
//! next change (evacuation, then the maintenance label, then the cordon again). Nothing is
//! written: no effect but a redraw leaves here.
//!
//! Owns: `start_what_if`.

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::model::pending::{WhatIfKind, WhatIfShown};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::views::context::detail_key;
use crate::app::views::pending::what_if::what_if_pane;

/// The node and the change the next what-if shows, if a node is at hand.
fn target(state: &AppState) -> Option<(String, WhatIfKind)> {
    match state.detail.as_ref().map(|d| &d.kind) {
        Some(DetailKind::WhatIf(node)) => {
            let kind = state
                .pending_nav
                .what_if
                .as_ref()
                .map_or(WhatIfKind::Cordon, |w| w.kind.next());
            Some((node.clone(), kind))
        }
        Some(DetailKind::Node(node)) => Some((node.clone(), WhatIfKind::Cordon)),
        Some(_) => None,
        None if state.view == View::Nodes => {
            let model = &state.models.nodes;
            let row = state.table(View::Nodes).selected_row()?;
            Some((model.rows.get(row)?.key.clone(), WhatIfKind::Cordon))
        }
        None => None,
    }
}

/// Computes and shows the what-if of the node at hand.
pub fn start_what_if(state: &mut AppState) {
    let Some((node, kind)) = target(state) else {
        let text = "what-if works on a node: select one in Nodes (2) or open it";
        return state.notices.push(text, NoticeLevel::Error, state.now);
    };
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let key = detail_key(state, Action::WhatIf);
    let pane = what_if_pane(&feed, &node, kind, key.as_deref());
    state.detail = Some(pane.clone());
    state.detail_scroll = 0;
    state.pending_nav.what_if = Some(WhatIfShown { node, kind, pane });
}
