//! How the watchers list, against a scripted API server (a `kube::Client` over a test `tower`
//! service, no cluster): one plain LIST per source (no `limit`, no streaming list), then a
//! watch from the list's resourceVersion with bookmarks; a 410 Gone on the watch lists again,
//! and the store then equals the new list. The control plane's side (one list per source, no
//! relist during a churn) is `tests/live_exclusive/relists.rs`.

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

/// What the scripted server holds: the pods of each list, by how many pod lists came before.
#[derive(Clone, Copy, PartialEq)]
enum Script {
    /// One list (`a`, `b` at resourceVersion 10), then watches with nothing to say.
    Quiet,
    /// The first watch answers 410 Gone (an expired resourceVersion); the second list holds
    /// `b`, `c` at resourceVersion 20.
    Expired,
}

fn status(code: u16, reason: &str) -> Value {
    json!({"kind": "Status", "apiVersion": "v1", "status": "Failure", "code": code,
        "reason": reason, "message": format!("scripted {code}")})
}

/// The answer to one GET, the `lists` pod lists before it: a status code and a body (`None`:
/// the request never completes, as a watch with nothing to say).
fn answer(path: &str, script: Script, lists: usize) -> Option<(u16, String)> {
    let pods = path.starts_with("/api/v1/pods?");
    if path.contains("sendInitialEvents") || path.contains("limit=") {
        // Neither a streaming list nor pages are asked for.
        return Some((400, status(400, "BadRequest").to_string()));
    }
    if path.contains("watch=true") {
        if pods && script == Script::Expired && path.ends_with("resourceVersion=10") {
            let gone = json!({"type": "ERROR", "object": status(410, "Expired")});
            return Some((200, format!("{gone}\n")));
        }
        return None;
    }
    let (names, rv) = match (pods, script, lists) {
        (false, _, _) => (Vec::new(), "10"),
        (true, Script::Expired, 1..) => (vec!["b", "c"], "20"),
        (true, _, _) => (vec!["a", "b"], "10"),
    };
    let items: Vec<Value> = names.into_iter().map(pod).collect();
    let list = json!({"kind": "PodList", "apiVersion": "v1",
        "metadata": {"resourceVersion": rv}, "items": items});
    Some((200, list.to_string()))
}

/// A client answered by `answer`, and the paths (with queries) it was asked for.
fn scripted(script: Script) -> (kube::Client, Arc<Mutex<Vec<String>>>) {
    let log = Arc::new(Mutex::new(Vec::<String>::new()));
    let log2 = log.clone();
    let service = tower::service_fn(move |req: Request<Body>| {
        let log = log2.clone();
        async move {
            let path = req.uri().path_and_query().unwrap().to_string();
            let lists = {
                let mut log = log.lock().unwrap();
                let lists = log
                    .iter()
                    .filter(|p| p.starts_with("/api/v1/pods?") && !p.contains("watch=true"))
                    .count();
                log.push(path.clone());
                lists
            };
            let Some((code, body)) = answer(&path, script, lists) else {
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

/// Starts every watcher on `client` and waits until the pods held are `want`; the names
/// held at the end.
async fn pods_held(client: &kube::Client, want: &[&str]) -> Vec<String> {
    let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
    let scope = Scope {
        namespace: None,
        alfred_namespace: "alfred".into(),
        scheduler_namespace: "ome".into(),
    };
    let tasks = spawn_watchers(client, &scope, &hub);
    let mut held = Vec::new();
    for _ in 0..100 {
        if hub.stores.pods.source_state().presence == Presence::Present {
            let mut pods = Vec::new();
            hub.stores.pods.extend_into(&mut pods);
            held = pods.iter().map(|p| p.name.to_string()).collect();
            held.sort();
            if held == want {
                break;
            }
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    for t in tasks {
        t.abort();
    }
    held
}

fn pod_requests(log: &Mutex<Vec<String>>) -> Vec<String> {
    let log = log.lock().unwrap();
    log.iter()
        .filter(|p| p.starts_with("/api/v1/pods?"))
        .cloned()
        .collect()
}

#[tokio::test]
async fn one_plain_list_then_a_watch_from_its_resource_version() {
    let (client, log) = scripted(Script::Quiet);
    assert_eq!(pods_held(&client, &["a", "b"]).await, ["a", "b"]);
    let pods = pod_requests(&log);
    // One LIST without a limit (no pages), then a watch from the list's resourceVersion with
    // bookmarks asked for.
    assert!(
        !pods[0].contains("watch") && !pods[0].contains("limit"),
        "{pods:?}"
    );
    assert!(
        pods[1].contains("watch=true")
            && pods[1].contains("resourceVersion=10")
            && pods[1].contains("allowWatchBookmarks=true"),
        "{pods:?}"
    );
    let all = log.lock().unwrap().clone();
    assert!(
        all.iter().all(|p| !p.contains("sendInitialEvents")),
        "a streaming list was asked for: {all:?}"
    );
    // Every source lists once: the only other list is the question which API serves the
    // scheduling events (at most one object).
    let lists = all
        .iter()
        .filter(|p| p.starts_with("/api/v1/pods?") && !p.contains("watch=true"))
        .count();
    assert_eq!(lists, 1, "{all:?}");
}

#[tokio::test]
async fn a_410_on_the_watch_lists_again_and_the_store_equals_the_new_list() {
    let (client, log) = scripted(Script::Expired);
    // `a` was deleted while the watch was gone: only a relist (the store replaced by it)
    // can show that.
    assert_eq!(pods_held(&client, &["b", "c"]).await, ["b", "c"]);
    let pods = pod_requests(&log);
    let lists: Vec<&String> = pods.iter().filter(|p| !p.contains("watch=true")).collect();
    assert_eq!(lists.len(), 2, "{pods:?}");
    assert!(
        pods.iter()
            .any(|p| p.contains("watch=true") && p.contains("resourceVersion=20")),
        "no watch from the second list's resourceVersion: {pods:?}"
    );
}
