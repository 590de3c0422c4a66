//! Nodes in the compact model: a node's labels, conditions, taints and allocatable, as
//! Alfred's health rules, the pool rules and the gang fit predicate read them, and its capacity
//! (a few integers, for the node detail).
//!
//! Owns: `Node`, `NodeCondition`, `Taint`, `Allocatable`, `UNREPORTED` (re-exported by
//! `engine::model`). Pure data.

use std::sync::Arc;

use crate::engine::model::{Labels, Name, ResourceList, Time};

/// A node condition: only what Alfred's health rules read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NodeCondition {
    /// Condition type, e.g. `GpuUnhealthy`.
    pub kind: Name,
    /// `True`, `False`, `Unknown` or any other string (kept verbatim).
    pub status: Name,
    /// `lastTransitionTime`; `None` when absent or zero.
    pub last_transition: Option<Time>,
}

/// A node taint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Taint {
    /// Taint key.
    pub key: Name,
    /// Taint value (empty when absent).
    pub value: Name,
    /// `NoSchedule`, `PreferNoSchedule`, `NoExecute` (kept verbatim).
    pub effect: Name,
}

/// An allocatable value the node does not report; fit checks treat it as unlimited.
pub const UNREPORTED: u64 = u64::MAX;

/// Node CPU, memory and pod slots besides GPUs: its allocatable (what the OMEGangPack fit
/// predicate compares) or its capacity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allocatable {
    /// `cpu`, millicores ([`UNREPORTED`] when absent).
    pub cpu_milli: u64,
    /// `memory`, bytes ([`UNREPORTED`] when absent).
    pub memory: u64,
    /// `pods`, the pod slots ([`UNREPORTED`] when absent).
    pub pods: u64,
}

impl Default for Allocatable {
    /// Nothing reported.
    fn default() -> Self {
        Allocatable {
            cpu_milli: UNREPORTED,
            memory: UNREPORTED,
            pods: UNREPORTED,
        }
    }
}

/// A cluster node.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// Node name.
    pub name: Name,
    /// `metadata.uid`.
    pub uid: Name,
    /// Node labels.
    pub labels: Labels,
    /// Taints.
    pub taints: Vec<Taint>,
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
    /// All node conditions (a node has a handful).
    pub conditions: Vec<NodeCondition>,
    /// The GPU resource with the largest allocatable count, if the node has any.
    pub gpu_resource: Option<Name>,
    /// Allocatable count of `gpu_resource`, whole devices (0 without GPUs).
    pub gpu_allocatable: u32,
    /// Allocatable CPU, memory and pod slots.
    pub allocatable: Allocatable,
    /// Allocatable of every other resource the node reports but `gpu_resource` (ephemeral
    /// storage, hugepages, extended resources, other GPU resources); `None` when it reports
    /// none. A resource not listed has 0 allocatable, as the scheduler reads it.
    pub other_allocatable: Option<Arc<ResourceList>>,
    /// `status.capacity` CPU, memory and pod slots (shown, never used in a decision).
    pub capacity: Allocatable,
    /// `status.capacity` of `gpu_resource`, whole devices (0 without GPUs or when absent).
    pub gpu_capacity: u32,
    /// `metadata.creationTimestamp`.
    pub created: Option<Time>,
    /// `metadata.resourceVersion` seen (for compare-and-swap writes).
    pub resource_version: Name,
}

impl Node {
    /// Allocatable of `resource` (anything but CPU, memory and pods): `gpu_allocatable` for
    /// `gpu_resource`, else `other_allocatable`, 0 when the node does not list it.
    pub fn allocatable_of(&self, resource: &str) -> u64 {
        if self.gpu_resource.as_deref() == Some(resource) {
            return u64::from(self.gpu_allocatable);
        }
        self.other_allocatable
            .as_deref()
            .map_or(0, |o| o.get(resource))
    }
}
