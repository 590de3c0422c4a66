//! A FailedScheduling Event written as kube-scheduler writes it (`events.k8s.io/v1`: `note`,
//! `regarding`, `series`, `reportingController`) reaches the live watchers and becomes the
//! gang's pending reason and event pin (gangpack.md §5 and §7.2 step 5), read as the viewer
//! through `events.k8s.io/v1` (the API the server serves) and counted once.

#![allow(clippy::disallowed_methods)] // The Event is stamped and judged by the wall clock, as the scheduler and the TUI do.

use std::sync::Arc;
use std::time::Duration;

use chrono::Utc;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::api::events::v1::Event;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use serde_json::json;

use ome_top::cluster::live::hub::Hub;
use ome_top::cluster::live::watch::{events_api, spawn_watchers, EventsApi, Scope};
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::{GangState, PinSource, ReasonCode, ReasonSource};
use ome_top::protocol::Permissions;

use crate::support::cluster::TestCluster;

fn clock() -> chrono::DateTime<Utc> {
    Utc::now()
}

async fn create_gang(admin: &kube::Client, ns: &str) {
    let gvk = GroupVersionKind::gvk("scheduling.x-k8s.io", "v1alpha1", "PodGroup");
    let ar = ApiResource::from_gvk_with_plural(&gvk, "podgroups");
    let group: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "scheduling.x-k8s.io/v1alpha1", "kind": "PodGroup",
        "metadata": {"name": "g", "annotations": {"ome.io/topology-key": "ome.io/rack"}},
        "spec": {"minMember": 2, "scheduleTimeoutSeconds": 600}}))
    .unwrap();
    Api::<DynamicObject>::namespaced_with(admin.clone(), ns, &ar)
        .create(&PostParams::default(), &group)
        .await
        .unwrap();
    let pods: Api<Pod> = Api::namespaced(admin.clone(), ns);
    for m in 0..2 {
        // No such scheduler runs here: the members stay Pending, as at a stuck gang.
        let pod: Pod = serde_json::from_value(json!({
            "metadata": {"name": format!("g-{m}"),
                         "labels": {"scheduling.x-k8s.io/pod-group": "g"}},
            "spec": {"schedulerName": "ome-scheduler", "containers": [{"name": "main",
                     "image": "registry.invalid/model-server:test"}]}}))
        .unwrap();
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
}

/// The Event kube-scheduler writes for member `g-0`.
fn failed_scheduling(ns: &str) -> Event {
    let now = Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Micros, true);
    serde_json::from_value(json!({
        "metadata": {"name": "g-0.1828c1d3a3b4"},
        "regarding": {"apiVersion": "v1", "kind": "Pod", "namespace": ns, "name": "g-0"},
        "reason": "FailedScheduling", "type": "Warning", "action": "Scheduling",
        "note": format!("0/6 nodes are available: pinned domain rack-7 cannot fit all remaining gang members {ns}/g."),
        "reportingController": "ome-scheduler", "reportingInstance": "ome-scheduler-0",
        "eventTime": now, "series": {"count": 2, "lastObservedTime": now}}))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_events_k8s_io_failed_scheduling_event_pins_the_gang() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("sched-events").await;
    let admin = tc.admin_client().await;
    create_gang(&admin, &ns).await;
    // Written after the pods: an event older than its pod does not count.
    tokio::time::sleep(Duration::from_millis(1100)).await;
    Api::<Event>::namespaced(admin.clone(), &ns)
        .create(&PostParams::default(), &failed_scheduling(&ns))
        .await
        .unwrap();
    let viewer = tc.viewer_client().await;
    let scope = Scope {
        namespace: Some(ns.clone()),
        alfred_namespace: "ome".into(),
        scheduler_namespace: "ome".into(),
    };
    assert_eq!(events_api(&viewer, &scope).await, Some(EventsApi::EventsV1));
    let hub = Arc::new(Hub::new(clock, Permissions::read_only("test")));
    let tasks = spawn_watchers(&viewer, &scope, &hub);
    let key = format!("{ns}/g");
    let mut seen = None;
    for _ in 0..300 {
        let snap = hub.stores.snapshot();
        let opts = AnalysisOptions {
            now: Utc::now() + chrono::Duration::seconds(1),
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let a = analyze(&snap, &opts);
        let gang = a.gangs.gangs.iter().find(|g| g.key() == key).cloned();
        if gang
            .as_ref()
            .is_some_and(|g| g.pin_source == Some(PinSource::Event))
        {
            seen = gang.map(|g| (g, snap.events.len()));
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    for t in tasks {
        t.abort();
    }
    let (g, events) = seen.expect("the gang pinned from the event within 30 s");
    assert_eq!(
        (g.state, g.domain.as_deref()),
        (GangState::Pinned, Some("rack-7"))
    );
    let r = g.pending_reason.as_ref().unwrap();
    assert_eq!(
        (r.source, r.primary.code),
        (ReasonSource::Event, ReasonCode::PinnedDomainFull)
    );
    assert_eq!(events, 1, "the event is held once");
}
