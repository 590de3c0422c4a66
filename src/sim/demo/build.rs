//! The initial demo cluster: nodes of the three pools in racks, the special nodes (one that will
//! turn `GpuUnhealthy`, one Suspect, one under a maintenance label, one cordoned without a
//! reason), gangs in several states, a few hundred regular Instances, Alfred's ConfigMaps and
//! the dispatch journal.
//!
//! Pure.

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::Duration;

use crate::engine::model::{Allocatable, ConfigMap, Labels, Node, NodeCondition, Time};
use crate::sim::demo::objects::{bind, pod_group, Shape};
use crate::sim::demo::place::{free_devices, Strategy, DEVICES, POOLS, RACK_LABEL, RACK_SIZE};
use crate::sim::demo::{alfred, DemoWorld, DEMO_NAMESPACE};

/// The maintenance trigger label of the demo's Alfred config.
pub const MAINTENANCE_LABEL: &str = "maintenance.ome.io/os-patching";
/// Share of each pool's devices the initial cluster allocates, percent.
const INITIAL_FILL: u64 = 84;
/// Part of the initial fill placed packed (the rest spreads), percent of devices.
const PACKED_FILL: u64 = 60;

/// Builds everything of a fresh world with `nodes` GPU nodes.
pub fn populate(world: &mut DemoWorld, nodes: usize) {
    let start = world.start;
    let first = add_nodes(world, nodes, start);
    special_nodes(world, &first, start);
    add_gangs(world, &first, start);
    for pool in 0..POOLS.len() {
        fill_pool(world, pool, PACKED_FILL, Strategy::MostAllocated);
        fill_pool(world, pool, INITIAL_FILL, Strategy::LeastAllocated);
    }
    add_config_maps(world);
    world.seed_journal(start);
}

/// Adds the nodes; returns the index of each pool's first node.
fn add_nodes(world: &mut DemoWorld, nodes: usize, start: Time) -> Vec<usize> {
    let mut counts: Vec<usize> = POOLS.iter().map(|p| nodes * p.share / 100).collect();
    counts[0] += nodes - counts.iter().sum::<usize>();
    let mut first = Vec::new();
    for (pool, def) in POOLS.iter().enumerate() {
        first.push(world.snap.nodes.len());
        for i in 0..counts[pool] {
            let name = format!("gpu-{}-{i:03}", def.prefix);
            let rack = format!("rack-{}-{:02}", def.prefix, i / RACK_SIZE);
            let rv = world.bump();
            world.snap.nodes.push(Node {
                name: Arc::from(name.as_str()),
                uid: Arc::from(format!("uid-node-{name}")),
                labels: Labels::from_pairs(vec![
                    (Arc::from(def.label), Arc::from(def.key)),
                    (
                        Arc::from("kubernetes.io/hostname"),
                        Arc::from(name.as_str()),
                    ),
                    (Arc::from(RACK_LABEL), Arc::from(rack)),
                ]),
                taints: Vec::new(),
                unschedulable: false,
                conditions: vec![NodeCondition {
                    kind: Arc::from("GpuUnhealthy"),
                    status: Arc::from("False"),
                    last_transition: Some(start - Duration::days(2)),
                }],
                gpu_resource: Some(Arc::from(def.resource)),
                gpu_allocatable: DEVICES,
                allocatable: Allocatable {
                    cpu_milli: 96_000,
                    memory: 1 << 40,
                    pods: 110,
                },
                other_allocatable: None,
                capacity: Allocatable {
                    cpu_milli: 96_000,
                    memory: (1 << 40) + (8 << 30),
                    pods: 110,
                },
                gpu_capacity: DEVICES,
                created: Some(start - Duration::days(30)),
                resource_version: rv,
            });
        }
    }
    first
}

/// The failing node (H100, outside the gang racks), a Suspect A100 node, an A100 node under the
/// maintenance label and a Gaudi node cordoned without a reason.
fn special_nodes(world: &mut DemoWorld, first: &[usize], start: Time) {
    world.failure.node = first[0] + 2 * RACK_SIZE + 1;
    let suspect = first[1] + 3;
    if let Some(c) = world.snap.nodes[suspect].conditions.first_mut() {
        c.last_transition = Some(start - Duration::minutes(10));
    }
    let maintenance = first[1] + 5;
    let mut labels = world.snap.nodes[maintenance].labels.0.clone();
    labels.push((Arc::from(MAINTENANCE_LABEL), Arc::from("scheduled")));
    world.snap.nodes[maintenance].labels = Labels::from_pairs(labels);
    world.snap.nodes[first[2] + 2].unschedulable = true;
}

/// (namespace, name, pods, minMember, nodes to bind members to).
type GangSpec = (&'static str, &'static str, i64, Option<i64>, Vec<usize>);

