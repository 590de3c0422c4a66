//! The fleet the scale test creates, as plain values: kwok GPU nodes in three pools, GPU
//! model pods of RawDeployment InferenceServices bound to nodes (LeastAllocated-like spread,
//! about 70 % of the devices), a few GPU pods left Pending, node-agent pods without GPUs and the
//! churn set. Pods carry `spec.nodeName`, so no scheduler is involved; `to_json` renders the
//! Kubernetes objects.
//!
//! Owns: `Plan`, `PodPlan`, `plan`. Pure: no I/O, no clock, no API calls.

use serde_json::{json, Value};

use ome_top::sim::cluster::pick_size;
use ome_top::sim::rng::Rng;

/// GPU products of the pools and their share of the nodes in tenths.
pub const POOLS: [(&str, usize); 3] = [
    ("NVIDIA-H100-80GB-HBM3", 5),
    ("NVIDIA-A100-SXM4-80GB", 3),
    ("NVIDIA-L40S", 2),
];
/// Namespaces of the model workloads.
pub const TEAMS: usize = 8;
/// Namespace of the node agents.
pub const AGENTS_NS: &str = "node-agents";
/// Namespace of the churned pods.
pub const CHURN_NS: &str = "scale-churn";
/// Node agents (DaemonSet-style, host network, no GPUs).
const AGENTS: [&str; 6] = [
    "dcgm-exporter",
    "node-exporter",
    "fluent-bit",
    "nvidia-device-plugin",
    "gpu-feature-discovery",
    "kube-proxy",
];
/// Share of the cluster's devices the bound GPU pods use.
const GPU_FILL_PERCENT: usize = 70;

