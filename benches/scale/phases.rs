//! The scale test's phases in order (see main.rs): load, first analysis at `first_pods`,
//! load the rest, RSS after sync (headless and TUI), churn. Each records its figures in
//! `Results` as soon as they are known.
//!
//! Owns: `run`, `print_conditions`.

#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

use std::time::{Duration, Instant};

use anyhow::Result;

use crate::load::Loader;
use crate::plan::{self, Plan};
use crate::probe::{self, FeedLine, Memory, Tui, Watcher};
use crate::support::cluster::{client_from, Identity, TestCluster};
use crate::{audit, churn, first, idle, Config, Results};

/// How long a fresh ome-top may take to list everything.
pub const SYNC: Duration = Duration::from_secs(600);

/// KiB as MiB text.
pub fn mib(kib: u64) -> String {
    format!("{:.1} MiB", kib as f64 / 1024.0)
}

/// Seconds text.
pub fn secs(d: Duration) -> String {
    format!("{:.2} s", d.as_secs_f64())
}

/// A memory reading as text.
pub fn mem_text(m: Memory) -> String {
    format!(
        "RSS {} (anon {}, file {}), peak {}",
        mib(m.rss),
        mib(m.anon),
        mib(m.file),
        mib(m.hwm)
    )
}

/// Runs every phase.
pub async fn run(cfg: &Config, tc: &TestCluster, results: &mut Results) -> Result<()> {
    let plan = plan::plan(cfg.nodes, cfg.pods, cfg.churn_pods, 1);
    let pending = |range: std::ops::Range<usize>| {
        plan.pods[range].iter().filter(|p| p.node.is_none()).count()
    };
    eprintln!(
        "scale: plan: {} nodes, {} InferenceServices, {} pods ({} Pending by design, {} churned)",
        plan.nodes.len(),
        plan.isvcs.len(),
        plan.pods.len(),
        pending(0..plan.pods.len()),
        plan.churn
    );
    let loader = Loader {
        client: client_from(&tc.kubeconfig_path(Identity::Admin)).await?,
        concurrency: cfg.concurrency,
    };
    // With thousands of kwok nodes on a loaded machine, kwok renews some leases late; KCM's
    // node lifecycle then taints those nodes unreachable and evicts their pods. Nothing here
    // needs KCM (pods are bound by name, deleted with grace period 0), so it is stopped.
    tc.stop_component("kube-controller-manager");
    loader.namespaces().await?;
    let took = loader.nodes(&plan).await?;
    results.add(
        format!("{} kwok nodes created and Ready", cfg.nodes),
        "—",
        secs(took),
    );
    loader.isvcs(&plan).await?;
    let first = cfg.first_pods;
    let took = loader.pods(&plan, 0..first).await?;
    results.add(format!("{first} pods created"), "—", secs(took));
    running(&loader, cfg, pending(0..first), results).await?;
    let viewer = tc.kubeconfig_path(Identity::Viewer);
    if !cfg.idle_only {
        first::first_screen(cfg, (&viewer, tc.dir()), results).await?;
    }
    if cfg.pods > first {
        let took = loader.pods(&plan, first..cfg.pods).await?;
        results.add(
            format!("{} more pods created", cfg.pods - first),
            "—",
            secs(took),
        );
        running(&loader, cfg, pending(0..cfg.pods), results).await?;
    }
    if !cfg.idle_only {
        steady_memory(cfg, &viewer, results).await?;
    }
    if cfg.tui {
        let tui = tui_memory(cfg, &viewer, results).await?;
        if !cfg.idle.is_zero() {
            idle::idle_cpu(cfg, (&loader, &plan), (&tui, tc), results).await?;
        }
    }
    if cfg.idle_only {
        return Ok(());
    }
    churn_phase(
        cfg,
        &loader,
        &plan,
        (&viewer, &tc.audit_log_path()),
        results,
    )
    .await
}

