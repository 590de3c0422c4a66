//! Conversion of core Kubernetes objects (k8s-openapi types) into the engine's compact model:
//! only the fields the engines use survive; `managedFields` and the rest are dropped here.
//!
//! Owns: `ConvertError`, node/pod/ConfigMap conversion. Pure functions. OME custom resources
//! are in `cluster::convert_ome`, Events in `cluster::convert_event`.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::{ObjectMeta, OwnerReference, Time};

use crate::cluster::convert_placement::placement;
use crate::cluster::convert_resources::{
    allocatable, capacity, gpu_capacity, other_allocatable, pod_requests, PodRequests,
};
use crate::engine::model::{parse_quantity, whole_devices};
use crate::engine::model::{
    ConfigMap, LabelInt, Labels, Name, Node, NodeCondition, OmeLabels, OwnerRef, Pod, PodPhase,
    Taint, VolumeClaim,
};
use crate::engine::nodes::is_gpu_resource;

pub use crate::engine::fast::Interner;

/// A field of an object that could not be converted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConvertError {
    /// `Kind ns/name` of the object.
    pub object: String,
    /// JSON path of the field, e.g. `status.allocatable[nvidia.com/gpu]`.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}: {}", self.object, self.field, self.message)
    }
}

/// A non-fatal oddity found while converting (shown in `warnings[]`).
pub type Warnings = Vec<String>;

/// Converts a k8s `Time` into a chrono time.
pub fn time(t: &Time) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp(t.0.as_second(), t.0.subsec_nanosecond().max(0) as u32)
}

/// `Kind ns/name` (or `Kind name`) for messages.
pub fn object_id(kind: &str, meta: &ObjectMeta) -> String {
    let name = meta.name.as_deref().unwrap_or("<unnamed>");
    match meta.namespace.as_deref() {
        Some(ns) if !ns.is_empty() => format!("{kind} {ns}/{name}"),
        _ => format!("{kind} {name}"),
    }
}

fn labels(i: &mut Interner, map: Option<&BTreeMap<String, String>>) -> Labels {
    Labels::from_pairs(
        map.into_iter()
            .flatten()
            .map(|(k, v)| (i.name(k), i.name(v)))
            .collect(),
    )
}

fn gpu_count(
    object: &str,
    field: &str,
    q: &Quantity,
    warnings: &mut Warnings,
) -> Result<u32, ConvertError> {
    let value = parse_quantity(&q.0).map_err(|e| ConvertError {
        object: object.to_string(),
        field: field.to_string(),
        message: e.to_string(),
    })?;
    let (count, adjusted) = whole_devices(value);
    if adjusted {
        warnings.push(format!("{object}: {field}: {:?} adjusted to {count}", q.0));
    }
    Ok(count)
}

/// Converts a Node.
pub fn node(i: &mut Interner, n: &core::Node, w: &mut Warnings) -> Result<Node, ConvertError> {
    let id = object_id("Node", &n.metadata);
    let status = n.status.as_ref();
    let mut gpu: Option<(Name, u32)> = None;
    for (res, q) in status
        .and_then(|s| s.allocatable.as_ref())
        .into_iter()
        .flatten()
    {
        if !is_gpu_resource(res) {
            continue;
        }
        let count = gpu_count(&id, &format!("status.allocatable[{res}]"), q, w)?;
        // The GPU resource with the largest count wins; ties keep the first (sorted) name.
        if gpu.as_ref().is_none_or(|(_, c)| count > *c) {
            gpu = Some((i.name(res), count));
        }
    }
    // A resource listed with 0 devices does not make a GPU node (no pool without a product).
    let gpu = gpu.filter(|(_, count)| *count > 0);
    let spec = n.spec.as_ref();
    let taints = spec
        .and_then(|s| s.taints.as_ref())
        .into_iter()
        .flatten()
        .map(|t| Taint {
            key: i.name(&t.key),
            value: i.name(t.value.as_deref().unwrap_or("")),
            effect: i.name(&t.effect),
        })
        .collect();
    let conditions = status
        .and_then(|s| s.conditions.as_ref())
        .into_iter()
        .flatten()
        .map(|c| NodeCondition {
            kind: i.name(&c.type_),
            status: i.name(&c.status),
            last_transition: c
                .last_transition_time
                .as_ref()
                .and_then(time)
                .filter(|t| t.timestamp() > 0),
        })
        .collect();
    let gpu_name = gpu.as_ref().map(|(r, _)| r.as_ref());
    let gpus_capacity = gpu_capacity(status, gpu_name);
    let other_allocatable = other_allocatable(i, status, gpu_name, (&id, w));
    Ok(Node {
        name: i.name(n.metadata.name.as_deref().unwrap_or_default()),
        uid: i.name(n.metadata.uid.as_deref().unwrap_or_default()),
        labels: labels(i, n.metadata.labels.as_ref()),
        taints,
        unschedulable: spec.and_then(|s| s.unschedulable).unwrap_or(false),
        conditions,
        gpu_resource: gpu.as_ref().map(|(r, _)| r.clone()),
        gpu_allocatable: gpu.map_or(0, |(_, c)| c),
        allocatable: allocatable(status),
        other_allocatable,
        capacity: capacity(status),
        gpu_capacity: gpus_capacity,
        created: n.metadata.creation_timestamp.as_ref().and_then(time),
        resource_version: i.name(n.metadata.resource_version.as_deref().unwrap_or_default()),
    })
}

