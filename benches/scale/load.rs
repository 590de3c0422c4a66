//! Writing the planned fleet into the test control plane: namespaces, kwok nodes,
//! InferenceServices and pods, created concurrently with retries, with a progress line every
//! few seconds; and the waits for kwok (nodes Ready, bound pods Running).
//!
//! Owns: `Loader`. Talks to the API only; never starts processes.

#![allow(clippy::disallowed_methods)] // Progress rates need a monotonic clock.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use futures::StreamExt;
use k8s_openapi::api::core::v1::{Namespace, Node, Pod};
use kube::api::{Api, DynamicObject, ListParams, PostParams};
use kube::Client;
use serde_json::{json, Value};

use crate::plan::{self, Plan, AGENTS_NS, CHURN_NS, TEAMS};
use crate::support::objects::{gpu_node, node_is_ready};
use ome_top::cluster::live::sources::isvc_resource;

/// Creates objects with `concurrency` requests in flight.
pub struct Loader {
    /// The admin client.
    pub client: Client,
    /// Requests in flight.
    pub concurrency: usize,
}

/// Creates one object, retrying transient failures; an existing object counts as created.
async fn create_value<K>(api: &Api<K>, value: &Value) -> Result<()>
where
    K: kube::Resource + Clone + serde::de::DeserializeOwned + serde::Serialize + std::fmt::Debug,
{
    let obj: K = serde_json::from_value(value.clone())?;
    let mut last = String::new();
    for attempt in 0..8u64 {
        match api.create(&PostParams::default(), &obj).await {
            Ok(_) => return Ok(()),
            Err(kube::Error::Api(s)) if s.code == 409 => return Ok(()),
            Err(e) => last = e.to_string(),
        }
        tokio::time::sleep(Duration::from_millis(200 * (attempt + 1))).await;
    }
    Err(anyhow!("create failed 8 times: {last}"))
}

/// Prints `what: done/total (rate/s)` every 5 s while `work` runs.
async fn with_progress<F: std::future::Future<Output = Result<()>>>(
    what: &str,
    total: usize,
    done: &AtomicUsize,
    work: F,
) -> Result<Duration> {
    let start = Instant::now();
    let mut work = std::pin::pin!(work);
    let mut tick = tokio::time::interval(Duration::from_secs(5));
    tick.tick().await;
    loop {
        tokio::select! {
            r = &mut work => {
                r?;
                let took = start.elapsed();
                eprintln!("  {what}: {total}/{total} in {:.1} s ({:.0}/s)", took.as_secs_f64(),
                    total as f64 / took.as_secs_f64().max(1e-3));
                return Ok(took);
            }
            _ = tick.tick() => {
                let n = done.load(Ordering::Relaxed);
                eprintln!("  {what}: {n}/{total} ({:.0}/s)",
                    n as f64 / start.elapsed().as_secs_f64());
            }
        }
    }
}

impl Loader {
    /// Creates the namespaces of the plan.
    pub async fn namespaces(&self) -> Result<()> {
        let api: Api<Namespace> = Api::all(self.client.clone());
        let mut names: Vec<String> = (0..TEAMS).map(|t| format!("team-{t}")).collect();
        names.extend([AGENTS_NS.to_string(), CHURN_NS.to_string()]);
        for name in names {
            create_value(&api, &json!({"metadata": {"name": name}})).await?;
        }
        Ok(())
    }

    /// Creates every node of the plan (concurrently) and waits until all are Ready.
    pub async fn nodes(&self, plan: &Plan) -> Result<Duration> {
        let api: Api<Node> = Api::all(self.client.clone());
        let done = AtomicUsize::new(0);
        let work = futures::stream::iter(plan.nodes.iter())
            .map(|(name, pool)| {
                let value = serde_json::to_value(gpu_node(name, plan::POOLS[*pool].0));
                let (api, done) = (&api, &done);
                async move {
                    create_value(api, &value?).await?;
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok::<_, anyhow::Error>(())
                }
            })
            .buffer_unordered(self.concurrency)
            .fold(Ok(()), |acc, r| async move { acc.and(r) });
        let created = with_progress("nodes created", plan.nodes.len(), &done, work).await?;
        let ready = self.wait_nodes_ready(plan.nodes.len()).await?;
        Ok(created + ready)
    }

