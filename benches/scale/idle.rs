//! Idle CPU of the TUI after sync (issue 29 item 3): the share of a core the `ome-top` TUI
//! process uses (user + system ticks of `/proc/<pid>/stat`, every thread) over
//! `SCALE_IDLE_SECS`, first with nothing written to the cluster, then while a steady churner
//! deletes and recreates pods at `SCALE_STEADY_RATE` pod writes a second. kwok writes node
//! heartbeats throughout (its `node-heartbeat-with-lease` stage: each Ready node's status every
//! 600–1,210 s, and its Lease every ~40 s, which ome-top does not watch); the audit log counts
//! the node status writes in each window.
//!
//! Owns: `idle_cpu`.

#![allow(clippy::disallowed_methods)] // Wall-clock windows are what this program measures.

use std::path::Path;
use std::time::Instant;

use anyhow::Result;

use crate::churn::steady;
use crate::load::Loader;
use crate::plan::Plan;
use crate::probe::{self, Tui};
use crate::{audit, Config, Results};

/// Measures both windows on the running `tui` (synced), recording each in `results`.
pub async fn idle_cpu(
    cfg: &Config,
    (loader, plan): (&Loader, &Plan),
    (tui, audit_log): (&Tui, &Path),
    results: &mut Results,
) -> Result<()> {
    let window = cfg.idle;
    let (pods, nodes) = (cfg.pods, cfg.nodes);
    let since = chrono::Utc::now();
    let before = probe::cpu_ticks(tui.pid)?;
    let start = Instant::now();
    tokio::time::sleep(window).await;
    let quiet = probe::share(before, probe::cpu_ticks(tui.pid)?, start.elapsed());
    let heartbeats = audit::node_status_writes(audit_log, since, chrono::Utc::now())?;
    results.add(
        format!("TUI idle CPU after sync, {nodes} nodes / {pods} pods, no churn"),
        "≈ 0",
        format!(
            "{:.2} % of a core over {} s ({heartbeats} node status writes by kwok: {:.1}/s)",
            quiet * 100.0,
            window.as_secs(),
            heartbeats as f64 / window.as_secs_f64()
        ),
    );
    let rate = cfg.steady_rate;
    let since = chrono::Utc::now();
    let before = probe::cpu_ticks(tui.pid)?;
    let start = Instant::now();
    let done = steady(&loader.client, plan, rate, window).await?;
    let busy = probe::share(before, probe::cpu_ticks(tui.pid)?, start.elapsed());
    let heartbeats = audit::node_status_writes(audit_log, since, chrono::Utc::now())?;
    let took = done.took.as_secs_f64().max(1e-3);
    results.add(
        format!("TUI CPU, steady churn of {rate} pod writes/s plus node heartbeats"),
        "—",
        format!(
            "{:.2} % of a core over {:.0} s ({:.1} pod writes/s accepted, {} errors; {heartbeats} node status writes: {:.1}/s)",
            busy * 100.0,
            start.elapsed().as_secs_f64(),
            (done.deletes + done.creates) as f64 / took,
            done.errors,
            heartbeats as f64 / took
        ),
    );
    Ok(())
}
