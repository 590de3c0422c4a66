//! The log of a live run never holds a credential: `ome-top analyze` against the test control
//! plane with the viewer's bearer-token kubeconfig, at `--log-level trace` and with
//! `RUST_LOG=trace` (every crate's filter opened), writes kube-rs's requests and ome-top's
//! connection and watcher lines to the log file, but never the token and never a header dump.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::Path;

use crate::support;
use support::cluster::{Identity, TestCluster};

/// Runs `analyze` on `ns` in a fresh home with `extra` arguments and environment; returns
/// the whole log directory's text.
fn logged_run(tc: &TestCluster, ns: &str, extra: &[&str], env: &[(&str, &str)]) -> String {
    let home = tempfile::tempdir().unwrap();
    let state = home.path().join("state");
    let mut cmd = crate::support::command::ome_top();
    cmd.args(["analyze", "-o", "json", "-n", ns, "--kubeconfig"])
        .arg(tc.kubeconfig_path(Identity::Viewer))
        .args(extra)
        .env("HOME", home.path())
        .env("XDG_STATE_HOME", &state)
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env_remove("KUBECONFIG")
        .env_remove("OME_TOP_CONFIG")
        .env_remove("OME_TOP_LOG")
        .env_remove("RUST_LOG");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let dir = state.join("ome-top").join("log");
    read_dir_text(&dir)
}

fn read_dir_text(dir: &Path) -> String {
    let mut text = String::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        text.push_str(&std::fs::read_to_string(entry.unwrap().path()).unwrap());
    }
    text
}

fn assert_no_secret(log: &str) {
    let token = Identity::Viewer.token();
    assert!(!log.contains(token), "the bearer token is in the log");
    assert!(
        !log.to_ascii_lowercase().contains("bearer"),
        "an Authorization value is in the log"
    );
    assert!(!log.contains("headers:"), "a header dump is in the log");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_level_live_run_logs_requests_but_never_the_token() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("logs").await;
    let log = logged_run(tc, &ns, &["--log-level", "trace"], &[]);
    assert_no_secret(&log);
    // The first line holding every one of `needles`.
    let line = |needles: &[&str]| {
        log.lines()
            .find(|l| needles.iter().all(|n| l.contains(n)))
            .unwrap_or_else(|| panic!("no line with {needles:?} in the log:\n{log}"))
            .to_string()
    };
    line(&["ome-top starts", "mode=\"analyze-live\"", "log_level=trace"]);
    let server = format!("server={}", tc.server_url());
    line(&[" INFO ", "connecting", &server]);
    line(&[
        " INFO ",
        "watching",
        "read_only=\"read-only mode (--readonly)\"",
    ]);
    line(&[" INFO ", "API server reachable", "version="]);
    // kube-rs's own spans and events: each request's method and URL.
    line(&[
        "kube_client::client::builder: requesting",
        "http.method=GET",
        tc.server_url(),
    ]);
    line(&[
        " INFO ",
        "source state",
        "source=\"nodes\"",
        "presence=Present",
    ]);
    line(&[" INFO ", "source state", "source=\"pods\"", "objects=0"]);
    line(&[
        " INFO ",
        "resource not installed (404)",
        "source=\"basemodels\"",
    ]);
    line(&[" INFO ", "every source listed: connected"]);
    line(&["ome-top exits exit_code=0"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_crate_at_trace_still_writes_no_token_or_headers() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("logs-rust-log").await;
    let log = logged_run(tc, &ns, &[], &[("RUST_LOG", "trace,kube_client=trace")]);
    assert!(log.contains("log_level_from=\"RUST_LOG\""), "{log}");
    assert_no_secret(&log);
    // Trace is on (kube-rs's watcher backoff reports at trace) ...
    assert!(log.contains(" TRACE kube_runtime::"), "{log}");
    // ... but the capped targets stop at debug, whatever the filter says.
    let capped = [
        "kube_client::client:",
        "hyper",
        "h2::",
        "rustls",
        "tower_http",
    ];
    let leaks: Vec<&str> = log
        .lines()
        .filter(|l| l.contains(" TRACE ") && capped.iter().any(|c| l.contains(c)))
        .collect();
    assert!(leaks.is_empty(), "{leaks:#?}");
}
