//! The history recorder against the real control plane: a kwok node's `GpuUnhealthy`
//! condition flipped `True` then `False` is one Unhealthy episode that opens and closes at
//! the condition's own transition times, followed by the Suspect window, as the TUI's
//! recorder writes it (its own connection to a store file) and another connection reads it.

#![allow(clippy::disallowed_methods)] // The recorder stamps rows with the wall clock, as the TUI does.

use crate::support;

use std::path::Path;
use std::time::Duration;

use chrono::{DateTime, SecondsFormat, Utc};
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

use ome_top::cluster::live::{connect, LiveOptions};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::Time;
use ome_top::engine::timeline::{episodes, Episode, EpisodeKind, Point, Source};
use ome_top::history::{ClusterKey, HistoryStore, StoreOptions};
use ome_top::run::history::HistoryHook;
use support::cluster::{Identity, TestCluster};

fn wall() -> Time {
    Utc::now()
}

/// The wall clock to the second, as Kubernetes writes condition times.
fn whole_second() -> Time {
    DateTime::from_timestamp(wall().timestamp(), 0).unwrap()
}

/// Sets the node's `GpuUnhealthy` condition (strategic merge: the other conditions stay).
async fn set_gpu_unhealthy(api: &Api<Node>, node: &str, status: &str, at: Time) {
    let at = at.to_rfc3339_opts(SecondsFormat::Secs, true);
    let patch = json!({"status": {"conditions": [{
        "type": "GpuUnhealthy", "status": status, "reason": "XidErrors",
        "message": "set by the history test", "lastTransitionTime": at, "lastHeartbeatTime": at,
    }]}});
    api.patch_status(node, &PatchParams::default(), &Patch::Strategic(patch))
        .await
        .unwrap();
}

/// The node's episodes as a fresh connection reads them, once `done` holds (≤ 60 s).
async fn episodes_when(
    path: &Path,
    key: &ClusterKey,
    node: &str,
    done: impl Fn(&[Episode]) -> bool,
) -> Vec<Episode> {
    for _ in 0..300 {
        if let Ok(opened) = HistoryStore::open_at(path, StoreOptions::keep_everything(), wall()) {
            let rows = opened.store.node_timeline(key, node).unwrap();
            let eps = episodes(&rows, wall());
            if done(&eps) {
                return eps;
            }
        }
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    panic!("the store never showed the expected episodes of {node}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gpu_unhealthy_flip_is_one_episode_that_opens_and_closes() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("history").await;
    let nodes = tc.create_gpu_nodes("history", 1, "H100-history").await;
    let node = nodes[0].clone();
    let api: Api<Node> = Api::all(tc.admin_client().await);
    let opts = LiveOptions {
        kubeconfig: Some(tc.kubeconfig_path(Identity::Viewer)),
        context: None,
        namespace: Some(ns.clone()),
        alfred_namespace: ns.clone(),
        scheduler_namespace: ns.clone(),
        read_only: Some("a test".into()),
        analysis: AnalysisOptions {
            now: wall(),
            alfred_namespace: ns.clone(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        },
        clock: wall,
    };
    let mut session = connect(opts).await.unwrap();
    session.wait_synced(Duration::from_secs(60)).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("history.sqlite3");
    let key = ClusterKey::live(&session.server, &session.context);
    let feed = Some(session.feed.clone());
    let _hook = HistoryHook::open_at(&path, key.clone(), 30, wall, feed).unwrap();

    // First seen Clear: no episode. The flip comes a second later, so its time lies after.
    let first = episodes_when(&path, &key, &node, |_| true).await;
    assert!(first.is_empty(), "{first:?}");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let down = whole_second();
    set_gpu_unhealthy(&api, &node, "True", down).await;
    let open = episodes_when(&path, &key, &node, |e| !e.is_empty()).await;
    assert_eq!(open.len(), 1, "{open:?}");
    assert_eq!(open[0].kind, EpisodeKind::Unhealthy);
    assert_eq!(open[0].from, Point::new(down, Source::Condition));
    assert!(open[0].is_open());
    assert_eq!(open[0].reason, "GpuUnhealthy=True");

    tokio::time::sleep(Duration::from_millis(1500)).await;
    let up = whole_second();
    set_gpu_unhealthy(&api, &node, "False", up).await;
    let closed = episodes_when(&path, &key, &node, |e| e.len() == 2).await;
    let unhealthy: Vec<&Episode> = closed
        .iter()
        .filter(|e| e.kind == EpisodeKind::Unhealthy)
        .collect();
    assert_eq!(unhealthy.len(), 1, "one Unhealthy episode: {closed:?}");
    assert_eq!(unhealthy[0].from, Point::new(down, Source::Condition));
    assert_eq!(unhealthy[0].to, Some(Point::new(up, Source::Condition)));
    let suspect = &closed[1];
    assert_eq!(suspect.kind, EpisodeKind::Suspect);
    assert_eq!(suspect.from, Point::new(up, Source::Condition));
    assert_eq!(suspect.until, Some(up + chrono::Duration::minutes(30)));
    assert!(suspect.is_open());
}
