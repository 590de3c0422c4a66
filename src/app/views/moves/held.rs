//! Moves held back by Alfred's journal: which entry holds them (the one unresolved request,
//! or the stalled one of several), how many moves it withholds, and the words the Moves row,
//! the move detail and the journal entry's detail share, so the operator can go from a
//! withheld move to the entry and clear it there.
//!
//! Owns: `JOURNAL_HOLDS`, `holder`, `journal_entry_of` (what `J` jumps to), `withheld_count`, `holder_words`, `releases_words`.
//! Plain data.

use crate::app::state::AppState;
use crate::app::views::moves::{action_move, Merged, MoveRef};
use crate::engine::analysis::Analysis;
use crate::engine::journal::{Blocking, JournalEntry};
use crate::engine::model::vocab::Outcome;
use crate::engine::planning::JournalView;

/// The withhold reasons that name the journal.
pub const JOURNAL_HOLDS: [&str; 2] = ["UnresolvedRequest", "MultipleUnresolvedRequests"];

/// The entry that holds every submission back: the one unresolved entry, else the first
/// stalled one of several (only a stalled entry can be cleared), else the first.
pub fn holder(a: &Analysis) -> Option<&JournalEntry> {
    let JournalView::Valid(journal, blocking) = &a.journal else {
        return None;
    };
    let uuid = match blocking {
        Blocking::UnresolvedRequest { uuid, .. } => uuid.as_str(),
        Blocking::MultipleUnresolvedRequests { blockers } => blockers
            .iter()
            .find(|b| b.stalled)
            .or(blockers.first())
            .map(|b| b.uuid.as_str())?,
        Blocking::None | Blocking::PreparedRetry { .. } => return None,
    };
    journal.entries.iter().find(|e| e.uuid == uuid)
}

/// Moves ome-top computes as withheld by the journal now.
pub fn withheld_count(a: &Analysis) -> usize {
    a.moves
        .iter()
        .filter(|m| {
            m.outcome == Outcome::Withheld
                && m.dispatch_reason
                    .as_ref()
                    .is_some_and(|r| JOURNAL_HOLDS.contains(&r.as_ref()))
        })
        .count()
}

/// The first 8 characters of a UUID, as the Journal view's UUID column shows it.
pub fn short(uuid: &str) -> String {
    uuid.chars().take(8).collect()
}

/// `held by journal entry 1a2b3c4d (stalled, team-b/embed-119 engine/0): …` for a move's detail.
pub fn holder_words(e: &JournalEntry) -> String {
    let clear = if e.phase == crate::engine::journal::Phase::Stalled {
        "x there clears it, which releases the withheld moves"
    } else {
        "it resolves when OME reports the request's end"
    };
    format!(
        "held by journal entry {} ({}, {}/{} {}/{}): J goes to it in Journal; {clear}",
        short(&e.uuid),
        e.phase.shown_as(),
        e.workload.namespace,
        e.workload.name,
        e.component.as_str(),
        e.instance
    )
}

/// What clearing the entry releases, for its detail (`None` when it holds nothing back).
pub fn releases_words(a: &Analysis, uuid: &str) -> Option<String> {
    let e = holder(a).filter(|e| e.uuid == uuid)?;
    let stalled = e.phase == crate::engine::journal::Phase::Stalled;
    let text = match (withheld_count(a), stalled) {
        (0, true) => "clearing it (x) lets Alfred submit again".to_string(),
        (0, false) => "Alfred submits again once OME reports this request's end".to_string(),
        (1, true) => "1 move withheld now; clearing it (x) releases it".to_string(),
        (1, false) => "1 move withheld now; it goes once OME reports this request's end".into(),
        (n, true) => format!("{n} moves withheld now; clearing it (x) releases them"),
        (n, false) => {
            format!("{n} moves withheld now; they go once OME reports this request's end")
        }
    };
    Some(format!(
        "⊘ this entry holds back every Alfred submission: {text}"
    ))
}

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
