//! The floor a first screen is measured against: one raw GET of `/api/v1/pods` (what
//! `kubectl get --raw /api/v1/pods` sends: no limit, no compression), timed from the request
//! to the last byte of the body, which is counted and dropped undecoded.
//!
//! Owns: `raw_list`. Talks to the API only.

#![allow(clippy::disallowed_methods)] // A wall time is what this measures.

use std::time::{Duration, Instant};

use anyhow::{anyhow, Result};
use kube::client::Body;
use kube::Client;

/// GETs `path` once; returns the time to the body's last byte and the body's size in bytes.
pub async fn raw_list(client: &Client, path: &str) -> Result<(Duration, usize)> {
    let start = Instant::now();
    let request = http::Request::get(path).body(Body::from(Vec::new()))?;
    let response = client.send(request).await?;
    let status = response.status();
    let body = response.into_body().collect_bytes().await?;
    let took = start.elapsed();
    if !status.is_success() {
        return Err(anyhow!("GET {path}: {status}"));
    }
    Ok((took, body.len()))
}
