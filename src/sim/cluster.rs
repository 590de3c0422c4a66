//! A seeded generator of OME clusters in the engine's model: three pools (H100, A100, Gaudi 2),
//! OMENative single- and multi-node Instances with consistent InferenceReplicas, RawDeployment
//! pods, system pods without GPUs, and pending GPU pods, placed the way LeastAllocated scheduling
//! spreads them (so the cluster fragments).
//!
//! Owns: `ClusterSpec`, `generate_cluster`, `generate_cluster_unpublished`. Deterministic for a seed; no
//! I/O and no clock (the observation time is an argument).

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Duration;

use crate::engine::model::{
    Allocatable, ClusterSnapshot, ComponentSpec, ConfigMap, InferenceService, LabelInt, Labels,
    Name, Node, OmeLabels, OwnerRef, Pod, PodPhase, Time,
};
use crate::sim::published::as_published;
use crate::sim::replica::omenative_replica;
use crate::sim::rng::Rng;

/// What cluster to generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClusterSpec {
    /// Seed of the generator.
    pub seed: u64,
    /// Number of GPU nodes (8 devices each).
    pub nodes: usize,
    /// Total pods to aim for (GPU pods + system pods + pending pods).
    pub pods: usize,
}

/// The three pools: (product label or instance type, resource, share of nodes in percent).
const POOLS: [(&str, &str, u64); 3] = [
    ("NVIDIA-H100-80GB-HBM3", "nvidia.com/gpu", 50),
    ("NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu", 30),
    ("gaudi2", "habana.ai/gaudi", 20),
];

/// Devices per node in every generated pool (a Gaudi 2 node has 8 cards).
pub const DEVICES_PER_NODE: u32 = 8;

struct Placer {
    free: Vec<u32>,
    pool_of: Vec<usize>,
    by_pool: Vec<Vec<usize>>,
}

impl Placer {
    /// LeastAllocated-like: sample a few nodes of the pool, take the emptiest that fits.
    fn place(&mut self, rng: &mut Rng, pool: usize, gpus: u32) -> Option<usize> {
        let nodes = &self.by_pool[pool];
        if nodes.is_empty() {
            return None;
        }
        let mut best: Option<usize> = None;
        for _ in 0..6 {
            let n = nodes[rng.below(nodes.len() as u64) as usize];
            if self.free[n] >= gpus && best.is_none_or(|b| self.free[n] > self.free[b]) {
                best = Some(n);
            }
        }
        // Sampling found nothing: the scheduler would still find any node with room.
        let n = best.or_else(|| {
            let start = rng.below(nodes.len() as u64) as usize;
            (0..nodes.len())
                .map(|k| nodes[(start + k) % nodes.len()])
                .find(|n| self.free[*n] >= gpus)
        })?;
        self.free[n] -= gpus;
        Some(n)
    }
}

fn nodes(spec: &ClusterSpec, rng: &mut Rng) -> (Vec<Node>, Placer) {
    let mut out = Vec::with_capacity(spec.nodes);
    let mut placer = Placer {
        free: Vec::with_capacity(spec.nodes),
        pool_of: Vec::with_capacity(spec.nodes),
        by_pool: vec![Vec::new(); POOLS.len()],
    };
    for i in 0..spec.nodes {
        let roll = rng.below(100);
        let pool = if roll < POOLS[0].2 {
            0
        } else if roll < POOLS[0].2 + POOLS[1].2 {
            1
        } else {
            2
        };
        let (product, resource, _) = POOLS[pool];
        let label = if pool == 2 {
            "node.kubernetes.io/instance-type"
        } else {
            "nvidia.com/gpu.product"
        };
        let name = format!("gpu-{}-{i:05}", ["h100", "a100", "gaudi"][pool]);
        out.push(Node {
            name: Arc::from(name.as_str()),
            uid: Arc::from(format!("uid-{name}")),
            labels: Labels::from_pairs(vec![
                (Arc::from(label), Arc::from(product)),
                (
                    Arc::from("kubernetes.io/hostname"),
                    Arc::from(name.as_str()),
                ),
            ]),
            taints: Vec::new(),
            unschedulable: false,
            conditions: Vec::new(),
            gpu_resource: Some(Arc::from(resource)),
            gpu_allocatable: DEVICES_PER_NODE,
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
            gpu_capacity: DEVICES_PER_NODE,
            created: None,
            resource_version: Arc::from("1"),
        });
        placer.free.push(DEVICES_PER_NODE);
        placer.pool_of.push(pool);
        placer.by_pool[pool].push(i);
    }
    (out, placer)
}

