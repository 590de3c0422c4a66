//! From a move to the journal entry behind it: `J` on a move Alfred's journal holds back (its
//! row or its detail) shows Journal with the holding entry selected and its detail open, where
//! `x` clears a stalled entry; on a move Alfred itself submitted (submitted, acknowledged,
//! stalled), it shows that move's own entry.
//!
//! Owns: `jump_to_journal`, `journal_entry_of`. Plain data.

use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::app::views::held::{holder, JOURNAL_HOLDS};
use crate::app::views::moves::{action_move, Merged, MoveRef};
use crate::engine::model::vocab::Outcome;

/// The UUID of the journal entry behind the selected move (or the open detail's): the entry
/// holding it back, else its own entry when Alfred submitted it.
pub fn journal_entry_of(state: &AppState) -> Option<String> {
    let feed = state.shown()?;
    let a = &feed.analysis;
    let m = Merged::of(a, action_move(state)?)?;
    let sides = [
        m.computed.map(MoveRef::Computed),
        m.alfred.map(MoveRef::Alfred),
    ];
    let held = sides
        .iter()
        .flatten()
        .any(|r| r.fields().why.is_some_and(|w| JOURNAL_HOLDS.contains(&w)));
    if held {
        return holder(a).map(|e| e.uuid.clone());
    }
    let r = m.alfred.filter(|r| {
        matches!(
            r.outcome,
            Outcome::Submitted | Outcome::Acknowledged | Outcome::Stalled
        )
    })?;
    let own = a.journal.journal()?.entries.iter().rev().find(|e| {
        format!("{}/{}", e.workload.namespace, e.workload.name) == r.workload
            && e.component.as_str() == r.component
            && i64::from(e.instance) == i64::from(r.instance)
            && e.is_unresolved()
    })?;
    Some(own.uuid.clone())
}

/// `jump-to-journal`: Journal, the entry selected and open; a notice when no entry is behind
/// the move.
pub fn jump_to_journal(state: &mut AppState) {
    let Some(uuid) = journal_entry_of(state) else {
        return state.notices.push(
            "no journal entry is behind this move (nothing in Alfred's journal holds it back)",
            NoticeLevel::Error,
            state.now,
        );
    };
    nav::switch_view(state, View::Journal);
    state.tables[View::Journal.index()].selected_key = Some(uuid);
    nav::refresh_view(state, View::Journal);
    nav::open(state);
}
