//! Kubernetes objects the harness installs or tests create: the viewer's RBAC, the schema-less
//! OME / PodGroup CRDs, kwok fake GPU nodes and GPU pods, plus the generic `wait_for` poll.
//!
//! Owns: `wait_for`, `install_viewer_rbac`, `install_crds`, `gpu_node`, `gpu_pod`,
//! `wait_nodes_ready`, `read_snapshot`. Must not start processes.

use std::future::Future;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};
use k8s_openapi::api::core::v1::{Node, Pod};
use k8s_openapi::api::rbac::v1::{ClusterRole, ClusterRoleBinding};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{ListParams, PostParams};
use kube::{Api, Client};
use serde_json::{json, Value};

use ome_top::cluster::convert::{self, Interner, Warnings};
use ome_top::engine::model::ClusterSnapshot;

/// GPU resource name the fake nodes advertise and pods request.
pub const GPU: &str = "nvidia.com/gpu";
/// Node label carrying the GPU product; the engine keys pools by it.
pub const GPU_PRODUCT_LABEL: &str = "nvidia.com/gpu.product";

/// An error that ends `wait_for` at once (e.g. the server process exited), unlike the
/// transient errors it retries.
#[derive(Debug)]
pub struct Fatal(pub String);

impl std::fmt::Display for Fatal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Fatal {}

/// Polls `probe` every 200 ms until it returns `Ok(Some(value))`, for at most `timeout`.
/// Errors from the probe are retried (the server may be restarting) unless they are `Fatal`;
/// on timeout the error names `what` and the last probe error.
pub async fn wait_for<T, F, Fut>(what: &str, timeout: Duration, mut probe: F) -> Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<Option<T>>>,
{
    let deadline = tokio::time::Instant::now() + timeout;
    let mut last_error = String::from("condition never held");
    loop {
        match probe().await {
            Ok(Some(value)) => return Ok(value),
            Ok(None) => {}
            Err(e) if e.downcast_ref::<Fatal>().is_some() => {
                return Err(e.context(format!("while waiting for {what}")))
            }
            Err(e) => last_error = format!("{e:#}"),
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(anyhow!(
                "timed out after {timeout:?} waiting for {what}: {last_error}"
            ));
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Binds `viewer` to the built-in `view` ClusterRole and to `ome-top-viewer-extra`, which adds
/// get/list/watch on the cluster-scoped and custom kinds `view` leaves out.
pub async fn install_viewer_rbac(admin: &Client) -> Result<()> {
    let role: ClusterRole = serde_json::from_value(json!({
        "metadata": {"name": "ome-top-viewer-extra"},
        "rules": [
            {"apiGroups": [""], "resources": ["nodes", "namespaces", "events", "pods",
                "configmaps"], "verbs": ["get", "list", "watch"]},
            {"apiGroups": ["events.k8s.io"], "resources": ["events"],
                "verbs": ["get", "list", "watch"]},
            {"apiGroups": ["apiextensions.k8s.io"], "resources": ["customresourcedefinitions"],
                "verbs": ["get", "list", "watch"]},
            {"apiGroups": ["coordination.k8s.io"], "resources": ["leases"],
                "verbs": ["get", "list", "watch"]},
            {"apiGroups": ["ome.io", "scheduling.x-k8s.io"], "resources": ["*"],
                "verbs": ["get", "list", "watch"]},
        ],
    }))?;
    Api::<ClusterRole>::all(admin.clone())
        .create(&PostParams::default(), &role)
        .await
        .context("creating ClusterRole ome-top-viewer-extra")?;
    let bindings: Api<ClusterRoleBinding> = Api::all(admin.clone());
    for role in ["view", "ome-top-viewer-extra"] {
        let binding: ClusterRoleBinding = serde_json::from_value(json!({
            "metadata": {"name": format!("viewer-{role}")},
            "roleRef": {"apiGroup": "rbac.authorization.k8s.io", "kind": "ClusterRole",
                "name": role},
            "subjects": [{"apiGroup": "rbac.authorization.k8s.io", "kind": "User",
                "name": "viewer"}],
        }))?;
        bindings
            .create(&PostParams::default(), &binding)
            .await
            .with_context(|| format!("binding viewer to {role}"))?;
    }
    Ok(())
}

/// `(group, version, kind, plural)` of the schema-less CRDs the harness installs.
pub const CRDS: [(&str, &str, &str, &str); 3] = [
    ("ome.io", "v1beta1", "InferenceService", "inferenceservices"),
    ("ome.io", "v1beta1", "InferenceReplica", "inferencereplicas"),
    ("scheduling.x-k8s.io", "v1alpha1", "PodGroup", "podgroups"),
];

/// Installs `CRDS` (namespaced, any fields, status subresource) and waits until each is
/// `Established`.
pub async fn install_crds(admin: &Client) -> Result<()> {
    let api: Api<CustomResourceDefinition> = Api::all(admin.clone());
    for (group, version, kind, plural) in CRDS {
        let name = format!("{plural}.{group}");
        let crd: CustomResourceDefinition = serde_json::from_value(json!({
            "metadata": {"name": name},
            "spec": {
                "group": group,
                "scope": "Namespaced",
                "names": {"kind": kind, "listKind": format!("{kind}List"), "plural": plural,
                    "singular": kind.to_lowercase()},
                "versions": [{
                    "name": version, "served": true, "storage": true,
                    "schema": {"openAPIV3Schema": {"type": "object",
                        "x-kubernetes-preserve-unknown-fields": true}},
                    "subresources": {"status": {}},
                }],
            },
        }))?;
        api.create(&PostParams::default(), &crd)
            .await
            .with_context(|| format!("creating CRD {name}"))?;
    }
    for (group, _, _, plural) in CRDS {
        let name = format!("{plural}.{group}");
        wait_for(
            &format!("CRD {name} Established"),
            Duration::from_secs(60),
            || async {
                let crd = api.get(&name).await?;
                let established = crd
                    .status
                    .and_then(|s| s.conditions)
                    .unwrap_or_default()
                    .iter()
                    .any(|c| c.type_ == "Established" && c.status == "True");
                Ok(established.then_some(()))
            },
        )
        .await?;
    }
    Ok(())
}

/// A kwok-managed fake node with 8 GPUs of `product`, 128 CPUs, 2 TiB memory and 110 pods
/// (capacity = allocatable; kwok keeps a status the node was created with). Labels:
/// `nvidia.com/gpu.product`, `kubernetes.io/hostname`, `type=kwok`; annotation
/// `kwok.x-k8s.io/node=fake` (the harness's kwok manages only annotated nodes).
pub fn gpu_node(name: &str, product: &str) -> Node {
    let resources = json!({"cpu": "128", "memory": "2Ti", "pods": "110", GPU: "8"});
    let node = json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {
            "name": name,
            "labels": {GPU_PRODUCT_LABEL: product, "kubernetes.io/hostname": name,
                "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64", "type": "kwok"},
            "annotations": {"kwok.x-k8s.io/node": "fake", "node.alpha.kubernetes.io/ttl": "0"},
        },
        "status": {"capacity": resources, "allocatable": resources},
    });
    // A fixed, valid Node literal: deserialising it cannot fail.
    serde_json::from_value(node).unwrap_or_default()
}

/// A pod with one container limiting `gpus` GPUs (requests default from limits) plus CPU and
/// memory in proportion (16 CPUs and 256 GiB per GPU, a node's share per card, so the default
/// profile's CPU/memory scoring spreads by GPUs too), selecting nodes of `product` and scheduled by `scheduler` (`None`: the default
/// profile; `Some("gpu-binpack")`: the MostAllocated profile).
pub fn gpu_pod(name: &str, gpus: u32, product: &str, scheduler: Option<&str>) -> Pod {
    let mut spec = json!({
        "nodeSelector": {GPU_PRODUCT_LABEL: product},
        "terminationGracePeriodSeconds": 0,
        "containers": [{
            "name": "main", "image": "registry.invalid/model-server:test",
            "resources": {"limits": {GPU: gpus.to_string(), "cpu": (16 * gpus).to_string(),
                "memory": format!("{}Gi", 256 * gpus)}},
        }],
    });
    if let Some(scheduler) = scheduler {
        spec["schedulerName"] = Value::from(scheduler);
    }
    let pod = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name},
        "spec": spec});
    serde_json::from_value(pod).unwrap_or_default()
}

