//! From a move Alfred's journal holds back to the entry that holds it: `J` on a withheld
//! move (its row or its detail) shows Journal with that entry selected and its detail open,
//! where `x` clears a stalled entry.
//!
//! Owns: `jump_to_journal`, `held_by_journal`. Plain data.

use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::app::views::held::{holder, JOURNAL_HOLDS};
use crate::app::views::moves::{action_move, Merged, MoveRef};

/// Whether the selected move (or the open detail's) is withheld by the journal, on either side.
pub fn held_by_journal(state: &AppState) -> bool {
    let (Some(pair), Some(feed)) = (action_move(state), state.shown()) else {
        return false;
    };
    let Some(m) = Merged::of(&feed.analysis, pair) else {
        return false;
    };
    let ours = m.computed.map(MoveRef::Computed);
    let theirs = m.alfred.map(MoveRef::Alfred);
    ours.into_iter()
        .chain(theirs)
        .any(|r| r.fields().why.is_some_and(|w| JOURNAL_HOLDS.contains(&w)))
}

/// `jump-to-journal`: Journal, the holding entry selected and open; a notice when nothing in
/// the journal holds the move.
pub fn jump_to_journal(state: &mut AppState) {
    let uuid = state
        .shown()
        .and_then(|f| holder(&f.analysis))
        .map(|e| e.uuid.clone());
    let Some(uuid) = uuid.filter(|_| held_by_journal(state)) else {
        return state.notices.push(
            "this move is not held back by Alfred's journal (no unresolved request holds it)",
            NoticeLevel::Error,
            state.now,
        );
    };
    nav::switch_view(state, View::Journal);
    state.tables[View::Journal.index()].selected_key = Some(uuid);
    nav::refresh_view(state, View::Journal);
    nav::open(state);
}
