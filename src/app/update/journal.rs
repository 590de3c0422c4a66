//! Clearing a stalled journal entry (alfred.md §2.4): only `stalled` entries; the dialog shows
//! the reason-specific checks from `Analysis::clearing` and refuses to confirm unless they pass
//! or the operator arms the explicit override.
//!
//! Owns: `start_clear`. Plain data.

use crate::app::dialogs::Modal;
use crate::app::state::{AppState, NoticeLevel, View};
use crate::app::table::Tone;
use crate::app::update::ops::{allowed, dialog};
use crate::app::views::journal::clearing_lines;
use crate::engine::analysis::ALFRED_JOURNAL;
use crate::engine::journal::ClearingDecision;
use crate::engine::journal::Phase;
use crate::protocol::{Capability, Op};

/// `clear-journal-entry` on the selected entry: only `stalled`; the §2.4 checks must pass or
/// be overridden explicitly.
pub fn start_clear(state: &mut AppState) {
    let Some(i) = state.action_source(View::Journal) else {
        return state.notices.push(
            "clear: no journal entry selected",
            NoticeLevel::Error,
            state.session.now,
        );
    };
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let Some(e) = feed
        .analysis
        .journal
        .journal()
        .and_then(|j| j.entries.get(i))
    else {
        return;
    };
    if e.phase != Phase::Stalled {
        let text = format!(
            "clear: only stalled entries can be cleared ({} is {})",
            &e.uuid,
            e.phase.shown_as()
        );
        return state
            .notices
            .push(text, NoticeLevel::Error, state.session.now);
    }
    if !allowed(state, Capability::ClearJournalEntry, "clear") {
        return;
    }
    let Some(cm) = feed
        .snapshot
        .config_maps
        .iter()
        .find(|c| c.name.as_ref() == ALFRED_JOURNAL)
    else {
        return;
    };
    let verdict = feed
        .analysis
        .clearing
        .iter()
        .find(|(u, _)| *u == e.uuid)
        .map(|(_, v)| v);
    let mut lines = vec![(
        format!(
            "remove entry {} from configmap/{}/{ALFRED_JOURNAL} state.json (nothing else)",
            e.uuid, cm.namespace
        ),
        Tone::Danger,
    )];
    lines.push((
        format!(
            "compare-and-swap on resourceVersion {}",
            cm.resource_version
        ),
        Tone::Normal,
    ));
    lines.extend(verdict.map(clearing_lines).unwrap_or_default());
    let blocked = match verdict.map(|v| &v.decision) {
        Some(ClearingDecision::Clearable) => None,
        Some(ClearingDecision::Wait(why)) => Some(format!("checks say wait: {why}")),
        _ => Some("no clearing verdict".to_string()),
    };
    let op = Op::ClearJournalEntry {
        namespace: cm.namespace.clone(),
        uuid: e.uuid.clone(),
        resource_version: cm.resource_version.clone(),
        override_checks: false,
    };
    let mut d = dialog(format!("Clear stalled entry {}", e.uuid), lines, Some(op));
    d.overridable = blocked.is_some();
    d.blocked = blocked;
    state.overlays.modals.push(Modal::Confirm(Box::new(d)));
}
