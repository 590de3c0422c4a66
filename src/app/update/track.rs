//! Tracking the migration requests this session approved to their end (product.md §6 "then
//! track it to its end"): on each new feed, a request whose InferenceReplica
//! `status.migrations[]` row changed phase raises a notice, so the operator sees the progress
//! and the terminal phase even after the move's row (and its detail) is gone — a completed
//! move removes its source Instance.
//!
//! Owns: `track_requests`. Plain data.

use std::collections::HashMap;

use crate::app::state::{AppState, NoticeLevel};
use crate::engine::model::MigrationPhase;

/// Compares each tracked request with the shown feed's IR rows and raises one notice per
/// phase change (an error notice for `Failed`); a request that ended is not looked up again.
pub fn track_requests(state: &mut AppState) {
    let open = |uuid: &str, phases: &HashMap<String, MigrationPhase>| {
        !phases.get(uuid).is_some_and(MigrationPhase::is_terminal)
    };
    if !state
        .ops
        .requested
        .iter()
        .any(|r| open(&r.uuid, &state.ops.request_phases))
    {
        return;
    }
    let Some(feed) = state.shown().cloned() else {
        return;
    };
    let mut changes = Vec::new();
    for r in state
        .ops
        .requested
        .iter()
        .filter(|r| open(&r.uuid, &state.ops.request_phases))
    {
        let row = feed
            .snapshot
            .replicas
            .iter()
            .flat_map(|ir| ir.status.migrations.iter())
            .find(|m| *m.request_uuid == *r.uuid);
        let Some(row) = row else { continue };
        if state.ops.request_phases.get(&r.uuid) != Some(&row.phase) {
            let ended = if row.phase.is_terminal() {
                " (ended)"
            } else {
                ""
            };
            let text = format!(
                "migration {} of {} {}/{}: {}{ended}",
                r.uuid, r.workload, r.component, r.instance, row.phase
            );
            changes.push((r.uuid.clone(), row.phase.clone(), text));
        }
    }
    for (uuid, phase, text) in changes {
        let level = if phase == MigrationPhase::Failed {
            NoticeLevel::Error
        } else {
            NoticeLevel::Info
        };
        state.ops.request_phases.insert(uuid, phase);
        state.notices.push(text, level, state.session.now);
    }
}
