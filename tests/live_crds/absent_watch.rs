//! Absent is a state, not a poll: with the BaseModel CRDs not installed, a running session
//! sends the API server at most a couple of requests a minute for them (the audit log over
//! 60 s); when the CRD is created, its objects arrive within seconds.

#![allow(clippy::disallowed_methods)] // The audit window is measured against the wall clock.

use std::time::Duration;

use chrono::{DateTime, Utc};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, ApiResource, DynamicObject, GroupVersionKind, PostParams};
use serde_json::{json, Value};

use ome_top::cluster::live::{connect, LiveOptions};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::protocol::Presence;

use crate::support::cluster::{Identity, TestCluster};
use crate::support::objects::wait_for;

/// ome-top's requests after `since`: `(verb, request path without query)`.
fn ome_top_requests(tc: &TestCluster, since: DateTime<Utc>) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        // A long watch completes late; its start is what counts here.
        .filter(|e| e["stage"] == "ResponseStarted" || e["stage"] == "ResponseComplete")
        .filter(|e| e["stage"] == "ResponseStarted" || e["verb"] != "watch")
        .filter(|e| {
            e["userAgent"]
                .as_str()
                .is_some_and(|ua| ua.starts_with("ome-top/"))
        })
        .filter(|e| {
            e["requestReceivedTimestamp"]
                .as_str()
                .and_then(|t| DateTime::parse_from_rfc3339(t).ok())
                .is_some_and(|t| t.with_timezone(&Utc) >= since)
        })
        .map(|e| {
            let uri = e["requestURI"].as_str().unwrap_or_default();
            let path = uri.split('?').next().unwrap_or_default().to_string();
            (e["verb"].as_str().unwrap_or_default().to_string(), path)
        })
        .collect()
}

fn base_model_crd() -> CustomResourceDefinition {
    serde_json::from_value(json!({
        "metadata": {"name": "basemodels.ome.io"},
        "spec": {
            "group": "ome.io", "scope": "Namespaced",
            "names": {"kind": "BaseModel", "listKind": "BaseModelList", "plural": "basemodels",
                "singular": "basemodel"},
            "versions": [{"name": "v1beta1", "served": true, "storage": true,
                "schema": {"openAPIV3Schema": {"type": "object",
                    "x-kubernetes-preserve-unknown-fields": true}}}]
        }
    }))
    .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absent_base_models_are_followed_by_a_crd_watch_and_arrive_when_installed() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("absent").await;
    let opts = LiveOptions {
        kubeconfig: Some(tc.kubeconfig_path(Identity::Admin)),
        context: None,
        namespace: Some(ns.clone()),
        alfred_namespace: ns.clone(),
        scheduler_namespace: ns.clone(),
        read_only: Some("read-only mode (--readonly)".to_string()),
        analysis: AnalysisOptions {
            now: crate::clock(),
            alfred_namespace: ns.clone(),
            executor: ExecutorSetting::Auto,
            placement: PlacementOptions::default(),
            instance_types: Default::default(),
        },
        clock: crate::clock,
    };
    let started = Utc::now();
    let mut live = connect(opts).await.unwrap();
    let feed = live.wait_synced(Duration::from_secs(60)).await.unwrap();
    let models = feed
        .sources
        .iter()
        .find(|s| s.name == "basemodels")
        .unwrap();
    assert_eq!(models.presence, Presence::CrdAbsent);

    // The audit log names ome-top's requests (else the counts below would prove nothing):
    // the nodes are read by a streaming list, a watch.
    let first = ome_top_requests(tc, started);
    assert!(
        first
            .iter()
            .any(|(v, p)| v == "watch" && p == "/api/v1/nodes"),
        "{first:?}"
    );
    // Past the first 404s, one minute of running.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let since = Utc::now();
    tokio::time::sleep(Duration::from_secs(60)).await;
    let sent = ome_top_requests(tc, since);
    for plural in ["basemodels", "clusterbasemodels"] {
        let n = sent.iter().filter(|(_, p)| p.ends_with(plural)).count();
        assert!(n <= 2, "{n} requests for absent {plural} in 60 s: {sent:?}");
    }
    let crd_requests = sent
        .iter()
        .filter(|(_, p)| p.contains("customresourcedefinitions"))
        .count();
    assert!(
        crd_requests <= 10,
        "{crd_requests} CRD requests in 60 s: {sent:?}"
    );

    // Installing the CRD brings the source and its objects in within seconds.
    let admin = tc.admin_client().await;
    let crds: Api<CustomResourceDefinition> = Api::all(admin.clone());
    crds.create(&PostParams::default(), &base_model_crd())
        .await
        .unwrap();
    let gvk = GroupVersionKind::gvk("ome.io", "v1beta1", "BaseModel");
    let ar = ApiResource::from_gvk_with_plural(&gvk, "basemodels");
    let api: Api<DynamicObject> = Api::namespaced_with(admin.clone(), &ns, &ar);
    let model: DynamicObject = serde_json::from_value(json!({
        "apiVersion": "ome.io/v1beta1", "kind": "BaseModel",
        "metadata": {"name": "llama-3-70b", "namespace": ns},
        "spec": {"storage": {"storageUri": "hf://meta-llama/Llama-3-70B"}}
    }))
    .unwrap();
    wait_for("BaseModel CRD served", Duration::from_secs(30), || async {
        Ok(api
            .create(&PostParams::default(), &model)
            .await
            .ok()
            .map(|_| ()))
    })
    .await
    .unwrap();
    let feed = live
        .wait_for(Duration::from_secs(20), |f| {
            f.snapshot
                .models
                .iter()
                .any(|m| m.name.as_ref() == "llama-3-70b")
        })
        .await
        .expect("the BaseModel arrives within seconds of its CRD");
    let models = feed
        .sources
        .iter()
        .find(|s| s.name == "basemodels")
        .unwrap();
    assert_eq!(models.presence, Presence::Present);
    crds.delete("basemodels.ome.io", &Default::default())
        .await
        .unwrap();
}