    async fn wait_nodes_ready(&self, want: usize) -> Result<Duration> {
        let api: Api<Node> = Api::all(self.client.clone());
        let start = Instant::now();
        loop {
            let mut ready = 0;
            let mut params = ListParams::default().limit(500);
            loop {
                let page = api.list(&params).await?;
                ready += page.items.iter().filter(|n| node_is_ready(n)).count();
                match page.metadata.continue_.filter(|c| !c.is_empty()) {
                    Some(c) => params = params.continue_token(&c),
                    None => break,
                }
            }
            eprintln!(
                "  nodes Ready: {ready}/{want} after {:.0} s",
                start.elapsed().as_secs_f64()
            );
            if ready >= want {
                return Ok(start.elapsed());
            }
            if start.elapsed() > Duration::from_secs(900) {
                return Err(anyhow!("only {ready}/{want} nodes Ready after 15 min"));
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }

    /// Creates the plan's InferenceServices.
    pub async fn isvcs(&self, plan: &Plan) -> Result<Duration> {
        let done = AtomicUsize::new(0);
        let resource = isvc_resource();
        let work = futures::stream::iter(plan.isvcs.iter())
            .map(|(ns, name)| {
                let api: Api<DynamicObject> =
                    Api::namespaced_with(self.client.clone(), ns, &resource);
                let done = &done;
                async move {
                    create_value(&api, &plan::isvc_json(ns, name)).await?;
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok::<_, anyhow::Error>(())
                }
            })
            .buffer_unordered(self.concurrency)
            .fold(Ok(()), |acc, r| async move { acc.and(r) });
        with_progress("InferenceServices", plan.isvcs.len(), &done, work).await
    }

    /// Creates pods `range` of the plan.
    pub async fn pods(&self, plan: &Plan, range: std::ops::Range<usize>) -> Result<Duration> {
        let done = AtomicUsize::new(0);
        let total = range.len();
        let work = futures::stream::iter(plan.pods[range].iter())
            .map(|p| {
                let api: Api<Pod> = Api::namespaced(self.client.clone(), &p.ns);
                let value = plan::to_json(p, &plan.nodes);
                let done = &done;
                async move {
                    create_value(&api, &value).await?;
                    done.fetch_add(1, Ordering::Relaxed);
                    Ok::<_, anyhow::Error>(())
                }
            })
            .buffer_unordered(self.concurrency)
            .fold(Ok(()), |acc, r| async move { acc.and(r) });
        with_progress("pods created", total, &done, work).await
    }

    /// Waits at most `limit` until at most `pending_ok` pods are still Pending (kwok marks
    /// bound pods Running); returns the time waited and the pods still Pending.
    pub async fn wait_running(
        &self,
        pending_ok: usize,
        limit: Duration,
    ) -> Result<(Duration, usize)> {
        let api: Api<Pod> = Api::all(self.client.clone());
        let start = Instant::now();
        loop {
            let mut pending = 0;
            let mut params = ListParams::default()
                .fields("status.phase=Pending")
                .limit(500);
            loop {
                let page = api.list(&params).await?;
                pending += page.items.len();
                match page.metadata.continue_.filter(|c| !c.is_empty()) {
                    Some(c) => params = params.continue_token(&c),
                    None => break,
                }
            }
            eprintln!(
                "  pods still Pending: {pending} (by design {pending_ok}) after {:.0} s",
                start.elapsed().as_secs_f64()
            );
            if pending <= pending_ok || start.elapsed() >= limit {
                return Ok((start.elapsed(), pending));
            }
            tokio::time::sleep(Duration::from_secs(5)).await;
        }
    }
}
