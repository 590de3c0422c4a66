//! Tests that need the test control plane of `tests/support` to themselves: nothing else may
//! run against it while they do. Each takes `alone()` first, so they run one after another on
//! the one control plane of this binary (a binary each would start one control plane each):
//!
//! * `apiserver_restart`, `watch_restart`: they stop the apiserver, which fails every other
//!   test's requests meanwhile; `watch_restart` also compares the cluster-wide stores with a
//!   fresh list.
//! * `watch`: the live analysis must equal the analysis of its own dump, which covers every
//!   node of the cluster; another test creating or cordoning nodes in between changes it.
//! * `ops_readonly`, `readonly_binary`, `relists`: no request by the acting identity (admin) or with
//!   ome-top's User-Agent but its own may land in the audit window.
//!
//! `live_crds` has a binary of its own: it deletes the CRDs for good. One test binary:
//! `cargo test --test live_exclusive`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

mod apiserver_restart;
mod ops_readonly;
mod readonly_binary;
mod relists;
mod watch;
mod watch_restart;

#[allow(dead_code)] // Shared with tests/live, which uses all of it.
#[path = "../live/fixtures.rs"]
mod fixtures;
#[path = "../support/mod.rs"]
mod support;

use tokio::sync::{Mutex, MutexGuard};

/// Held by the running test (a tokio mutex: each test has its own runtime and holds the
/// guard across awaits; a panicking test releases it, nothing is poisoned).
static ALONE: Mutex<()> = Mutex::const_new(());

/// Waits until no other test of this binary runs; hold the guard for the whole test.
pub async fn alone() -> MutexGuard<'static, ()> {
    ALONE.lock().await
}
