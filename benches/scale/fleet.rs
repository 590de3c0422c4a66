//! The fleet mode (`SCALE_FLEET=<contexts>`, issue 30 item 4): that many independent test
//! control planes (etcd, kube-apiserver and kwok each; KCM and the scheduler are stopped, the
//! pods are bound by name), each loaded with the plan of `SCALE_NODES` / `SCALE_PODS` (its
//! own seed), and one kubeconfig with a context per control plane (`fleet-0`, …, the viewer
//! identity). Per context the floor is a raw GET of `/api/v1/pods`, before and after, and
//! all of them at once (as the fleet lists them, on the same cores); then
//! `ome-top fleet --readonly` in tmux: start → the header's `N/N connected` (every member's
//! first lists complete and analysed), its RSS after `SCALE_SETTLE_SECS` and its CPU; then
//! `ome-top fleet -o json` twice (wall time, max RSS). The budget: the complete fleet screen
//! within 1.5 × the slowest context's raw list, ≤ 350 MB RSS.
//!
//! Owns: `run_fleet`.

#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{anyhow, Context, Result};

use crate::floor::raw_list;
use crate::load::Loader;
use crate::peers::CPU_WINDOW;
use crate::phases::{mem_text, mib, print_conditions, secs, SYNC};
use crate::plan;
use crate::probe::{self, Tui, OME_TOP};
use crate::support::cluster::{client_from, Identity, TestCluster};
use crate::support::files::{write_fleet_kubeconfig, FleetMember};
use crate::{Config, Results};

/// One loaded member: its context name and control plane.
struct Member {
    context: String,
    tc: TestCluster,
}

/// Starts `n` control planes, loads each, measures the fleet (see the module doc) and
/// prints the machine's conditions; the control planes stop when this returns.
pub fn run_fleet(cfg: &Config, n: usize, results: &mut Results) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("tokio runtime")?;
    let mut members = Vec::with_capacity(n);
    for i in 0..n {
        eprintln!("scale: fleet: starting control plane {} of {n}", i + 1);
        let tc = TestCluster::start_new().map_err(|e| anyhow!("control plane {i}: {e}"))?;
        // Nothing needs them (pods are bound by name); KCM would taint and evict under load.
        tc.stop_component("kube-controller-manager");
        tc.stop_component("kube-scheduler");
        let context = format!("fleet-{i}");
        runtime.block_on(load(cfg, &context, &tc, i as u64 + 1, results))?;
        members.push(Member { context, tc });
    }
    let home = tempfile::tempdir()?;
    let kubeconfig = home.path().join("fleet.kubeconfig");
    let listed: Vec<FleetMember> = members
        .iter()
        .map(|m| FleetMember {
            context: m.context.clone(),
            dir: m.tc.dir().to_path_buf(),
            server: m.tc.server_url().to_string(),
        })
        .collect();
    write_fleet_kubeconfig(&kubeconfig, &listed, Identity::Viewer)?;
    let outcome = runtime.block_on(measure(cfg, &members, &kubeconfig, results));
    for m in &members {
        println!("\ncontrol plane of {} ({}):", m.context, m.tc.server_url());
        print_conditions(&m.tc);
    }
    if !cfg.hold.is_zero() {
        eprintln!(
            "scale: holding the fleet for {:?}: kubeconfig {}",
            cfg.hold,
            kubeconfig.display()
        );
        std::thread::sleep(cfg.hold);
    }
    outcome
}

