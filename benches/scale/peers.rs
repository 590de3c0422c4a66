//! Peers measured on the same cluster as ome-top (`SCALE_PEERS=k9s`): k9s, built once from
//! the Go module proxy by `k9s.sh` (cached under `~/.cache/ome-top-peers`), run in tmux at
//! 200×60 as `k9s --readonly -A -c pods` with the viewer's kubeconfig. Its complete screen is
//! the pods view whose title counts every pod (`pods(all)[50,000]`); then its RSS and its CPU
//! over `CPU_WINDOW`, after the same settling time as ome-top's TUI.
//!
//! Owns: `Peer`, `measure`. Never talks to the API itself.

#![allow(clippy::disallowed_methods)] // Wall times of a separate process need a clock.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use anyhow::{anyhow, Context, Result};

use crate::probe::{self, Memory, Tui};

/// How long CPU use is sampled after sync.
pub const CPU_WINDOW: Duration = Duration::from_secs(10);

/// What one program showed on the cluster.
#[derive(Debug, Clone, Copy)]
pub struct Peer {
    /// Start → complete screen.
    pub screen: Duration,
    /// Memory after settling.
    pub memory: Memory,
    /// Share of a core over `CPU_WINDOW` after that.
    pub cpu: f64,
}

/// The peers named in `SCALE_PEERS` (comma separated; only `k9s` is known).
pub fn wanted() -> Vec<String> {
    std::env::var("SCALE_PEERS")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The k9s binary, built (once) by `k9s.sh`.
pub fn k9s_binary() -> Result<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/scale/k9s.sh");
    let out = Command::new("bash")
        .arg(&script)
        .stderr(std::process::Stdio::inherit())
        .output()
        .with_context(|| format!("running {}", script.display()))?;
    if !out.status.success() {
        return Err(anyhow!("{} failed", script.display()));
    }
    Ok(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
}

/// The pod count in k9s's title (`pods(all)[50,000]`), once it shows one.
fn k9s_pods(screen: &str) -> Option<usize> {
    let after = screen.split_once("(all)[")?.1;
    let digits: String = after
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().ok()
}

/// Runs k9s on the cluster of `kubeconfig` until its pods view counts `pods` pods, waits
/// `settle`, then reads its memory and CPU.
pub fn measure_k9s(k9s: &Path, kubeconfig: &Path, pods: usize, settle: Duration) -> Result<Peer> {
    let tui = Tui::run(&format!(
        "env KUBECONFIG={} {} --readonly -A -c pods",
        kubeconfig.display(),
        k9s.display()
    ))?;
    let screen = tui.wait_until(
        |s| k9s_pods(s).is_some_and(|n| n >= pods),
        Duration::from_secs(900),
    )?;
    eprintln!(
        "scale: k9s's screen at {:.1} s:\n{}",
        screen.as_secs_f64(),
        tui.screen()
    );
    std::thread::sleep(settle);
    let memory = probe::memory(tui.pid)?;
    let cpu = probe::cpu_share(tui.pid, CPU_WINDOW)?;
    Ok(Peer {
        screen,
        memory,
        cpu,
    })
}
