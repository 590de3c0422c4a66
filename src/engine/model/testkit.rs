//! Test builders for engine objects (`NodeBuilder`-style helpers), compiled only for tests.

use std::sync::Arc;

use crate::engine::model::Name;

use chrono::{TimeZone, Utc};

use crate::engine::model::{
    Allocatable, ComponentSpec, InferenceService, Labels, Node, OmeLabels, Pod, PodPhase, Time,
};

/// 2026-09-28 at `h:m:s` UTC.
pub fn at(h: u32, m: u32, s: u32) -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, h, m, s).unwrap()
}

/// An 8-GPU H100 node by default.
pub fn node(name: &str, gpus: u32) -> Node {
    Node {
        name: Arc::from(name),
        uid: Arc::from(format!("uid-{name}")),
        labels: Labels::from_pairs(vec![(
            Arc::from("nvidia.com/gpu.product"),
            Arc::from("H100"),
        )]),
        taints: Vec::new(),
        unschedulable: false,
        conditions: Vec::new(),
        gpu_resource: Some(Arc::from("nvidia.com/gpu")),
        gpu_allocatable: gpus,
        allocatable: Allocatable {
            cpu_milli: 96_000,
            memory: 1 << 40,
            pods: 110,
        },
        other_allocatable: None,
        capacity: Allocatable {
            cpu_milli: 96_000,
            memory: 1 << 40,
            pods: 110,
        },
        gpu_capacity: gpus,
        created: None,
        resource_version: Arc::from("1"),
    }
}

/// A running pod with `gpus` on `node` (`None` = pending).
pub fn pod(ns: &str, name: &str, node: Option<&str>, gpus: u32) -> Pod {
    Pod {
        namespace: Arc::from(ns),
        name: Arc::from(name),
        node: node.map(Arc::from),
        phase: if node.is_some() {
            PodPhase::Running
        } else {
            PodPhase::Pending
        },
        gpus,
        gpu_resource: (gpus > 0).then(|| Arc::from("nvidia.com/gpu")),
        ready: node.is_some(),
        terminating: false,
        created: Some(at(9, 0, 0)),
        started: Some(at(9, 0, 0)),
        unschedulable_since: None,
        node_selector: Vec::new(),
        other_requests: None,
        scheduler_name: Arc::from(""),
        ome: OmeLabels::default(),
        controller: None,
        cpu_milli: 0,
        memory: 0,
        scheduled_condition: node.is_some(),
        placement: None,
    }
}

/// An InferenceService with only an engine block.
pub fn isvc(ns: &str, name: &str) -> InferenceService {
    let mut w = InferenceService::named(Arc::from(ns), Arc::from(name), |key| Name::from(key));
    w.uid = Arc::from(format!("uid-{ns}-{name}"));
    w.resource_version = Arc::from("1");
    w.components[0] = Some(ComponentSpec::default());
    w
}
