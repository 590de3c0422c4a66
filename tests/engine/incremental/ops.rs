//! Random watch events for the incremental-analysis property test: which object (an index
//! taken modulo the current count) and what happens to it.

use std::sync::Arc;

use chrono::Duration;
use proptest::prelude::*;

use ome_top::engine::analysis::{analyze, Change};
use ome_top::engine::model::{
    ClusterSnapshot, Event, InferenceService, LabelInt, Labels, ModelRef, Name, Node,
    NodeCondition, Pod, PodPhase, Taint,
};
use ome_top::sim::events::event_kinds;

use super::now;

/// One random event: which object (an index taken modulo the current count), and what.
#[derive(Debug, Clone)]
pub enum Op {
    PodChange(usize, PodChange),
    PodAdd(usize, u16, PodChange),
    PodDelete(usize),
    NodeChange(usize, NodeChange),
    NodeAdd(usize),
    NodeDelete(usize),
    Events(usize),
    IsvcChange(usize, IsvcChange),
    IsvcDelete(usize),
    /// One of the benchmarks' event kinds (`sim::events::event_kinds`, modulo their count):
    /// its change, or its undo.
    Kind(usize, bool),
}

/// What happens to an InferenceService: an annotation toggled (one nothing reads, one each
/// rule reads, a migration request), its model or mode changed, or a copy under a new name.
#[derive(Debug, Clone)]
pub enum IsvcChange {
    Annotation(u8),
    Model,
    Mode,
    Copy,
}

#[derive(Debug, Clone)]
pub enum PodChange {
    Gpus(u32),
    Ready,
    Terminating,
    Phase(u8),
    MoveTo(usize),
    Unbind,
    IsvcLabel(usize),
    DropIsvcLabel,
    Component(u8),
    ManagedBy,
    PodGroup(u8),
    InstanceIndex(i64),
    Selector(usize),
    Requests(u64),
    Pending(i64),
    Scheduler,
}

#[derive(Debug, Clone)]
pub enum NodeChange {
    Cordon,
    Condition(u8, bool),
    Label(u8),
    ToBeDeleted,
    Gpus(u32),
    PoolLabel,
}

fn pod_change() -> impl Strategy<Value = PodChange> {
    prop_oneof![
        (0u32..=9).prop_map(PodChange::Gpus),
        Just(PodChange::Ready),
        Just(PodChange::Terminating),
        (0u8..4).prop_map(PodChange::Phase),
        any::<usize>().prop_map(PodChange::MoveTo),
        Just(PodChange::Unbind),
        any::<usize>().prop_map(PodChange::IsvcLabel),
        Just(PodChange::DropIsvcLabel),
        (0u8..4).prop_map(PodChange::Component),
        Just(PodChange::ManagedBy),
        (0u8..3).prop_map(PodChange::PodGroup),
        (-1i64..4).prop_map(PodChange::InstanceIndex),
        any::<usize>().prop_map(PodChange::Selector),
        (0u64..64).prop_map(PodChange::Requests),
        (0i64..120).prop_map(PodChange::Pending),
        Just(PodChange::Scheduler),
    ]
}

fn node_change() -> impl Strategy<Value = NodeChange> {
    prop_oneof![
        Just(NodeChange::Cordon),
        ((0u8..3), any::<bool>()).prop_map(|(k, on)| NodeChange::Condition(k, on)),
        (0u8..3).prop_map(NodeChange::Label),
        Just(NodeChange::ToBeDeleted),
        (0u32..=8).prop_map(NodeChange::Gpus),
        Just(NodeChange::PoolLabel),
    ]
}

fn isvc_change() -> impl Strategy<Value = IsvcChange> {
    prop_oneof![
        6 => (0u8..8).prop_map(IsvcChange::Annotation),
        1 => Just(IsvcChange::Model),
        1 => Just(IsvcChange::Mode),
        1 => Just(IsvcChange::Copy),
    ]
}

pub fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (any::<usize>(), pod_change()).prop_map(|(p, c)| Op::PodChange(p, c)),
        3 => (any::<usize>(), any::<u16>(), pod_change()).prop_map(|(p, n, c)| Op::PodAdd(p, n, c)),
        3 => any::<usize>().prop_map(Op::PodDelete),
        3 => (any::<usize>(), node_change()).prop_map(|(n, c)| Op::NodeChange(n, c)),
        1 => any::<usize>().prop_map(Op::NodeAdd),
        1 => any::<usize>().prop_map(Op::NodeDelete),
        1 => any::<usize>().prop_map(Op::Events),
        3 => (any::<usize>(), isvc_change()).prop_map(|(i, c)| Op::IsvcChange(i, c)),
        1 => any::<usize>().prop_map(Op::IsvcDelete),
        4 => (any::<usize>(), any::<bool>()).prop_map(|(k, undo)| Op::Kind(k, undo)),
    ]
}

