//! Conversion of the resource parts of Pods and Nodes (k8s-openapi types) into the engine
//! model: a pod's effective request of every resource it asks for, by the scheduler's rule,
//! and a node's allocatable and capacity of every resource it reports.
//!
//! Owns: `PodRequests`, `pod_requests`, `allocatable`, `capacity`, `gpu_capacity`,
//! `other_allocatable`. Pure functions.

use std::collections::BTreeMap;
use std::sync::Arc;

use k8s_openapi::api::core::v1 as core;
use k8s_openapi::apimachinery::pkg::api::resource::Quantity;

use crate::cluster::convert::{Interner, Warnings};
use crate::engine::model::{parse_quantity, whole_devices};
use crate::engine::model::{Allocatable, Name, ResourceList, UNREPORTED};

type Resources = BTreeMap<String, Quantity>;

/// A quantity as a whole number of units after scaling (`scale` 1000 for millicores),
/// rounded up as Kubernetes' `MilliValue`/`Value` do; unparsable or negative ⇒ `None`.
fn amount(q: &Quantity, scale: f64) -> Option<u64> {
    let v = parse_quantity(&q.0).ok()? * scale;
    (v >= 0.0).then(|| {
        if v >= u64::MAX as f64 {
            u64::MAX
        } else {
            v.ceil() as u64
        }
    })
}

/// The unit a resource's amount is kept in: millicores for CPU, whole units otherwise.
fn scale(resource: &str) -> f64 {
    if resource == "cpu" {
        1000.0
    } else {
        1.0
    }
}

/// A container's request of `resource`: the request, else the limit (the API server defaults
/// a missing request to the limit); 0 when it names neither.
fn container_request(c: &core::Container, resource: &str, id: &str, w: &mut Warnings) -> u64 {
    let res = c.resources.as_ref();
    let q = res
        .and_then(|r| r.requests.as_ref().and_then(|m| m.get(resource)))
        .or_else(|| res.and_then(|r| r.limits.as_ref().and_then(|m| m.get(resource))));
    match q {
        None => 0,
        Some(q) => amount(q, scale(resource)).unwrap_or_else(|| {
            w.push(format!("{id}: {} {resource} {:?} ignored", c.name, q.0));
            0
        }),
    }
}

/// Kubernetes' effective pod request of one resource: the larger of Σ app containers + Σ
/// sidecars (restartable init containers) and, per regular init container, its request + the
/// sidecars started before it; a pod-level `resources.requests` entry instead when set; plus
/// `overhead`.
fn effective(spec: &core::PodSpec, resource: &str, id: &str, w: &mut Warnings) -> u64 {
    let mut sidecars = 0u64;
    let mut init_peak = 0u64;
    for c in spec.init_containers.iter().flatten() {
        let r = container_request(c, resource, id, w);
        if c.restart_policy.as_deref() == Some("Always") {
            sidecars = sidecars.saturating_add(r);
            init_peak = init_peak.max(sidecars);
        } else {
            init_peak = init_peak.max(r.saturating_add(sidecars));
        }
    }
    let app = spec.containers.iter().fold(0u64, |sum, c| {
        sum.saturating_add(container_request(c, resource, id, w))
    });
    let mut total = app.saturating_add(sidecars).max(init_peak);
    let pod_level = spec.resources.as_ref().and_then(|r| r.requests.as_ref());
    if let Some(q) = pod_level.and_then(|m| m.get(resource)) {
        total = amount(q, scale(resource)).unwrap_or(total);
    }
    let overhead: Option<&Resources> = spec.overhead.as_ref();
    let extra = overhead
        .and_then(|o| o.get(resource))
        .and_then(|q| amount(q, scale(resource)))
        .unwrap_or(0);
    total.saturating_add(extra)
}

/// Every resource name the pod's containers, init containers, pod-level requests or overhead
/// name, besides CPU and memory, sorted.
fn other_names(spec: &core::PodSpec) -> Vec<&str> {
    let containers = spec
        .init_containers
        .iter()
        .flatten()
        .chain(&spec.containers);
    let maps = containers
        .filter_map(|c| c.resources.as_ref())
        .flat_map(|r| r.requests.iter().chain(&r.limits))
        .chain(spec.resources.as_ref().and_then(|r| r.requests.as_ref()))
        .chain(spec.overhead.as_ref());
    let mut names: Vec<&str> = maps
        .flat_map(|m| m.keys())
        .map(String::as_str)
        .filter(|n| !matches!(*n, "cpu" | "memory"))
        .collect();
    names.sort_unstable();
    names.dedup();
    names
}

/// A pod's effective requests.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PodRequests {
    /// CPU, millicores.
    pub cpu_milli: u64,
    /// Memory, bytes.
    pub memory: u64,
    /// Every other resource with a positive request, but `gpu_resource` when its request is
    /// the pod's GPU count (`Pod::other_requests`).
    pub others: Option<Arc<ResourceList>>,
}