/// Loads one control plane with the plan of `cfg` (seeded per member).
async fn load(
    cfg: &Config,
    context: &str,
    tc: &TestCluster,
    seed: u64,
    results: &mut Results,
) -> Result<()> {
    // No churn in this mode: every pod is a model server replica or a node agent.
    let plan = plan::plan(cfg.nodes, cfg.pods, 0, seed);
    let loader = Loader {
        client: client_from(&tc.kubeconfig_path(Identity::Admin)).await?,
        concurrency: cfg.concurrency,
    };
    loader.namespaces().await?;
    let nodes = loader.nodes(&plan).await?;
    loader.isvcs(&plan).await?;
    let pods = loader.pods(&plan, 0..cfg.pods).await?;
    let by_design = plan.pods.iter().filter(|p| p.node.is_none()).count();
    let (waited, pending) = loader.wait_running(by_design, cfg.running_wait).await?;
    results.add(
        format!(
            "{context}: {} nodes Ready, {} pods created",
            cfg.nodes, cfg.pods
        ),
        "—",
        format!(
            "nodes {}, pods {}; {} bound pods not yet Running after {}",
            secs(nodes),
            secs(pods),
            pending.saturating_sub(by_design),
            secs(waited)
        ),
    );
    Ok(())
}

/// Each member's raw list (`run` of 2); returns the times in member order.
async fn floors(members: &[Member], run: usize, results: &mut Results) -> Result<Vec<Duration>> {
    let mut out = Vec::with_capacity(members.len());
    for m in members {
        let client = client_from(&m.tc.kubeconfig_path(Identity::Viewer)).await?;
        let (took, bytes) = raw_list(&client, "/api/v1/pods").await?;
        results.add(
            format!("{}: raw GET /api/v1/pods (run {run})", m.context),
            "—",
            format!("{} ({:.0} MB)", secs(took), bytes as f64 / 1e6),
        );
        out.push(took);
    }
    Ok(out)
}

/// Every member's raw list at once (a task each, as the fleet lists them): the time until
/// the last body is in (`run` of 2).
async fn floor_at_once(members: &[Member], run: usize, results: &mut Results) -> Result<Duration> {
    let mut clients = Vec::with_capacity(members.len());
    for m in members {
        clients.push(client_from(&m.tc.kubeconfig_path(Identity::Viewer)).await?);
    }
    let start = Instant::now();
    let tasks: Vec<_> = (clients.into_iter())
        .map(|c| tokio::spawn(async move { raw_list(&c, "/api/v1/pods").await }))
        .collect();
    let mut bytes = 0;
    for task in tasks {
        bytes += task.await??.1;
    }
    let took = start.elapsed();
    results.add(
        format!(
            "all {} contexts' raw GET /api/v1/pods at once (run {run})",
            members.len()
        ),
        "—",
        format!("{} ({:.0} MB in all)", secs(took), bytes as f64 / 1e6),
    );
    Ok(took)
}

/// The floors, the fleet TUI, the floors again, then `fleet -o json`.
async fn measure(
    cfg: &Config,
    members: &[Member],
    kubeconfig: &Path,
    results: &mut Results,
) -> Result<()> {
    let n = members.len();
    let before = floors(members, 1, results).await?;
    let together = floor_at_once(members, 1, results).await?;
    let screen = tui(cfg, n, kubeconfig, results)?;
    let together = (together + floor_at_once(members, 2, results).await?) / 2;
    let after = floors(members, 2, results).await?;
    // The slowest context's raw list: the largest of each member's mean of its two runs.
    let (slowest, floor) = (before.iter().zip(&after))
        .map(|(a, b)| (*a + *b) / 2)
        .enumerate()
        .max_by_key(|(_, d)| *d)
        .unwrap_or_default();
    let context = members.get(slowest).map_or("-", |m| m.context.as_str());
    results.add(
        format!(
            "fleet TUI: complete screen vs the slowest context's raw list, {n} × {} pods",
            cfg.pods
        ),
        "≤ 1.5 ×",
        format!(
            "{:.2} × ({} against {context}'s {}, the mean of its two runs)",
            screen.as_secs_f64() / floor.as_secs_f64().max(1e-3),
            secs(screen),
            secs(floor)
        ),
    );
    results.add(
        format!("fleet TUI: complete screen vs all {n} raw lists at once"),
        "—",
        format!(
            "{:.2} × (their two runs' mean {})",
            screen.as_secs_f64() / together.as_secs_f64().max(1e-3),
            secs(together)
        ),
    );
    for run in 1..=2 {
        let (took, maxrss) = fleet_json(kubeconfig, n, cfg.nodes)?;
        results.add(
            format!(
                "`fleet -o json` wall time, {n} × {} pods (run {run})",
                cfg.pods
            ),
            "—",
            format!("{} (max RSS {})", secs(took), mib(maxrss)),
        );
    }
    Ok(())
}

