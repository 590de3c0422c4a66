//! The live cluster layer against a real control plane (tests/support): the live analysis
//! equals the analysis of its own dump; a ConfigMap edited by another client reaches the next
//! feed; a read-only identity sees every source and is refused every capability.
//!
//! Only `live_analysis_equals_the_analysis_of_its_dump` creates nodes (cluster-wide); the
//! other tests work in their own namespaces so they cannot disturb it. Each runs alone
//! (`crate::alone`): no other test's nodes may change between the dump and the live read.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::{ConfigMap, Pod};
use kube::api::{Api, DynamicObject, Patch, PatchParams, PostParams};
use serde_json::{json, Value};

use ome_top::cluster::live::sources::isvc_resource;
use ome_top::cluster::live::{connect, LiveOptions, LiveSession};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::engine::model::Time;
use ome_top::protocol::{Capability, Permission, Presence};
use support::cluster::{Identity, TestCluster};
use support::objects::{gpu_pod, wait_for};

const NOW: &str = "2026-11-30T04:00:00Z";
const SYNC: Duration = Duration::from_secs(60);

fn clock() -> Time {
    DateTime::parse_from_rfc3339(NOW)
        .unwrap()
        .with_timezone(&Utc)
}

fn options(kubeconfig: &Path, ns: &str) -> LiveOptions {
    LiveOptions {
        kubeconfig: Some(kubeconfig.to_path_buf()),
        context: None,
        namespace: Some(ns.to_string()),
        alfred_namespace: ns.to_string(),
        scheduler_namespace: ns.to_string(),
        read_only: None,
        analysis: AnalysisOptions {
            now: clock(),
            alfred_namespace: ns.to_string(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        },
        clock,
    }
}

async fn session(identity: Identity, ns: &str) -> LiveSession {
    let tc = TestCluster::shared();
    let mut s = connect(options(&tc.kubeconfig_path(identity), ns))
        .await
        .unwrap();
    s.wait_synced(SYNC).await.unwrap();
    s
}

fn ome_top(args: &[&str]) -> Value {
    let out = crate::support::command::ome_top()
        .args(args)
        .env_remove("KUBECONFIG")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "ome-top {args:?}: {stderr}");
    if out.stdout.is_empty() {
        Value::Null
    } else {
        serde_json::from_slice(&out.stdout).unwrap()
    }
}

