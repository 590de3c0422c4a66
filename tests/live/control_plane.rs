//! The real test control plane (tests/support/cluster.rs) end to end: it starts, its
//! identities and CRDs work, kwok nodes become Ready and run pods, the audit log records
//! requests, and the two scheduler profiles place the same GPU batch differently — spread by
//! `default-scheduler`, packed by `gpu-binpack` — as ome-top's engine measures it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::time::Duration;

use k8s_openapi::api::core::v1::{Namespace, Node, Pod};
use kube::api::{DynamicObject, ListParams, PostParams};
use kube::core::{ApiResource, GroupVersionKind};
use kube::Api;

use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::ClusterSnapshot;
use ome_top::engine::pools::PoolReport;
use support::cluster::{Identity, TestCluster};
use support::objects::{gpu_pod, read_snapshot, wait_for, CRDS, GPU};

#[tokio::test]
async fn the_apiserver_reports_the_built_version_and_serves_the_crds() {
    let tc = TestCluster::shared();
    let admin = tc.admin_client().await;
    let version = admin.apiserver_version().await.unwrap();
    assert_eq!(version.git_version, "v1.36.3");
    let ns = tc.fresh_namespace("crds").await;
    for (group, version, kind, _) in CRDS {
        let gvk = GroupVersionKind::gvk(group, version, kind);
        let api: Api<DynamicObject> =
            Api::namespaced_with(admin.clone(), &ns, &ApiResource::from_gvk(&gvk));
        let object: DynamicObject = serde_json::from_value(serde_json::json!({
            "apiVersion": format!("{group}/{version}"), "kind": kind,
            "metadata": {"name": "sample"},
            "spec": {"anything": {"goes": [1, 2]}},
        }))
        .unwrap();
        api.create(&PostParams::default(), &object).await.unwrap();
        let back = api.get("sample").await.unwrap();
        assert_eq!(
            back.data["spec"]["anything"]["goes"][1], 2,
            "{kind} kept its spec"
        );
    }
}

#[tokio::test]
async fn the_viewer_reads_everything_ome_top_needs_and_cannot_write() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("viewer").await;
    let viewer = tc.viewer_client().await;
    Api::<Node>::all(viewer.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    Api::<Pod>::all(viewer.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    for (group, version, kind, _) in CRDS {
        let gvk = GroupVersionKind::gvk(group, version, kind);
        let api: Api<DynamicObject> = Api::all_with(viewer.clone(), &ApiResource::from_gvk(&gvk));
        api.list(&ListParams::default()).await.unwrap();
    }
    let pod = gpu_pod("forbidden", 1, "none", None);
    let err = Api::<Pod>::namespaced(viewer.clone(), &ns)
        .create(&PostParams::default(), &pod)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, kube::Error::Api(s) if s.code == 403),
        "viewer create must be forbidden, got {err:?}"
    );
    let ns_object: Namespace =
        serde_json::from_value(serde_json::json!({"metadata": {"name": "viewer-made"}})).unwrap();
    let err = Api::<Namespace>::all(viewer)
        .create(&PostParams::default(), &ns_object)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, kube::Error::Api(s) if s.code == 403),
        "{err:?}"
    );
}

#[tokio::test]
async fn the_audit_log_records_who_did_what() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("audit").await;
    let viewer = tc.viewer_client().await;
    Api::<Pod>::namespaced(viewer, &ns)
        .list(&ListParams::default())
        .await
        .unwrap();
    let path = tc.audit_log_path();
    let events = wait_for(
        "the viewer's list in the audit log",
        Duration::from_secs(30),
        || {
            let text = std::fs::read_to_string(&path).unwrap_or_default();
            let events: Vec<serde_json::Value> = text
                .lines()
                .filter_map(|l| serde_json::from_str(l).ok())
                .filter(|e: &serde_json::Value| {
                    e["user"]["username"] == Identity::Viewer.user()
                        && e["objectRef"]["namespace"] == ns.as_str()
                })
                .collect();
            let found = events.iter().any(|e| e["verb"] == "list");
            async move { Ok(found.then_some(events)) }
        },
    )
    .await
    .unwrap();
    let writes: Vec<&serde_json::Value> = events
        .iter()
        .filter(|e| !matches!(e["verb"].as_str(), Some("get" | "list" | "watch")))
        .collect();
    assert!(
        writes.is_empty(),
        "the viewer only read in {ns}: {writes:?}"
    );
}

