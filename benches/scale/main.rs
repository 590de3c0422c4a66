//! The scale test of issue 5 (product.md §10): ome-top against a real API server holding
//! 5,000 kwok GPU nodes and 100,000 pods. Not a `cargo test` test and never pass/fail: it
//! prints what it measured, to be recorded in docs/performance.md.
//!
//! ```sh
//! TESTCLUSTER_BIN=<dir of tests/cluster/build.sh> cargo bench --bench scale
//! SCALE_NODES=500 SCALE_PODS=10000 SCALE_FIRST_PODS=5000 SCALE_CHURN_PODS=1000 \
//!   cargo bench --bench scale          # a smoke run
//! ```
//!
//! Phases: start the test control plane (tests/support, loopback only); create the nodes
//! (Ready by kwok), the InferenceServices and the first `SCALE_FIRST_PODS` pods (bound, so
//! kwok marks them Running); measure the first screen against the floor (a raw GET of
//! `/api/v1/pods`): headless `analyze --watch`, one-shot `analyze -o json`, the TUI's start →
//! `✓ connected` with RSS and CPU after settling, and the peers of `SCALE_PEERS` (`k9s`) on
//! the same cluster; create the rest; measure RSS after sync (headless, then the TUI in
//! tmux); churn `SCALE_CHURN_PODS` pods for `SCALE_CHURN_SECS` while the headless probe
//! reports events applied and analysed, and count its lists in the audit log. The TUI's idle
//! CPU after sync is read from `/proc` over `SCALE_IDLE_SECS`, without churn and with a steady
//! `SCALE_STEADY_RATE` pod writes a second (`idle.rs`); `SCALE_IDLE_QUIET=1` stops kwok first
//! (it marks bound pods Running for long after a load) and writes the heartbeats itself.
//! `SCALE_BYTES=1` starts no cluster: it measures where the bytes go (`bytes.rs`).
//! `SCALE_FLEET=4` is the fleet mode of issue 30 item 4 (`fleet.rs`): four control planes of
//! `SCALE_NODES` / `SCALE_PODS` each (defaults 1,250 / 25,000 in this mode, the single
//! run's totals), one kubeconfig with a context each, and `ome-top fleet` (TUI and `-o json`)
//! against the slowest context's raw pod list; no other phase runs.
//!
//! ```sh
//! SCALE_FLEET=4 TESTCLUSTER_BIN=<dir> cargo bench --bench scale
//! SCALE_FLEET=2 SCALE_NODES=50 SCALE_PODS=1000 cargo bench --bench scale   # a smoke run
//! ```
//!
//! Owns: the phases and the results table. Measures a separate `ome-top` process only.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // A harness may fail loudly.
#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

#[path = "../../tests/support/mod.rs"]
mod support;

mod audit;
mod bytes;
mod churn;
mod first;
mod fleet;
mod floor;
mod heartbeat;
mod idle;
mod load;
mod peers;
mod phases;
mod plan;
mod probe;

use std::time::Duration;

use support::cluster::TestCluster;

/// The run's parameters (environment variables, defaults = the issue's sizes).
#[derive(Debug, Clone)]
pub struct Config {
    /// `SCALE_NODES`: kwok nodes (8 GPUs each).
    pub nodes: usize,
    /// `SCALE_PODS`: pods in total.
    pub pods: usize,
    /// `SCALE_FIRST_PODS`: pods present when the first-analysis time is measured.
    pub first_pods: usize,
    /// `SCALE_CHURN_PODS`: pods deleted and recreated during the churn.
    pub churn_pods: usize,
    /// `SCALE_CHURN_SECS`: how long the churn runs.
    pub churn: Duration,
    /// `SCALE_CONCURRENCY`: create requests in flight while loading.
    pub concurrency: usize,
    /// `SCALE_CHURN_WORKERS`: churn slots in flight.
    pub churn_workers: usize,
    /// `SCALE_SETTLE_SECS`: wait after the first complete analysis before reading RSS.
    pub settle: Duration,
    /// `SCALE_RUNNING_WAIT_SECS`: how long to wait for kwok to mark the bound pods Running
    /// after each load (default 0: measure at once; kwok on a loaded 2-core machine marks pods Running far slower than they are created).
    pub running_wait: Duration,
    /// `SCALE_TUI=0` skips the TUI measurement.
    pub tui: bool,
    /// `SCALE_IDLE_SECS`: each window of the TUI's idle CPU after sync (no churn, then the
    /// steady churn); 0 skips both.
    pub idle: Duration,
    /// `SCALE_STEADY_RATE`: pod writes a second of the steady churn.
    pub steady_rate: u64,
    /// `SCALE_IDLE_QUIET=1`: stop kwok before the idle windows (a quiet cluster), the bench
    /// writing the node heartbeats of the steady window itself (`heartbeat.rs`).
    pub idle_quiet: bool,
    /// `SCALE_IDLE_ONLY=1`: load, then only the TUI's memory and idle CPU (no first-screen,
    /// headless or churn phase).
    pub idle_only: bool,
    /// `SCALE_HOLD_SECS`: keep the loaded cluster this long after the results (for profiling
    /// by hand with the printed kubeconfig); 0 by default.
    pub hold: Duration,
    /// `SCALE_FLEET`: control planes of the fleet mode (`fleet.rs`); 0 (default) runs the
    /// single-cluster phases.
    pub fleet: usize,
}