/// The effective requests of a pod whose GPU count is `gpus` of `gpu_resource`.
pub fn pod_requests(
    i: &mut Interner,
    spec: &core::PodSpec,
    (gpus, gpu_resource): (u32, Option<&str>),
    id: &str,
    w: &mut Warnings,
) -> PodRequests {
    let mut others: Vec<(Name, u64)> = Vec::new();
    for name in other_names(spec) {
        let v = effective(spec, name, id, w);
        let the_gpu_count = gpu_resource == Some(name) && v == u64::from(gpus);
        if v > 0 && !the_gpu_count {
            others.push((i.name(name), v));
        }
    }
    PodRequests {
        cpu_milli: effective(spec, "cpu", id, w),
        memory: effective(spec, "memory", id, w),
        others: i.resources(ResourceList::new(others)),
    }
}

/// Node allocatable CPU, memory and pods ([`UNREPORTED`] when absent or unparsable).
pub fn allocatable(status: Option<&core::NodeStatus>) -> Allocatable {
    node_resources(status.and_then(|s| s.allocatable.as_ref()))
}

/// Node capacity CPU, memory and pods ([`UNREPORTED`] when absent or unparsable).
pub fn capacity(status: Option<&core::NodeStatus>) -> Allocatable {
    node_resources(status.and_then(|s| s.capacity.as_ref()))
}

fn node_resources(map: Option<&Resources>) -> Allocatable {
    let get = |n: &str| {
        map.and_then(|m| m.get(n))
            .and_then(|q| amount(q, scale(n)))
            .unwrap_or(UNREPORTED)
    };
    Allocatable {
        cpu_milli: get("cpu"),
        memory: get("memory"),
        pods: get("pods"),
    }
}

/// Allocatable of every resource the node reports besides CPU, memory, pods and its GPU
/// resource `gpu` (`Node::other_allocatable`); an unparsable amount counts as 0 (the
/// scheduler then fits nothing that asks for it) with a warning.
pub fn other_allocatable(
    i: &mut Interner,
    status: Option<&core::NodeStatus>,
    gpu: Option<&str>,
    (id, w): (&str, &mut Warnings),
) -> Option<Arc<ResourceList>> {
    let map = status.and_then(|s| s.allocatable.as_ref());
    let mut list: Vec<(Name, u64)> = Vec::new();
    for (name, q) in map.into_iter().flatten() {
        if matches!(name.as_str(), "cpu" | "memory" | "pods") || Some(name.as_str()) == gpu {
            continue;
        }
        let v = amount(q, 1.0).unwrap_or_else(|| {
            w.push(format!(
                "{id}: status.allocatable[{name}] {:?} read as 0",
                q.0
            ));
            0
        });
        list.push((i.name(name), v));
    }
    i.resources(ResourceList::new(list))
}

/// `status.capacity[resource]` in whole devices; 0 when absent or unparsable (the capacity is
/// shown, never used in a decision, so a bad value is not worth refusing the node).
pub fn gpu_capacity(status: Option<&core::NodeStatus>, resource: Option<&str>) -> u32 {
    let q = resource.and_then(|r| status?.capacity.as_ref()?.get(r));
    q.and_then(|q| parse_quantity(&q.0).ok())
        .map_or(0, |v| whole_devices(v).0)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)] // Tests may fail loudly.

    use super::*;
    use serde_json::json;

    fn requests(spec: serde_json::Value, gpus: u32) -> PodRequests {
        let spec: core::PodSpec = serde_json::from_value(spec).unwrap();
        let mut w = Vec::new();
        let gpu = (gpus > 0).then_some("nvidia.com/gpu");
        pod_requests(
            &mut Interner::default(),
            &spec,
            (gpus, gpu),
            "Pod p",
            &mut w,
        )
    }

    #[test]
    fn the_common_gpu_pod_keeps_no_other_requests() {
        let r = requests(
            json!({"containers": [{"name": "c", "resources": {
                "requests": {"cpu": "8", "memory": "64Gi", "nvidia.com/gpu": "8"},
                "limits": {"nvidia.com/gpu": "8"}}}]}),
            8,
        );
        assert_eq!((r.cpu_milli, r.memory, r.others), (8_000, 64 << 30, None));
    }

    #[test]
    fn other_requests_keep_every_name_and_the_gpu_when_an_init_container_asks_more() {
        let r = requests(
            json!({"initContainers": [{"name": "i", "resources": {"limits": {"nvidia.com/gpu": "8"}}}],
                   "containers": [{"name": "c", "resources": {"limits": {
                       "nvidia.com/gpu": "2", "example.com/widget": "3", "hugepages-2Mi": "4Mi"}}}]}),
            2,
        );
        let others = r.others.unwrap();
        assert_eq!(others.get("nvidia.com/gpu"), 8);
        assert_eq!(
            others.get("example.com/widget"),
            3,
            "unknown names are kept"
        );
        assert_eq!(others.get("hugepages-2Mi"), 4 << 20);
    }
}
