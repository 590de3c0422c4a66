//! The shape of the Moves rows: advisory groups open and closed (Enter or the toggle key on a group
//! row; the toggle key on a row inside an open group closes it), and every row listed without
//! groups while a filter or a sort is on, so neither hides a move inside a closed group; the WHY
//! column as wide as the longest reason on a terminal of 120 columns or more. The rows are rebuilt
//! only when the shape changes; a selection on a move that went into a closed group moves to that
//! group's row.
//!
//! The reducer's side: it changes the open groups and rebuilds the rows.
//!
//! Owns: `wants_flat`, `wants_wide`, `reshape`, `selected_group`, `selected_group_moves`,
//! `toggle_group`. Plain data.

use crate::app::state::{AppState, View};
use crate::app::table::TableView;
use crate::app::views::build_view;
use crate::app::views::moves::{group_key, MoveEntry, MoveOptions};

/// Whether the rows are listed without groups: a filter or a sort is on.
pub fn wants_flat(t: &TableView) -> bool {
    t.filter.is_active() || t.sort.is_some()
}

/// Whether the terminal is wide enough for the WHY column to hold every reason string.
pub fn wants_wide(size: (u16, u16)) -> bool {
    size.0 >= WIDE_COLUMNS
}

/// Terminal columns from which WHY is sized for the longest reason.
const WIDE_COLUMNS: u16 = 120;

/// Rebuilds the Moves rows when the wanted shape (open groups, flat) differs from the built
/// one, and moves a selection hidden in a closed group onto the group's row. Call before
/// refreshing the Moves table.
pub fn reshape(state: &mut AppState) {
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let flat = wants_flat(state.table(View::Moves));
    let wide = wants_wide(state.session.size);
    let built = state.views.models.built[View::Moves.index()].is_some();
    let index = &state.views.models.move_index;
    let changed = index.flat != flat || index.wide != wide || index.open != state.views.moves_open;
    if built && changed {
        let opts = MoveOptions {
            now: state.session.now,
            dismissed: &state.ops.dismissed,
            open: &state.views.moves_open,
            flat,
            wide,
            requested: &state.ops.requested,
            phases: &state.ops.request_phases,
            namespace: state.views.namespace_scope.as_deref(),
        };
        let ns = state.views.namespace_scope.as_deref();
        build_view(&mut state.views.models, &feed, &opts, View::Moves, ns);
        crate::app::update::order::hold_order(state);
    }
    follow(state);
}

/// The selection follows its move into a closed group (onto the group's row) and back out of
/// it, unless the operator moved it meanwhile.
fn follow(state: &mut AppState) {
    let t = &mut state.views.tables[View::Moves.index()];
    let index = &state.views.models.move_index;
    let selected = t.selected_key.clone();
    let into = selected
        .as_ref()
        .and_then(|k| Some((k.clone(), index.collapsed.get(k)?.clone())));
    if let Some((k, g)) = into {
        t.selected_key = Some(g.clone());
        state.views.moves_follow = Some((k, g));
        return;
    }
    let Some((k, g)) = state.views.moves_follow.take() else {
        return;
    };
    if selected.as_deref() != Some(g.as_str()) {
        return;
    }
    if index.collapsed.contains_key(&k) {
        state.views.moves_follow = Some((k, g));
    } else if state.views.models.moves.rows.iter().any(|r| r.key == k) {
        t.selected_key = Some(k);
    }
}

/// The reason of the advisory group whose row is selected.
pub fn selected_group(state: &AppState) -> Option<&str> {
    let row = state.table(View::Moves).selected_row()?;
    match state.views.models.move_index.entries.get(row)? {
        MoveEntry::Group { reason, .. } => Some(reason),
        MoveEntry::Move(_) | MoveEntry::Requested { .. } => None,
    }
}

/// The moves of the advisory group whose row is selected (its open rows, or the moves its
/// closed row holds); `None` when the selection is not on a group's row.
pub fn selected_group_moves(state: &AppState) -> Option<Vec<String>> {
    let reason = selected_group(state)?;
    let group = group_key(reason);
    let index = &state.views.models.move_index;
    let rows = &state.views.models.moves.rows;
    let start = rows.iter().position(|r| r.key == group)?;
    let open = (index.entries.iter().zip(rows).skip(start + 1))
        .take_while(|(e, _)| matches!(e, MoveEntry::Move(_)))
        .map(|(_, r)| r.key.clone());
    let closed = (index.collapsed.iter())
        .filter(|(_, g)| **g == group)
        .map(|(k, _)| k.clone());
    Some(open.chain(closed).collect())
}

/// The toggle on the selected Moves row: a group row opens or closes; a move inside an open
/// group closes that group (the selection goes to its row). Returns whether anything changed.
pub fn toggle_group(state: &mut AppState) -> bool {
    if state.table(View::Moves).filter.is_active() || state.views.models.move_index.flat {
        return false;
    }
    let Some(row) = state.table(View::Moves).selected_row() else {
        return false;
    };
    let entries = &state.views.models.move_index.entries;
    let reason = match entries.get(row) {
        Some(MoveEntry::Group { reason, .. }) => reason.clone(),
        Some(MoveEntry::Requested { .. }) => return false,
        Some(MoveEntry::Move(_)) => {
            // The group a move belongs to is the nearest group row above it.
            let above = entries[..row].iter().rev().find_map(|e| match e {
                MoveEntry::Group { reason, .. } => Some(reason.clone()),
                MoveEntry::Move(_) | MoveEntry::Requested { .. } => None,
            });
            let Some(reason) = above else { return false };
            state.views.tables[View::Moves.index()].selected_key = Some(group_key(&reason));
            reason
        }
        None => return false,
    };
    if !state.views.moves_open.remove(&reason) {
        state.views.moves_open.insert(reason);
    }
    true
}
