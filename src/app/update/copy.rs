//! `copy-name`: the selected row's name as an operator pastes it into kubectl (a node or pool
//! name, `namespace/name` of a workload, a request UUID, a gang or pod), sent to the terminal's
//! clipboard by the run layer (OSC 52).
//!
//! Owns: `copy_name`, `row_name`. Plain data.

use crate::app::effect::Effect;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::table::TableModel;

/// The name a row stands for: the column an operator would type (`WORKLOAD` in Moves, the
/// object of a lint without its kind), else the row's own key.
pub fn row_name(view: View, model: &TableModel, row: usize) -> Option<String> {
    let r = model.rows.get(row)?;
    let cell = |title: &str| {
        let col = model.columns.iter().position(|c| c.title == title)?;
        r.cells.get(col).map(|c| c.text.clone())
    };
    match view {
        View::Moves => cell("WORKLOAD"),
        View::Lints => cell("OBJECT").map(|o| match o.split_once(' ') {
            Some((_, name)) => name.to_string(),
            None => o,
        }),
        _ => Some(r.key.clone()),
    }
}

fn selected_name(state: &AppState) -> Option<String> {
    if state.views.view == View::Gangs {
        return state.views.gang_nav.selected.last().cloned();
    }
    let model = state.views.models.table(state.views.view)?;
    let source = state.action_source(state.views.view)?;
    let row = model.rows.iter().position(|r| r.source == source)?;
    row_name(state.views.view, model, row)
}

/// Copies the selected row's name (or the open detail's object) and says so.
pub fn copy_name(state: &mut AppState) -> Vec<Effect> {
    match selected_name(state) {
        Some(name) => {
            state.notices.push(
                format!("copied {name} to the clipboard"),
                NoticeLevel::Info,
                state.session.now,
            );
            vec![Effect::Copy(name), Effect::Redraw]
        }
        None => {
            state.notices.push(
                "nothing selected to copy",
                NoticeLevel::Error,
                state.session.now,
            );
            vec![Effect::Redraw]
        }
    }
}