/// Whether a node is usable: `Ready=True` and none of the `node.kubernetes.io/*` condition
/// taints (KCM's node lifecycle adds `not-ready` until kwok reports Ready).
pub fn node_is_ready(node: &Node) -> bool {
    let ready = node
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"));
    let tainted = node
        .spec
        .as_ref()
        .and_then(|s| s.taints.as_ref())
        .is_some_and(|ts| ts.iter().any(|t| t.key.starts_with("node.kubernetes.io/")));
    ready && !tainted
}

/// Waits (≤ 90 s) until every named node is ready in the sense of `node_is_ready`.
pub async fn wait_nodes_ready(admin: &Client, names: &[String]) -> Result<()> {
    let api: Api<Node> = Api::all(admin.clone());
    wait_for("kwok nodes Ready", Duration::from_secs(90), || async {
        let nodes = api.list(&ListParams::default()).await?;
        let ready = names.iter().all(|name| {
            nodes
                .items
                .iter()
                .any(|n| n.metadata.name.as_deref() == Some(name) && node_is_ready(n))
        });
        Ok(ready.then_some(()))
    })
    .await
}

/// Lists every node and pod through `client` and converts them with ome-top's
/// `cluster::convert` into an engine snapshot (no CRs or ConfigMaps).
pub async fn read_snapshot(client: &Client) -> Result<ClusterSnapshot> {
    let nodes = Api::<Node>::all(client.clone())
        .list(&ListParams::default())
        .await?;
    let pods = Api::<Pod>::all(client.clone())
        .list(&ListParams::default())
        .await?;
    let mut interner = Interner::default();
    let mut warnings = Warnings::default();
    let mut snap = ClusterSnapshot {
        replicas_listed: true,
        ..ClusterSnapshot::default()
    };
    for n in &nodes.items {
        let node = convert::node(&mut interner, n, &mut warnings).map_err(|e| anyhow!("{e}"))?;
        snap.nodes.push(node);
    }
    for p in &pods.items {
        let pod = convert::pod(&mut interner, p, &mut warnings).map_err(|e| anyhow!("{e}"))?;
        snap.pods.push(pod);
    }
    Ok(snap)
}
