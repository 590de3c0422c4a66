//! The incremental analysis against the full one: random sequences of watch events (pods
//! added, changed — GPUs, phase, readiness, deletion, labels, moved to another node or
//! unbound — and deleted; nodes changed — health conditions, cordon, labels, taints, GPUs —
//! added and deleted; Events replaced) applied to seeded fleets and to the shipped snapshots.
//! After EACH event the incremental snapshot must equal the reference snapshot edited the same
//! way, its index the index of that snapshot, and its whole `Analysis` (every field, by its
//! `Debug` rendering) the full `analyze` of it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{Duration, TimeZone, Utc};
use proptest::prelude::*;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::Incremental;
use ome_top::engine::analysis::{
    analyze, Analysis, AnalysisOptions, Change, ExecutorSetting, MovesRerun,
};
use ome_top::engine::index::SnapshotIndex;
use ome_top::engine::model::{
    ClusterSnapshot, Event, LabelInt, Labels, Name, NodeCondition, PodPhase, Taint, Time,
};
use ome_top::sim::fleet::{generate_fleet, generate_fleet_unpublished, FleetSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;

fn now() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap()
}

fn options() -> AnalysisOptions {
    AnalysisOptions {
        now: now(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
    }
}

/// The fleets events are applied to.
fn fleet(which: u8) -> ClusterSnapshot {
    let spec = |seed, nodes, pods| FleetSpec { seed, nodes, pods };
    match which % 6 {
        0 => generate_fleet(&spec(3, 24, 260), now()),
        1 => {
            let mut snap = generate_fleet(&spec(5, 30, 320), now());
            make_gang_heavy(&mut snap);
            snap
        }
        2 => generate_fleet_unpublished(&spec(11, 16, 300), now()),
        3 => shipped("docs/examples/mixed-fleet.json"),
        4 => shipped("tests/fixtures/k8s/gangs.json"),
        _ => shipped("tests/fixtures/k8s/lints.json"),
    }
}

fn shipped(file: &str) -> ClusterSnapshot {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    read_snapshot(&std::fs::read(root.join(file)).unwrap())
        .unwrap()
        .0
}

/// One random event: which object (an index taken modulo the current count), and what.
#[derive(Debug, Clone)]
enum Op {
    PodChange(usize, PodChange),
    PodAdd(usize, u16, PodChange),
    PodDelete(usize),
    NodeChange(usize, NodeChange),
    NodeAdd(usize),
    NodeDelete(usize),
    Events(usize),
}

#[derive(Debug, Clone)]
enum PodChange {
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
}

#[derive(Debug, Clone)]
enum NodeChange {
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

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (any::<usize>(), pod_change()).prop_map(|(p, c)| Op::PodChange(p, c)),
        3 => (any::<usize>(), any::<u16>(), pod_change()).prop_map(|(p, n, c)| Op::PodAdd(p, n, c)),
        3 => any::<usize>().prop_map(Op::PodDelete),
        3 => (any::<usize>(), node_change()).prop_map(|(n, c)| Op::NodeChange(n, c)),
        1 => any::<usize>().prop_map(Op::NodeAdd),
        1 => any::<usize>().prop_map(Op::NodeDelete),
        1 => any::<usize>().prop_map(Op::Events),
    ]
}

fn name(s: impl Into<String>) -> Name {
    Arc::from(s.into())
}

/// The pod `p` (modulo) of `snap` changed by `change`.
fn changed_pod(
    snap: &ClusterSnapshot,
    p: usize,
    change: &PodChange,
) -> ome_top::engine::model::Pod {
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
    }
    pod
}

/// The change `op` makes to `snap` (`None`: nothing to pick from).
fn change(snap: &ClusterSnapshot, op: &Op) -> Option<Change> {
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
            pod.uid = name(format!("uid-x{n}"));
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
            Change::Events(events)
        }
        _ => return None,
    })
}

