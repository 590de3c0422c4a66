//! `--readonly` means no write verb for the whole program, proven on the real binary by the
//! API server's audit log: the TUI in tmux with `--readonly` (every view visited, every write
//! key pressed) and a live `analyze` send lists and watches, and not one create, update,
//! patch or delete (a SelfSubjectReview included) under ome-top's User-Agent.
//!
//! Alone on its control plane (`crate::alone`): ome-top's User-Agent in the audit window is
//! this test's.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]
#![allow(clippy::disallowed_methods)] // The tmux session is given wall-clock time to settle.

use crate::support;

use std::time::Duration;

use serde_json::Value;
use support::cluster::{Identity, TestCluster};
use support::tmux::Tmux;

/// `(verb, resource)` of every request after byte `from` sent with ome-top's User-Agent.
fn ome_top_requests(tc: &TestCluster, from: usize) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    text.get(from..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["stage"] == "RequestReceived" || e["stage"] == "ResponseComplete")
        .filter(|e| e["userAgent"] == ome_top::cluster::live::USER_AGENT)
        .map(|e| {
            let s = |v: &Value| v.as_str().unwrap_or_default().to_string();
            (s(&e["verb"]), s(&e["objectRef"]["resource"]))
        })
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn readonly_tui_and_analyze_send_no_write_verb() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let nodes = tc.create_gpu_nodes("ro-binary", 1, "H100-ro").await;
    let from = std::fs::metadata(tc.audit_log_path()).unwrap().len() as usize;
    let kubeconfig = tc.kubeconfig_path(Identity::Admin);

    let t = Tmux::start(
        160,
        45,
        &format!("--readonly --kubeconfig {}", kubeconfig.display()),
    );
    let pools = t.wait_for("Pools [");
    assert!(pools.contains("READ-ONLY"), "{pools}");
    // Every view, and every write key where it applies: each is refused on screen.
    t.keys("2");
    t.wait_for(&nodes[0]);
    t.keys("c");
    t.wait_for("read-only");
    for keys in ["u", "3", "a", "r", "4", "x", "5", "6", "1"] {
        t.keys(keys);
        std::thread::sleep(Duration::from_millis(200));
    }
    std::thread::sleep(Duration::from_secs(2));
    t.keys("C-c");

    let out = crate::support::command::ome_top()
        .args(["analyze", "-o", "json", "--kubeconfig"])
        .arg(&kubeconfig)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::thread::sleep(Duration::from_secs(1));

    let sent = ome_top_requests(tc, from);
    // Streaming lists: the nodes and pods are read by watches that begin with their state.
    assert!(
        sent.iter().any(|(v, r)| v == "watch" && r == "nodes")
            && sent.iter().any(|(v, r)| v == "watch" && r == "pods"),
        "the audit log does not show ome-top's reads: {sent:?}"
    );
    let writes: Vec<_> = sent
        .iter()
        .filter(|(v, _)| !matches!(v.as_str(), "get" | "list" | "watch"))
        .collect();
    assert!(
        writes.is_empty(),
        "write verbs under --readonly: {writes:?}"
    );
}