fn env_num(key: &str, default: u64) -> u64 {
    std::env::var(key)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

impl Config {
    fn from_env() -> Config {
        let fleet = env_num("SCALE_FLEET", 0) as usize;
        // A fleet's members default to a quarter of the single run each (its totals at 4).
        let (default_pods, default_nodes) = match fleet {
            0 => (100_000, 5_000),
            _ => (25_000, 1_250),
        };
        let pods = env_num("SCALE_PODS", default_pods) as usize;
        Config {
            fleet,
            nodes: env_num("SCALE_NODES", default_nodes) as usize,
            pods,
            first_pods: (env_num("SCALE_FIRST_PODS", 50_000) as usize).min(pods),
            churn_pods: (env_num("SCALE_CHURN_PODS", 10_000) as usize).min(pods),
            churn: Duration::from_secs(env_num("SCALE_CHURN_SECS", 60)),
            concurrency: env_num("SCALE_CONCURRENCY", 48) as usize,
            churn_workers: env_num("SCALE_CHURN_WORKERS", 48) as usize,
            settle: Duration::from_secs(env_num("SCALE_SETTLE_SECS", 20)),
            running_wait: Duration::from_secs(env_num("SCALE_RUNNING_WAIT_SECS", 0)),
            tui: env_num("SCALE_TUI", 1) != 0,
            hold: Duration::from_secs(env_num("SCALE_HOLD_SECS", 0)),
            idle: Duration::from_secs(env_num("SCALE_IDLE_SECS", 30)),
            steady_rate: env_num("SCALE_STEADY_RATE", 20),
            idle_only: env_num("SCALE_IDLE_ONLY", 0) != 0,
            idle_quiet: env_num("SCALE_IDLE_QUIET", 0) != 0,
        }
    }
}

/// One row of the results table.
#[derive(Debug, Clone)]
pub struct Row {
    /// What was measured.
    pub what: String,
    /// The budget, if the spec sets one.
    pub budget: &'static str,
    /// The figure.
    pub value: String,
}

/// Collects the results table.
#[derive(Debug, Default)]
pub struct Results {
    /// Rows in measurement order.
    pub rows: Vec<Row>,
}

impl Results {
    /// Records (and prints at once, so a crash later keeps it) one figure.
    pub fn add(&mut self, what: impl Into<String>, budget: &'static str, value: impl Into<String>) {
        let row = Row {
            what: what.into(),
            budget,
            value: value.into(),
        };
        eprintln!(
            "RESULT {} = {} (budget {})",
            row.what, row.value, row.budget
        );
        self.rows.push(row);
    }

    fn print(&self) {
        let w = self.rows.iter().map(|r| r.what.len()).max().unwrap_or(0);
        println!(
            "\n| {:w$} | Budget | Measured |\n|{}|---|---|",
            "Figure",
            "-".repeat(w + 2)
        );
        for r in &self.rows {
            println!("| {:w$} | {} | {} |", r.what, r.budget, r.value);
        }
    }
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not, and must not start a
    // 100,000-pod cluster.
    if !std::env::args().any(|a| a == "--bench") {
        eprintln!("scale: run it with `cargo bench --bench scale` (nothing done without --bench)");
        return;
    }
    let cfg = Config::from_env();
    eprintln!("scale: {cfg:?}");
    if env_num("SCALE_BYTES", 0) != 0 {
        let mut results = Results::default();
        bytes::run(&cfg, &mut results);
        results.print();
        return;
    }
    if cfg.fleet > 0 {
        let mut results = Results::default();
        let outcome = fleet::run_fleet(&cfg, cfg.fleet, &mut results);
        results.print();
        if let Err(e) = outcome {
            eprintln!("scale: stopped early: {e:#}");
            std::process::exit(1);
        }
        return;
    }
    eprintln!("scale: starting the test control plane");
    let tc = TestCluster::shared();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime");
    let mut results = Results::default();
    let outcome = runtime.block_on(phases::run(&cfg, tc, &mut results));
    results.print();
    phases::print_conditions(tc);
    if !cfg.hold.is_zero() {
        eprintln!(
            "scale: holding the cluster for {:?}: kubeconfig {}",
            cfg.hold,
            tc.kubeconfig_path(support::cluster::Identity::Viewer)
                .display()
        );
        std::thread::sleep(cfg.hold);
    }
    if let Err(e) = outcome {
        eprintln!("scale: stopped early: {e:#}");
        std::process::exit(1);
    }
}
