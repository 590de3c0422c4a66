//! Per-context read-only from config.toml: the real binary, live on the test control plane's
//! admin context, with `[read-only] "admin@test" = true` in the file named by `--config` — the
//! header says why the session is read-only, and a cordon key changes nothing on the server.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::time::Duration;

use k8s_openapi::api::core::v1::Node;
use kube::Api;

use support::cluster::{Identity, TestCluster};
use support::tmux::Tmux;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_context_marked_read_only_in_config_toml_cannot_write() {
    let tc = TestCluster::shared();
    let names = tc
        .create_gpu_nodes("e2e-ro", 1, "NVIDIA-H100-80GB-HBM3")
        .await;
    let node = names[0].clone();
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[read-only]\n\"admin@test\" = true\n").unwrap();
    let kubeconfig = tc.kubeconfig_path(Identity::Admin);
    let t = Tmux::start(
        160,
        45,
        &format!(
            "--kubeconfig {} --config {}",
            kubeconfig.display(),
            config.display()
        ),
    );
    let screen = t.wait_for("read-only for context admin@test");
    assert!(screen.contains("READ-ONLY"), "{screen}");
    t.keys("2");
    t.wait_for("Nodes [");
    t.keys("/");
    t.run(&["send-keys", "-t", t.session, "-l", &node]);
    t.keys("Enter");
    t.wait_for(&node);
    t.keys("c");
    t.keys("y");
    tokio::time::sleep(Duration::from_secs(2)).await;
    let nodes: Api<Node> = Api::all(tc.admin_client().await);
    let n = nodes.get(&node).await.unwrap();
    assert_ne!(
        n.spec.and_then(|s| s.unschedulable),
        Some(true),
        "a read-only context cordoned a node:\n{}",
        t.pane()
    );
}
