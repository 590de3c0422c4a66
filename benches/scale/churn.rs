//! The churner: deletes and recreates the churn set's pods as fast as the API server accepts,
//! keeping the set's size constant (each slot's pod is deleted with grace period 0, then
//! created again under its next generation's name on the same node).
//!
//! Owns: `churn`, `ChurnResult`. Talks to the API only.

#![allow(clippy::disallowed_methods)] // The churn runs for a wall-clock duration.

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use futures::StreamExt;
use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, DeleteParams, PostParams};
use kube::Client;

use crate::plan::{churn_name, to_json, Plan, PodPlan, CHURN_NS};

/// What the churner did.
#[derive(Debug, Clone, Copy, Default)]
pub struct ChurnResult {
    /// Pods deleted.
    pub deletes: u64,
    /// Pods created.
    pub creates: u64,
    /// Requests that failed (not retried: the slot just moves on).
    pub errors: u64,
    /// How long it ran.
    pub took: Duration,
}

/// Churns the plan's churn set for `duration` with `workers` slots in flight at a time.
pub async fn churn(
    client: &Client,
    plan: &Plan,
    duration: Duration,
    workers: usize,
) -> Result<ChurnResult> {
    let api: Api<Pod> = Api::namespaced(client.clone(), CHURN_NS);
    let slots: Vec<PodPlan> = plan.pods[plan.pods.len() - plan.churn..].to_vec();
    let (deletes, creates, errors) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    let start = Instant::now();
    let delete = DeleteParams {
        grace_period_seconds: Some(0),
        ..DeleteParams::default()
    };
    // Worker `w` owns slots w, w + workers, …, so no two requests touch the same slot.
    futures::stream::iter(0..workers.min(slots.len()))
        .for_each_concurrent(workers, |w| {
            let (api, slots, delete) = (&api, &slots, &delete);
            let (deletes, creates, errors) = (&deletes, &creates, &errors);
            async move {
                let own: Vec<usize> = (w..slots.len()).step_by(workers).collect();
                let mut generations = vec![0u64; own.len()];
                let mut k = 0;
                while start.elapsed() < duration {
                    let (s, i) = (own[k % own.len()], k % own.len());
                    match api.delete(&churn_name(s, generations[i]), delete).await {
                        Ok(_) => deletes.fetch_add(1, Ordering::Relaxed),
                        Err(_) => errors.fetch_add(1, Ordering::Relaxed),
                    };
                    generations[i] += 1;
                    let mut next = slots[s].clone();
                    next.name = churn_name(s, generations[i]);
                    let pod = serde_json::from_value::<Pod>(to_json(&next, &plan.nodes));
                    match pod {
                        Ok(pod) if api.create(&PostParams::default(), &pod).await.is_ok() => {
                            creates.fetch_add(1, Ordering::Relaxed)
                        }
                        _ => errors.fetch_add(1, Ordering::Relaxed),
                    };
                    k += 1;
                }
            }
        })
        .await;
    Ok(ChurnResult {
        deletes: deletes.load(Ordering::Relaxed),
        creates: creates.load(Ordering::Relaxed),
        errors: errors.load(Ordering::Relaxed),
        took: start.elapsed(),
    })
}
