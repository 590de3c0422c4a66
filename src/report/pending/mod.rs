//! The pending GPU pods and gangs of an analysis, explained: why each is Pending (per node of
//! its pool the first check that refuses it, grouped with counts; a gang's domains) and what
//! frees room for it (the unblock plan, or why there is none) — `analyze -o json`'s
//! `pending[]`, and `ome-top explain POD` as JSON or a table (docs/analyze-json.md).
//!
//! Owns: `PendingEntry`, `pending_entries`, `entry_of`, `find_pending`, `FindError` (JSON: `json`; the
//! table: `table`). Reads engine results only.

pub mod json;
pub mod table;

use crate::engine::analysis::Analysis;
use crate::engine::explain::{pending_subjects, Explainer, Explanation};
use crate::engine::model::ClusterSnapshot;
use crate::engine::unblock::{Unblock, UnblockInput, Unblocker};

/// One pending pod or gang, explained.
#[derive(Debug, Clone, PartialEq)]
pub struct PendingEntry {
    /// Why it is Pending.
    pub explanation: Explanation,
    /// What frees room for it.
    pub unblock: Unblock,
}

/// The unblock input of an analysis.
pub fn unblock_input(analysis: &Analysis) -> UnblockInput<'_> {
    UnblockInput {
        moves: &analysis.moves,
        workloads: &analysis.workloads,
        journal: analysis.journal.journal(),
        cfg: &analysis.config,
        now: analysis.now,
    }
}

/// Every pending GPU pod and gang of the analysis (`pending_subjects` order), explained.
pub fn pending_entries(snap: &ClusterSnapshot, analysis: &Analysis) -> Vec<PendingEntry> {
    let input = analysis.pending_input(snap);
    let ex = Explainer::new(input);
    let unblocker = Unblocker::new(&ex, unblock_input(analysis));
    pending_subjects(&input)
        .into_iter()
        .filter_map(|p| entry(&ex, &unblocker, p))
        .collect()
}

/// The entry of the pending pod `pod`; `None` when it is not a pending GPU pod.
pub fn entry_of(snap: &ClusterSnapshot, analysis: &Analysis, pod: usize) -> Option<PendingEntry> {
    let ex = Explainer::new(analysis.pending_input(snap));
    let unblocker = Unblocker::new(&ex, unblock_input(analysis));
    entry(&ex, &unblocker, pod)
}

fn entry(ex: &Explainer<'_>, unblocker: &Unblocker<'_, '_>, pod: usize) -> Option<PendingEntry> {
    let explanation = ex.explain(pod)?;
    Some(PendingEntry {
        unblock: unblocker.unblock_explained(&explanation),
        explanation,
    })
}

/// Why `explain POD` found no pending pod to explain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FindError {
    /// No pod or gang has that name.
    #[error("no pod or gang {0}")]
    NotFound(String),
    /// The pod exists but is not a pending GPU pod.
    #[error("{0} is not a pending GPU pod")]
    NotPending(String),
    /// The name matches pods in several namespaces.
    #[error("{0} names pods in several namespaces: give namespace/name")]
    Ambiguous(String),
}

/// The pending GPU pod `query` names: `namespace/name` or a unique `name`, of a pod or of a
/// gang's PodGroup (its first pending member). `Err` says why none or several match.
pub fn find_pending(snap: &ClusterSnapshot, query: &str) -> Result<usize, FindError> {
    let (ns, name) = match query.split_once('/') {
        Some((ns, name)) => (Some(ns), name),
        None => (None, query),
    };
    let in_ns = |p: &crate::engine::model::Pod| ns.is_none_or(|ns| p.namespace.as_ref() == ns);
    let mut pods: Vec<usize> = (0..snap.pods.len())
        .filter(|i| {
            let p = &snap.pods[*i];
            in_ns(p) && p.name.as_ref() == name
        })
        .collect();
    if pods.is_empty() {
        pods = (0..snap.pods.len())
            .filter(|i| {
                let p = &snap.pods[*i];
                in_ns(p) && p.ome.pod_group.as_deref() == Some(name) && p.is_pending_gpu()
            })
            .collect();
        pods.sort_by(|a, b| snap.pods[*a].name.cmp(&snap.pods[*b].name));
        pods.truncate(1);
    }
    match pods.as_slice() {
        [] => Err(FindError::NotFound(query.to_string())),
        [one] if snap.pods[*one].is_pending_gpu() => Ok(*one),
        [one] => Err(FindError::NotPending(snap.pods[*one].key())),
        _ => Err(FindError::Ambiguous(query.to_string())),
    }
}