/// Records how many bound pods kwok has not marked Running yet (after the configured wait).
async fn running(
    loader: &Loader,
    cfg: &Config,
    by_design: usize,
    results: &mut Results,
) -> Result<()> {
    let (took, pending) = loader.wait_running(by_design, cfg.running_wait).await?;
    results.add(
        "  pods still Pending when measured (bound, not yet Running by kwok)",
        "—",
        format!("{} after {}", pending.saturating_sub(by_design), secs(took)),
    );
    Ok(())
}

/// A feed of a complete sync with at least `pods` pods and `nodes` nodes.
pub fn connected(pods: usize, nodes: usize) -> impl Fn(&FeedLine) -> bool {
    move |l: &FeedLine| l.api == "connected" && l.pods >= pods && l.nodes >= nodes
}

/// RSS of the headless live path after sync with everything loaded.
async fn steady_memory(
    cfg: &Config,
    viewer: &std::path::Path,
    results: &mut Results,
) -> Result<()> {
    let watcher = Watcher::start(viewer)?;
    let (line, _) = watcher.wait(SYNC, connected(cfg.pods, cfg.nodes))?;
    results.add(
        format!("first complete analysis, {} pods (headless)", cfg.pods),
        "—",
        secs(line.at - watcher.started),
    );
    tokio::time::sleep(cfg.settle).await;
    let feeds = watcher.drain().len();
    let mem = probe::memory(watcher.pid())?;
    watcher.stop();
    results.add(
        format!(
            "headless live path, {} nodes / {} pods, {} s after sync ({feeds} more feeds)",
            cfg.nodes,
            cfg.pods,
            cfg.settle.as_secs()
        ),
        "≤ 150 MB",
        mem_text(mem),
    );
    Ok(())
}

/// RSS of the TUI (`ome-top --readonly` in tmux, 200×60) after its first complete frame; the
/// TUI is left running for the idle phase.
async fn tui_memory(cfg: &Config, viewer: &std::path::Path, results: &mut Results) -> Result<Tui> {
    let tui = Tui::start(viewer)?;
    let took = tui.wait_for("✓ connected", SYNC)?;
    results.add(
        format!("TUI: start → header shows ✓ connected, {} pods", cfg.pods),
        "≤ 3 s at 50k",
        secs(took),
    );
    tokio::time::sleep(cfg.settle).await;
    let mem = probe::memory(tui.pid)?;
    results.add(
        format!(
            "TUI (Pools view), {} nodes / {} pods, {} s after sync",
            cfg.nodes,
            cfg.pods,
            cfg.settle.as_secs()
        ),
        "≤ 150 MB",
        mem_text(mem),
    );
    Ok(tui)
}

/// The churn with the headless probe watching.
async fn churn_phase(
    cfg: &Config,
    loader: &Loader,
    plan: &Plan,
    (viewer, audit_log): (&std::path::Path, &std::path::Path),
    results: &mut Results,
) -> Result<()> {
    let started = chrono::Utc::now();
    let watcher = Watcher::start(viewer)?;
    let (base, _) = watcher.wait(SYNC, connected(cfg.pods, cfg.nodes))?;
    let synced = chrono::Utc::now();
    let pid = watcher.pid();
    eprintln!("scale: churning {} pods for {:?}", plan.churn, cfg.churn);
    let churning = churn::churn(&loader.client, plan, cfg.churn, cfg.churn_workers);
    let mut churning = std::pin::pin!(churning);
    let mut lines = vec![base.clone()];
    let mut peak_rss = 0;
    let done = loop {
        tokio::select! {
            r = &mut churning => break r?,
            () = tokio::time::sleep(Duration::from_secs(1)) => {
                lines.extend(watcher.drain());
                peak_rss = peak_rss.max(probe::memory(pid)?.rss);
                if let Some(l) = lines.last() {
                    eprintln!("  churn: events applied {} in feed {} (generation {})",
                        l.applied.saturating_sub(base.applied),
                        l.in_feed.saturating_sub(base.applied), l.generation);
                }
            }
        }
    };
    let end = Instant::now();
    lines.extend(watcher.drain());
    let applied_at_end = lines.last().map_or(0, |l| l.applied);
    // Caught up: a feed that includes every event applied by the end of the churn.
    let caught = watcher.wait(Duration::from_secs(120), |l| l.in_feed >= applied_at_end);
    let mem = probe::memory(pid)?;
    watcher.stop();
    report_churn(results, &done, &lines, base.at, end, peak_rss.max(mem.rss));
    let catch_up = caught.map(|(l, _)| secs(l.at.saturating_duration_since(end)));
    results.add(
        "churn: from its end until a feed includes every applied event",
        "—",
        catch_up.unwrap_or_else(|e| format!("not within 120 s: {e}")),
    );
    results.add(
        "churn: ome-top memory after the churn",
        "≤ 150 MB",
        mem_text(mem),
    );
    // The probe was the only ome-top process since it started.
    let first = audit::lists_since(audit_log, started)?;
    let sent = audit::lists_since(audit_log, synced)?;
    results.add(
        "churn: the probe's requests until its first sync (audit log)",
        "—",
        format!(
            "{} requests, {} of them lists ({} LIST verbs)",
            first.requests.saturating_sub(sent.requests),
            first.lists.len().saturating_sub(sent.lists.len()),
            first
                .lists
                .iter()
                .filter(|l| l.starts_with("list "))
                .count()
        ),
    );
    results.add(
        "churn: ome-top's lists after its first sync (audit log)",
        "0 without a 410 or an outage",
        format!(
            "{} of its {} requests{}",
            sent.lists.len(),
            sent.requests,
            sent.lists
                .first()
                .map(|l| format!(", first: {l}"))
                .unwrap_or_default()
        ),
    );
    Ok(())
}

