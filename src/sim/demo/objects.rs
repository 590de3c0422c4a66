//! Builders of the demo's Kubernetes objects in the engine model (InferenceServices, OMENative
//! and RawDeployment pods, PodGroups) and the InferenceReplica status sync that keeps every IR's
//! instance rows and counters consistent with its pods (`inferencereplica.md` §1.2, §2).
//!
//! Pure.

use std::collections::BTreeMap;
use std::sync::Arc;

use crate::engine::model::{
    InferenceReplica, InferenceService, LabelInt, Name, Node, OmeLabels, OwnerRef, Pod, PodGroup,
    Time,
};
use crate::engine::workloads::InstanceRow;
use crate::sim::cluster::{base_pod, isvc};
use crate::sim::demo::{DemoWorld, Source};

/// CPU millicores requested per GPU (a 96-core node has 8 devices: proportional requests).
pub const CPU_PER_GPU_MILLI: u64 = 12_000;
/// Memory bytes requested per GPU (128 GiB).
pub const MEMORY_PER_GPU: u64 = 128 << 30;

/// What one Instance of a workload looks like.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shape {
    /// Pool index (into `place::POOLS`).
    pub pool: usize,
    /// GPUs per pod.
    pub gpus: u32,
    /// Pods per Instance (1 = runner `default`; N = leader + N−1 workers, a gang).
    pub pods: i64,
}

/// An InferenceService named `name` in `ns` with an engine in `mode`.
pub fn service(ns: &Name, name: &str, mode: &str, gang: bool, rv: Name) -> InferenceService {
    let mut s = isvc(ns, name, mode, gang);
    s.resource_version = rv;
    s
}

/// The controller owner reference of an IR-owned pod.
fn ir_owner(ir_name: &str, ir_uid: &Name) -> OwnerRef {
    OwnerRef {
        api_version: Arc::from("ome.io/v1beta1"),
        kind: Arc::from("InferenceReplica"),
        name: Arc::from(ir_name),
        uid: ir_uid.clone(),
    }
}

/// The pods of OMENative Instance `index` of `ir`, unbound (Pending) at `now`.
pub fn instance_pods(
    ir: &InferenceReplica,
    index: i64,
    shape: Shape,
    resource: &str,
    now: Time,
) -> Vec<Pod> {
    let isvc_name = ir.parent.clone().unwrap_or_else(|| ir.name.clone());
    (0..shape.pods)
        .map(|member| {
            let runner = match (shape.pods, member) {
                (1, _) => "default",
                (_, 0) => "leader",
                _ => "worker",
            };
            let ordinal = if runner == "worker" { member - 1 } else { 0 };
            let name = format!("{}-{index}-{runner}-{ordinal}", ir.name);
            let mut pod = base_pod(&ir.namespace, name, None, shape.gpus, now);
            pod.gpu_resource = Some(Arc::from(resource));
            pod.cpu_milli = u64::from(shape.gpus) * CPU_PER_GPU_MILLI;
            pod.memory = u64::from(shape.gpus) * MEMORY_PER_GPU;
            pod.unschedulable_since = Some(now);
            pod.ome = OmeLabels {
                isvc: Some(isvc_name.clone()),
                component: Some(ir.component.clone()),
                managed_by: Some(Arc::from("OMENative")),
                instance_index: LabelInt::Value(index),
                incarnation: LabelInt::Value(1),
                runner: Some(Arc::from(runner)),
                pod_ordinal: LabelInt::Value(ordinal),
                pod_group: (shape.pods > 1).then(|| Arc::from(format!("{}-{index}", ir.name))),
            };
            if shape.pods > 1 {
                pod.scheduler_name = Arc::from("ome-scheduler");
            }
            pod.node_selector = crate::sim::demo::place::pool_selector(shape.pool);
            pod.controller = Some(Arc::new(ir_owner(&ir.name, &ir.uid)));
            pod
        })
        .collect()
}