/// Gangs on the H100 racks 0 and 1: Pinned (all placed), BoundPartial (half placed), Forming
/// (nothing placed), Waiting (fewer members than minMember) and Blocked (no minMember).
fn add_gangs(world: &mut DemoWorld, first: &[usize], start: Time) {
    let h100 = |k: usize| first[0] + k;
    let gangs: [GangSpec; 5] = [
        ("prod", "llama-405b", 2, Some(2), vec![h100(0), h100(1)]),
        (
            "research",
            "deepseek-r1",
            4,
            Some(4),
            vec![h100(4), h100(5)],
        ),
        ("research", "mixtral-8x22b", 2, Some(2), vec![]),
        ("prod", "qwen-235b", 2, Some(4), vec![]),
        ("team-b", "grok-1", 2, None, vec![]),
    ];
    for (ns, name, pods, min_member, nodes) in gangs {
        // A complete gang has run for hours; the others were created just before the demo.
        let when = if nodes.len() as i64 == pods {
            start - Duration::hours(6)
        } else {
            start - Duration::minutes(3)
        };
        let shape = Shape {
            pool: 0,
            gpus: DEVICES,
            pods,
        };
        let first_pod = world.snap.pods.len();
        world.add_workload((ns, name), true, shape, 1, (when, None));
        for (k, node) in nodes.iter().enumerate() {
            let node = world.snap.nodes[*node].clone();
            bind(&mut world.snap.pods[first_pod + k], &node, when);
        }
        if let Some(ir) = world.snap.replicas.last() {
            let group = pod_group(ir, 0, min_member);
            world.snap.pod_groups.push(group);
        }
    }
}

/// Adds regular workloads to `pool` until `percent` of its devices are requested, placing them
/// with `strategy`.
fn fill_pool(world: &mut DemoWorld, pool: usize, percent: u64, strategy: Strategy) {
    let nodes: Vec<usize> = (0..world.snap.nodes.len())
        .filter(|n| super::place::pool_of(&world.snap, *n) == Some(pool))
        .collect();
    let capacity = nodes.len() as u64 * u64::from(DEVICES);
    let target = capacity * percent / 100;
    let mut misses = 0;
    for _ in 0..10_000 {
        let free = free_devices(&world.snap);
        let used = capacity - nodes.iter().map(|n| u64::from(free[*n])).sum::<u64>();
        if used >= target {
            break;
        }
        let mut shape = world.random_shape();
        shape.pool = pool;
        let age = Duration::minutes(40 + world.rng.below(5 * 24 * 60) as i64);
        let when = world.start - age;
        world.serial += 1;
        let omenative = world.rng.below(100) < 70;
        let name = format!("{}-{}", ["chat", "embed", "code"][pool], world.serial);
        let ns = ["prod", "team-a", "team-b", "search"][world.rng.below(4) as usize];
        let instances = 1 + world.rng.below(3) as i64;
        let pending_before = world.snap.pods.iter().filter(|p| p.node.is_none()).count();
        let c = world.add_workload(
            (ns, &name),
            omenative,
            shape,
            instances,
            (when, Some(strategy)),
        );
        let pending_after = world.snap.pods.iter().filter(|p| p.node.is_none()).count();
        if pending_after > pending_before {
            // The initial cluster is settled: what does not fit was never deployed.
            world.remove_workload(c);
            misses += 1;
            if misses > 20 {
                break;
            }
            continue;
        }
        if omenative && world.rng.below(25) == 0 {
            let n = world.snap.isvcs.len();
            if let Some(s) = world.snap.isvcs.last_mut() {
                s.annotations
                    .insert(Arc::from("alfred.ome.io/movable"), "false".into());
                // Chosen by position, not by the seeded stream, which stays as it was.
                let reason = OPT_OUT_REASONS[n % OPT_OUT_REASONS.len()];
                if !reason.is_empty() {
                    s.annotations.insert(
                        Arc::from("alfred.ome.io/opt-out-reason"),
                        reason.to_string(),
                    );
                }
            }
        }
    }
}

/// Why the demo's teams opted workloads out (one in three gave no reason, as happens).
const OPT_OUT_REASONS: [&str; 3] = [
    "latency-critical: no live moves",
    "customer benchmark running",
    "",
];

/// `alfred-config` (execute mode, a maintenance trigger) and the pre-created, empty
/// `alfred-recommendations`.
fn add_config_maps(world: &mut DemoWorld) {
    let ns: Arc<str> = Arc::from(DEMO_NAMESPACE);
    let mut config = BTreeMap::new();
    config.insert("config.yaml".to_string(), alfred::config_yaml());
    let rv = world.bump();
    world.snap.config_maps.push(ConfigMap {
        namespace: ns.clone(),
        name: Arc::from("alfred-config"),
        resource_version: rv,
        data: config,
    });
    let rv = world.bump();
    world.snap.config_maps.push(ConfigMap {
        namespace: ns,
        name: Arc::from("alfred-recommendations"),
        resource_version: rv,
        data: BTreeMap::new(),
    });
}
