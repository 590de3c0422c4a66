//! How the watchers list, against a scripted API server (a `kube::Client` over a test `tower`
//! service, no cluster): a streaming list (a watch with `sendInitialEvents=true`) fills the
//! stores without a single LIST; a server that refuses streaming lists (422, as with the
//! WatchList feature gate off) gets paginated LISTs instead, asked once per watcher. The
//! control plane's side (streaming served, no relist during a churn) is
//! `tests/live_exclusive/relists.rs`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{TimeZone, Utc};
use http::{Request, Response};
use kube::client::Body;
use serde_json::{json, Value};

use ome_top::cluster::live::hub::Hub;
use ome_top::cluster::live::slot::SourceStatus;
use ome_top::cluster::live::watch::{spawn_watchers, Scope};
use ome_top::engine::model::Time;
use ome_top::protocol::{Permissions, Presence};

fn clock() -> Time {
    Utc.with_ymd_and_hms(2026, 12, 1, 12, 0, 0).unwrap()
}

fn pod(name: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "team", "uid": format!("uid-{name}"),
            "resourceVersion": "7"},
        "spec": {"nodeName": "gpu-1", "containers": [{"name": "main"}]},
        "status": {"phase": "Running"}})
}

/// How the scripted server answers a streaming list.
#[derive(Clone, Copy, PartialEq)]
enum Streaming {
    Served,
    Refused,
}

/// The answer to one GET: a status code and a body (`None`: the request never completes, as
/// a watch with nothing to say).
fn answer(path: &str, streaming: Streaming) -> Option<(u16, String)> {
    let pods = path.starts_with("/api/v1/pods?");
    if path.contains("sendInitialEvents=true") {
        if streaming == Streaming::Refused {
            let invalid = json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
                "code": 422, "reason": "Invalid",
                "message": "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled"});
            return Some((422, invalid.to_string()));
        }
        let mut lines = String::new();
        if pods {
            for name in ["a", "b"] {
                lines += &format!("{}\n", json!({"type": "ADDED", "object": pod(name)}));
            }
        }
        let end = json!({"type": "BOOKMARK", "object": {"kind": "Pod", "apiVersion": "v1",
            "metadata": {"resourceVersion": "10",
                "annotations": {"k8s.io/initial-events-end": "true"}}}});
        lines += &format!("{end}\n");
        return Some((200, lines));
    }
    if path.contains("watch=true") {
        return None;
    }
    let items = if pods {
        vec![pod("a"), pod("b")]
    } else {
        Vec::new()
    };
    let list = json!({"kind": "List", "apiVersion": "v1",
        "metadata": {"resourceVersion": "10"}, "items": items});
    Some((200, list.to_string()))
}

/// A client answered by `answer`, and the paths (with queries) it was asked for.
fn scripted(streaming: Streaming) -> (kube::Client, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let log2 = log.clone();
    let service = tower::service_fn(move |req: Request<Body>| {
        let log = log2.clone();
        async move {
            let path = req.uri().path_and_query().unwrap().to_string();
            log.lock().unwrap().push(path.clone());
            let Some((code, body)) = answer(&path, streaming) else {
                tokio::time::sleep(Duration::from_secs(3600)).await;
                unreachable!("the test ends first");
            };
            let response = Response::builder()
                .status(code)
                .header("content-type", "application/json")
                .body(Body::from(body.into_bytes()))
                .unwrap();
            Ok::<_, Infallible>(response)
        }
    });
    (kube::Client::new(service, "default"), log)
}

/// Starts every watcher on `client` and waits until the pods are listed.
async fn listed_pods(client: &kube::Client) -> (Arc<Hub>, usize) {
    let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
    let scope = Scope {
        namespace: None,
        alfred_namespace: "alfred".into(),
        scheduler_namespace: "ome".into(),
    };
    let tasks = spawn_watchers(client, &scope, &hub);
    let mut objects = 0;
    for _ in 0..100 {
        let state = hub.stores.pods.source_state();
        if state.presence == Presence::Present {
            objects = state.objects;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for t in tasks {
        t.abort();
    }
    (hub, objects)
}

fn pod_requests(log: &Mutex<Vec<String>>) -> Vec<String> {
    let log = log.lock().unwrap();
    log.iter()
        .filter(|p| p.starts_with("/api/v1/pods?"))
        .cloned()
        .collect()
}

#[tokio::test]
async fn a_streaming_list_fills_the_store_without_a_list_request() {
    let (client, log) = scripted(Streaming::Served);
    let (hub, objects) = listed_pods(&client).await;
    assert_eq!(objects, 2);
    assert!(hub.stores.pods.synced());
    let pods = pod_requests(&log);
    assert!(pods[0].contains("sendInitialEvents=true"), "{pods:?}");
    let all = log.lock().unwrap().clone();
    // The one exception: the question which API serves the scheduling events, a list of at
    // most one object asked once.
    let (probe, lists): (Vec<&String>, Vec<&String>) = all
        .iter()
        .partition(|p| p.starts_with("/apis/events.k8s.io/v1/") && p.ends_with("limit=1"));
    assert!(probe.len() <= 1, "{probe:?}");
    assert!(
        lists.iter().all(|p| p.contains("watch=true")),
        "a LIST was sent: {all:?}"
    );
}

#[tokio::test]
async fn a_server_refusing_streaming_lists_gets_paginated_lists() {
    let (client, log) = scripted(Streaming::Refused);
    let (_, objects) = listed_pods(&client).await;
    assert_eq!(objects, 2);
    let pods = pod_requests(&log);
    assert!(pods[0].contains("sendInitialEvents=true"), "{pods:?}");
    assert!(
        pods[1].contains("limit=500") && !pods[1].contains("watch=true"),
        "{pods:?}"
    );
    let streaming = pods
        .iter()
        .filter(|p| p.contains("sendInitialEvents"))
        .count();
    assert_eq!(
        streaming, 1,
        "streaming asked again after a refusal: {pods:?}"
    );
}
