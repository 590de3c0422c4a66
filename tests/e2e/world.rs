//! The objects a live action test needs, seeded the way OME and Alfred would publish them (one
//! fresh namespace per test, also used as Alfred's namespace): an OMENative InferenceService
//! `chat` with its InferenceReplica `chat-engine` (two Ready 2-pod Instances on kwok nodes,
//! the shape of inferencereplica.md §6 example 6), Alfred's `alfred-recommendations` with
//! recommend-only move rows for it, and `alfred-dispatch-state` with one stalled entry
//! (alfred.md §1–§2).

use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, ListParams, Patch};
use kube::api::{PatchParams, PostParams};
use kube::Client;
use serde_json::{json, Value};

use crate::fixtures::{create_journal, entry, isvc_api, journal, uuid};
use crate::support::cluster::TestCluster;
use crate::support::objects::wait_for;

/// The workload's name in its namespace.
pub const ISVC: &str = "chat";
/// Its engine component's InferenceReplica.
pub const IR: &str = "chat-engine";
/// The running and update revision of the replica.
const REVISION: &str = "chat-engine-5d8f9c7a";

/// A seeded namespace: its name, the kwok nodes (`nodes[0..4]` carry the pods of Instances 0
/// and 1, `nodes[4]` is empty: the move's hint target), the stalled entry's UUID.
pub struct World {
    pub ns: String,
    pub nodes: Vec<String>,
    pub stalled: String,
}

impl World {
    /// `ns/chat`, the workload as Moves rows name it.
    pub fn workload(&self) -> String {
        format!("{}/{ISVC}", self.ns)
    }

    /// `ome-top` arguments that watch this namespace with it as Alfred's.
    pub fn args(&self, tc: &TestCluster) -> String {
        let kubeconfig = tc.kubeconfig_path(crate::support::cluster::Identity::Admin);
        format!(
            "--kubeconfig {} -n {1} --alfred-namespace {1}",
            kubeconfig.display(),
            self.ns
        )
    }
}

/// The InferenceReplica API.
pub fn ir_api(client: &Client, ns: &str) -> Api<DynamicObject> {
    let gvk = GroupVersionKind::gvk("ome.io", "v1beta1", "InferenceReplica");
    let resource = ApiResource::from_gvk_with_plural(&gvk, "inferencereplicas");
    Api::namespaced_with(client.clone(), ns, &resource)
}

fn isvc_spec() -> Value {
    json!({"deploymentMode": "OMENative", "model": {"name": "llama-3-1-70b-instruct"},
        "runtime": {"name": "srt-llama-3-1-70b-instruct"},
        "engine": {"minReplicas": 2, "maxReplicas": 2, "leader": {}, "worker": {"size": 1},
            "lifecycle": {"restartPolicy": "RecreateInstanceOnPodRestart",
                "migrationPolicy": {"mode": "Auto"}}}})
}

fn runner(name: &str) -> Value {
    json!({"name": name, "size": 1, "template": {
        "metadata": {"labels": {"ome.io/runner": name}},
        "spec": {"containers": [{"name": "ome-container", "image": "registry.invalid/sglang:test",
            "resources": {"limits": {"nvidia.com/gpu": "8"}}}]}}})
}

fn owner(kind: &str, name: &str, uid: &str) -> Value {
    json!([{"apiVersion": "ome.io/v1beta1", "kind": kind, "name": name, "uid": uid,
        "controller": true, "blockOwnerDeletion": true}])
}

fn instance_row(index: i64) -> Value {
    json!({"index": index, "incarnation": 1, "phase": "Ready", "runningRevision": REVISION,
        "podCount": 2, "servingPodCount": 2, "availablePodCount": 2, "admitted": true,
        "readySince": "2026-09-28T08:02:11Z"})
}

/// The steady status of the replica; `migrations` is the `status.migrations` list.
pub fn ir_status(migrations: Value) -> Value {
    json!({"observedGeneration": 1, "replicas": 2, "readyReplicas": 2, "servingReplicas": 2,
        "availableReplicas": 2, "updatedReplicas": 2, "updatedReadyReplicas": 2,
        "currentRevision": REVISION, "updateRevision": REVISION,
        "instanceStatuses": [instance_row(0), instance_row(1)], "migrations": migrations})
}

async fn create_replica(admin: &Client, ns: &str, isvc_uid: &str) -> String {
    let ir: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "ome.io/v1beta1", "kind": "InferenceReplica",
        "metadata": {"name": IR, "namespace": ns, "ownerReferences": owner("InferenceService", ISVC, isvc_uid)},
        "spec": {"parentRef": {"name": ISVC}, "component": "engine", "replicas": 2,
            "lifecycle": {"restartPolicy": "RecreateInstanceOnPodRestart",
                "updateStrategy": {"type": "SurgeThenDrain"}, "readyPolicy": "AllPodReady",
                "instanceReadyTimeout": "30m0s", "migrationPolicy": {"mode": "Auto"}},
            "runners": [runner("leader"), runner("worker")]},
    }))
    .unwrap();
    let api = ir_api(admin, ns);
    let created = api.create(&PostParams::default(), &ir).await.unwrap();
    let status = json!({"status": ir_status(json!([]))});
    api.patch_status(IR, &PatchParams::default(), &Patch::Merge(&status))
        .await
        .unwrap();
    created.metadata.uid.unwrap()
}

