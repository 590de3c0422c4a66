//! The other objects a snapshot lists, reduced to what the engines read: PodGroups (gang
//! facts), core Events (Alfred's node events, FailedScheduling) and ConfigMaps (Alfred's, the
//! scheduler's, migration audits).
//!
//! Owns: `PodGroup`, `Event`, `ConfigMap`. Plain data.

use std::collections::BTreeMap;

use crate::engine::model::{Labels, Name, Time};

/// A PodGroup (`scheduling.x-k8s.io/v1alpha1`), reduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodGroup {
    /// Namespace.
    pub namespace: Name,
    /// Name.
    pub name: Name,
    /// `metadata.uid`.
    pub uid: Name,
    /// `spec.minMember`; `None` when absent or invalid.
    pub min_member: Option<i64>,
    /// `spec.minMember` as the file wrote it when it is not a whole number a Go `int32` holds
    /// (`1e12`, `"two"`, `2.5`): the scheduler cannot decode such a PodGroup at all.
    pub min_member_unreadable: Option<String>,
    /// `spec.scheduleTimeoutSeconds`.
    pub schedule_timeout_seconds: Option<i64>,
    /// Annotations (all but kubectl's last-applied copy); the scheduler reads the one named by
    /// `podGroupTopologyKeyAnnotation` (default `ome.io/topology-key`).
    pub annotations: BTreeMap<Name, String>,
    /// Labels.
    pub labels: Labels,
}

/// A core Event, reduced.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Namespace of the event.
    pub namespace: Name,
    /// `involvedObject.kind`.
    pub object_kind: Name,
    /// `involvedObject.namespace` (empty for nodes).
    pub object_namespace: Name,
    /// `involvedObject.name`.
    pub object_name: Name,
    /// `reason`.
    pub reason: Name,
    /// `message`.
    pub message: String,
    /// `source.component` or `reportingController`.
    pub source: Name,
    /// `type` (`Normal`, `Warning`).
    pub kind: Name,
    /// `lastTimestamp`, else `eventTime`, else `firstTimestamp`.
    pub last_seen: Option<Time>,
    /// `count` (1 when absent).
    pub count: i64,
}

/// A ConfigMap: name and string data (binary data is ignored).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigMap {
    /// Namespace.
    pub namespace: Name,
    /// Name.
    pub name: Name,
    /// `metadata.resourceVersion` seen.
    pub resource_version: Name,
    /// `data`.
    pub data: BTreeMap<String, String>,
}