/// Σ GPUs a container asks for: per GPU resource, the limit if present else the request.
fn container_gpus(
    id: &str,
    path: &str,
    c: &core::Container,
    w: &mut Warnings,
) -> Result<(u32, Option<String>), ConvertError> {
    let Some(res) = c.resources.as_ref() else {
        return Ok((0, None));
    };
    let mut names: Vec<&String> = res.limits.iter().flatten().map(|(k, _)| k).collect();
    names.extend(res.requests.iter().flatten().map(|(k, _)| k));
    names.sort();
    names.dedup();
    let mut total = 0u32;
    let mut first = None;
    for name in names.into_iter().filter(|n| is_gpu_resource(n)) {
        let (q, field) = match res.limits.as_ref().and_then(|l| l.get(name)) {
            Some(q) => (q, format!("{path}.resources.limits[{name}]")),
            None => match res.requests.as_ref().and_then(|r| r.get(name)) {
                Some(q) => (q, format!("{path}.resources.requests[{name}]")),
                None => continue,
            },
        };
        let n = gpu_count(id, &field, q, w)?;
        total = total.saturating_add(n);
        if n > 0 && first.is_none() {
            first = Some(name.clone());
        }
    }
    Ok((total, first))
}

fn owner(i: &mut Interner, refs: Option<&Vec<OwnerReference>>) -> Option<Arc<OwnerRef>> {
    let mut controllers = refs
        .into_iter()
        .flatten()
        .filter(|o| o.controller == Some(true));
    let o = controllers.next()?;
    if controllers.next().is_some() || o.name.is_empty() || o.uid.is_empty() {
        return None;
    }
    let owner = OwnerRef {
        api_version: i.name(&o.api_version),
        kind: i.name(&o.kind),
        name: i.name(&o.name),
        uid: i.name(&o.uid),
    };
    Some(i.owner(owner))
}

fn ome_labels(i: &mut Interner, l: &Labels) -> OmeLabels {
    OmeLabels {
        isvc: i.opt(l.get("ome.io/inferenceservice")),
        component: i.opt(l.get("component")),
        managed_by: i.opt(l.get("ome.io/managed-by")),
        instance_index: LabelInt::parse(l.get("ome.io/instance-index"), 0),
        incarnation: LabelInt::parse(l.get("ome.io/instance-incarnation"), 1),
        runner: i.opt(l.get("ome.io/runner")),
        pod_ordinal: LabelInt::parse(l.get("ome.io/pod-ordinal"), 0),
        pod_group: i.opt(l.get("scheduling.x-k8s.io/pod-group")),
    }
}