/// The nodeSelector that pins a pod to generated pool `pool`, as OME deployments do.
fn pool_selector(pool: usize) -> Vec<(Name, Name)> {
    let key = if pool == 2 {
        "node.kubernetes.io/instance-type"
    } else {
        "nvidia.com/gpu.product"
    };
    vec![(Arc::from(key), Arc::from(POOLS[pool].0))]
}

/// A bare pod requesting `nvidia.com/gpu`; callers fill in labels, owners and, for other
/// accelerators, `gpu_resource`.
pub fn base_pod(ns: &Name, name: String, node: Option<&Node>, gpus: u32, started: Time) -> Pod {
    Pod {
        namespace: ns.clone(),
        name: Arc::from(name),
        node: node.map(|n| n.name.clone()),
        phase: if node.is_some() {
            PodPhase::Running
        } else {
            PodPhase::Pending
        },
        gpus,
        gpu_resource: (gpus > 0).then(|| Arc::from("nvidia.com/gpu")),
        ready: node.is_some(),
        terminating: false,
        created: Some(started),
        started: node.map(|_| started),
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

/// An InferenceService in `mode` whose engine has leader/worker blocks when `leader`.
pub fn isvc(ns: &Name, name: &str, mode: &str, leader: bool) -> InferenceService {
    let mut w = InferenceService::named(ns.clone(), Arc::from(name), |key| Name::from(key));
    w.uid = Arc::from(format!("uid-isvc-{ns}-{name}"));
    w.resource_version = Arc::from("1");
    w.deployment_mode = Some(Arc::from(mode));
    w.components[0] = Some(ComponentSpec {
        mode_annotation: None,
        has_leader: leader,
        has_worker: leader,
    });
    w
}

/// Instance sizes (GPUs per pod) and their weights in percent.
pub const SIZES: [(u32, u64); 4] = [(1, 40), (2, 25), (4, 20), (8, 15)];

/// One Instance size drawn from `SIZES` (GPUs per pod: 1, 2, 4 or 8).
pub fn pick_size(rng: &mut Rng) -> u32 {
    let mut roll = rng.below(100);
    for (size, weight) in SIZES {
        if roll < weight {
            return size;
        }
        roll -= weight;
    }
    8
}

/// Generates a cluster observed at `now`, in the shape the live store publishes it (objects in
/// store key order, strings interned: `sim::published`).
pub fn generate_cluster(spec: &ClusterSpec, now: Time) -> ClusterSnapshot {
    as_published(generate_cluster_unpublished(spec, now))
}

/// Generates a cluster observed at `now`, objects in generation order, strings as generated.
pub fn generate_cluster_unpublished(spec: &ClusterSpec, now: Time) -> ClusterSnapshot {
    let mut rng = Rng::new(spec.seed);
    let (nodes, mut placer) = nodes(spec, &mut rng);
    let mut snap = ClusterSnapshot {
        nodes: nodes.into(),
        replicas_listed: true,
        ..Default::default()
    };
    // About a fifth of the pods ask for GPUs (≈ 70% of the devices); the rest are node agents.
    let system_pods = spec.pods.saturating_sub(spec.pods / 5);
    let gpu_budget = spec.pods - system_pods;
    let namespaces: Vec<Name> = (0..8).map(|i| Arc::from(format!("team-{i}"))).collect();
    let mut w = 0usize;
    while snap.pods.len() < gpu_budget {
        let ns = &namespaces[w % namespaces.len()];
        let pool = placer.pool_of[rng.below(snap.nodes.len().max(1) as u64) as usize];
        let kind = rng.below(100);
        let started = now - Duration::minutes(30 + rng.below(6000) as i64);
        if kind < 60 {
            add_omenative(
                &mut snap,
                &mut placer,
                &mut rng,
                (ns, w, pool),
                started,
                false,
            );
        } else if kind < 70 {
            add_omenative(
                &mut snap,
                &mut placer,
                &mut rng,
                (ns, w, pool),
                started,
                true,
            );
        } else {
            add_raw(&mut snap, &mut placer, &mut rng, (ns, w, pool), started);
        }
        w += 1;
    }
    add_system_pods(&mut snap, system_pods, now);
    add_alfred_objects(&mut snap);
    snap
}

fn add_raw(
    snap: &mut ClusterSnapshot,
    placer: &mut Placer,
    rng: &mut Rng,
    (ns, w, pool): (&Name, usize, usize),
    started: Time,
) {
    let name = format!("raw-{w}");
    snap.isvcs.push(isvc(ns, &name, "RawDeployment", false));
    let gpus = pick_size(rng);
    for r in 0..1 + rng.below(4) {
        let node = placer.place(rng, pool, gpus);
        let mut pod = base_pod(
            ns,
            format!("{name}-engine-{r}"),
            node.map(|n| &snap.nodes[n]),
            gpus,
            started,
        );
        pod.gpu_resource = Some(Arc::from(POOLS[pool].1));
        pod.ome.isvc = Some(Arc::from(name.as_str()));
        pod.ome.component = Some(Arc::from("engine"));
        pod.node_selector = pool_selector(pool);
        snap.pods.push(pod);
    }
}

fn add_omenative(
    snap: &mut ClusterSnapshot,
    placer: &mut Placer,
    rng: &mut Rng,
    (ns, w, pool): (&Name, usize, usize),
    started: Time,
    multi_node: bool,
) {
    let name = format!("chat-{w}");
    let mut service = isvc(ns, &name, "OMENative", multi_node);
    if rng.below(20) == 0 {
        service
            .annotations
            .insert(Arc::from("alfred.ome.io/movable"), "false".into());
    }
    let (gpus, per_instance) = if multi_node {
        (8, 2)
    } else {
        (pick_size(rng), 1)
    };
    let instances = 1 + rng.below(3) as i64;
    let ir_name = format!("{name}-engine");
    let ir_uid: Name = Arc::from(format!("uid-ir-{ns}-{ir_name}"));
    let mut placed_all = true;
    for index in 0..instances {
        for member in 0..per_instance {
            let node = placer.place(rng, pool, gpus);
            placed_all &= node.is_some();
            let runner = match (per_instance, member) {
                (1, _) => "default",
                (_, 0) => "leader",
                _ => "worker",
            };
            let pod_name = format!("{ir_name}-{index}-{runner}-0");
            let mut pod = base_pod(ns, pod_name, node.map(|n| &snap.nodes[n]), gpus, started);
            // Each pool's own accelerator: Gaudi pods request habana.ai/gaudi.
            pod.gpu_resource = Some(Arc::from(POOLS[pool].1));
            pod.ome = OmeLabels {
                isvc: Some(Arc::from(name.as_str())),
                component: Some(Arc::from("engine")),
                managed_by: Some(Arc::from("OMENative")),
                instance_index: LabelInt::Value(index),
                incarnation: LabelInt::Value(1),
                runner: Some(Arc::from(runner)),
                pod_ordinal: LabelInt::Value(0),
                pod_group: (per_instance > 1).then(|| Arc::from(format!("{ir_name}-{index}"))),
            };
            pod.node_selector = pool_selector(pool);
            pod.controller = Some(Arc::new(OwnerRef {
                api_version: Arc::from("ome.io/v1beta1"),
                kind: Arc::from("InferenceReplica"),
                name: Arc::from(ir_name.as_str()),
                uid: ir_uid.clone(),
            }));
            snap.pods.push(pod);
        }
    }
    let ready = placed_all && rng.below(10) != 0;
    let replica = omenative_replica(&service, &ir_name, &ir_uid, instances, per_instance, ready);
    snap.replicas.push(replica);
    snap.isvcs.push(service);
}

fn add_system_pods(snap: &mut ClusterSnapshot, count: usize, now: Time) {
    let ns: Name = Arc::from("kube-system");
    let n = snap.nodes.len().max(1);
    let daemon_sets = count.div_ceil(n).max(1);
    for i in 0..count {
        let node = snap.nodes.get(i % n).cloned();
        let mut pod = base_pod(
            &ns,
            format!("agent-{i}"),
            node.as_ref(),
            0,
            now - Duration::days(3),
        );
        // Node agents are DaemonSet pods, as on a real node (one DaemonSet per agent kind, one
        // pod of each per node): their controller makes them live pods the engine walks.
        let ds = i / n % daemon_sets;
        pod.controller = Some(Arc::new(OwnerRef {
            api_version: Arc::from("apps/v1"),
            kind: Arc::from("DaemonSet"),
            name: Arc::from(format!("node-agent-{ds}")),
            uid: Arc::from(format!("uid-kube-system-node-agent-{ds}")),
        }));
        snap.pods.push(pod);
    }
}

fn add_alfred_objects(snap: &mut ClusterSnapshot) {
    let ns: Name = Arc::from("ome");
    let mut journal = BTreeMap::new();
    journal.insert(
        "state.json".to_string(),
        r#"{"version":"v1","entries":[]}"#.to_string(),
    );
    snap.config_maps.push(ConfigMap {
        namespace: ns.clone(),
        name: Arc::from("alfred-dispatch-state"),
        resource_version: Arc::from("1"),
        data: journal,
    });
    let mut config = BTreeMap::new();
    config.insert(
        "config.yaml".to_string(),
        "schemaVersion: 1\nmode: execute\n".to_string(),
    );
    snap.config_maps.push(ConfigMap {
        namespace: ns,
        name: Arc::from("alfred-config"),
        resource_version: Arc::from("1"),
        data: config,
    });
}
