//! The `ome-top` binary's commands and their inputs, no cluster: `analyze` on the shipped
//! snapshots and on bad input, the snapshot reader under random input (`robustness`), the
//! config files, the history store across processes and `ome-top history`, and the live
//! commands' start-up errors (`live_errors`, a kubeconfig pointing nowhere). One test binary:
//! `cargo test --test cli`.
//!
//! `config` sets `OME_TOP_CONFIG` while other tests of this binary spawn `ome-top`; only the
//! TUI reads that variable, and no test here starts the TUI.

mod analyze;
mod config;
mod history;
mod live_errors;
mod robustness;
