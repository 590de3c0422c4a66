//! One watch event of each kind a cluster sees most, for the incremental-analysis benchmarks
//! (`benches/update.rs`, `benches/stages.rs`): each kind is a pair of changes that undo each
//! other, so applying them alternately keeps the cluster as it was. The kinds are the product's budgeted ones:
//! pods (agents, model pods, pending GPU pods), nodes (cordon, a health condition) and
//! InferenceService annotations.
//!
//! Owns: `EventKind`, `event_kinds`. Pure.

use std::sync::Arc;

use chrono::Duration;

use crate::engine::analysis::{Analysis, Change};
use crate::engine::model::{
    ClusterSnapshot, InferenceService, Node, NodeCondition, Pod, PodPhase, Time,
};

/// The migration request annotation the `isvc_migration_request` kind adds (a made-up UUID).
const REQUEST: &str = "ome.io/migration-request-v1-00000000-0000-4000-8000-000000000029";

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

/// A new pod like `pod` (another name) created, and deleted.
fn created(name: &'static str, pod: &Pod) -> EventKind {
    let mut new = pod.clone();
    new.name = format!("{}-new", pod.name).into();
    EventKind {
        name,
        undo: Change::PodDeleted {
            namespace: new.namespace.clone(),
            name: new.name.clone(),
        },
        change: Change::Pod(Arc::new(new)),
    }
}

/// `node` updated by `edit`, and back.
fn node_updated(name: &'static str, node: &Node, edit: impl FnOnce(&mut Node)) -> EventKind {
    let mut changed = node.clone();
    edit(&mut changed);
    EventKind {
        name,
        change: Change::Node(changed),
        undo: Change::Node(node.clone()),
    }
}

/// `isvc` with `annotation` set, and back.
fn annotated(name: &'static str, isvc: &InferenceService, annotation: &str) -> EventKind {
    let mut changed = isvc.clone();
    changed.annotations.insert(annotation.into(), "true".into());
    EventKind {
        name,
        change: Change::Isvc(Box::new(changed)),
        undo: Change::Isvc(Box::new(isvc.clone())),
    }
}

/// `node` with a `GpuUnhealthy=True` condition (a health state Alfred evacuates).
fn unhealthy(node: &mut Node, now: Time) {
    node.conditions
        .retain(|c| c.kind.as_ref() != "GpuUnhealthy");
    node.conditions.push(NodeCondition {
        kind: "GpuUnhealthy".into(),
        status: "True".into(),
        last_transition: Some(now - Duration::minutes(1)),
    });
}

/// The event kinds of `snap` (analysed as `analysis`): a node agent's status update and its
/// deletion, a readiness flip and the deletion of a pod of an OMENative Instance executable
/// for defragmentation (a repack item), a pending GPU pod bound to that pod's node and a new
/// pending GPU pod created; that node cordoned and made unhealthy by a condition; the
/// Instance's InferenceService given an annotation Alfred does not read and a migration
/// request annotation. Empty when the cluster lacks one of those objects.
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
            Some((pods.get(p)?, snap.isvcs.get(inst.isvc)?))
        });
    let pending = pods.iter().find(|p| p.is_pending_gpu());
    let (Some(agent), Some((movable, isvc)), Some(pending)) = (agent, movable, pending) else {
        return Vec::new();
    };
    let Some(node) = (snap.nodes.iter()).find(|n| Some(&n.name) == movable.node.as_ref()) else {
        return Vec::new();
    };
    let now = analysis.now;
    vec![
        updated("node_agent_update", agent, |p| p.ready = !p.ready),
        deleted("node_agent_delete_or_add", agent),
        updated("model_pod_ready_flip", movable, |p| p.ready = !p.ready),
        deleted("model_pod_delete_or_add", movable),
        updated("pending_pod_scheduled", pending, |p| {
            p.node = movable.node.clone();
            p.phase = PodPhase::Running;
        }),
        created("pending_pod_created", pending),
        node_updated("node_cordon", node, |n| n.unschedulable = !n.unschedulable),
        node_updated("node_condition_change", node, |n| unhealthy(n, now)),
        annotated("isvc_annotation_change", isvc, "alfred.ome.io/note"),
        annotated("isvc_migration_request", isvc, REQUEST),
    ]
}
