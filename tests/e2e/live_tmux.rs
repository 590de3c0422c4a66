//! End to end on the real control plane: the real `ome-top` binary in tmux, live on the test
//! cluster's admin kubeconfig, cordons a kwok GPU node with the default keys (`2` Nodes, `/`
//! filter, `c` cordon, `y` confirm); a second client sees `spec.unschedulable`,
//! `ome-top history` shows the audit row the action wrote, and the log file holds the write
//! and its outcome (and not the token).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.
#![allow(clippy::disallowed_methods)] // Waiting on a real terminal needs a monotonic deadline.

use crate::support;

use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Node;
use kube::Api;

use support::cluster::{Identity, TestCluster};
use support::tmux::Tmux;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cordon_a_node_from_the_tui_on_a_live_cluster() {
    let tc = TestCluster::shared();
    let names = tc
        .create_gpu_nodes("e2e-cordon", 1, "NVIDIA-H100-80GB-HBM3")
        .await;
    let node = names[0].clone();
    let kubeconfig = tc.kubeconfig_path(Identity::Admin);
    let t = Tmux::start(160, 45, &format!("--kubeconfig {}", kubeconfig.display()));
    t.wait_for("Pools [");
    t.keys("2");
    t.wait_for("Nodes [");
    t.keys("/");
    t.run(&["send-keys", "-t", t.session, "-l", &node]);
    t.keys("Enter");
    t.wait_for(&node);
    t.keys("c");
    let dialog = t.wait_for("unschedulable");
    assert!(dialog.contains(&node), "{dialog}");
    t.keys("y");
    let nodes: Api<Node> = Api::all(tc.admin_client().await);
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        let n = nodes.get(&node).await.unwrap();
        if n.spec.and_then(|s| s.unschedulable) == Some(true) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "node never cordoned:\n{}",
            t.pane()
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    // The API server's audit log names the program: the cordon's PATCH carries ome-top's
    // User-Agent (the node's other patches are kwok's and the node controller's).
    let audit = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    let agents: Vec<String> = audit
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|e| {
            e["verb"] == "patch"
                && e["objectRef"]["resource"] == "nodes"
                && e["objectRef"]["name"] == node.as_str()
        })
        .map(|e| e["userAgent"].as_str().unwrap_or_default().to_string())
        .collect();
    assert!(
        agents
            .iter()
            .any(|a| a == ome_top::cluster::live::USER_AGENT),
        "user agents of the cordon's PATCH: {agents:?}"
    );
    // The audit row the action wrote, read back headless from the same store while the TUI
    // still runs (WAL lets a second process read).
    let history = || {
        let out = crate::support::command::ome_top()
            .args(["history", &node])
            .env("HOME", t.home())
            .env("XDG_DATA_HOME", t.home().join("data"))
            .output()
            .unwrap();
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    let text = loop {
        let text = history();
        if text.contains("cordon-node") {
            break text;
        }
        assert!(Instant::now() < deadline, "no audit row: {text}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    assert!(
        text.contains(tc.server_url()),
        "history not keyed by the API server: {text}"
    );
    // The actor is the Kubernetes user the API server authenticated (SelfSubjectReview).
    let audit_row = text
        .lines()
        .find(|l| l.contains("cordon-node"))
        .unwrap_or_default();
    assert!(
        audit_row.split_whitespace().any(|w| w == "admin"),
        "the audit row does not name the user: {audit_row}"
    );
    assert_logged_cordon(&t, &node).await;
    t.keys("C-c");
}

/// The log file holds the session, the write as sent and its outcome, and not the token.
async fn assert_logged_cordon(t: &Tmux, node: &str) {
    let deadline = Instant::now() + Duration::from_secs(30);
    let log = loop {
        let log = t.log_text();
        if log.contains("written:") {
            break log;
        }
        assert!(
            Instant::now() < deadline,
            "no write outcome in the log:\n{log}"
        );
        tokio::time::sleep(Duration::from_millis(250)).await;
    };
    let object = format!("object=\"node/{node}\"");
    for needle in [
        "mode=\"live\"",
        "session may write",
        "write requested action=\"cordon-node\"",
        object.as_str(),
    ] {
        assert!(log.contains(needle), "{needle} not in the log:\n{log}");
    }
    assert!(
        !log.contains(Identity::Admin.token()),
        "the token is in the log"
    );
}
