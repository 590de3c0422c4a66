//! `cluster::ops::execute` against a scripted API server (a `kube::Client` over a test
//! `tower` service): the exact request sequence and bodies each op sends, and how the answers
//! (200, 403, 409, 422) become outcomes. The control plane tests are the rest of tests/live; these
//! pin the wire format and run without one.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use std::convert::Infallible;
use std::sync::{Arc, Mutex};

use chrono::{TimeZone, Utc};
use http::{Request, Response};
use kube::client::Body;
use ome_top::cluster::ops::{execute, OpContext};
use ome_top::protocol::{Op, OpOutcome};
use serde_json::{json, Value};

/// One request seen: method, path (with query), content type, JSON body (Null when empty).
type Seen = (String, String, String, Value);
type Answer = Box<dyn Fn(usize, &Seen) -> (u16, Value) + Send + Sync>;

/// A client whose every request is logged and answered by `answer(index, request)`.
fn scripted(answer: Answer) -> (kube::Client, Arc<Mutex<Vec<Seen>>>) {
    let log = Arc::new(Mutex::new(Vec::new()));
    let answer = Arc::new(answer);
    let log2 = log.clone();
    let service = tower::service_fn(move |req: Request<Body>| {
        let (log, answer) = (log2.clone(), answer.clone());
        async move {
            let (parts, body) = req.into_parts();
            let bytes = body.collect_bytes().await.unwrap();
            let seen: Seen = (
                parts.method.to_string(),
                parts.uri.path_and_query().unwrap().to_string(),
                parts
                    .headers
                    .get("content-type")
                    .map(|v| v.to_str().unwrap().to_string())
                    .unwrap_or_default(),
                serde_json::from_slice(&bytes).unwrap_or(Value::Null),
            );
            let index = log.lock().unwrap().len();
            let (code, reply) = answer(index, &seen);
            log.lock().unwrap().push(seen);
            let response = Response::builder()
                .status(code)
                .header("content-type", "application/json")
                .body(Body::from(serde_json::to_vec(&reply).unwrap()))
                .unwrap();
            Ok::<_, Infallible>(response)
        }
    });
    (kube::Client::new(service, "default"), log)
}

fn ctx() -> OpContext {
    OpContext {
        alfred_namespace: "alfred".into(),
        actor: "tester".into(),
        read_only: None,
        now: Utc.with_ymd_and_hms(2026, 11, 30, 4, 0, 0).unwrap(),
    }
}

fn status(code: u16, message: &str, cause: Option<&str>) -> Value {
    let mut s = json!({"kind": "Status", "apiVersion": "v1", "status": "Failure",
        "code": code, "message": message});
    if let Some(c) = cause {
        s["details"] = json!({"causes": [{"reason": "UnexpectedServerResponse", "message": c}]});
    }
    s
}

