//! `ome-top fleet -o json|table` against the real control plane reached through two
//! kubeconfig contexts, plus a third pointing at a closed port on 127.0.0.1: each reachable
//! context's `analysis` has the per-node free GPUs the API says, the third is `null` with its
//! error in words (also named on stderr), the exit code is 0 while one context answers and 1
//! when none does.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, ListParams, PostParams};
use serde_json::{json, Value};

use crate::support;
use support::cluster::{Identity, TestCluster};
use support::objects::{gpu_pod, wait_for};

/// A port on 127.0.0.1 nothing listens on (bound, then released).
fn closed_port() -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    listener.local_addr().unwrap().port()
}

/// The viewer's kubeconfig with its context twice (`fleet-a`, `fleet-b`) and `fleet-down`,
/// whose server is `https://127.0.0.1:PORT` with nothing listening.
fn fleet_kubeconfig(tc: &TestCluster, dir: &Path, port: u16) -> PathBuf {
    let viewer = tc.kubeconfig_path(Identity::Viewer);
    let file = kube::config::Kubeconfig::read_from(&viewer).unwrap();
    let mut doc = serde_json::to_value(&file).unwrap();
    let cluster = doc["contexts"][0]["context"]["cluster"].clone();
    let user = doc["contexts"][0]["context"]["user"].clone();
    doc["contexts"] = json!([
        {"name": "fleet-a", "context": {"cluster": cluster, "user": user}},
        {"name": "fleet-b", "context": {"cluster": cluster, "user": user}},
        {"name": "fleet-down", "context": {"cluster": "down", "user": user}},
    ]);
    doc["clusters"].as_array_mut().unwrap().push(json!({
        "name": "down",
        "cluster": {"server": format!("https://127.0.0.1:{port}"),
                    "insecure-skip-tls-verify": true},
    }));
    doc["current-context"] = json!("fleet-a");
    let path = dir.join("fleet-kubeconfig");
    // JSON is YAML: kube reads it as a kubeconfig.
    std::fs::write(&path, serde_json::to_vec_pretty(&doc).unwrap()).unwrap();
    path
}

fn fleet(kubeconfig: &Path, ns: &str, extra: &[&str]) -> Output {
    crate::support::command::ome_top()
        .args(["fleet", "-n", ns, "--timeout", "60", "--kubeconfig"])
        .arg(kubeconfig)
        .args(extra)
        .env_remove("KUBECONFIG")
        .env_remove("OME_TOP_CONFIG")
        .output()
        .unwrap()
}

/// Free GPUs per node of `nodes` as the API has them: 8 allocatable (`objects::gpu_node`)
/// minus the GPU limits of the namespace's bound pods (only they select these nodes' product).
async fn free_by_api(pods: &Api<Pod>, nodes: &[String]) -> BTreeMap<String, u64> {
    let mut free: BTreeMap<String, u64> = nodes.iter().map(|n| (n.clone(), 8)).collect();
    for pod in pods.list(&ListParams::default()).await.unwrap().items {
        let spec = pod.spec.unwrap();
        let Some(node) = spec.node_name else { continue };
        let gpus: u64 = spec
            .containers
            .iter()
            .filter_map(|c| c.resources.as_ref()?.limits.as_ref()?.get("nvidia.com/gpu"))
            .map(|q| q.0.parse::<u64>().unwrap())
            .sum();
        if let Some(f) = free.get_mut(&node) {
            *f -= gpus;
        }
    }
    free
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fleet_json_reads_two_contexts_and_names_the_unreachable_one() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("fleet").await;
    let nodes = tc.create_gpu_nodes("fleet", 2, "H100-fleet").await;
    let pods: Api<Pod> = Api::namespaced(tc.admin_client().await, &ns);
    for (name, gpus) in [("a", 3), ("b", 2), ("c", 1)] {
        let pod = gpu_pod(name, gpus, "H100-fleet", None);
        pods.create(&PostParams::default(), &pod).await.unwrap();
    }
    wait_for("the pods bound", Duration::from_secs(60), || async {
        let list = pods.list(&ListParams::default()).await?;
        let bound = list
            .items
            .iter()
            .all(|p| p.spec.as_ref().and_then(|s| s.node_name.as_ref()).is_some());
        Ok(bound.then_some(()))
    })
    .await
    .unwrap();
    let want = free_by_api(&pods, &nodes).await;
    assert_eq!(want.values().sum::<u64>(), 16 - 6, "{want:?}");

    let dir = tempfile::tempdir().unwrap();
    let port = closed_port();
    let kubeconfig = fleet_kubeconfig(tc, dir.path(), port);
    let out = fleet(&kubeconfig, &ns, &["-o", "json"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let clusters = doc["clusters"].as_array().unwrap();
    let contexts: Vec<&str> = clusters
        .iter()
        .map(|c| c["context"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["fleet-a", "fleet-b", "fleet-down"]);
    for c in &clusters[..2] {
        assert_eq!(c["error"], Value::Null, "{c}");
        assert_eq!(c["analysis"]["source"], "live");
        let server = c["server"].as_str().unwrap();
        assert_eq!(
            server.trim_end_matches('/'),
            tc.server_url().trim_end_matches('/')
        );
        let got: BTreeMap<String, u64> = c["analysis"]["nodes"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|n| nodes.iter().any(|m| n["name"] == m.as_str()))
            .map(|n| {
                (
                    n["name"].as_str().unwrap().to_string(),
                    n["freeGpus"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, want, "context {}", c["context"]);
    }
    let down = &clusters[2];
    assert_eq!(down["analysis"], Value::Null);
    let error = down["error"].as_str().unwrap();
    assert!(
        error.starts_with("cluster unreachable:")
            && error.contains(&format!("127.0.0.1:{port}"))
            && error.ends_with(": connection refused"),
        "{error}"
    );
    assert!(
        stderr.contains(&format!("context fleet-down: {error}")),
        "{stderr}"
    );

    // The table: one row per reachable context's pool, the unreachable one named.
    let out = fleet(&kubeconfig, &ns, &["-o", "table"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains(&format!("fleet-down: {error}")), "{text}");
    for context in ["fleet-a", "fleet-b"] {
        assert!(
            text.lines()
                .any(|l| l.starts_with(context) && l.contains("H100-fleet")),
            "{text}"
        );
    }

    // No context answers: exit 1, the failure named.
    let out = fleet(
        &kubeconfig,
        &ns,
        &["-o", "json", "--contexts", "fleet-down"],
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("context fleet-down: cluster unreachable")
    );
}
