//! Pods in the compact model: `Pod` with its phase, OME identity labels and controller
//! reference, laid out by cache line for the passes that read 100,000 of them.
//!
//! Owns: `Pod`, `PodPhase`, `OmeLabels`, `OwnerRef`, `LabelInt` (re-exported by `engine::model`).
//! Pure data.

use std::sync::Arc;

use crate::engine::model::placement::PodPlacement;
use crate::engine::model::{Name, ResourceList, Time};

/// Pod phase; unknown strings are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PodPhase {
    /// `Pending`.
    Pending,
    /// `Running`.
    Running,
    /// `Succeeded`.
    Succeeded,
    /// `Failed`.
    Failed,
    /// `Unknown` or any other value.
    Other(Name),
}

impl PodPhase {
    /// Parses a phase string; anything unrecognised is kept as `Other`.
    pub fn parse(s: &str) -> Self {
        match s {
            "Pending" => PodPhase::Pending,
            "Running" => PodPhase::Running,
            "Succeeded" => PodPhase::Succeeded,
            "Failed" => PodPhase::Failed,
            other => PodPhase::Other(Arc::from(other)),
        }
    }

    /// Whether the pod has finished (its resources are released).
    pub fn is_terminal(&self) -> bool {
        matches!(self, PodPhase::Succeeded | PodPhase::Failed)
    }
}

/// An integer label: absent, present but unparsable/out of domain, or a value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LabelInt {
    /// The label is not set.
    #[default]
    Absent,
    /// The label is set but is not a valid integer in its domain.
    Invalid,
    /// The parsed value.
    Value(i64),
}

impl LabelInt {
    /// Parses a signed base-10 label; `min` is the smallest valid value.
    pub fn parse(value: Option<&str>, min: i64) -> Self {
        match value {
            None => LabelInt::Absent,
            Some(s) => match s.parse::<i64>() {
                Ok(v) if v >= min => LabelInt::Value(v),
                _ => LabelInt::Invalid,
            },
        }
    }

    /// The value, if valid.
    pub fn value(self) -> Option<i64> {
        match self {
            LabelInt::Value(v) => Some(v),
            _ => None,
        }
    }
}

/// A controller owner reference.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct OwnerRef {
    /// `apiVersion`, e.g. `ome.io/v1beta1`.
    pub api_version: Name,
    /// `kind`, e.g. `InferenceReplica`.
    pub kind: Name,
    /// Owner name.
    pub name: Name,
    /// Owner UID.
    pub uid: Name,
}

/// The OME identity labels of a pod (`alfred.md` §9, `inferencereplica.md` §5.1). `repr(C)`:
/// the four labels the index and routing passes read share one cache line of `Pod`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[repr(C)]
pub struct OmeLabels {
    /// `ome.io/inferenceservice`.
    pub isvc: Option<Name>,
    /// `component` (`engine`, `decoder`, `router`).
    pub component: Option<Name>,
    /// `ome.io/managed-by`.
    pub managed_by: Option<Name>,
    /// `scheduling.x-k8s.io/pod-group`.
    pub pod_group: Option<Name>,
    /// `ome.io/runner` (`default`, `leader`, `worker`).
    pub runner: Option<Name>,
    /// `ome.io/instance-index` (≥ 0).
    pub instance_index: LabelInt,
    /// `ome.io/instance-incarnation` (> 0).
    pub incarnation: LabelInt,
    /// `ome.io/pod-ordinal` (≥ 0).
    pub pod_ordinal: LabelInt,
}

