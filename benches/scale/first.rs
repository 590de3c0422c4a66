//! The first screen with `SCALE_FIRST_PODS` pods, `SCALE_FIRST_RUNS` rounds of each build of
//! `SCALE_OME_TOP` (default: this bench's): the floor (a raw GET of `/api/v1/pods`,
//! before and after), the headless probe's first complete analysis, `analyze -o json` twice,
//! the TUI's start → `✓ connected` with its RSS and CPU after settling, and each peer of
//! `SCALE_PEERS` on the same cluster; then the side-by-side rows.
//!
//! Owns: `first_screen`.

#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

use std::path::Path;
use std::time::Duration;

use anyhow::{anyhow, Result};

use crate::floor::raw_list;
use crate::peers::{self, Peer, CPU_WINDOW};
use crate::phases::{connected, mem_text, mib, secs, SYNC};
use crate::probe::{self, Tui, Watcher};
use crate::support::cluster::client_from;
use crate::{Config, Results};

fn peer_text(p: &Peer) -> String {
    format!(
        "screen {}; {}; CPU {:.0} % of a core over {} s",
        secs(p.screen),
        mem_text(p.memory),
        p.cpu * 100.0,
        CPU_WINDOW.as_secs()
    )
}

/// The headless probe's first complete analysis (its time), then, when `analyze`, `analyze
/// -o json` twice.
fn headless(
    (viewer, apiserver): (&Path, Option<u32>),
    (pods, nodes): (usize, usize),
    analyze: bool,
    results: &mut Results,
) -> Result<Duration> {
    let server_ticks = || {
        apiserver
            .and_then(|pid| probe::cpu_ticks(pid).ok())
            .unwrap_or(0)
    };
    let server_before = server_ticks();
    let watcher = Watcher::start(viewer)?;
    let (line, before) = watcher.wait(SYNC, connected(pods, nodes))?;
    let took = line.at - watcher.started;
    let mem = probe::memory(watcher.pid())?;
    // On-CPU time from the start to that feed (and the few ms since): on a loaded machine a
    // steadier figure than the wall time.
    let cpu = probe::share(0, probe::cpu_ticks(watcher.pid())?, Duration::from_secs(1));
    // The API server's on-CPU time meanwhile (kwok's and the scheduler's requests included).
    let server = probe::share(server_before, server_ticks(), Duration::from_secs(1));
    watcher.stop();
    results.add(
        format!("first complete analysis, {pods} pods (headless live path, start → feed)"),
        "≤ 3 s",
        format!(
            "{} ({} feeds before it; {cpu:.2} s on CPU; API server {server:.2} s on CPU)",
            secs(took),
            before.len()
        ),
    );
    results.add(
        format!("  memory at that moment, {pods} pods"),
        "—",
        mem_text(mem),
    );
    for run in (1..=2).filter(|_| analyze) {
        let (took, maxrss, n) = probe::analyze_once(viewer)?;
        if n < nodes {
            return Err(anyhow!(
                "analyze -o json listed {n} nodes, expected {nodes}"
            ));
        }
        results.add(
            format!("`analyze -o json` wall time, {pods} pods (run {run})"),
            "≤ 3 s",
            format!("{} (max RSS {})", secs(took), mib(maxrss)),
        );
    }
    Ok(took)
}

/// The TUI: start → `✓ connected`, then memory and CPU after `settle`.
fn tui(viewer: &Path, settle: Duration) -> Result<Peer> {
    let tui = Tui::start(viewer)?;
    let screen = tui.wait_for("✓ connected", SYNC)?;
    std::thread::sleep(settle);
    let memory = probe::memory(tui.pid)?;
    let cpu = probe::cpu_share(tui.pid, CPU_WINDOW)?;
    Ok(Peer {
        screen,
        memory,
        cpu,
    })
}

/// The builds compared: `SCALE_OME_TOP` (comma-separated paths of other `ome-top` builds,
/// `-` for this bench's own), else this bench's build alone.
fn builds() -> Vec<Option<String>> {
    let list = std::env::var("SCALE_OME_TOP").unwrap_or_default();
    let chosen: Vec<Option<String>> = list
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| (p != "-").then(|| p.to_string()))
        .collect();
    if chosen.is_empty() {
        vec![None]
    } else {
        chosen
    }
}

/// The API server's pid, from the control plane's pid files (`<dir>/pids/<n>-kube-apiserver`).
fn apiserver_pid(dir: &Path) -> Option<u32> {
    let entries = std::fs::read_dir(dir.join("pids")).ok()?;
    let file = entries
        .flatten()
        .find(|e| e.file_name().to_string_lossy().ends_with("kube-apiserver"))?;
    std::fs::read_to_string(file.path())
        .ok()?
        .trim()
        .parse()
        .ok()
}

/// One round of the first screen with the current build: raw list, headless, TUI, raw list.
async fn round(
    cfg: &Config,
    (viewer, client, apiserver): (&Path, &kube::Client, Option<u32>),
    run: usize,
    results: &mut Results,
) -> Result<()> {
    let (pods, nodes) = (cfg.first_pods, cfg.nodes);
    let mut floor = Vec::new();
    let mut raw = |(took, bytes): (Duration, usize), results: &mut Results| {
        results.add(
            format!("raw GET /api/v1/pods, {pods} pods"),
            "—",
            format!("{} ({:.0} MB)", secs(took), bytes as f64 / 1e6),
        );
        floor.push(took);
    };
    raw(raw_list(client, "/api/v1/pods").await?, results);
    let analysed = headless((viewer, apiserver), (pods, nodes), run == 1, results)?;
    let ome_top = tui(viewer, cfg.settle)?;
    raw(raw_list(client, "/api/v1/pods").await?, results);
    let floor_mean = floor.iter().sum::<Duration>() / floor.len().max(1) as u32;
    let times = |d: Duration| d.as_secs_f64() / floor_mean.as_secs_f64().max(1e-3);
    results.add(
        format!("ome-top TUI --readonly, {pods} pods"),
        "screen ≤ 1.5 × raw list",
        format!(
            "{} ({:.2} × the raw list's {}; headless {:.2} ×)",
            peer_text(&ome_top),
            times(ome_top.screen),
            secs(floor_mean),
            times(analysed)
        ),
    );
    Ok(())
}

/// Runs the phase (see the module doc), `SCALE_FIRST_RUNS` rounds (default 1) of each build.
pub async fn first_screen(
    cfg: &Config,
    (viewer, dir): (&Path, &Path),
    results: &mut Results,
) -> Result<()> {
    let pods = cfg.first_pods;
    let apiserver = apiserver_pid(dir);
    let client = client_from(viewer).await?;
    let runs = crate::env_num("SCALE_FIRST_RUNS", 1) as usize;
    for run in 1..=runs {
        for build in builds() {
            probe::use_binary(build.as_deref());
            results.add(
                format!("first screen round {run}, build"),
                "—",
                probe::binary(),
            );
            round(cfg, (viewer, &client, apiserver), run, results).await?;
        }
    }
    probe::use_binary(None);
    for peer in peers::wanted() {
        if peer != "k9s" {
            eprintln!("scale: unknown peer {peer:?} (known: k9s)");
            continue;
        }
        let k9s = peers::measure_k9s(&peers::k9s_binary()?, viewer, pods, cfg.settle)?;
        results.add(
            format!("k9s --readonly -A -c pods, {pods} pods"),
            "—",
            peer_text(&k9s),
        );
    }
    Ok(())
}