fn changed_node(
    snap: &ClusterSnapshot,
    n: usize,
    change: &NodeChange,
) -> ome_top::engine::model::Node {
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

/// Applies `change` to a plain snapshot, as the incremental analysis applies it to its own.
fn edit(snap: &mut ClusterSnapshot, change: &Change) {
    match change.clone() {
        Change::Pod(pod) => {
            snap.upsert_pod(pod);
        }
        Change::PodDeleted { namespace, name } => {
            snap.delete_pod(&namespace, &name);
        }
        Change::Node(node) => {
            snap.upsert_node(node);
        }
        Change::NodeDeleted(name) => {
            snap.delete_node(&name);
        }
        Change::Events(events) => snap.events = events,
        Change::Snapshot(s) => *snap = *s,
    }
}

/// The first field of two analyses that differs, with both renderings (`None`: equal).
fn first_difference(got: &Analysis, want: &Analysis) -> Option<String> {
    let fields: [(&str, String, String); 16] = [
        ("now", format!("{:?}", got.now), format!("{:?}", want.now)),
        (
            "config",
            format!("{:?}", got.config),
            format!("{:?}", want.config),
        ),
        (
            "config_error",
            format!("{:?}", got.config_error),
            format!("{:?}", want.config_error),
        ),
        (
            "config_present",
            format!("{:?}", got.config_present),
            format!("{:?}", want.config_present),
        ),
        (
            "executor",
            format!("{:?}", got.executor_available),
            format!("{:?}", want.executor_available),
        ),
        (
            "nodes",
            format!("{:#?}", got.nodes),
            format!("{:#?}", want.nodes),
        ),
        (
            "node_order",
            format!("{:?}", got.node_order),
            format!("{:?}", want.node_order),
        ),
        (
            "pools",
            format!("{:#?}", got.pools),
            format!("{:#?}", want.pools),
        ),
        (
            "workloads",
            format!("{:#?}", got.workloads),
            format!("{:#?}", want.workloads),
        ),
        (
            "verdicts",
            format!("{:#?}", got.verdicts),
            format!("{:#?}", want.verdicts),
        ),
        (
            "journal",
            format!("{:?}", got.journal),
            format!("{:?}", want.journal),
        ),
        (
            "clearing",
            format!("{:?}", got.clearing),
            format!("{:?}", want.clearing),
        ),
        (
            "moves",
            format!("{:#?}", got.moves),
            format!("{:#?}", want.moves),
        ),
        (
            "published",
            format!("{:?}", got.published),
            format!("{:?}", want.published),
        ),
        (
            "gangs",
            format!("{:#?}", got.gangs),
            format!("{:#?}", want.gangs),
        ),
        (
            "lints+warnings",
            format!("{:#?}{:#?}", got.lints, got.warnings),
            format!("{:#?}{:#?}", want.lints, want.warnings),
        ),
    ];
    fields
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(field, a, b)| {
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            let around = |s: &str| {
                s.lines()
                    .skip(line.saturating_sub(6))
                    .take(14)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            format!(
                "{field} differs at line {line}:\n--- incremental\n{}\n--- full\n{}",
                around(&a),
                around(&b)
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Incremental == full after each event of a random sequence.
    #[test]
    fn incremental_equals_full_after_every_event(
        which in 0u8..6,
        ops in proptest::collection::vec(op(), 1..24),
    ) {
        let start = fleet(which);
        let mut reference = start.clone();
        let mut inc = Incremental::new(start, options());
        for (step, op) in ops.iter().enumerate() {
            let Some(change) = change(&reference, op) else { continue };
            edit(&mut reference, &change);
            inc.apply(change);
            prop_assert!(inc.snapshot() == &reference, "step {step} ({op:?}): snapshots differ");
            prop_assert!(
                inc.index() == &SnapshotIndex::new(&reference),
                "step {step} ({op:?}): index differs"
            );
            let full = analyze(&reference, &options());
            if let Some(diff) = first_difference(inc.analysis(), &full) {
                prop_assert!(false, "step {step} ({op:?}): {diff}");
            }
        }
    }
}

/// What each kind of pod event re-runs on a 3,000-pod fleet, and that the result is still the
/// full analysis: a node agent's update reruns nothing; a model
/// pod's readiness rebuilds its component and merges that component's move rows; a model
/// pod's deletion changes its node's allocation, so its pool's rows are rebuilt.
#[test]
fn each_event_kind_reruns_only_what_it_touches() {
    let snap = generate_fleet(
        &FleetSpec {
            seed: 7,
            nodes: 300,
            pods: 3_000,
        },
        now(),
    );
    let mut inc = Incremental::new(snap, options());
    let check = |inc: &Incremental| {
        let full = analyze(inc.snapshot(), &options());
        assert_eq!(first_difference(inc.analysis(), &full), None);
    };
    let pods = &inc.snapshot().pods;
    let agent = pods
        .iter()
        .find(|p| p.gpus == 0 && p.node.is_some() && p.ome.isvc.is_none())
        .cloned()
        .expect("node agents");
    let a = inc.analysis();
    let movable = a
        .verdicts
        .iter()
        .filter(|v| v.defrag.is_ok())
        .find_map(|v| {
            let inst = &a.workloads.components[v.component].instances[v.instance];
            inst.pods.first().map(|p| pods[*p].clone())
        })
        .expect("a movable Instance");

    let mut changed = agent.clone();
    changed.ready = !changed.ready;
    inc.apply(Change::Pod(Arc::new(changed)));
    let r = inc.last_rerun();
    assert!(
        !r.full && r.components == 0 && r.pools == 0 && !r.lints && !r.gangs,
        "{r:?}"
    );
    assert_eq!(r.moves, MovesRerun::Reused);
    check(&inc);

    let mut flipped = movable.clone();
    flipped.ready = !flipped.ready;
    inc.apply(Change::Pod(Arc::new(flipped)));
    let r = inc.last_rerun();
    assert!(!r.full && r.components >= 1 && !r.lints, "{r:?}");
    assert!(
        matches!(r.moves, MovesRerun::Components(n) if n >= 1),
        "{r:?}"
    );
    check(&inc);

    inc.apply(Change::PodDeleted {
        namespace: movable.namespace.clone(),
        name: movable.name.clone(),
    });
    let r = inc.last_rerun();
    assert!(!r.full && r.nodes >= 1 && r.pools >= 1 && r.lints, "{r:?}");
    check(&inc);
    inc.apply(Change::Pod(Arc::new(movable)));
    check(&inc);
}
