//! Node heartbeats written by the bench (`SCALE_IDLE_QUIET=1`, when kwok is stopped): each
//! write moves one node's `Ready` condition's `lastHeartbeatTime` to now, as the kubelet (or
//! kwok's heartbeat stage) does, the nodes taken in turn at a steady rate.
//!
//! Owns: `heartbeats`, `KWOK_RATE_SECS`.

#![allow(clippy::disallowed_methods)] // Wall-clock pacing is what this program does.

use std::time::{Duration, Instant};

use anyhow::Result;
use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, Patch, PatchParams};
use kube::Client;
use serde_json::json;

/// Seconds between two status writes of one node by kwok's heartbeat stage (the middle of its
/// 600–1,210 s), so `nodes / KWOK_RATE_SECS` writes a second match kwok's rate.
pub const KWOK_RATE_SECS: f64 = 900.0;

/// Writes `rate` node heartbeats a second for `duration`, nodes in turn; returns the writes
/// the API server accepted.
pub async fn heartbeats(
    client: &Client,
    nodes: &[(String, usize)],
    rate: f64,
    duration: Duration,
) -> Result<u64> {
    let api: Api<Node> = Api::all(client.clone());
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate.max(0.01)));
    let mut tasks = Vec::new();
    let mut i = 0usize;
    while start.elapsed() < duration && !nodes.is_empty() {
        tick.tick().await;
        let name = nodes[i % nodes.len()].0.clone();
        i += 1;
        let api = api.clone();
        tasks.push(tokio::spawn(async move {
            let now = chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
            let patch = json!({"status": {"conditions": [
                {"type": "Ready", "lastHeartbeatTime": now}
            ]}});
            api.patch_status(&name, &PatchParams::default(), &Patch::Strategic(patch))
                .await
                .is_ok()
        }));
    }
    let mut accepted = 0;
    for t in tasks {
        accepted += u64::from(t.await.unwrap_or(false));
    }
    Ok(accepted)
}