fn pod(ns: &str, (instance, runner): (i64, &str), node: &str, ir_uid: &str) -> Pod {
    let name = format!("{IR}-{instance}-{runner}-0");
    serde_json::from_value(json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "ownerReferences": owner("InferenceReplica", IR, ir_uid),
            "labels": {"ome.io/inferenceservice": ISVC, "component": "engine",
                "ome.io/managed-by": "OMENative", "ome.io/instance-index": instance.to_string(),
                "ome.io/instance-incarnation": "1", "ome.io/runner": runner,
                "ome.io/pod-ordinal": "0", "ome.io/revision-hash": "5d8f9c7a"}},
        "spec": {"nodeName": node, "terminationGracePeriodSeconds": 0,
            "containers": [{"name": "ome-container", "image": "registry.invalid/sglang:test",
                "resources": {"limits": {"nvidia.com/gpu": "8"}}}]},
    }))
    .unwrap()
}

async fn create_pods(admin: &Client, ns: &str, nodes: &[String], ir_uid: &str) {
    let api: Api<Pod> = Api::namespaced(admin.clone(), ns);
    let places = [(0, "leader"), (0, "worker"), (1, "leader"), (1, "worker")];
    for (place, node) in places.into_iter().zip(nodes) {
        api.create(&PostParams::default(), &pod(ns, place, node, ir_uid))
            .await
            .unwrap();
    }
    wait_for("kwok pods Ready", Duration::from_secs(60), || async {
        let pods = api.list(&ListParams::default()).await?;
        let ready = pods.items.iter().filter(|p| {
            let conditions = p.status.as_ref().and_then(|s| s.conditions.as_ref());
            conditions.is_some_and(|cs| cs.iter().any(|c| c.type_ == "Ready" && c.status == "True"))
        });
        Ok((ready.count() == places.len()).then_some(()))
    })
    .await
    .unwrap();
}

/// A `last-cycle.json` row of a recommend-only pass for Instance `instance` of `workload`.
pub fn move_row(workload: &str, instance: i64, from: &str, hint: &str) -> Value {
    json!({"workload": workload, "component": "engine", "instance": instance,
        "policy": "defragmentation", "reason": "Fragmentation", "outcome": "advisory",
        "advisoryReason": "SimulationRecommendOnly", "fromNode": from, "hintTargets": [hint],
        "score": 0.2925})
}

async fn create_recommendations(admin: &Client, ns: &str, rows: Vec<Value>) {
    #[allow(clippy::disallowed_methods)] // The pass is "now": rows must not look stale.
    let now = Utc::now().to_rfc3339_opts(SecondsFormat::Nanos, true);
    let cycle = json!({"timestamp": now, "mode": "recommend-only", "recommendations": rows});
    let cm: ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": "alfred-recommendations", "namespace": ns},
        "data": {"last-cycle.json": cycle.to_string()},
    }))
    .unwrap();
    Api::<ConfigMap>::namespaced(admin.clone(), ns)
        .create(&PostParams::default(), &cm)
        .await
        .unwrap();
}

/// A strictly valid journal entry about `ns/retired`, a workload that no longer exists (so a
/// stalled entry's §2.4 checks pass and nothing ties it to `chat`).
pub fn local_entry(ns: &str, uuid: &str, phase: &str, stamp: u64) -> Value {
    let mut e = entry(uuid, phase, stamp);
    e["workload"] = json!({"Namespace": ns, "Name": "retired"});
    e
}

async fn create_isvc(admin: &Client, ns: &str) -> String {
    let obj: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": ISVC, "namespace": ns,
            "annotations": {"alfred.ome.io/movable": "true"}},
        "spec": isvc_spec(),
    }))
    .unwrap();
    let created = isvc_api(admin, ns)
        .create(&PostParams::default(), &obj)
        .await
        .unwrap();
    created.metadata.uid.unwrap()
}

/// Seeds a namespace named after `prefix`: 5 kwok nodes, the workload, two move rows (Instance
/// 0 from `nodes[0]` and Instance 1 from `nodes[2]`, both hinting `nodes[4]`) and a journal of
/// a stalled entry between two submitted ones (the stalled one is `World::stalled`).
pub async fn seed(tc: &TestCluster, prefix: &str) -> World {
    let ns = tc.fresh_namespace(prefix).await;
    let nodes = tc.create_gpu_nodes(&ns, 5, &format!("H100-{prefix}")).await;
    let admin = tc.admin_client().await;
    let isvc_uid = create_isvc(&admin, &ns).await;
    let ir_uid = create_replica(&admin, &ns, &isvc_uid).await;
    create_pods(&admin, &ns, &nodes, &ir_uid).await;
    let workload = format!("{ns}/{ISVC}");
    let rows = vec![
        move_row(&workload, 0, &nodes[0], &nodes[4]),
        move_row(&workload, 1, &nodes[2], &nodes[4]),
    ];
    create_recommendations(&admin, &ns, rows).await;
    let stalled = uuid(7, 1);
    let entries = vec![
        local_entry(&ns, &uuid(7, 0), "submitted", 1),
        local_entry(&ns, &stalled, "stalled", 2),
        local_entry(&ns, &uuid(7, 2), "submitted", 3),
    ];
    create_journal(&admin, &ns, &journal(entries)).await;
    World { ns, nodes, stalled }
}
