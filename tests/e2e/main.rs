//! End to end: the real `ome-top` binary in real terminals (tmux, `tests/support/tmux.rs`; a
//! tmux server per test). On the simulated cluster (`ome-top demo`): the views (`demo_tmux`),
//! the operator's actions (`demo_actions`), the Pending list, an unblock plan and a what-if
//! (`demo_pending`), the Moves view's approvals with and without the
//! override (`demo_moves`) and the log file beside the screen (`logs`). On the
//! test control plane of `tests/support` (one per test binary, shared by the live tests here):
//! a cordon from the TUI (`live_tmux`), switching kubeconfig contexts with `:ctx`
//! (`switch_context`), the Fleet view of `ome-top fleet` (`fleet`) and the actions below. One test binary: `cargo test --test e2e`.
//!
//! End to end on the real control plane: the real `ome-top` binary in tmux, live on a namespace
//! seeded with what OME and Alfred publish (`world`), performs the operator's actions with the
//! default keys — approve a move and follow it to completion, reject one (dismiss, opt out),
//! clear a stalled journal entry, and meet a "changed since you looked" conflict — while a
//! second client (kube-rs here) checks what reached the API server and the history store holds
//! the audit rows. Each test has its own namespace and tmux server, so they run side by side on
//! the one control plane of this binary.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

// The other tests of this binary (the first paragraph above).
mod copy;
mod demo_actions;
mod demo_fleet;
mod demo_moves;
mod demo_pending;
mod demo_tmux;
mod fleet;
mod fleet_unreachable;
mod live_tmux;
mod loading;
mod logs;
mod mouse;
mod pool_map;
mod read_only_context;
mod signals;
mod switch_context;
mod terminal;

#[path = "../support/mod.rs"]
mod support;

#[allow(dead_code)] // Shared with tests/live; this binary uses a part of it.
#[path = "../live/fixtures.rs"]
mod fixtures;

mod approve;
mod journal;
mod reject;
mod tui;
mod world;

use std::future::Future;
use std::time::{Duration, Instant};

use support::tmux::Tmux;

/// Polls `probe` (every 250 ms, ≤ 60 s) until it yields a value; fails with the pane.
pub async fn eventually<T, F, Fut>(t: &Tmux, what: &str, mut probe: F) -> T
where
    F: FnMut() -> Fut,
    Fut: Future<Output = Option<T>>,
{
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        if let Some(v) = probe().await {
            return v;
        }
        assert!(Instant::now() < deadline, "never {what}:\n{}", t.pane());
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
}