#[tokio::test]
async fn kwok_nodes_become_ready_and_run_bound_pods() {
    let tc = TestCluster::shared();
    let names = tc.create_gpu_nodes("ready", 2, "L4-ready").await;
    let admin = tc.admin_client().await;
    let node = Api::<Node>::all(admin.clone())
        .get(&names[0])
        .await
        .unwrap();
    let allocatable = node.status.unwrap().allocatable.unwrap();
    assert_eq!(allocatable[GPU].0, "8");
    let ns = tc.fresh_namespace("ready").await;
    let pods: Api<Pod> = Api::namespaced(admin, &ns);
    pods.create(&PostParams::default(), &gpu_pod("p", 2, "L4-ready", None))
        .await
        .unwrap();
    let node_name = wait_for("pod p Running", Duration::from_secs(60), || async {
        let p = pods.get("p").await?;
        let running = p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running");
        Ok(running.then(|| p.spec.and_then(|s| s.node_name)).flatten())
    })
    .await
    .unwrap();
    assert!(
        names.contains(&node_name),
        "{node_name} is one of {names:?}"
    );
}

/// 16 GPUs in 1/2/4-GPU pods on 4 nodes of 8: packed they fill 2 nodes, spread they touch all.
const BATCH: [u32; 8] = [4, 2, 2, 4, 1, 1, 1, 1];

/// Creates `BATCH` in a fresh namespace on `product` nodes and waits until every pod runs.
async fn place_batch(tc: &TestCluster, label: &str, product: &str, scheduler: Option<&str>) {
    let ns = tc.fresh_namespace(label).await;
    let pods: Api<Pod> = Api::namespaced(tc.admin_client().await, &ns);
    for (i, gpus) in BATCH.iter().enumerate() {
        let pod = gpu_pod(&format!("{label}-{i}"), *gpus, product, scheduler);
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
    wait_for(
        &format!("{label} pods Running"),
        Duration::from_secs(120),
        || async {
            let list = pods.list(&ListParams::default()).await?;
            let running = list
                .items
                .iter()
                .filter(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running"))
                .count();
            Ok((running == BATCH.len()).then_some(()))
        },
    )
    .await
    .unwrap_or_else(|e| {
        panic!(
            "{e:#}\nscheduler log:\n{}",
            support::procs::log_tail(tc.dir(), "kube-scheduler", 20)
        )
    });
}

fn pool<'a>(pools: &'a [PoolReport], product: &str) -> &'a PoolReport {
    pools
        .iter()
        .find(|p| p.name == product)
        .unwrap_or_else(|| panic!("no pool {product} in {:?}", pools.iter().map(|p| &p.name)))
}

/// The newest creation time in the snapshot: a deterministic "now" (tests read no clock).
fn snapshot_now(snap: &ClusterSnapshot) -> chrono::DateTime<chrono::Utc> {
    snap.pods
        .iter()
        .filter_map(|p| p.created)
        .chain(snap.nodes.iter().filter_map(|n| n.created))
        .max()
        .unwrap()
}

#[tokio::test]
async fn gpu_binpack_packs_the_batch_the_default_profile_spreads() {
    let tc = TestCluster::shared();
    let (spread, packed) = ("H100-spread", "H100-packed");
    tc.create_gpu_nodes("spread", 4, spread).await;
    tc.create_gpu_nodes("packed", 4, packed).await;
    place_batch(tc, "spread", spread, None).await;
    place_batch(tc, "packed", packed, Some("gpu-binpack")).await;

    let snap = read_snapshot(&tc.viewer_client().await).await.unwrap();
    let opts = AnalysisOptions {
        now: snapshot_now(&snap),
        alfred_namespace: "ome".to_string(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let analysis = analyze(&snap, &opts);
    let (spread, packed) = (pool(&analysis.pools, spread), pool(&analysis.pools, packed));
    for p in [spread, packed] {
        assert_eq!((p.total_gpus, p.free_gpus), (32, 16), "pool {}", p.name);
    }
    assert_eq!(
        packed.whole_free_nodes, 2,
        "binpack fills two nodes: {packed:?}"
    );
    assert!(
        spread.whole_free_nodes < packed.whole_free_nodes,
        "default spreads: {} whole free nodes vs {}",
        spread.whole_free_nodes,
        packed.whole_free_nodes
    );
    assert!(
        spread.observed > packed.observed,
        "fragmentation spread {} > packed {}",
        spread.observed,
        packed.observed
    );
    assert_eq!(packed.largest_fit_now, 8);
}