pub fn name(s: impl Into<String>) -> Name {
    Arc::from(s.into())
}

/// The pod `p` (modulo) of `snap` changed by `change`.
fn changed_pod(snap: &ClusterSnapshot, p: usize, change: &PodChange) -> Pod {
    let mut pod = snap.pods[p % snap.pods.len()].clone();
    match change {
        PodChange::Gpus(g) => pod.gpus = *g,
        PodChange::Ready => pod.ready = !pod.ready,
        PodChange::Terminating => pod.terminating = !pod.terminating,
        PodChange::Phase(k) => {
            pod.phase = [
                PodPhase::Pending,
                PodPhase::Running,
                PodPhase::Succeeded,
                PodPhase::Failed,
            ][usize::from(*k) % 4]
                .clone()
        }
        PodChange::MoveTo(n) if !snap.nodes.is_empty() => {
            pod.node = Some(snap.nodes[n % snap.nodes.len()].name.clone());
            pod.phase = PodPhase::Running;
        }
        PodChange::MoveTo(_) | PodChange::Unbind => {
            pod.node = None;
            pod.phase = PodPhase::Pending;
        }
        PodChange::IsvcLabel(i) if !snap.isvcs.is_empty() => {
            let w = &snap.isvcs[i % snap.isvcs.len()];
            pod.namespace = w.namespace().clone();
            pod.ome.isvc = Some(w.name().clone());
        }
        PodChange::IsvcLabel(_) | PodChange::DropIsvcLabel => pod.ome.isvc = None,
        PodChange::Component(c) => {
            pod.ome.component = ["engine", "decoder", "router", "sidecar"]
                .get(usize::from(*c))
                .map(|c| name(*c))
        }
        PodChange::ManagedBy => {
            pod.ome.managed_by = match pod.ome.managed_by {
                Some(_) => None,
                None => Some(name("OMENative")),
            }
        }
        PodChange::PodGroup(g) => {
            pod.ome.pod_group = (*g > 0).then(|| name(format!("gang-{g}")));
        }
        PodChange::InstanceIndex(i) => {
            pod.ome.instance_index = LabelInt::parse(Some(&i.to_string()), 0)
        }
        PodChange::Selector(n) if !snap.nodes.is_empty() => {
            let node = &snap.nodes[n % snap.nodes.len()];
            pod.node_selector = node.labels.0.iter().take(1).cloned().collect();
        }
        PodChange::Selector(_) => pod.node_selector.clear(),
        PodChange::Requests(r) => {
            pod.cpu_milli = r * 500;
            pod.memory = r << 30;
        }
        PodChange::Pending(m) => pod.unschedulable_since = Some(now() - Duration::minutes(*m)),
        // The gang engine reads the unplaced standalone pods of its own scheduler only.
        PodChange::Scheduler => {
            pod.scheduler_name = match pod.scheduler_name.as_ref() {
                "ome-scheduler" => name(""),
                _ => name("ome-scheduler"),
            }
        }
    }
    pod
}

/// The change `op` makes to `snap` (`None`: nothing to pick from).
pub fn change(snap: &ClusterSnapshot, op: &Op) -> Option<Change> {
    Some(match op {
        Op::PodChange(p, c) if !snap.pods.is_empty() => {
            let mut pod = changed_pod(snap, *p, c);
            // Keep the key: a changed namespace would be another pod.
            pod.namespace = snap.pods[p % snap.pods.len()].namespace.clone();
            Change::Pod(Arc::new(pod))
        }
        Op::PodAdd(p, n, c) if !snap.pods.is_empty() => {
            let mut pod = changed_pod(snap, *p, c);
            pod.name = name(format!("{}-x{n}", pod.name));
            Change::Pod(Arc::new(pod))
        }
        Op::PodDelete(p) if !snap.pods.is_empty() => {
            let pod = &snap.pods[p % snap.pods.len()];
            Change::PodDeleted {
                namespace: pod.namespace.clone(),
                name: pod.name.clone(),
            }
        }
        Op::NodeChange(n, c) if !snap.nodes.is_empty() => Change::Node(changed_node(snap, *n, c)),
        Op::NodeAdd(n) if !snap.nodes.is_empty() => {
            let mut node = snap.nodes[n % snap.nodes.len()].clone();
            node.name = name(format!("{}-new", node.name));
            Change::Node(node)
        }
        Op::NodeDelete(n) if !snap.nodes.is_empty() => {
            Change::NodeDeleted(snap.nodes[n % snap.nodes.len()].name.clone())
        }
        Op::Events(p) if !snap.pods.is_empty() => {
            let pod = &snap.pods[p % snap.pods.len()];
            let mut events = snap.events.clone();
            events.push(Event {
                namespace: pod.namespace.clone(),
                object_kind: name("Pod"),
                object_namespace: pod.namespace.clone(),
                object_name: pod.name.clone(),
                reason: name("FailedScheduling"),
                message: "0/4 nodes are available: 4 Insufficient nvidia.com/gpu.".into(),
                source: name("default-scheduler"),
                kind: name("Warning"),
                last_seen: Some(now() - Duration::minutes(1)),
                count: 1,
            });
            Change::Events(events.to_vec())
        }
        Op::IsvcChange(i, c) if !snap.isvcs.is_empty() => {
            Change::Isvc(Box::new(changed_isvc(snap, *i, c)))
        }
        Op::IsvcDelete(i) if !snap.isvcs.is_empty() => {
            let w = &snap.isvcs[i % snap.isvcs.len()];
            Change::IsvcDeleted {
                namespace: w.namespace().clone(),
                name: w.name().clone(),
            }
        }
        Op::Kind(k, undo) => {
            let analysis = analyze(snap, &super::options());
            let kinds = event_kinds(snap, &analysis);
            let kind = kinds.get(k % kinds.len().max(1))?;
            match undo {
                true => kind.undo.clone(),
                false => kind.change.clone(),
            }
        }
        _ => return None,
    })
}

