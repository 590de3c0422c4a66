//! The hidden `ome-top analyze --watch` probe (the scale test's headless live path) against
//! the real control plane: it prints one line per published feed, reaches `api=connected`
//! with the namespace's pods, follows a pod created afterwards, and counts the object events
//! its stores applied and its feeds include.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::io::{BufRead, BufReader};
use std::process::Stdio;
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, PostParams};

use support::cluster::{Identity, TestCluster};
use support::objects::gpu_pod;

fn field(line: &str, key: &str) -> u64 {
    line.split(' ')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no {key} in {line:?}"))
}

/// The first line (within 60 s) for which `done` holds.
fn wait_line(lines: &Receiver<String>, done: impl Fn(&str) -> bool) -> String {
    loop {
        let line = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("a feed line within 60 s");
        if done(&line) {
            return line;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn watch_probe_prints_feeds_and_event_counts() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("headless").await;
    tc.create_gpu_nodes("headless", 2, "H100-headless").await;
    let pods: Api<Pod> = Api::namespaced(tc.admin_client().await, &ns);
    for name in ["a", "b"] {
        let pod = gpu_pod(name, 1, "H100-headless", None);
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
    let mut child = crate::support::command::ome_top()
        .args(["analyze", "--watch", "-n", &ns, "--kubeconfig"])
        .arg(tc.kubeconfig_path(Identity::Viewer))
        .env_remove("KUBECONFIG")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let first = wait_line(&lines, |l| l.contains("api=connected"));
    assert!(first.starts_with("feed generation="), "{first}");
    assert_eq!(field(&first, "pods"), 2, "{first}");
    assert!(field(&first, "nodes") >= 2, "{first}");
    // The initial lists alone applied at least the two nodes and two pods.
    assert!(field(&first, "events_in_feed") >= 4, "{first}");
    let pod = gpu_pod("c", 1, "H100-headless", None);
    pods.create(&PostParams::default(), &pod).await.unwrap();
    let next = wait_line(&lines, |l| field(l, "pods") == 3);
    assert!(
        field(&next, "events_in_feed") > field(&first, "events_in_feed"),
        "{first}\n{next}"
    );
    assert!(field(&next, "events_applied") >= field(&next, "events_in_feed"));
    assert!(field(&next, "generation") > field(&first, "generation"));
    let _ = child.kill();
    let _ = child.wait();
}
