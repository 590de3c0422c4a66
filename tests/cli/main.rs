//! The `ome-top` binary's commands and their inputs, no cluster: `analyze` on the shipped
//! snapshots and on bad input, the snapshot reader under random input (`robustness`), the
//! config files, the history store across processes and `ome-top history`, the live
//! commands' start-up errors (`live_errors`, a kubeconfig pointing nowhere), `ome-top fleet`'s
//! choice of contexts and its unreachable ones (`fleet`), `ome-top info`
//! (`info`), the log file (`logs`) and what a user installs (`release`: completions, the
//! manual page, the kubectl plugin, the release workflow and the krew manifest). One test
//! binary: `cargo test --test cli`.
//!
//! `config` sets `OME_TOP_CONFIG` while other tests of this binary spawn `ome-top`; every
//! command reads that file for its `log-level`, but a file that does not load only leaves the
//! level at its default, so their output does not change. `info` and `logs` remove the
//! variable from the commands they run.

mod analyze;
#[path = "../support/command.rs"]
mod command;
mod config;
mod explain;
mod fleet;
mod fuzz_corpus;
mod history;
mod hostile;
mod info;
mod live_errors;
mod logs;
mod release;
mod robustness;