async fn seed_workloads(ns: &str) {
    let tc = TestCluster::shared();
    let admin = tc.admin_client().await;
    tc.create_gpu_nodes("eq", 2, "H100-eq").await;
    let pods: Api<Pod> = Api::namespaced(admin.clone(), ns);
    for n in 0..3 {
        let pod = gpu_pod(&format!("model-{n}"), 2, "H100-eq", None);
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
    let isvcs: Api<DynamicObject> = Api::namespaced_with(admin.clone(), ns, &isvc_resource());
    let isvc: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": "llm", "namespace": ns},
        "spec": {"engine": {"minReplicas": 1}},
    }))
    .unwrap();
    isvcs.create(&PostParams::default(), &isvc).await.unwrap();
    wait_for("pods running", SYNC, || async {
        let list = pods.list(&Default::default()).await?;
        let running = list
            .items
            .iter()
            .all(|p| p.status.as_ref().and_then(|s| s.phase.as_deref()) == Some("Running"));
        Ok(running.then_some(()))
    })
    .await
    .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn live_analysis_equals_the_analysis_of_its_dump() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("eq").await;
    seed_workloads(&ns).await;
    let kubeconfig = tc.kubeconfig_path(Identity::Admin);
    let dir = tc.dir().join(format!("dump-{ns}"));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dump.json");
    let (kc, file_s) = (kubeconfig.to_str().unwrap(), file.to_str().unwrap());
    let common = ["--alfred-namespace", &ns, "--scheduler-namespace", &ns];
    // kwok's status updates may land between the dump and the live read; a few attempts
    // absorb that race, a real difference persists.
    let mut last = None;
    for _ in 0..3 {
        let mut dump = vec!["dump", "-o", file_s, "--kubeconfig", kc, "-n", &ns];
        dump.extend(common);
        ome_top(&dump);
        let mut live = vec!["analyze", "-o", "json", "--now", NOW, "--kubeconfig", kc];
        live.extend(["-n", &ns]);
        live.extend(common);
        let mut live_doc = ome_top(&live);
        let mut snap = vec!["analyze", "-o", "json", "--now", NOW, "--snapshot", file_s];
        snap.extend(common);
        let mut snap_doc = ome_top(&snap);
        assert_eq!(live_doc["source"], "live");
        assert_eq!(snap_doc["source"], "snapshot");
        let names: Vec<&str> = live_doc["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|n| n["name"].as_str())
            .collect();
        assert!(
            names.contains(&"eq-0") && names.contains(&"eq-1"),
            "{names:?}"
        );
        live_doc["source"] = Value::Null;
        snap_doc["source"] = Value::Null;
        if live_doc == snap_doc {
            return;
        }
        last = Some((live_doc, snap_doc));
    }
    let (live_doc, snap_doc) = last.unwrap();
    assert_eq!(live_doc, snap_doc, "live analysis differs from its dump's");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_edited_config_map_reaches_the_next_feed() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("cm").await;
    let mut live = session(Identity::Admin, &ns).await;
    let state = |f: &ome_top::protocol::Feed| {
        f.sources
            .iter()
            .find(|s| s.name == "recommendations")
            .map(|s| s.presence)
    };
    assert_eq!(state(&live.feed.borrow()), Some(Presence::Absent));

    let admin = tc.admin_client().await;
    let cms: Api<ConfigMap> = Api::namespaced(admin, &ns);
    let cm = ConfigMap {
        metadata: kube::api::ObjectMeta {
            name: Some("alfred-recommendations".into()),
            ..Default::default()
        },
        data: Some(BTreeMap::from([("note".into(), "first".into())])),
        ..Default::default()
    };
    cms.create(&PostParams::default(), &cm).await.unwrap();
    let data = |f: &ome_top::protocol::Feed| {
        f.snapshot
            .config_map(&ns, "alfred-recommendations")
            .and_then(|c| c.data.get("note").cloned())
    };
    let seen = live
        .wait_for(SYNC, |f| data(f).as_deref() == Some("first"))
        .await
        .expect("the created ConfigMap in a feed");
    assert_eq!(state(&seen), Some(Presence::Present));

    let patch = json!({"data": {"note": "second"}});
    cms.patch(
        "alfred-recommendations",
        &PatchParams::default(),
        &Patch::Merge(&patch),
    )
    .await
    .unwrap();
    live.wait_for(SYNC, |f| data(f).as_deref() == Some("second"))
        .await
        .expect("the edit in a feed");

    cms.delete("alfred-recommendations", &Default::default())
        .await
        .unwrap();
    let gone = live
        .wait_for(SYNC, |f| data(f).is_none())
        .await
        .expect("the deletion in a feed");
    assert_eq!(state(&gone), Some(Presence::Absent));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_viewer_sees_every_source_and_may_do_nothing() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("viewer").await;
    let mut live = session(Identity::Viewer, &ns).await;
    let feed = live
        .wait_for(SYNC, |f| {
            f.permissions
                .entries
                .iter()
                .all(|(_, p)| *p != Permission::Unknown)
        })
        .await
        .expect("the RBAC probe answered");
    for s in &feed.sources {
        // The harness installs no BaseModel CRDs; every other source must be readable.
        let uninstalled = matches!(s.name, "basemodels" | "clusterbasemodels");
        let ok = match s.presence {
            Presence::Present | Presence::Absent => true,
            Presence::CrdAbsent | Presence::Forbidden => uninstalled,
            Presence::Pending => false,
        };
        assert!(ok, "{} is {:?}", s.name, s.presence);
    }
    assert_eq!(feed.permissions.entries.len(), Capability::ALL.len());
    for (cap, p) in &feed.permissions.entries {
        let needs = format!("forbidden: needs `{}`", cap.permission());
        assert!(
            matches!(p, Permission::Denied(why) if why.starts_with(&needs)),
            "{cap:?}: {p:?}"
        );
        assert!(feed.permissions.check(*cap).is_err());
    }
}