/// What one pod is.
#[derive(Debug, Clone)]
pub enum Role {
    /// A model server replica of InferenceService `isvc` asking for `gpus` devices of `pool`.
    Model {
        isvc: String,
        gpus: u32,
        pool: usize,
    },
    /// A node agent (`app` label), host network.
    Agent { app: &'static str },
}

/// One pod to create.
#[derive(Debug, Clone)]
pub struct PodPlan {
    /// Namespace.
    pub ns: String,
    /// Name.
    pub name: String,
    /// Node index; `None` leaves the pod Pending (no scheduler serves its `schedulerName`).
    pub node: Option<usize>,
    /// Model or agent.
    pub role: Role,
}

/// The whole fleet.
#[derive(Debug, Clone)]
pub struct Plan {
    /// Node names and their pool index.
    pub nodes: Vec<(String, usize)>,
    /// InferenceServices `(namespace, name)`.
    pub isvcs: Vec<(String, String)>,
    /// Model pods first, then node agents, then the churn set (creation order).
    pub pods: Vec<PodPlan>,
    /// How many of `pods` (at the end) form the churn set.
    pub churn: usize,
}

/// The pool of node `i` (deterministic, in the `POOLS` shares).
fn pool_of(i: usize) -> usize {
    match i % 10 {
        d if d < POOLS[0].1 => 0,
        d if d < POOLS[0].1 + POOLS[1].1 => 1,
        _ => 2,
    }
}

/// Plans `nodes` nodes and `pods` pods, `churn` of which form the churn set.
pub fn plan(nodes: usize, pods: usize, churn: usize, seed: u64) -> Plan {
    let mut rng = Rng::new(seed);
    let node_list: Vec<(String, usize)> = (0..nodes)
        .map(|i| {
            let pool = pool_of(i);
            (
                format!("gpu-{}-{i:05}", ["h100", "a100", "l40s"][pool]),
                pool,
            )
        })
        .collect();
    let mut by_pool: Vec<Vec<usize>> = vec![Vec::new(); POOLS.len()];
    for (i, (_, pool)) in node_list.iter().enumerate() {
        by_pool[*pool].push(i);
    }
    let mut free = vec![8u32; nodes];
    let mut cursor = [0usize; 3];
    let churn = churn.min(pods);
    let gpu_budget = ((pods - churn) / 5).min(nodes * 8 * GPU_FILL_PERCENT / 100 / 3);
    let mut plan = Plan {
        nodes: node_list,
        isvcs: Vec::new(),
        pods: Vec::with_capacity(pods),
        churn,
    };
    let mut w = 0usize;
    while plan.pods.len() < gpu_budget && nodes > 0 {
        let pool = pool_of(rng.below(nodes as u64) as usize);
        let (ns, isvc) = (format!("team-{}", w % TEAMS), format!("chat-{w}"));
        let gpus = pick_size(&mut rng);
        for r in 0..1 + rng.below(4) as usize {
            // Round robin over the pool: the next node with room, spreading like LeastAllocated.
            let members = &by_pool[pool];
            let node = (0..members.len())
                .map(|k| members[(cursor[pool] + k) % members.len().max(1)])
                .find(|n| free[*n] >= gpus);
            // One pod in 200 stays Pending even when it would fit, as a scheduler backlog.
            let node = node.filter(|_| rng.below(200) != 0);
            if let Some(n) = node {
                free[n] -= gpus;
                cursor[pool] = members.iter().position(|m| *m == n).unwrap_or(0) + 1;
            }
            plan.pods.push(PodPlan {
                ns: ns.clone(),
                name: format!("{isvc}-engine-{r}"),
                node,
                role: Role::Model {
                    isvc: isvc.clone(),
                    gpus,
                    pool,
                },
            });
        }
        plan.isvcs.push((ns, isvc));
        w += 1;
    }
    let agents = pods.saturating_sub(plan.pods.len() + churn);
    for a in 0..agents {
        let (node, app) = (a % nodes.max(1), AGENTS[(a / nodes.max(1)) % AGENTS.len()]);
        plan.pods
            .push(agent(AGENTS_NS, format!("{app}-{a:06}"), node, app));
    }
    for c in 0..churn {
        plan.pods.push(agent(
            CHURN_NS,
            churn_name(c, 0),
            c % nodes.max(1),
            "churn-worker",
        ));
    }
    plan
}

fn agent(ns: &str, name: String, node: usize, app: &'static str) -> PodPlan {
    PodPlan {
        ns: ns.to_string(),
        name,
        node: Some(node),
        role: Role::Agent { app },
    }
}

/// The name of churn slot `slot` in its `generation`-th incarnation.
pub fn churn_name(slot: usize, generation: u64) -> String {
    format!("churn-{slot:05}-{generation}")
}

/// The Pod object of `p` (`node_names` indexes `PodPlan::node`).
pub fn to_json(p: &PodPlan, node_names: &[(String, usize)]) -> Value {
    let node = p.node.map(|n| node_names[n].0.clone());
    let mut pod = match &p.role {
        Role::Model { isvc, gpus, pool } => json!({
            "metadata": {"labels": {"ome.io/inferenceservice": isvc, "component": "engine",
                "app.kubernetes.io/name": isvc, "app.kubernetes.io/managed-by": "ome"}},
            "spec": {
                "nodeSelector": {"nvidia.com/gpu.product": POOLS[*pool].0},
                "tolerations": [{"key": "nvidia.com/gpu", "operator": "Exists",
                    "effect": "NoSchedule"}],
                "containers": [{
                    "name": "engine", "image": "registry.invalid/ome/sglang:v0.4.6",
                    "args": ["--model-path", "/mnt/models", "--tp", gpus.to_string(),
                        "--port", "8080"],
                    "env": [{"name": "MODEL_NAME", "value": isvc},
                        {"name": "OME_COMPONENT", "value": "engine"}],
                    "ports": [{"name": "http", "containerPort": 8080}],
                    "resources": {"limits": {"nvidia.com/gpu": gpus.to_string(),
                        "cpu": (12 * gpus).to_string(), "memory": format!("{}Gi", 200 * gpus)}},
                }],
            },
        }),
        Role::Agent { app } => json!({
            "metadata": {"labels": {"app": app, "app.kubernetes.io/name": app}},
            "spec": {
                "hostNetwork": true,
                "tolerations": [{"operator": "Exists"}],
                "containers": [{
                    "name": app, "image": format!("registry.invalid/agents/{app}:1.0"),
                    "ports": [{"name": "metrics", "containerPort": 9400}],
                    "resources": {"requests": {"cpu": "50m", "memory": "64Mi"},
                        "limits": {"memory": "128Mi"}},
                }],
            },
        }),
    };
    pod["apiVersion"] = json!("v1");
    pod["kind"] = json!("Pod");
    pod["metadata"]["name"] = json!(p.name);
    pod["metadata"]["namespace"] = json!(p.ns);
    pod["spec"]["terminationGracePeriodSeconds"] = json!(0);
    match node {
        Some(n) => pod["spec"]["nodeName"] = json!(n),
        // No scheduler serves this name: the pod stays Pending without costing a scheduler.
        None => pod["spec"]["schedulerName"] = json!("scale-test-unserved"),
    }
    pod
}

/// The InferenceService object `ns/name` (RawDeployment, schema-less CRD).
pub fn isvc_json(ns: &str, name: &str) -> Value {
    json!({
        "apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": name, "namespace": ns},
        "spec": {"deploymentMode": "RawDeployment", "model": {"name": "llama-3-70b-instruct"},
            "engine": {"minReplicas": 1, "maxReplicas": 4}},
    })
}
