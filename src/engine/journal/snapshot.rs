//! The §2.4 clearing checks of a stalled journal entry, with the facts read from a snapshot:
//! the InferenceService and its request annotation, the InferenceReplica and its
//! `status.migrations[]`, and the migration audit ConfigMap `<isvc>-ome-migration-audit`.
//!
//! A snapshot holds complete lists, so an object missing from it was verifiably absent —
//! except InferenceReplicas when their list failed, which makes every IR fact unreadable.
//!
//! Owns: `clearing_facts`, `stalled_verdicts`. Pure.

use crate::engine::journal::clearing::{clearing_check, ClearingVerdict};
use crate::engine::journal::facts::{history_fact, ClearingFacts, Fact, RowSeen};
use crate::engine::journal::{Journal, JournalEntry, Phase};
use crate::engine::migration::REQUEST_ANNOTATION_PREFIX;
use crate::engine::migration::{audit_configmap_name, parse_audit_history};
use crate::engine::model::ClusterSnapshot;

/// The facts about `entry` that the snapshot establishes.
pub fn clearing_facts(snap: &ClusterSnapshot, entry: &JournalEntry) -> ClearingFacts {
    let (ns, name) = (&entry.workload.namespace, &entry.workload.name);
    let isvc = snap
        .isvcs
        .iter()
        .find(|w| w.namespace().as_ref() == ns && w.name().as_ref() == name);
    let key = format!("{REQUEST_ANNOTATION_PREFIX}{}", entry.uuid);
    let request_annotation = match isvc {
        Some(w) if w.annotation(&key).is_some() => Fact::Present(()),
        _ => Fact::Absent,
    };
    let replica = snap
        .replicas
        .iter()
        .find(|ir| ir.namespace.as_ref() == ns && ir.name.as_ref() == entry.ir_name);
    const LIST_FAILED: &str = "InferenceReplica list failed";
    let status_row = match (snap.replicas_listed, replica) {
        (false, _) => Fact::Unreadable(LIST_FAILED.to_string()),
        (true, None) => Fact::Absent,
        (true, Some(ir)) => ir
            .status
            .migrations
            .iter()
            .find(|m| m.request_uuid.as_ref() == entry.uuid)
            .map_or(Fact::Absent, |m| {
                Fact::Present(RowSeen::ir_status(&m.phase))
            }),
    };
    let history_row = match snap.config_map(ns, &audit_configmap_name(name)) {
        None => Fact::Absent,
        Some(cm) => match cm.data.get("history.json").map(|h| parse_audit_history(h)) {
            None => Fact::Absent,
            Some(Ok(history)) => history_fact(&history, &entry.uuid),
            Some(Err(e)) => Fact::Unreadable(format!("history.json: {e}")),
        },
    };
    ClearingFacts {
        isvc: isvc.map_or(Fact::Absent, |w| Fact::Present(w.uid.to_string())),
        replica: match (snap.replicas_listed, replica) {
            (false, _) => Fact::Unreadable(LIST_FAILED.to_string()),
            (true, r) => r.map_or(Fact::Absent, |ir| Fact::Present(ir.uid.to_string())),
        },
        request_annotation,
        history_row,
        status_row,
    }
}

/// The clearing verdict of every stalled entry, in journal order.
pub fn stalled_verdicts(
    snap: &ClusterSnapshot,
    journal: &Journal,
) -> Vec<(String, ClearingVerdict)> {
    journal
        .entries
        .iter()
        .filter(|e| e.phase == Phase::Stalled)
        .map(|e| (e.uuid.clone(), clearing_check(e, &clearing_facts(snap, e))))
        .collect()
}
