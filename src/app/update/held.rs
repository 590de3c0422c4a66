//! From a move to the journal entry behind it: `J` on a move Alfred's journal holds back (its
//! row or its detail) shows Journal with the holding entry selected and its detail open, where
//! `x` clears a stalled entry; on a move Alfred itself submitted (submitted, acknowledged,
//! stalled), it shows that move's own entry.
//!
//! Owns: `jump_to_journal` (the entry is `views::moves::held::journal_entry_of`'s). Plain data.

use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::update::nav;
use crate::app::update::rows;
use crate::app::views::moves::held::journal_entry_of;

/// `jump-to-journal`: Journal, the entry selected and open; a notice when no entry is behind
/// the move.
pub fn jump_to_journal(state: &mut AppState) {
    let Some(uuid) = journal_entry_of(state) else {
        return state.notices.push(
            "no journal entry is behind this move (nothing in Alfred's journal holds it back)",
            NoticeLevel::Error,
            state.session.now,
        );
    };
    nav::switch_view(state, View::Journal);
    state.views.tables[View::Journal.index()].selected_key = Some(uuid);
    rows::refresh_view(state, View::Journal);
    nav::open(state);
}
