//! A session lists each resource with one plain LIST (no pages, no streaming list), and after
//! the first lists it sends no more: during a churn of pods and nodes
//! (created, relabelled, deleted for a while) the API server's audit log shows no LIST and no
//! streaming-list WATCH (`sendInitialEvents=true`) under ome-top's User-Agent, while the
//! session's feed follows every change. Only a 410 or an outage may make a watcher list again,
//! and neither happens here.
//!
//! Alone on its control plane (`crate::alone`): ome-top's User-Agent in the audit window is
//! this test's session.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(clippy::disallowed_methods)] // The churn runs for a wall-clock while.

use crate::support;

use std::time::{Duration, Instant};

use chrono::{DateTime, Utc};
use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, DeleteParams, Patch, PatchParams, PostParams};
use serde_json::{json, Value};

use ome_top::cluster::live::{connect, LiveOptions, USER_AGENT};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::engine::model::Time;
use support::cluster::{Identity, TestCluster};
use support::objects::{gpu_node, gpu_pod};

const PRODUCT: &str = "H100-relist";
/// How long the churn runs.
const CHURN: Duration = Duration::from_secs(20);

fn clock() -> Time {
    Utc::now()
}

fn options(tc: &TestCluster) -> LiveOptions {
    LiveOptions {
        kubeconfig: Some(tc.kubeconfig_path(Identity::Admin)),
        context: None,
        // Every namespace, as the TUI watches by default.
        namespace: None,
        alfred_namespace: "ome".to_string(),
        scheduler_namespace: "ome".to_string(),
        read_only: Some("read-only mode (--readonly)".to_string()),
        analysis: AnalysisOptions {
            now: clock(),
            alfred_namespace: "ome".to_string(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        },
        clock,
    }
}

/// Requests of ome-top received at or after `since` that list a collection: LISTs, and
/// WATCHes asking for the initial state (a streaming list). `(verb, requestURI)`.
fn lists_since(tc: &TestCluster, since: DateTime<Utc>) -> (Vec<(String, String)>, usize) {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    let mine: Vec<(String, String)> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        // A watch is logged when it starts; everything else once complete.
        .filter(|e| match e["verb"].as_str() {
            Some("watch") => e["stage"] == "ResponseStarted",
            _ => e["stage"] == "ResponseComplete",
        })
        .filter(|e| e["userAgent"] == USER_AGENT)
        .filter(|e| {
            e["requestReceivedTimestamp"]
                .as_str()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .is_some_and(|t| t.with_timezone(&Utc) >= since)
        })
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (s("verb"), s("requestURI"))
        })
        .collect();
    let total = mine.len();
    let lists = mine
        .into_iter()
        .filter(|(verb, uri)| verb == "list" || uri.contains("sendInitialEvents=true"))
        .collect();
    (lists, total)
}

/// Creates, relabels and deletes pods in `ns` and nodes named `relist-churn-*` for `CHURN`;
/// returns how many writes were made.
async fn churn(admin: &kube::Client, ns: &str) -> usize {
    let pods: Api<Pod> = Api::namespaced(admin.clone(), ns);
    let nodes: Api<Node> = Api::all(admin.clone());
    let (pp, dp) = (PatchParams::default(), DeleteParams::default());
    let start = Instant::now();
    let mut writes = 0;
    let mut round = 0;
    while start.elapsed() < CHURN {
        let pod = format!("churn-{round}");
        let node = format!("relist-churn-{round}");
        pods.create(&PostParams::default(), &gpu_pod(&pod, 1, PRODUCT, None))
            .await
            .unwrap();
        nodes
            .create(&PostParams::default(), &gpu_node(&node, PRODUCT))
            .await
            .unwrap();
        let label = Patch::Merge(json!({"metadata": {"labels": {"round": round.to_string()}}}));
        pods.patch(&pod, &pp, &label).await.unwrap();
        nodes.patch(&node, &pp, &label).await.unwrap();
        if round >= 2 {
            // Two rounds stay, so the final state holds objects of every kind of event.
            let old = round - 2;
            pods.delete(&format!("churn-{old}"), &dp).await.unwrap();
            nodes
                .delete(&format!("relist-churn-{old}"), &dp)
                .await
                .unwrap();
            writes += 2;
        }
        writes += 4;
        round += 1;
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    writes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_list_after_the_first_ones_during_a_churn() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("relists").await;
    tc.create_gpu_nodes("relist", 2, PRODUCT).await;
    let admin = tc.admin_client().await;

    let started = Utc::now();
    let mut live = connect(options(tc)).await.unwrap();
    live.wait_synced(Duration::from_secs(60)).await.unwrap();
    // The first list of pods is one plain LIST (no limit), then a watch.
    let (first, _) = lists_since(tc, started);
    let pods = |verb: &str| {
        first
            .iter()
            .filter(|(v, uri)| v == verb && uri.starts_with("/api/v1/pods?"))
            .count()
    };
    assert!(
        pods("list") == 1 && pods("watch") == 0,
        "the session's first list of pods is not one plain LIST: {first:?}"
    );
    assert!(
        // The exceptions: the question which API serves the scheduling events, and the
        // watch of an absent CRD (kube's watcher, one object by name).
        first.iter().all(|(_, uri)| {
            !uri.contains("limit=")
                || uri.starts_with("/apis/events.k8s.io/")
                || uri.starts_with("/apis/apiextensions.k8s.io/")
        }),
        "a paginated list: {first:?}"
    );
    // Past every first list and watch start.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let since = Utc::now();
    let before = live.event_counts().applied;

    let writes = churn(&admin, &ns).await;

    // The session followed the churn to its end: the last two rounds' pods and nodes, and
    // no older one.
    let pods: Api<Pod> = Api::namespaced(admin.clone(), &ns);
    let left: Vec<String> = pods
        .list(&Default::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|p| p.metadata.name)
        .collect();
    let feed = live
        .wait_for(Duration::from_secs(30), |f| {
            let held: Vec<&str> = f
                .snapshot
                .pods
                .iter()
                .filter(|p| p.namespace.as_ref() == ns)
                .map(|p| p.name.as_ref())
                .collect();
            let churn_nodes = f
                .snapshot
                .nodes
                .iter()
                .filter(|n| n.name.starts_with("relist-churn-"))
                .count();
            held.len() == left.len()
                && left.iter().all(|n| held.contains(&n.as_str()))
                && churn_nodes == 2
        })
        .await;
    assert!(
        feed.is_some(),
        "the feed never showed the churn's end state"
    );
    let applied = live.event_counts().applied - before;
    assert!(
        applied >= writes as u64,
        "{applied} events applied for {writes} writes"
    );

    let (lists, total) = lists_since(tc, since);
    assert!(
        lists.is_empty(),
        "ome-top listed again during the churn ({} of its {total} requests): {lists:?}",
        lists.len()
    );
}
