//! Idle CPU of the TUI after sync (issue 29 item 3): the share of a core the `ome-top` TUI
//! process uses (user + system ticks of `/proc/<pid>/stat`, every thread) over
//! `SCALE_IDLE_SECS`, first with nothing written to the cluster, then while a steady churner
//! deletes and recreates pods at `SCALE_STEADY_RATE` pod writes a second plus node heartbeats.
//!
//! kwok writes on its own: each Ready node's status every 600–1,210 s (its Lease every ~40 s,
//! which ome-top does not watch), and, for long after a load, the status of every bound pod it
//! has not marked Running yet. With `SCALE_IDLE_QUIET=1` kwok is stopped first, so the first
//! window is a quiet cluster, and the bench writes the heartbeats itself at kwok's rate
//! (`heartbeat.rs`). The audit log counts node and pod status writes in each window.
//!
//! Owns: `idle_cpu`.

#![allow(clippy::disallowed_methods)] // Wall-clock windows are what this program measures.

use std::time::{Duration, Instant};

use anyhow::Result;
use chrono::{DateTime, Utc};

use crate::churn::steady;
use crate::heartbeat::{heartbeats, KWOK_RATE_SECS};
use crate::load::Loader;
use crate::plan::Plan;
use crate::probe::{self, Tui};
use crate::support::cluster::TestCluster;
use crate::{audit, Config, Results};

/// Node and pod status writes in a window, in words.
fn writes_in(
    tc: &TestCluster,
    window: (DateTime<Utc>, DateTime<Utc>),
    secs: f64,
) -> Result<String> {
    let log = tc.audit_log_path();
    let nodes = audit::status_writes(&log, "nodes", window)?;
    let pods = audit::status_writes(&log, "pods", window)?;
    Ok(format!(
        "{nodes} node status writes ({:.1}/s), {pods} pod status writes ({:.1}/s)",
        nodes as f64 / secs,
        pods as f64 / secs
    ))
}

/// Measures both windows on the running `tui` (synced), recording each in `results`.
pub async fn idle_cpu(
    cfg: &Config,
    (loader, plan): (&Loader, &Plan),
    (tui, tc): (&Tui, &TestCluster),
    results: &mut Results,
) -> Result<()> {
    let (window, quiet_cluster) = (cfg.idle, cfg.idle_quiet);
    let (pods, nodes) = (cfg.pods, cfg.nodes);
    if quiet_cluster {
        tc.stop_component("kwok");
        // Writes kwok had in flight land within a moment; the window starts after them.
        tokio::time::sleep(Duration::from_secs(5)).await;
    }
    let since = Utc::now();
    let before = probe::cpu_ticks(tui.pid)?;
    let start = Instant::now();
    tokio::time::sleep(window).await;
    let quiet = probe::share(before, probe::cpu_ticks(tui.pid)?, start.elapsed());
    let seen = writes_in(tc, (since, Utc::now()), window.as_secs_f64())?;
    let who = if quiet_cluster {
        "kwok stopped"
    } else {
        "kwok running"
    };
    results.add(
        format!("TUI idle CPU after sync, {nodes} nodes / {pods} pods, no churn ({who})"),
        "≈ 0",
        format!(
            "{:.2} % of a core over {} s ({seen})",
            quiet * 100.0,
            window.as_secs()
        ),
    );
    let rate = cfg.steady_rate;
    let beats = if quiet_cluster {
        nodes as f64 / KWOK_RATE_SECS
    } else {
        0.0
    };
    let since = Utc::now();
    let before = probe::cpu_ticks(tui.pid)?;
    let start = Instant::now();
    let (done, beaten) = tokio::join!(steady(&loader.client, plan, rate, window), async {
        if beats > 0.0 {
            heartbeats(&loader.client, &plan.nodes, beats, window).await
        } else {
            Ok(0)
        }
    });
    let (done, beaten) = (done?, beaten?);
    let busy = probe::share(before, probe::cpu_ticks(tui.pid)?, start.elapsed());
    let took = done.took.as_secs_f64().max(1e-3);
    let seen = writes_in(tc, (since, Utc::now()), took)?;
    let by = if quiet_cluster {
        format!("by the bench, {beaten} accepted")
    } else {
        "by kwok".to_string()
    };
    results.add(
        format!("TUI CPU, steady churn of {rate} pod writes/s plus node heartbeats ({by})"),
        "—",
        format!(
            "{:.2} % of a core over {:.0} s ({:.1} pod writes/s accepted, {} errors; {seen})",
            busy * 100.0,
            start.elapsed().as_secs_f64(),
            (done.deletes + done.creates) as f64 / took,
            done.errors,
        ),
    );
    Ok(())
}
