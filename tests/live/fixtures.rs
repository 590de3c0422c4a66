//! Builders shared by the live op tests: an `OpContext`, InferenceServices, Alfred's journal
//! ConfigMap with strictly valid entries (alfred.md §2.1), "looking" at objects (reading the
//! resourceVersion the operator would see) and finding the Events ome-top recorded.

use chrono::{TimeZone, Utc};
use k8s_openapi::api::core::v1::{ConfigMap, Node};
use k8s_openapi::api::events::v1::Event;
use kube::api::{Api, DynamicObject, ListParams, PostParams};
use kube::Client;
use ome_top::cluster::ops::isvc::inference_service_resource;
use ome_top::cluster::ops::journal::{JOURNAL_CONFIGMAP, JOURNAL_KEY};
use ome_top::cluster::ops::OpContext;
use ome_top::protocol::OpOutcome;
use serde_json::{json, Value};

/// A context for `namespace` as Alfred's namespace, writes allowed.
pub fn ctx(alfred_namespace: &str) -> OpContext {
    OpContext {
        alfred_namespace: alfred_namespace.to_string(),
        actor: "tester@live-ops".to_string(),
        read_only: None,
        now: Utc.with_ymd_and_hms(2026, 11, 30, 4, 0, 0).unwrap(),
    }
}

/// The message of any outcome, for assertions.
pub fn message(outcome: &OpOutcome) -> &str {
    match outcome {
        OpOutcome::Done { message, .. }
        | OpOutcome::Conflict { message }
        | OpOutcome::Refused { message }
        | OpOutcome::Failed { message } => message,
    }
}

/// The InferenceService API in `namespace`.
pub fn isvc_api(client: &Client, namespace: &str) -> Api<DynamicObject> {
    Api::namespaced_with(client.clone(), namespace, &inference_service_resource())
}

/// Creates an InferenceService `name`; `annotations` = `None` leaves the map out entirely.
pub async fn create_isvc(
    client: &Client,
    namespace: &str,
    name: &str,
    annotations: Option<Value>,
) -> DynamicObject {
    let mut metadata = json!({"name": name, "namespace": namespace});
    if let Some(a) = annotations {
        metadata["annotations"] = a;
    }
    let obj: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": metadata,
        "spec": {"engine": {"minReplicas": 2}},
    }))
    .unwrap();
    isvc_api(client, namespace)
        .create(&PostParams::default(), &obj)
        .await
        .unwrap()
}

/// `(uid, resourceVersion)` of an object as the operator sees it now.
pub fn seen(obj: &DynamicObject) -> (String, String) {
    (
        obj.metadata.uid.clone().unwrap(),
        obj.metadata.resource_version.clone().unwrap(),
    )
}

/// The resourceVersion of node `name` now.
pub async fn node_rv(client: &Client, name: &str) -> String {
    let node = Api::<Node>::all(client.clone()).get(name).await.unwrap();
    node.metadata.resource_version.unwrap()
}

/// A journal UUID in a family (`family` 0..=0xff) and index.
pub fn uuid(family: usize, i: usize) -> String {
    format!("00000000-0000-4000-8{family:03x}-{i:012x}")
}

/// A strictly valid journal entry. `stamp` moves `lastAttempt` (seconds after `createdAt`) and
/// is echoed in `reason` for non-stalled entries, so an update is visible field by field.
pub fn entry(uuid: &str, phase: &str, stamp: u64) -> Value {
    let reason = match phase {
        "stalled" => "AcknowledgementTimeout".to_string(),
        _ => format!("RequestSubmitted-{stamp}"),
    };
    let last = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 2).unwrap()
        + chrono::TimeDelta::seconds(i64::try_from(stamp).unwrap());
    let payload = concat!(
        r#"{"schemaVersion":"v1","component":"engine","instance":3,"from_node":"gpu-a","#,
        r#""reason":"NodeUnhealthy","requested_at":"2026-09-28T10:15:02Z","requested_by":"alfred"}"#
    );
    json!({
        "uuid": uuid,
        "workload": {"Namespace": "prod", "Name": "chat"},
        "workloadUID": "isvc-uid-1", "irName": "chat-engine", "irUID": "ir-uid-1",
        "component": "engine", "instance": 3, "fromNode": "gpu-a",
        "payload": payload,
        "sourceFingerprint": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "createdAt": "2026-09-28T10:15:02Z",
        "lastAttempt": last.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "phase": phase,
        "reason": reason,
    })
}

/// `{"version":"v1","entries":[…],"backoffUntil":…}`, compact.
pub fn journal(entries: Vec<Value>) -> String {
    json!({"version": "v1", "entries": entries, "backoffUntil": "2026-09-28T10:30:00Z"}).to_string()
}

/// Creates `alfred-dispatch-state` in `namespace` with `state_json` and one extra key.
pub async fn create_journal(client: &Client, namespace: &str, state_json: &str) -> ConfigMap {
    let cm: ConfigMap = serde_json::from_value(json!({
        "metadata": {"name": JOURNAL_CONFIGMAP, "namespace": namespace,
            "annotations": {"helm.sh/resource-policy": "keep"}},
        "data": {JOURNAL_KEY: state_json, "other-key": "kept"},
    }))
    .unwrap();
    Api::<ConfigMap>::namespaced(client.clone(), namespace)
        .create(&PostParams::default(), &cm)
        .await
        .unwrap()
}

/// The journal ConfigMap now.
pub async fn read_journal(client: &Client, namespace: &str) -> ConfigMap {
    Api::<ConfigMap>::namespaced(client.clone(), namespace)
        .get(JOURNAL_CONFIGMAP)
        .await
        .unwrap()
}

/// `state.json` of a ConfigMap.
pub fn state_of(cm: &ConfigMap) -> String {
    cm.data.as_ref().unwrap()[JOURNAL_KEY].clone()
}

/// UUIDs of the entries of a `state.json`, in order.
pub fn uuids_of(state_json: &str) -> Vec<String> {
    let doc: Value = serde_json::from_str(state_json).unwrap();
    doc["entries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["uuid"].as_str().unwrap().to_string())
        .collect()
}

/// Events in `namespace` reported by ome-top about the object named `name`.
pub async fn ome_top_events(client: &Client, namespace: &str, name: &str) -> Vec<Event> {
    Api::<Event>::namespaced(client.clone(), namespace)
        .list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter(|e| e.reporting_controller.as_deref() == Some("ome-top"))
        .filter(|e| e.regarding.as_ref().and_then(|r| r.name.as_deref()) == Some(name))
        .collect()
}