fn report_churn(
    results: &mut Results,
    done: &churn::ChurnResult,
    lines: &[FeedLine],
    start: Instant,
    end: Instant,
    peak_rss: u64,
) {
    let took = done.took.as_secs_f64().max(1e-3);
    results.add(
        "churn: API writes accepted (delete + create)",
        "—",
        format!(
            "{:.0}/s ({} deletes, {} creates, {} errors in {:.0} s)",
            (done.deletes + done.creates) as f64 / took,
            done.deletes,
            done.creates,
            done.errors,
            took
        ),
    );
    let during: Vec<&FeedLine> = lines.iter().filter(|l| l.at <= end).collect();
    let (Some(first), Some(last)) = (during.first(), during.last()) else {
        return;
    };
    let span = last
        .at
        .saturating_duration_since(start)
        .as_secs_f64()
        .max(1e-3);
    let rate = (last.applied - first.applied) as f64 / span;
    let mut lags: Vec<u64> = during
        .iter()
        .map(|l| l.applied.saturating_sub(l.in_feed))
        .collect();
    lags.sort_unstable();
    results.add(
        "churn: watch events applied by ome-top's stores",
        "—",
        format!("{rate:.0}/s ({} events)", last.applied - first.applied),
    );
    results.add(
        "churn: feeds published (analyses of the whole cluster)",
        "≤ 5/s by design",
        format!(
            "{} in {span:.0} s ({:.2}/s); events not yet in a feed: median {}, max {}",
            during.len() - 1,
            (during.len() - 1) as f64 / span,
            lags[lags.len() / 2],
            lags[lags.len() - 1]
        ),
    );
    results.add(
        "churn: ome-top peak RSS sampled each second",
        "≤ 150 MB",
        mib(peak_rss),
    );
}

/// Machine conditions: cores, load, memory, and the control plane's RSS.
pub fn print_conditions(tc: &TestCluster) {
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let cores = std::thread::available_parallelism().map_or(0, |n| n.get());
    println!("\nmachine: {cores} cores, load average {}", load.trim());
    let Ok(entries) = std::fs::read_dir(tc.dir().join("pids")) else {
        return;
    };
    for entry in entries.flatten() {
        let pid = std::fs::read_to_string(entry.path()).unwrap_or_default();
        if let Ok(m) = pid
            .trim()
            .parse()
            .map_err(anyhow::Error::from)
            .and_then(probe::memory)
        {
            println!("{}: {}", entry.file_name().to_string_lossy(), mem_text(m));
        }
    }
}