fn node(rv: &str, unschedulable: Option<bool>) -> Value {
    let mut spec = json!({"providerID": "kwok://gpu-1"});
    if let Some(u) = unschedulable {
        spec["unschedulable"] = json!(u);
    }
    json!({"apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "gpu-1", "uid": "node-uid", "resourceVersion": rv}, "spec": spec})
}

fn cordon(rv: &str) -> Op {
    Op::Cordon {
        node: "gpu-1".into(),
        resource_version: rv.into(),
        reason: Some("bad fan".into()),
    }
}

fn event_created() -> Value {
    json!({"apiVersion": "events.k8s.io/v1", "kind": "Event", "metadata": {"name": "gpu-1.x"},
        "eventTime": "2026-11-30T04:00:00.000000Z"})
}

#[tokio::test]
async fn read_only_sends_nothing() {
    let (client, log) = scripted(Box::new(|_, _| panic!("a request was sent")));
    let mut ro = ctx();
    ro.read_only = Some("--readonly".into());
    let out = execute(&client, &cordon("5"), &ro).await;
    assert!(matches!(out, OpOutcome::Refused { .. }), "{out:?}");
    assert!(log.lock().unwrap().is_empty());
}

#[tokio::test]
async fn cordon_reads_patches_with_tests_and_records_an_event() {
    let (client, log) = scripted(Box::new(|i, _| match i {
        0 => (200, node("5", None)),
        1 => (200, node("6", Some(true))),
        _ => (201, event_created()),
    }));
    // The operator saw resourceVersion 4; heartbeats moved it to 5; the cordon state is as seen.
    let out = execute(&client, &cordon("4"), &ctx()).await;
    let OpOutcome::Done {
        resource_version, ..
    } = &out
    else {
        panic!("{out:?}")
    };
    assert_eq!(resource_version.as_deref(), Some("6"));
    let log = log.lock().unwrap();
    assert_eq!(log.len(), 3);
    assert_eq!(
        (log[0].0.as_str(), log[0].1.as_str()),
        ("GET", "/api/v1/nodes/gpu-1")
    );
    let (method, path, content_type, body) = &log[1];
    assert_eq!(
        (method.as_str(), path.as_str()),
        ("PATCH", "/api/v1/nodes/gpu-1?&fieldManager=ome-top")
    );
    assert_eq!(content_type, "application/json-patch+json");
    assert_eq!(
        *body,
        json!([
            {"op": "test", "path": "/metadata/uid", "value": "node-uid"},
            {"op": "test", "path": "/spec", "value": {"providerID": "kwok://gpu-1"}},
            {"op": "add", "path": "/spec/unschedulable", "value": true},
        ])
    );
    let (method, path, _, event) = &log[2];
    assert_eq!(method, "POST");
    assert_eq!(path, "/apis/events.k8s.io/v1/namespaces/default/events?");
    assert_eq!(event["reportingController"], "ome-top");
    assert_eq!(event["reportingInstance"], "tester");
    assert_eq!(event["reason"], "OmeTopCordon");
    assert_eq!(event["note"], "cordoned by tester with ome-top: bad fan");
    assert_eq!(event["regarding"]["resourceVersion"], "6");
    // kube's Recorder names the Event `<object>.<eventTime in ns, hex>`.
    let name = event["metadata"]["name"].as_str().unwrap();
    let suffix = name.strip_prefix("gpu-1.").unwrap();
    assert!(suffix.chars().all(|c| c.is_ascii_hexdigit()), "{name}");
    assert!(event["eventTime"].is_string());
}

/// A Node name too long for the Recorder's `<name>.<hex>` Event name gets the hand-written
/// Event: `generateName` from the name cut to 200 bytes, `eventTime` = `OpContext.now`.
#[tokio::test]
async fn a_name_too_long_for_the_recorder_gets_a_generated_event_name() {
    let long = format!("gpu-{}", "a".repeat(240));
    let name = long.clone();
    let node_named = move |rv: &str, unschedulable: bool| {
        let mut n = node(rv, Some(unschedulable));
        n["metadata"]["name"] = json!(name);
        n
    };
    let (client, log) = scripted(Box::new(move |i, _| match i {
        0 => (200, node_named("5", false)),
        1 => (200, node_named("6", true)),
        _ => (201, event_created()),
    }));
    let op = Op::Cordon {
        node: long.as_str().into(),
        resource_version: "5".into(),
        reason: None,
    };
    let out = execute(&client, &op, &ctx()).await;
    let OpOutcome::Done { message, .. } = &out else {
        panic!("{out:?}")
    };
    assert!(!message.contains("not recorded"), "{message}");
    let log = log.lock().unwrap();
    let (method, path, _, event) = &log[2];
    assert_eq!(method, "POST");
    assert_eq!(
        path,
        "/apis/events.k8s.io/v1/namespaces/default/events?&fieldManager=ome-top"
    );
    let want = format!("{}-", &long[..200]);
    assert_eq!(event["metadata"]["generateName"], want.as_str());
    assert!(event["metadata"].get("name").is_none());
    assert_eq!(event["eventTime"], "2026-11-30T04:00:00.000000Z");
    assert_eq!(event["reportingController"], "ome-top");
    assert_eq!(event["reason"], "OmeTopCordon");
}

#[tokio::test]
async fn a_failed_patch_test_is_a_conflict_with_the_current_resource_version() {
    let (client, log) = scripted(Box::new(|i, _| match i {
        0 => (200, node("5", None)),
        1 => (
            422,
            status(
                422,
                "the server rejected our request due to an error in our request",
                Some("testing value /spec failed: test failed"),
            ),
        ),
        _ => (200, node("9", None)),
    }));
    let out = execute(&client, &cordon("5"), &ctx()).await;
    assert_eq!(
        out,
        OpOutcome::Conflict {
            message: "changed since you looked: node/gpu-1 is at resourceVersion 9 now (you saw 5)"
                .into()
        }
    );
    assert_eq!(log.lock().unwrap().len(), 3, "no Event after a conflict");
}

#[tokio::test]
async fn forbidden_names_the_permission_and_a_failed_event_keeps_the_write() {
    let (client, _) = scripted(Box::new(|i, _| match i {
        0 => (200, node("5", None)),
        _ => (
            403,
            status(
                403,
                "nodes \"gpu-1\" is forbidden: User \"viewer\" cannot patch",
                None,
            ),
        ),
    }));
    let out = execute(&client, &cordon("5"), &ctx()).await;
    let OpOutcome::Refused { message } = &out else {
        panic!("{out:?}")
    };
    assert!(message.contains("lacks \"patch nodes\""), "{message}");

    let (client, _) = scripted(Box::new(|i, _| match i {
        0 => (200, node("5", None)),
        1 => (200, node("6", Some(true))),
        _ => (403, status(403, "events is forbidden", None)),
    }));
    let out = execute(&client, &cordon("5"), &ctx()).await;
    let OpOutcome::Done { message, .. } = &out else {
        panic!("{out:?}")
    };
    assert!(message.contains("the Event was not recorded"), "{message}");
}

const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";
const VALUE: &str = r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":"gpu-a","reason":"Fragmentation","requested_at":"2026-11-30T04:00:00Z","requested_by":"ome-top"}"#;

#[tokio::test]
async fn approve_sends_the_engine_patch_and_a_stale_view_sends_no_write() {
    let isvc = |rv: &str| {
        json!({"apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
            "metadata": {"name": "chat", "namespace": "prod", "uid": "isvc-uid",
                "resourceVersion": rv}})
    };
    let op = Op::ApproveMove {
        namespace: "prod".into(),
        name: "chat".into(),
        uid: "isvc-uid".into(),
        resource_version: "10".into(),
        uuid: UUID.into(),
        value: VALUE.into(),
        overrode: None,
    };
    let (client, log) = scripted(Box::new(move |i, _| match i {
        0 => (200, isvc("10")),
        1 => (200, isvc("11")),
        _ => (201, event_created()),
    }));
    let out = execute(&client, &op, &ctx()).await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    let seen = log.lock().unwrap().clone();
    assert_eq!(
        seen[1].1,
        "/apis/ome.io/v1beta1/namespaces/prod/inferenceservices/chat?&fieldManager=ome-top"
    );
    assert_eq!(
        seen[1].3,
        json!([
            {"op": "test", "path": "/metadata/uid", "value": "isvc-uid"},
            {"op": "test", "path": "/metadata/resourceVersion", "value": "10"},
            {"op": "add", "path": "/metadata/annotations", "value": {}},
            {"op": "add", "path": format!("/metadata/annotations/ome.io~1migration-request-v1-{UUID}"),
             "value": VALUE},
        ])
    );
    assert_eq!(seen[2].1, "/apis/events.k8s.io/v1/namespaces/prod/events?");

    let (client, log) = scripted(Box::new(move |_, _| (200, isvc("12"))));
    let out = execute(&client, &op, &ctx()).await;
    assert!(matches!(out, OpOutcome::Conflict { .. }), "{out:?}");
    assert_eq!(log.lock().unwrap().len(), 1, "only the read");
}

#[tokio::test]
async fn clearing_puts_the_configmap_with_the_seen_resource_version() {
    let entry = |uuid: &str, phase: &str| {
        json!({"uuid": uuid, "workload": {"Namespace": "prod", "Name": "chat"},
            "workloadUID": "w", "irName": "chat-engine", "irUID": "i", "component": "engine",
            "instance": 0, "fromNode": "gpu-a", "payload": "{}", "sourceFingerprint": "f",
            "createdAt": "2026-09-28T10:15:02Z", "phase": phase, "reason": "AcknowledgementTimeout"})
    };
    let (a, b) = (
        "00000000-0000-4000-8000-000000000001",
        "00000000-0000-4000-8000-000000000002",
    );
    let state = json!({"version": "v1", "entries": [entry(a, "stalled"), entry(b, "submitted")]});
    let cm = json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "alfred-dispatch-state", "namespace": "alfred", "uid": "cm-uid",
            "resourceVersion": "30", "labels": {"keep": "me"}},
        "data": {"state.json": state.to_string(), "other": "x"}});
    let cm2 = cm.clone();
    let (client, log) = scripted(Box::new(move |i, _| match i {
        0 => (200, cm2.clone()),
        1 => (
            409,
            status(
                409,
                "Operation cannot be fulfilled: the object has been modified",
                None,
            ),
        ),
        _ => (
            200,
            json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "alfred-dispatch-state", "resourceVersion": "31"}}),
        ),
    }));
    let op = Op::ClearJournalEntry {
        namespace: "alfred".into(),
        uuid: a.into(),
        resource_version: "30".into(),
        override_checks: false,
    };
    let out = execute(&client, &op, &ctx()).await;
    let OpOutcome::Conflict { message } = &out else {
        panic!("{out:?}")
    };
    assert!(
        message.contains("is at resourceVersion 31 now (you saw 30)"),
        "{message}"
    );
    let log = log.lock().unwrap();
    let (method, path, _, put) = &log[1];
    assert_eq!(
        (method.as_str(), path.as_str()),
        (
            "PUT",
            "/api/v1/namespaces/alfred/configmaps/alfred-dispatch-state?&fieldManager=ome-top"
        )
    );
    assert_eq!(put["metadata"]["resourceVersion"], "30");
    assert_eq!(put["metadata"]["labels"]["keep"], "me");
    assert_eq!(put["data"]["other"], "x");
    let want = json!({"version": "v1", "entries": [entry(b, "submitted")]}).to_string();
    assert_eq!(put["data"]["state.json"], want);
}