/// Annotations the ISVC ops toggle: one nothing reads, then each one a rule reads.
const ANNOTATIONS: [(&str, &str); 8] = [
    ("alfred.ome.io/note", "x"),
    ("alfred.ome.io/movable", "false"),
    ("alfred.ome.io/cooldown-minutes", "30"),
    ("alfred.ome.io/cooldown-minutes", "soon"),
    ("alfred.ome.io/spot-policy", "avoid"),
    ("alfred.ome.io/tenant-group", "blue"),
    ("alfred.ome.io/priority", "0.9"),
    (
        "ome.io/migration-request-v1-00000000-0000-4000-8000-000000000001",
        r#"{"instance":0}"#,
    ),
];

fn changed_isvc(snap: &ClusterSnapshot, i: usize, change: &IsvcChange) -> InferenceService {
    let mut w = snap.isvcs[i % snap.isvcs.len()].clone();
    match change {
        IsvcChange::Annotation(k) => {
            let (key, value) = ANNOTATIONS[usize::from(*k) % ANNOTATIONS.len()];
            if w.annotations.remove(key).is_none() {
                w.annotations.insert(name(key), value.to_string());
            }
        }
        IsvcChange::Model => {
            w.model = match w.model {
                Some(_) => None,
                None => Some(ModelRef {
                    kind: name("ClusterBaseModel"),
                    name: name("llama-3-70b"),
                }),
            }
        }
        IsvcChange::Mode => {
            w.deployment_mode = match w.deployment_mode {
                Some(_) => None,
                None => Some(name("RawDeployment")),
            }
        }
        IsvcChange::Copy => {
            let mut copy = InferenceService::named(
                w.namespace().clone(),
                name(format!("{}-copy", w.name())),
                |k| name(k),
            );
            copy.components = w.components.clone();
            copy.deployment_mode = w.deployment_mode.clone();
            copy.annotations = w.annotations.clone();
            copy.uid = name(format!("{}-copy", w.uid));
            w = copy;
        }
    }
    w
}

fn changed_node(snap: &ClusterSnapshot, n: usize, change: &NodeChange) -> Node {
    let mut node = snap.nodes[n % snap.nodes.len()].clone();
    match change {
        NodeChange::Cordon => node.unschedulable = !node.unschedulable,
        NodeChange::Condition(k, on) => {
            let kind = ["Ready", "GpuUnhealthy", "MemoryPressure"][usize::from(*k) % 3];
            node.conditions.retain(|c| c.kind.as_ref() != kind);
            let healthy = (kind == "Ready") == *on;
            node.conditions.push(NodeCondition {
                kind: name(kind),
                status: name(if *on { "True" } else { "False" }),
                last_transition: Some(now() - Duration::minutes(if healthy { 3 } else { 90 })),
            });
        }
        NodeChange::Label(k) => {
            let mut pairs = node.labels.0.clone();
            let key = ["topology.kubernetes.io/zone", "ome.io/rack", "team"][usize::from(*k) % 3];
            match pairs.iter().position(|(l, _)| l.as_ref() == key) {
                Some(i) => {
                    pairs.remove(i);
                }
                None => pairs.push((name(key), name("b"))),
            }
            node.labels = Labels::from_pairs(pairs);
        }
        NodeChange::ToBeDeleted => node.taints.push(Taint {
            key: name("ToBeDeletedByClusterAutoscaler"),
            value: name(""),
            effect: name("NoSchedule"),
        }),
        NodeChange::Gpus(g) => node.gpu_allocatable = *g,
        NodeChange::PoolLabel => {
            let mut pairs = node.labels.0.clone();
            pairs.push((name("nvidia.com/gpu.product"), name("NVIDIA-L40S")));
            node.labels = Labels::from_pairs(pairs);
        }
    }
    node
}
