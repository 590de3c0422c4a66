//! One watch event of each kind a fleet sees most, for the incremental-analysis benchmarks
//! (`benches/update.rs`, `benches/stages.rs`): each kind is a pair of changes that undo each
//! other, so applying them alternately keeps the fleet as it was.
//!
//! Owns: `EventKind`, `event_kinds`. Pure.

use std::sync::Arc;

use crate::engine::analysis::{Analysis, Change};
use crate::engine::model::{ClusterSnapshot, Pod, PodPhase};

/// One kind of event: its name, the change, and the change that undoes it.
#[derive(Debug, Clone)]
pub struct EventKind {
    /// Benchmark name (`node_agent_update`, …).
    pub name: &'static str,
    /// The event.
    pub change: Change,
    /// The event that undoes it.
    pub undo: Change,
}

/// `pod` updated by `edit`, and back.
fn updated(name: &'static str, pod: &Pod, edit: impl FnOnce(&mut Pod)) -> EventKind {
    let mut changed = pod.clone();
    edit(&mut changed);
    EventKind {
        name,
        change: Change::Pod(Arc::new(changed)),
        undo: Change::Pod(Arc::new(pod.clone())),
    }
}

/// `pod` deleted, and added back.
fn deleted(name: &'static str, pod: &Pod) -> EventKind {
    EventKind {
        name,
        change: Change::PodDeleted {
            namespace: pod.namespace.clone(),
            name: pod.name.clone(),
        },
        undo: Change::Pod(Arc::new(pod.clone())),
    }
}

/// The event kinds of `snap` (analysed as `analysis`): a node agent's status update and its
/// deletion, a readiness flip and the deletion of a pod of an OMENative Instance executable
/// for defragmentation (a repack item), and a pending GPU pod bound to that pod's node. Empty
/// when the fleet lacks one of those pods.
pub fn event_kinds(snap: &ClusterSnapshot, analysis: &Analysis) -> Vec<EventKind> {
    let pods = &snap.pods;
    let agent = pods.iter().find(|p| p.gpus == 0 && p.node.is_some());
    let movable = analysis
        .verdicts
        .iter()
        .filter(|v| v.defrag.is_ok())
        .find_map(|v| {
            let inst = analysis.workloads.components.get(v.component)?;
            let p = *inst.instances.get(v.instance)?.pods.first()?;
            pods.get(p)
        });
    let pending = pods.iter().find(|p| p.is_pending_gpu());
    let (Some(agent), Some(movable), Some(pending)) = (agent, movable, pending) else {
        return Vec::new();
    };
    vec![
        updated("node_agent_update", agent, |p| p.ready = !p.ready),
        deleted("node_agent_delete_or_add", agent),
        updated("model_pod_ready_flip", movable, |p| p.ready = !p.ready),
        deleted("model_pod_delete_or_add", movable),
        updated("pending_pod_scheduled", pending, |p| {
            p.node = movable.node.clone();
            p.phase = PodPhase::Running;
        }),
    ]
}
