//! Missing CRDs are a normal state (its own test binary: it deletes the cluster's CRDs):
//! every custom-resource source is `Presence::CrdAbsent`, the view still connects, and
//! `analyze` still succeeds; an absent kind is followed by a watch of its CRD, not polled.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

#[path = "../support/mod.rs"]
mod support;

mod absent_watch;

use std::time::Duration;

use chrono::{DateTime, Utc};
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::{Api, DeleteParams};

use ome_top::cluster::live::{connect, LiveOptions};
use ome_top::engine::analysis::{AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::PlacementOptions;
use ome_top::engine::model::Time;
use ome_top::protocol::{ApiStatus, Presence};
use support::cluster::{Identity, TestCluster};
use support::objects::{wait_for, CRDS};

pub(crate) fn clock() -> Time {
    DateTime::parse_from_rfc3339("2026-11-30T04:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn absent_crds_are_shown_as_not_installed() {
    let tc = TestCluster::shared();
    let admin = tc.admin_client().await;
    let crds: Api<CustomResourceDefinition> = Api::all(admin.clone());
    for (group, _, _, plural) in CRDS {
        crds.delete(&format!("{plural}.{group}"), &DeleteParams::default())
            .await
            .unwrap();
    }
    wait_for("CRDs gone", Duration::from_secs(60), || async {
        let left = crds.list(&Default::default()).await?;
        Ok(left.items.is_empty().then_some(()))
    })
    .await
    .unwrap();

    let ns = tc.fresh_namespace("nocrd").await;
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
    let feed = live.wait_synced(Duration::from_secs(60)).await.unwrap();
    assert_eq!(feed.api, ApiStatus::Connected);
    for name in ["inferenceservices", "inferencereplicas", "podgroups"] {
        let s = feed.sources.iter().find(|s| s.name == name).unwrap();
        assert_eq!(s.presence, Presence::CrdAbsent, "{name}");
        assert_eq!(s.objects, 0);
    }
    let nodes = feed.sources.iter().find(|s| s.name == "nodes").unwrap();
    assert_eq!(nodes.presence, Presence::Present);
    assert!(!feed.snapshot.replicas_listed);

    let kubeconfig = tc.kubeconfig_path(Identity::Admin);
    let out = crate::support::command::ome_top()
        .args(["analyze", "-o", "json", "--kubeconfig"])
        .arg(&kubeconfig)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