/// Converts a Pod.
pub fn pod(i: &mut Interner, p: &core::Pod, w: &mut Warnings) -> Result<Pod, ConvertError> {
    let id = object_id("Pod", &p.metadata);
    let spec = p.spec.as_ref();
    let mut gpus = 0u32;
    let mut resource = None;
    for (n, c) in spec
        .map(|s| s.containers.as_slice())
        .unwrap_or_default()
        .iter()
        .enumerate()
    {
        let (g, r) = container_gpus(&id, &format!("spec.containers[{n}]"), c, w)?;
        gpus = gpus.saturating_add(g);
        resource = resource.or(r);
    }
    let inits = spec
        .and_then(|s| s.init_containers.as_ref())
        .into_iter()
        .flatten();
    for (n, c) in inits.enumerate() {
        // Only restartable (sidecar) init containers hold their resources for the pod's life.
        if c.restart_policy.as_deref() == Some("Always") {
            let (g, r) = container_gpus(&id, &format!("spec.initContainers[{n}]"), c, w)?;
            gpus = gpus.saturating_add(g);
            resource = resource.or(r);
        }
    }
    let status = p.status.as_ref();
    let condition = |kind: &str| {
        status
            .and_then(|s| s.conditions.as_ref())
            .into_iter()
            .flatten()
            .find(|c| c.type_ == kind)
    };
    let l = labels(i, p.metadata.labels.as_ref());
    let ome = ome_labels(i, &l);
    let resource = resource.map(|r| i.name(&r));
    let requests = spec.map(|s| pod_requests(i, s, (gpus, resource.as_deref()), &id, w));
    let PodRequests {
        cpu_milli,
        memory,
        others: other_requests,
    } = requests.unwrap_or(PodRequests {
        cpu_milli: 0,
        memory: 0,
        others: None,
    });
    let placement = placement(i, spec, status, &l, ome.pod_group.is_some());
    Ok(Pod {
        namespace: i.name(p.metadata.namespace.as_deref().unwrap_or_default()),
        // A pod's own name is its alone: interning it would only add a table entry per pod
        // (nothing else holds it, nothing compares it by address). Its UID is not kept:
        // nothing reads it (duplicates in a file are told apart before conversion).
        name: Name::from(p.metadata.name.as_deref().unwrap_or_default()),
        node: i.opt(spec.and_then(|s| s.node_name.as_deref())),
        phase: PodPhase::parse(status.and_then(|s| s.phase.as_deref()).unwrap_or("Pending")),
        gpus,
        gpu_resource: resource,
        ready: condition("Ready").is_some_and(|c| c.status == "True"),
        terminating: p.metadata.deletion_timestamp.is_some(),
        created: p.metadata.creation_timestamp.as_ref().and_then(time),
        started: status.and_then(|s| s.start_time.as_ref()).and_then(time),
        unschedulable_since: condition("PodScheduled")
            .filter(|c| c.status == "False")
            .and_then(|c| c.last_transition_time.as_ref())
            .and_then(time),
        node_selector: spec
            .and_then(|s| s.node_selector.as_ref())
            .into_iter()
            .flatten()
            .map(|(k, v)| (i.name(k), i.name(v)))
            .collect(),
        other_requests,
        scheduler_name: i.name(spec.and_then(|s| s.scheduler_name.as_deref()).unwrap_or("")),
        ome,
        controller: owner(i, p.metadata.owner_references.as_ref()),
        cpu_milli,
        memory,
        scheduled_condition: condition("PodScheduled").is_some(),
        placement,
    })
}

/// Converts a ConfigMap (string data only).
pub fn config_map(i: &mut Interner, c: &core::ConfigMap) -> ConfigMap {
    ConfigMap {
        namespace: i.name(c.metadata.namespace.as_deref().unwrap_or_default()),
        name: i.name(c.metadata.name.as_deref().unwrap_or_default()),
        resource_version: i.name(c.metadata.resource_version.as_deref().unwrap_or_default()),
        data: c.data.clone().unwrap_or_default(),
    }
}

/// Converts a PersistentVolumeClaim (access modes only).
pub fn volume_claim(i: &mut Interner, c: &core::PersistentVolumeClaim) -> VolumeClaim {
    let modes = c.spec.as_ref().and_then(|s| s.access_modes.as_ref());
    VolumeClaim {
        namespace: i.name(c.metadata.namespace.as_deref().unwrap_or_default()),
        name: i.name(c.metadata.name.as_deref().unwrap_or_default()),
        access_modes: modes.into_iter().flatten().map(|m| i.name(m)).collect(),
    }
}
