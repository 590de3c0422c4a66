//! Rows that stay under the cursor: the selection follows its row's identity across feeds, so
//! the cursor moves only when the operator's row leaves the list (or goes into a closed
//! advisory group). Then another row sits under the cursor that the operator never chose: the
//! first key that acts on a row (Enter, a write, a copy) does nothing but say so, and the next
//! one acts on the row now shown. Any other key, a click or a move of the cursor takes the new
//! row as seen.
//!
//! Owns: `after_feed`, `refuse_slid`, `acts_on_row`. Plain data.

use crate::action::Action;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::table::RowModel;

/// Whether `action` acts on the selected row of a list view.
pub fn acts_on_row(action: Action) -> bool {
    matches!(
        action,
        Action::Open
            | Action::Toggle
            | Action::ApproveMove
            | Action::RejectMove
            | Action::UndoReject
            | Action::ClearJournalEntry
            | Action::CordonNode
            | Action::UncordonNode
            | Action::JumpToJournal
            | Action::ShowYaml
            | Action::NodeTimeline
            | Action::CopyName
    )
}

/// After new rows came in without the operator: when `before`, the row the operator had
/// selected in `view`, is no longer the selected one, it slid away (the first such row is
/// kept until the operator takes the new one).
pub fn after_feed(state: &mut AppState, view: View, before: Option<String>) {
    if view == View::Gangs {
        return;
    }
    let t = &mut state.views.tables[view.index()];
    if before.is_some() && t.selected_key != before && t.slid.is_none() {
        t.slid = before;
    }
}

/// The words a row goes by on the notice line: a move's workload and Instance, an advisory
/// group's count and reason, else the row's first named cell.
fn row_words(view: View, row: &RowModel) -> String {
    let cell = |i: usize| row.cells.get(i).map_or("", |c| c.text.trim());
    let words = match view {
        View::Moves if row.key.starts_with("advisory|") => format!("{} {}", cell(3), cell(5)),
        View::Moves => format!("{} instance {}", cell(3), cell(4)),
        View::Lints => cell(1).to_string(),
        _ => cell(0).to_string(),
    };
    words.trim().to_string()
}

/// The words of the row that left: its key's readable part (a Moves key is
/// `policy|workload|component|instance`).
fn gone_words(view: View, key: &str) -> String {
    let parts: Vec<&str> = key.split('|').collect();
    match (view, parts.as_slice()) {
        (View::Moves, ["advisory", reason]) => format!("the advisory group {reason}"),
        (View::Moves, [_, workload, _, instance, ..]) => format!("{workload} instance {instance}"),
        _ => key.to_string(),
    }
}

/// A key that acts on a row, pressed while the cursor sits on a row that slid under it: says
/// which row left and which is under the cursor now, and takes that one as seen. True when the
/// key is refused.
pub fn refuse_slid(state: &mut AppState, action: Action) -> bool {
    let view = state.views.view;
    if !acts_on_row(action) || state.views.detail.is_some() || view == View::Gangs {
        return false;
    }
    if crate::app::query::map::map_shown_full(state) {
        return false;
    }
    let Some(gone) = state.views.tables[view.index()].slid.take() else {
        return false;
    };
    let under = state
        .views
        .models
        .table(view)
        .zip(state.table(view).selected_row())
        .and_then(|(m, r)| m.rows.get(r))
        .map(|r| row_words(view, r));
    let went = if state.views.models.move_index.collapsed.contains_key(&gone) {
        "went into its closed advisory group"
    } else {
        "left the list"
    };
    let gone = gone_words(view, &gone);
    let text = match under {
        Some(now) => format!("{gone} {went}; the cursor is now on {now}: press again to act on it"),
        None => format!("{gone} {went}: nothing is selected"),
    };
    state
        .notices
        .push(text, NoticeLevel::Error, state.session.now);
    true
}
