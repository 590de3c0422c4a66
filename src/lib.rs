//! ome-top: a live terminal dashboard for GPU Kubernetes fleets that run OME model serving.
//!
//! Module groups (import rules in docs/architecture.md, enforced by tests/architecture.rs):
//! - `action`: the operator's vocabulary (keymaps and the palette name these).
//! - `engine`: pure computation (Alfred's and the OME scheduler's rules).
//! - `cluster`: the only place that talks to Kubernetes or reads its object formats.
//! - `protocol`: plain-data messages between data sources (cluster, demo) and the app.
//! - `report`: headless renderings of an analysis (`analyze -o table|json`).
//! - `sim`: seeded simulated fleets (benchmarks, tests, demo).
//! - `app`: the TUI's state and pure reducer (events in, effects out).
//! - `ui`: ratatui views drawn from the app state (read only).
//! - `run`: the TUI's composition root (terminal, channels, event loop, the clock).
//! - `cli`: command-line definitions and the headless commands.

pub mod action;
pub mod app;
pub mod cli;
pub mod cluster;
pub mod engine;
pub mod protocol;
pub mod report;
pub mod run;
pub mod sim;
pub mod ui;
