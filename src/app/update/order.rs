//! The Moves rows keep their place while the operator looks: each build is put back in the
//! order last taken (a move, or an advisory group with its open rows, is one block); a new
//! move joins the end of the moves to act on, a new group the end of the groups; a move that
//! shows something else since the order was taken, or is new, is marked `•` in the first column, not moved. The
//! order is taken again when the operator asks: a sort key, or leaving and re-entering Moves.
//!
//! Owns: `hold_order`, `release_order`, `CHANGED_MARK`. Plain data.

use std::collections::HashMap;
use std::ops::Range;

use crate::app::model::moves::{HeldOrder, MoveEntry};
use crate::app::state::AppState;
use crate::app::table::RowModel;

/// Put in the first column (beside any `≠`) of a move that changed since the order was taken:
/// the identifiers keep their width.
pub const CHANGED_MARK: &str = "•";

/// The Moves table's first column (`≠`).
const MARKS: usize = 0;

/// The cells a change of a move shows in: both outcomes and WHY.
fn print(row: &RowModel) -> String {
    [1, 2, 5]
        .iter()
        .filter_map(|c| row.cells.get(*c).map(|x| x.text.as_str()))
        .collect::<Vec<_>>()
        .join("|")
}

/// Each block's row range: a move before the groups, or a group row with its open moves.
fn blocks(entries: &[MoveEntry]) -> Vec<Range<usize>> {
    let mut out: Vec<Range<usize>> = Vec::new();
    let mut in_group = false;
    for (i, e) in entries.iter().enumerate() {
        match e {
            MoveEntry::Group { .. } => {
                in_group = true;
                out.push(i..i + 1);
            }
            MoveEntry::Move(_) if in_group => {
                if let Some(last) = out.last_mut() {
                    last.end = i + 1;
                }
            }
            MoveEntry::Move(_) | MoveEntry::Requested { .. } => out.push(i..i + 1),
        }
    }
    out
}

/// Forgets the held order: the next build takes the engine's order again.
pub fn release_order(state: &mut AppState) {
    state.views.moves_held = None;
}

/// Puts the freshly built Moves rows in the held order and marks what changed (takes the order
/// when none is held).
pub fn hold_order(state: &mut AppState) {
    let (rows, index) = (
        &state.views.models.moves.rows,
        &state.views.models.move_index,
    );
    let blocks = blocks(&index.entries);
    let key = |b: &Range<usize>| rows[b.start].key.clone();
    let Some(held) = state.views.moves_held.as_mut() else {
        // A move in a closed group is known, its cells unseen: it is not marked when its
        // group opens (its print is taken then).
        let hidden = index.hidden.keys().map(|k| (k.clone(), String::new()));
        let prints = rows
            .iter()
            .enumerate()
            .filter(|(i, _)| matches!(index.entries.get(*i), Some(MoveEntry::Move(_))))
            .map(|(_, r)| (r.key.clone(), print(r)))
            .chain(hidden)
            .collect();
        state.views.moves_held = Some(HeldOrder {
            keys: blocks.iter().map(key).collect(),
            prints,
        });
        return;
    };
    let at: HashMap<&str, usize> = held
        .keys
        .iter()
        .enumerate()
        .map(|(i, k)| (k.as_str(), i))
        .collect();
    let mut order: Vec<(bool, usize, usize)> = blocks
        .iter()
        .enumerate()
        .map(|(b, r)| {
            let group = matches!(index.entries[r.start], MoveEntry::Group { .. });
            let place = at.get(rows[r.start].key.as_str()).copied();
            (group, place.unwrap_or(usize::MAX), b)
        })
        .collect();
    order.sort();
    held.keys = order.iter().map(|(_, _, b)| key(&blocks[*b])).collect();
    let mut new_rows = Vec::with_capacity(rows.len());
    let mut new_entries = Vec::with_capacity(rows.len());
    let mut marked = 0;
    for (in_group, _, b) in order {
        for i in blocks[b].clone() {
            let row = &rows[i];
            let entry = index.entries[i].clone();
            let is_move = matches!(entry, MoveEntry::Move(_));
            let now = print(row);
            let changed = match held.prints.get_mut(&row.key) {
                // Still advice, now shown in its opened group or in the flat list: not a change.
                Some(unseen) if unseen.is_empty() && is_move && (in_group || index.flat) => {
                    *unseen = now;
                    false
                }
                // Out of its group: it became a move to act on.
                Some(unseen) if unseen.is_empty() => is_move,
                Some(then) => is_move && *then != now,
                None => is_move,
            };
            let mut cells = row.cells.clone();
            if let (true, Some(c)) = (changed, cells.get_mut(MARKS)) {
                c.text = format!("{}{CHANGED_MARK}", c.text);
                marked += 1;
            }
            new_rows.push(RowModel::new(row.key.clone(), new_rows.len(), cells));
            new_entries.push(entry);
        }
    }
    state.views.models.moves.rows = new_rows;
    state.views.models.move_index.entries = new_entries;
    state.views.models.move_index.changed = marked;
}
