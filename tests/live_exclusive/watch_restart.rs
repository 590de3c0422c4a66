//! The live layer across an API server restart (alone, `crate::alone`: stopping the apiserver
//! would disturb other tests): the feed goes `Reconnecting` while it is down, `Connected`
//! again afterwards, and the stores then equal a fresh list, including a change made while
//! the watchers were away.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::collections::BTreeSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};

use ome_top::cluster::live::{connect, LiveOptions};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::engine::model::{ClusterSnapshot, Time};
use ome_top::protocol::ApiStatus;
use support::cluster::{Identity, TestCluster};
use support::objects::{gpu_pod, read_snapshot};

fn clock() -> Time {
    DateTime::parse_from_rfc3339("2026-11-30T04:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn keys(snap: &ClusterSnapshot) -> (BTreeSet<String>, BTreeSet<String>) {
    let nodes = snap.nodes.iter().map(|n| n.name.to_string()).collect();
    let pods = snap
        .pods
        .iter()
        .map(|p| format!("{}/{}", p.namespace, p.name))
        .collect();
    (nodes, pods)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_an_apiserver_restart_the_store_equals_a_fresh_list() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("restart").await;
    tc.create_gpu_nodes("restart", 2, "H100-restart").await;
    let admin = tc.admin_client().await;
    let pods: Api<Pod> = Api::namespaced(admin.clone(), &ns);
    for n in 0..4 {
        let pod = gpu_pod(&format!("p-{n}"), 1, "H100-restart", None);
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
    let opts = LiveOptions {
        kubeconfig: Some(tc.kubeconfig_path(Identity::Admin)),
        context: None,
        namespace: None,
        alfred_namespace: ns.clone(),
        scheduler_namespace: ns.clone(),
        read_only: Some("read-only mode (--readonly)".to_string()),
        analysis: AnalysisOptions {
            now: clock(),
            alfred_namespace: ns.clone(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        },
        clock,
    };
    let mut live = connect(opts).await.unwrap();
    live.wait_synced(Duration::from_secs(60)).await.unwrap();
    let pods_seen = |n: usize| {
        move |f: &ome_top::protocol::Feed| {
            f.snapshot
                .pods
                .iter()
                .filter(|p| p.name.starts_with("p-"))
                .count()
                == n
        }
    };
    live.wait_for(Duration::from_secs(30), pods_seen(4))
        .await
        .expect("the four pods in a feed");

    tc.stop_apiserver();
    let down = live
        .wait_for(Duration::from_secs(60), |f| {
            matches!(f.api, ApiStatus::Reconnecting { .. })
        })
        .await
        .expect("Reconnecting while the apiserver is down");
    // The last data is kept while reconnecting.
    assert!(pods_seen(4)(&down), "stale data kept");

    tc.start_apiserver().await;
    // Changed right after the restart, probably before the watchers are back.
    let admin = tc.admin_client().await;
    let pods: Api<Pod> = Api::namespaced(admin.clone(), &ns);
    pods.delete("p-0", &DeleteParams::default().grace_period(0))
        .await
        .unwrap();
    let up = live
        .wait_for(Duration::from_secs(90), |f| {
            f.api == ApiStatus::Connected && pods_seen(3)(f)
        })
        .await
        .expect("Connected again with the deletion");

    let fresh = read_snapshot(&admin).await.unwrap();
    // Settle: a pod being torn down may still be listed; compare once both agree on a list.
    let (mut live_keys, mut fresh_keys) = (keys(&up.snapshot), keys(&fresh));
    for _ in 0..20 {
        if live_keys == fresh_keys {
            break;
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
        let fresh = read_snapshot(&admin).await.unwrap();
        fresh_keys = keys(&fresh);
        live_keys = keys(&live.feed.borrow().snapshot);
    }
    assert_eq!(live_keys, fresh_keys);
}