/// `ome-top fleet --readonly` in tmux: start → `N/N connected`, then memory after `settle`
/// and CPU over `CPU_WINDOW`. Returns the time to the complete screen.
fn tui(cfg: &Config, n: usize, kubeconfig: &Path, results: &mut Results) -> Result<Duration> {
    let tui = Tui::run(&format!(
        "{OME_TOP} fleet --readonly --kubeconfig {}",
        kubeconfig.display()
    ))?;
    let screen = tui.wait_for(&format!("{n}/{n} connected"), SYNC)?;
    eprintln!(
        "scale: the fleet screen at {:.1} s:\n{}",
        screen.as_secs_f64(),
        tui.screen()
    );
    let peak_at_screen = probe::memory(tui.pid)?.hwm;
    std::thread::sleep(cfg.settle);
    let memory = probe::memory(tui.pid)?;
    let cpu = probe::cpu_share(tui.pid, CPU_WINDOW)?;
    results.add(
        format!(
            "fleet TUI: start → header shows {n}/{n} connected, {n} × {} pods",
            cfg.pods
        ),
        "—",
        format!(
            "{} (peak RSS by then {})",
            secs(screen),
            mib(peak_at_screen)
        ),
    );
    results.add(
        format!(
            "fleet TUI --readonly, {n} × {} nodes / {} pods, {} s after the screen",
            cfg.nodes,
            cfg.pods,
            cfg.settle.as_secs()
        ),
        "≤ 350 MB",
        format!(
            "{}; CPU {:.1} % of a core over the next {} s",
            mem_text(memory),
            cpu * 100.0,
            CPU_WINDOW.as_secs()
        ),
    );
    Ok(screen)
}

/// Runs `ome-top fleet -o json` once; returns its wall time and peak RSS (KiB, GNU time)
/// after checking that all `n` contexts answered with `nodes` nodes each.
fn fleet_json(kubeconfig: &Path, n: usize, nodes: usize) -> Result<(Duration, u64)> {
    let (timeout, kubeconfig_text) = (SYNC.as_secs().to_string(), kubeconfig.to_string_lossy());
    let args = [
        "fleet",
        "-o",
        "json",
        "--timeout",
        &timeout,
        "--kubeconfig",
        &kubeconfig_text,
    ];
    let home = private_home(kubeconfig);
    let (took, maxrss, json) = probe::timed_json(&args, &home, "ome-top fleet -o json")?;
    let clusters = json["clusters"].as_array().cloned().unwrap_or_default();
    let complete = |c: &serde_json::Value| {
        c["error"].is_null() && c["analysis"]["nodes"].as_array().map_or(0, Vec::len) >= nodes
    };
    if clusters.len() != n || !clusters.iter().all(complete) {
        let errors: Vec<&serde_json::Value> = clusters.iter().map(|c| &c["error"]).collect();
        return Err(anyhow!(
            "fleet -o json: {} clusters, expected {n} with {nodes} nodes each; errors {errors:?}",
            clusters.len()
        ));
    }
    Ok((took, maxrss))
}

/// The private HOME (and XDG directories under it) `fleet -o json` runs with, as the TUI's
/// (no config.toml or history of the operator's): the kubeconfig's own temp dir.
fn private_home(kubeconfig: &Path) -> Vec<(&'static str, PathBuf)> {
    let home = kubeconfig
        .parent()
        .map_or_else(std::env::temp_dir, Path::to_path_buf);
    vec![
        ("XDG_DATA_HOME", home.join("data")),
        ("XDG_CONFIG_HOME", home.join("config")),
        ("XDG_STATE_HOME", home.join("state")),
        ("XDG_CACHE_HOME", home.join("cache")),
        ("HOME", home),
    ]
}
