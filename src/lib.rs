//! ome-top: a live terminal dashboard for GPU Kubernetes fleets that run OME model serving.
//!
//! Module groups (import rules in docs/architecture.md, enforced by tests/engine/architecture.rs):
//! - `action`: the operator's vocabulary (keymaps and the palette name these).
//! - `engine`: pure computation (Alfred's and the OME scheduler's rules).
//! - `cluster`: the only place that talks to Kubernetes or reads its object formats.
//! - `config`: `config.toml`, themes and keymaps (embedded presets, user overrides).
//! - `protocol`: plain-data messages between data sources (cluster, demo) and the app.
//! - `history`: the local SQLite store (node health transitions, audit, dismissals).
//! - `logging`: the log file (`tracing` events of ome-top and kube-rs, daily files in the
//!   state directory; never the terminal).
//! - `fmt`: times as an operator reads them (ages, spans, local date-times), one wording
//!   for the TUI, the CLI and the reports.
//! - `report`: headless renderings of an analysis (`analyze -o table|json`).
//! - `sim`: seeded simulated clusters (benchmarks, tests, demo).
//! - `app`: the TUI's state and pure reducer (events in, effects out).
//! - `ui`: ratatui views drawn from the app state (read only).
//! - `run`: the TUI's composition root (terminal, channels, event loop, the clock), its
//!   history-store link (`run::history`), the demo's driving task (`run::demo`) and the launch
//!   of snapshot, demo and live mode (`run::launch`).
//! - `cli`: command-line definitions and the headless commands (`cli::live`: the ones that
//!   talk to a live cluster).

pub mod action;
pub mod app;
pub mod cli;
pub mod cluster;
pub mod config;
pub mod engine;
pub mod fmt;
pub mod history;
pub mod logging;
pub mod program;
pub mod protocol;
pub mod report;
pub mod run;
pub mod sim;
pub mod ui;

/// The process allocator of the product and of every test and benchmark built on this crate
/// (so that benchmarks measure what ships). An analysis allocates and frees many small blocks
/// on a heap the live store keeps fragmented, where glibc malloc's `_int_malloc` and
/// `malloc_consolidate` stood out in profiles of `benches/stages.rs` (docs/performance.md).
/// The `system-alloc` feature (never shipped) leaves the system allocator in place, so that a
/// heap profiler that intercepts `malloc` (heaptrack) sees every allocation.
#[cfg(not(feature = "system-alloc"))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// How long memory freed to the allocator waits before it is returned to the operating system,
/// for a process that runs long (the TUI, `analyze --watch`): none. mimalloc's default (one
/// second) kept the transient memory of every snapshot and analysis resident in a live
/// process that analyses about once a second: the freed ranges were reused before they were
/// ever returned, so RSS between analyses held both the live data and the last pass's
/// garbage (docs/performance.md, the allocator row of *Mechanisms*). Benchmarks keep the
/// default: they do not call this.
pub const LIVE_PURGE_DELAY_MS: u32 = 0;

/// Applies `LIVE_PURGE_DELAY_MS` to the process allocator (`main` calls it once, first).
#[cfg(not(feature = "system-alloc"))]
pub fn tune_allocator_for_long_runs() {
    ome_top_alloc::set_purge_delay(LIVE_PURGE_DELAY_MS);
}

/// The system allocator has no purge delay to set.
#[cfg(feature = "system-alloc")]
pub fn tune_allocator_for_long_runs() {}
