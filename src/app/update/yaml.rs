//! `show-yaml`: the selected node's YAML, read from the data source on demand (the live
//! cluster's GET, the demo's world, the snapshot file) and shown in a read-only pane that
//! scrolls and closes with Esc. A read, never a write: it works in read-only sessions.
//!
//! Owns: `show_yaml`, `fetched`, `pane_action`. Plain data.

use std::sync::Arc;

use crate::action::Action;
use crate::app::detail::DetailKind;
use crate::app::dialogs::{Modal, YamlPane};
use crate::app::effect::Effect;
use crate::app::layout::screen;
use crate::app::msg::{effects, redraw, Msg};
use crate::app::state::{AppState, NoticeLevel, View};
use crate::protocol::Fetch;

/// The node an action in the Nodes view applies to: the open node detail's, else the
/// selected row's.
fn target_node(state: &AppState) -> Option<String> {
    if let Some(DetailKind::Node(name)) = state.views.detail.as_ref().map(|d| &d.kind) {
        return Some(name.clone());
    }
    let model = state.views.models.table(View::Nodes)?;
    let row = state.table(View::Nodes).selected_row()?;
    model.rows.get(row).map(|r| r.key.clone())
}

/// Opens the YAML pane of the target node (empty until the answer) and asks for the read.
pub fn show_yaml(state: &mut AppState) -> Vec<Effect> {
    let Some(node) = target_node(state) else {
        return Vec::new();
    };
    let fetch = Fetch::NodeYaml(Arc::from(node.as_str()));
    state.overlays.modals.push(Modal::Yaml(YamlPane {
        fetch: fetch.clone(),
        lines: None,
        scroll: 0,
    }));
    vec![Effect::Fetch(fetch), Effect::Redraw]
}

/// Takes in a read's answer: the open pane for it shows the text; an error closes that pane
/// and says what failed, naming the object.
pub fn fetched(
    state: &mut AppState,
    fetch: Fetch,
    result: Result<String, crate::protocol::FetchError>,
) -> Vec<Effect> {
    let open = state
        .overlays
        .modals
        .iter()
        .rposition(|m| matches!(m, Modal::Yaml(p) if p.fetch == fetch));
    match result {
        Ok(text) => {
            let Some(Modal::Yaml(pane)) = open.and_then(|i| state.overlays.modals.get_mut(i))
            else {
                return Vec::new();
            };
            pane.lines = Some(text.lines().map(str::to_string).collect());
            pane.scroll = pane.scroll.min(text.lines().count().saturating_sub(1));
        }
        Err(e) => {
            if let Some(i) = open {
                state.overlays.modals.remove(i);
            }
            let text = format!("{}: YAML not read: {e}", fetch.object());
            state
                .notices
                .push(text, NoticeLevel::Error, state.session.now);
        }
    }
    vec![Effect::Redraw]
}

/// An action with the YAML pane on top: scrolling, reading again, closing; the rest (writes
/// included) does nothing here.
pub fn pane_action(state: &mut AppState, action: Action) -> Vec<Msg> {
    let page = usize::from(screen(state).body.height.saturating_sub(2)).max(1);
    let Some(Modal::Yaml(pane)) = state.overlays.modals.last_mut() else {
        return Vec::new();
    };
    let last = pane.lines.as_ref().map_or(0, |l| l.len().saturating_sub(1));
    pane.scroll = match action {
        Action::Down => pane.scroll + 1,
        Action::Up => pane.scroll.saturating_sub(1),
        Action::PageDown => pane.scroll + page,
        Action::PageUp => pane.scroll.saturating_sub(page),
        Action::Top => 0,
        Action::Bottom => last,
        Action::ShowYaml => {
            return effects(vec![Effect::Fetch(pane.fetch.clone()), Effect::Redraw])
        }
        Action::Back | Action::BackOrQuit | Action::Cancel => {
            state.overlays.modals.pop();
            return redraw();
        }
        // The reducer applies these as it would with no pane on top.
        Action::Quit | Action::Help => return vec![Msg::Action(action)],
        _ => return Vec::new(),
    }
    .min(last);
    redraw()
}
