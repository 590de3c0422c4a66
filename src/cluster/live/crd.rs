//! Absent is a state, not a poll: when a custom resource answers 404 (its CRD is not
//! installed), its watcher stops and this waits on one watch of that CRD by name
//! (`customresourcedefinitions`, field selector `metadata.name`) until the CRD serves the
//! version ome-top reads; then the resource's watcher starts again. A watch costs one list and
//! one long request, so an absent kind costs the API server a couple of requests a minute at
//! most instead of a relist every backoff step. Where the identity may not read CRDs, the
//! resource is retried at a slow fixed pace instead.
//!
//! Owns: `CrdName`, `wait_until_served`, `ABSENT_RETRY`.

use std::pin::pin;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::apiextensions_apiserver::pkg::apis::apiextensions::v1::CustomResourceDefinition;
use kube::api::Api;
use kube::runtime::{watcher, WatchStreamExt};
use kube::Client;

/// How long to wait before trying an absent resource again when its CRD cannot be watched
/// (RBAC), in place of the watch.
pub const ABSENT_RETRY: Duration = Duration::from_secs(30);

/// The CRD behind a custom resource: `plural.group` and the version read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CrdName {
    /// `inferenceservices`.
    pub plural: &'static str,
    /// `ome.io`.
    pub group: &'static str,
    /// `v1beta1`.
    pub version: &'static str,
}

impl CrdName {
    /// `inferenceservices.ome.io`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.plural, self.group)
    }
}

/// Whether `crd` is established and serves `version`.
pub fn serves(crd: &CustomResourceDefinition, version: &str) -> bool {
    let established = crd
        .status
        .as_ref()
        .and_then(|s| s.conditions.as_ref())
        .is_some_and(|cs| {
            cs.iter()
                .any(|c| c.type_ == "Established" && c.status == "True")
        });
    established
        && crd
            .spec
            .versions
            .iter()
            .any(|v| v.name == version && v.served)
}

/// Returns once the CRD of `crd` exists, is established and serves its version. When the CRD
/// watch itself is refused or fails to start, returns after `ABSENT_RETRY` so the caller
/// tries the resource again.
pub async fn wait_until_served(client: &Client, crd: CrdName) {
    let api: Api<CustomResourceDefinition> = Api::all(client.clone());
    let config = watcher::Config::default().fields(&format!("metadata.name={}", crd.name()));
    let mut stream = pin!(watcher(api, config).default_backoff());
    let started = tokio::time::Instant::now();
    while let Some(item) = stream.next().await {
        match item {
            Ok(watcher::Event::Apply(c) | watcher::Event::InitApply(c))
                if serves(&c, crd.version) =>
            {
                return;
            }
            Ok(_) => {}
            Err(_) => {
                // A refusal or an outage: wait out the slow pace, then let the resource's
                // own watcher find out.
                tokio::time::sleep_until(started + ABSENT_RETRY).await;
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn crd(established: &str, versions: &[(&str, bool)]) -> CustomResourceDefinition {
        let versions: Vec<_> = versions
            .iter()
            .map(|(n, served)| serde_json::json!({"name": n, "served": served, "storage": true}))
            .collect();
        serde_json::from_value(serde_json::json!({
            "metadata": {"name": "basemodels.ome.io"},
            "spec": {"group": "ome.io", "scope": "Namespaced",
                "names": {"kind": "BaseModel", "plural": "basemodels"}, "versions": versions},
            "status": {"conditions": [{"type": "Established", "status": established}]}
        }))
        .unwrap()
    }

    #[test]
    fn a_crd_serves_a_version_once_established_and_served() {
        assert!(serves(&crd("True", &[("v1beta1", true)]), "v1beta1"));
        assert!(!serves(&crd("False", &[("v1beta1", true)]), "v1beta1"));
        assert!(!serves(&crd("True", &[("v1beta1", false)]), "v1beta1"));
        assert!(!serves(&crd("True", &[("v1alpha1", true)]), "v1beta1"));
    }
}