/// A pod, reduced to what the engines read.
///
/// Laid out by hand (`repr(C)`) because a 100,000-pod analysis is bound by the memory its
/// passes load, not by instructions: first what every pass reads (node, phase, namespace,
/// GPUs, flags), then the OME identity labels and the controller, then what the placement
/// lints read (placement, selector, scheduler, requests), and the cold rest (name, UID, GPU
/// resource, times) last (pinned by `pod_hot_fields_come_first`). Not cache-line aligned: a
/// pod lives in an `Arc`, whose two counters would then be padded to a whole line, and the
/// allocation of 100,000 pods would grow by a size class; the controller is shared between
/// the pods of one owner (`Interner::owner`) for the same reason.
#[derive(Debug, Clone, PartialEq)]
#[repr(C)]
pub struct Pod {
    /// `spec.nodeName`, when bound.
    pub node: Option<Name>,
    /// `status.phase`.
    pub phase: PodPhase,
    /// Namespace.
    pub namespace: Name,
    /// GPUs requested over every GPU resource (limit else request; containers and restartable
    /// init containers), whole devices.
    pub gpus: u32,
    /// Condition `Ready` is `True`.
    pub ready: bool,
    /// `metadata.deletionTimestamp` is set.
    pub terminating: bool,
    /// A `PodScheduled` condition of any status is present (the scheduler's binding writes
    /// one; a pod created with `nodeName` gets one only once the kubelet accepts it).
    pub scheduled_condition: bool,
    /// OME identity labels.
    pub ome: OmeLabels,
    /// The single controller owner reference; `None` when there is none or more than one.
    pub controller: Option<Arc<OwnerRef>>,
    /// Placement facts only some pods have; `None` for pods with none of them.
    pub placement: Option<Box<PodPlacement>>,
    /// `spec.nodeSelector` pairs.
    pub node_selector: Vec<(Name, Name)>,
    /// `spec.schedulerName` (empty = `default-scheduler`).
    pub scheduler_name: Name,
    /// Effective CPU request, millicores (max of Σ containers + sidecars and the largest init
    /// container, plus overhead; request, else limit).
    pub cpu_milli: u64,
    /// Effective memory request, bytes (same rule as `cpu_milli`).
    pub memory: u64,
    /// Effective requests (same rule as `cpu_milli`) of every other resource the pod asks for:
    /// ephemeral storage, hugepages, extended resources, GPU resources but `gpu_resource`
    /// (listed too when its effective request is not `gpus`, e.g. a regular init container
    /// asks for more). `None` for the common pod that asks for nothing else; equal lists are
    /// one shared allocation (`Interner::resources`).
    pub other_requests: Option<Arc<ResourceList>>,
    /// Name.
    pub name: Name,
    /// The GPU resource name requested, when `gpus > 0`.
    pub gpu_resource: Option<Name>,
    /// `metadata.creationTimestamp`.
    pub created: Option<Time>,
    /// `status.startTime`.
    pub started: Option<Time>,
    /// `lastTransitionTime` of `PodScheduled=False`, when present.
    pub unschedulable_since: Option<Time>,
}

impl Pod {
    /// `ns/name`, used for deterministic ordering.
    pub fn key(&self) -> String {
        format!("{}/{}", self.namespace, self.name)
    }

    /// Whether the pod is an OME GPU occupant (`alfred.md` §7.3): an OME pod with GPUs.
    pub fn is_ome_gpu_occupant(&self) -> bool {
        let ome = self.ome.isvc.is_some()
            || self.ome.managed_by.as_deref() == Some("OMENative")
            || self
                .controller
                .as_ref()
                .is_some_and(|o| o.kind.as_ref() == "InferenceReplica");
        ome && self.gpus > 0
    }

    /// Whether the pod is pending for GPUs (`alfred.md` §6.1 "Pending pods").
    pub fn is_pending_gpu(&self) -> bool {
        self.gpus > 0 && self.node.is_none() && self.phase == PodPhase::Pending && !self.terminating
    }

    /// The effective request of every resource besides CPU and memory, by name: `gpus` under
    /// `gpu_resource` (unless `other_requests` lists that resource with its own amount), then
    /// `other_requests`. Amounts are never 0.
    pub fn scalar_requests(&self) -> impl Iterator<Item = (&Name, u64)> + '_ {
        let others = self.other_requests.as_deref();
        let gpu = self
            .gpu_resource
            .as_ref()
            .filter(|r| self.gpus > 0 && !others.is_some_and(|o| o.contains(r)))
            .map(|r| (r, u64::from(self.gpus)));
        gpu.into_iter()
            .chain(others.into_iter().flat_map(ResourceList::iter))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn pod_hot_fields_come_first() {
        // What every pass reads fills the first 64 bytes; the identity labels and the
        // controller follow; the placement lints' fields lie within 64 bytes of each other.
        assert!(offset_of!(Pod, scheduled_condition) < 64);
        assert!(offset_of!(Pod, namespace) + size_of::<Name>() <= 64);
        assert_eq!(offset_of!(Pod, ome), 64);
        assert!(offset_of!(OmeLabels, pod_group) + size_of::<Option<Name>>() <= 64);
        assert_eq!(offset_of!(Pod, controller), 64 + size_of::<OmeLabels>());
        let lints = offset_of!(Pod, placement);
        assert!(offset_of!(Pod, memory) + size_of::<u64>() <= lints + 64);
    }

    #[test]
    fn an_arc_of_a_pod_fits_a_384_byte_allocation() {
        // `Arc`'s two counters precede the pod; 100,000 pods live in that size class. The
        // rarely present requests cost one pointer.
        assert!(2 * size_of::<usize>() + size_of::<Pod>() <= 384);
        assert_eq!(size_of::<Option<Arc<ResourceList>>>(), size_of::<usize>());
    }
}
