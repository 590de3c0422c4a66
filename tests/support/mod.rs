//! Shared support for integration tests that need a real Kubernetes API: a control plane
//! (etcd, kube-apiserver, kube-controller-manager, kube-scheduler, kwok) started once per test
//! binary. Start at `cluster.rs`, whose module doc is the public API.
//!
//! Must not be used from `src/`; each test binary that needs it declares it once in its
//! `main.rs` (`#[path = "../support/mod.rs"] mod support;`), its modules `use crate::support;`.

// Each test binary uses a different subset of the helpers.
#![allow(dead_code)]

pub mod binaries;
pub mod cluster;
pub mod command;
pub mod files;
pub mod objects;
pub mod procs;
mod start;
pub mod tmux;
