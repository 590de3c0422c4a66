//! The churner: deletes and recreates the churn set's pods as fast as the API server accepts,
//! keeping the set's size constant (each slot's pod is deleted with grace period 0, then
//! created again under its next generation's name on the same node).
//!
//! `steady` writes at a fixed rate instead: one pod write every `1 / rate` seconds, creates and
//! deletes of pods of its own alternately.
//!
//! Owns: `churn`, `steady`, `ChurnResult`. Talks to the API only.

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

/// Writes pods at `rate` writes a second for `duration`, the cluster's size kept: write `i`
/// creates pod `steady-{i / 2}` (a copy of a churn slot's pod, bound to its node) when `i` is
/// even, and deletes the one created `LAG` creates before when odd, so each lives about a
/// second. Each write runs on its own task (a slow answer does not slow the rate); the last
/// `LAG` are deleted afterwards, not counted. The churn set's own names are left alone.
pub async fn steady(
    client: &Client,
    plan: &Plan,
    rate: u64,
    duration: Duration,
) -> Result<ChurnResult> {
    let api: Api<Pod> = Api::namespaced(client.clone(), CHURN_NS);
    let slots: Vec<PodPlan> = plan.pods[plan.pods.len() - plan.churn..].to_vec();
    let lag = (rate / 2).max(1) as usize;
    let counts = std::sync::Arc::new((AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0)));
    let start = Instant::now();
    let mut tick = tokio::time::interval(Duration::from_secs_f64(1.0 / rate.max(1) as f64));
    let mut tasks = Vec::new();
    let mut i = 0usize;
    while start.elapsed() < duration && !slots.is_empty() {
        tick.tick().await;
        let k = i / 2;
        i += 1;
        let op = if i % 2 == 1 {
            let mut pod = slots[k % slots.len()].clone();
            pod.name = steady_name(k);
            Write::Create(Box::new(serde_json::from_value::<Pod>(to_json(
                &pod,
                &plan.nodes,
            ))))
        } else if k >= lag {
            Write::Delete(steady_name(k - lag))
        } else {
            continue;
        };
        tasks.push(tokio::spawn(write(api.clone(), op, Some(counts.clone()))));
    }
    let created = i.div_ceil(2);
    let deleted = (i / 2).saturating_sub(lag);
    for k in deleted..created {
        tasks.push(tokio::spawn(write(
            api.clone(),
            Write::Delete(steady_name(k)),
            None,
        )));
    }
    let took = start.elapsed();
    for t in tasks {
        let _ = t.await;
    }
    let (deletes, creates, errors) = &*counts;
    Ok(ChurnResult {
        deletes: deletes.load(Ordering::Relaxed),
        creates: creates.load(Ordering::Relaxed),
        errors: errors.load(Ordering::Relaxed),
        took,
    })
}

fn steady_name(k: usize) -> String {
    format!("steady-{k:06}")
}

/// One write of `steady`.
enum Write {
    Create(Box<serde_json::Result<Pod>>),
    Delete(String),
}

type Counts = std::sync::Arc<(AtomicU64, AtomicU64, AtomicU64)>;

/// Sends `op`, counting it in `counts` (deletes, creates, errors) when given.
async fn write(api: Api<Pod>, op: Write, counts: Option<Counts>) {
    let delete = DeleteParams {
        grace_period_seconds: Some(0),
        ..DeleteParams::default()
    };
    let (ok, create) = match op {
        Write::Delete(name) => (api.delete(&name, &delete).await.is_ok(), false),
        Write::Create(pod) => match *pod {
            Ok(pod) => (api.create(&PostParams::default(), &pod).await.is_ok(), true),
            Err(_) => (false, true),
        },
    };
    let Some(counts) = counts else { return };
    let (deletes, creates, errors) = &*counts;
    let counter = match (ok, create) {
        (false, _) => errors,
        (true, true) => creates,
        (true, false) => deletes,
    };
    counter.fetch_add(1, Ordering::Relaxed);
}