/// One RawDeployment pod of `isvc_name` (unbound).
pub fn raw_pod(
    ns: &Name,
    isvc_name: &str,
    ordinal: u64,
    shape: Shape,
    resource: &str,
    now: Time,
) -> Pod {
    let mut pod = base_pod(
        ns,
        format!("{isvc_name}-engine-{ordinal}"),
        None,
        shape.gpus,
        now,
    );
    pod.gpu_resource = Some(Arc::from(resource));
    pod.cpu_milli = u64::from(shape.gpus) * CPU_PER_GPU_MILLI;
    pod.memory = u64::from(shape.gpus) * MEMORY_PER_GPU;
    pod.unschedulable_since = Some(now);
    pod.ome.isvc = Some(Arc::from(isvc_name));
    pod.ome.component = Some(Arc::from("engine"));
    pod.node_selector = crate::sim::demo::place::pool_selector(shape.pool);
    pod
}

/// The PodGroup of one gang Instance with `min_member` and the rack topology annotation.
pub fn pod_group(ir: &InferenceReplica, index: i64, min_member: Option<i64>) -> PodGroup {
    let name = format!("{}-{index}", ir.name);
    let mut annotations = BTreeMap::new();
    annotations.insert(
        Arc::from("ome.io/topology-key"),
        crate::sim::demo::place::RACK_LABEL.to_string(),
    );
    PodGroup {
        namespace: ir.namespace.clone(),
        uid: Arc::from(format!("uid-pg-{}-{name}", ir.namespace)),
        name: Arc::from(name),
        min_member,
        min_member_unreadable: None,
        schedule_timeout_seconds: None,
        annotations,
        labels: crate::engine::model::Labels::from_pairs(vec![
            (
                Arc::from("ome.io/inferenceservice"),
                ir.parent.clone().unwrap_or_default(),
            ),
            (Arc::from("component"), ir.component.clone()),
        ]),
    }
}

/// Binds `pod` to `node` at `now`: Running and Ready (the sim has no image pulls).
pub fn bind(pod: &mut Pod, node: &Node, now: Time) {
    pod.node = Some(node.name.clone());
    pod.phase = crate::engine::model::PodPhase::Running;
    pod.ready = true;
    pod.started = Some(now);
    pod.scheduled_condition = true;
    pod.unschedulable_since = None;
}

/// A fresh row for Instance `index` (phase set by the sync).
pub fn new_row(index: i64, revision: &str) -> InstanceRow {
    InstanceRow {
        index,
        incarnation: 1,
        phase: "Creating".into(),
        running_revision: revision.into(),
        admitted: true,
        ..Default::default()
    }
}

impl DemoWorld {
    /// Recomputes every IR's instance rows and counters from its pods (the model keeps no
    /// resourceVersion for IRs; a change only marks the source as changed).
    pub(crate) fn sync_replicas(&mut self) {
        let mut by_owner: BTreeMap<&str, Vec<&Pod>> = BTreeMap::new();
        for pod in &self.snap.pods {
            if let Some(owner) = &pod.controller {
                by_owner.entry(owner.uid.as_ref()).or_default().push(pod);
            }
        }
        let mut changed = Vec::new();
        for (i, ir) in self.snap.replicas.iter().enumerate() {
            let pods = by_owner.get(ir.uid.as_ref()).map_or(&[][..], Vec::as_slice);
            let per_instance: i64 = ir.runners.iter().map(|(_, n)| *n).sum();
            let mut status = ir.status.clone();
            let Ok(rows) = status.rows.as_mut() else {
                continue;
            };
            for row in rows.iter_mut() {
                let mine: Vec<&&Pod> = pods
                    .iter()
                    .filter(|p| p.ome.instance_index == LabelInt::Value(row.index))
                    .collect();
                let steady = mine.len() as i64 == per_instance
                    && mine.iter().all(|p| p.node.is_some() && p.ready);
                row.pod_count = mine.len() as i64;
                let draining = !mine.is_empty() && mine.iter().all(|p| p.terminating);
                row.phase = match (draining, steady) {
                    (true, _) => "Deleting",
                    (false, true) => "Ready",
                    (false, false) => "Creating",
                }
                .into();
                row.serving_pod_count = if steady { per_instance } else { 0 };
                row.available_pod_count = row.serving_pod_count;
            }
            let total = rows.len() as i64;
            let ready = rows.iter().filter(|r| r.phase == "Ready").count() as i64;
            status.counters = [total, ready, ready, ready, total, ready];
            if status != ir.status {
                changed.push((i, status));
            }
        }
        for (i, status) in changed {
            self.snap.replicas[i].status = status;
            self.touch(Source::Replicas);
        }
    }
}
