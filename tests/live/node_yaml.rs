//! `show-yaml` against a real kube-apiserver: the cluster layer's read of a node returns the
//! whole object as YAML (labels, and fields ome-top does not model, such as annotations)
//! without `managedFields`, which the server does keep; the read works for the read-only
//! `viewer` identity, through the read worker too, and a missing node is the server's message.

use std::collections::BTreeMap;
use std::time::Duration;

use k8s_openapi::api::core::v1::Node;
use kube::api::Api;
use ome_top::cluster::live::fetch::{node_yaml, spawn_fetch_worker};
use ome_top::protocol::{Fetch, Update};
use serde_json::Value;
use tokio::sync::mpsc;

use crate::support::cluster::TestCluster;
use crate::support::objects::gpu_node;

#[tokio::test]
async fn a_nodes_yaml_has_its_labels_and_no_managed_fields() {
    let tc = TestCluster::shared();
    let mut node = gpu_node("yaml-0", "H100-yaml");
    let labels = node.metadata.labels.get_or_insert_with(BTreeMap::new);
    labels.insert("ome.io/rack".into(), "rack-yaml-7".into());
    let name = tc.create_nodes(vec![node]).await.remove(0);
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let stored = Api::<Node>::all(admin.clone()).get(&name).await.unwrap();
    let managed = stored.metadata.managed_fields.unwrap_or_default();
    assert!(!managed.is_empty(), "the server keeps managedFields");

    let yaml = node_yaml(&viewer, &name).await.unwrap();
    assert!(!yaml.contains("managedFields"), "{yaml}");
    assert!(
        yaml.starts_with("apiVersion: v1\nkind: Node\nmetadata:\n"),
        "{yaml}"
    );
    let obj: Value = serde_saphyr::from_str(&yaml).unwrap();
    let labels = &obj["metadata"]["labels"];
    assert_eq!(labels["ome.io/rack"], "rack-yaml-7", "{yaml}");
    assert_eq!(labels["nvidia.com/gpu.product"], "H100-yaml", "{yaml}");
    assert_eq!(obj["metadata"]["name"], name.as_str());
    assert_eq!(
        obj["metadata"]["annotations"]["kwok.x-k8s.io/node"], "fake",
        "fields ome-top does not model are kept: {yaml}"
    );
    assert_eq!(obj["status"]["capacity"]["nvidia.com/gpu"], "8", "{yaml}");
    assert!(obj["metadata"].get("managedFields").is_none());

    // The read worker answers on the update channel, as the TUI receives it.
    let (fetch_tx, fetch_rx) = mpsc::channel(4);
    let (upd_tx, mut upd_rx) = mpsc::channel(4);
    let worker = spawn_fetch_worker(viewer.clone(), fetch_rx, upd_tx);
    fetch_tx
        .send(Fetch::NodeYaml(name.as_str().into()))
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(30), upd_rx.recv()).await;
    let Ok(Some(Update::Fetched { fetch, result })) = answer else {
        panic!("no answer: {answer:?}");
    };
    assert_eq!(fetch, Fetch::NodeYaml(name.as_str().into()));
    assert!(result.unwrap().contains("rack-yaml-7"));

    fetch_tx
        .send(Fetch::NodeYaml("yaml-missing".into()))
        .await
        .unwrap();
    let answer = tokio::time::timeout(Duration::from_secs(30), upd_rx.recv()).await;
    let Ok(Some(Update::Fetched { result, .. })) = answer else {
        panic!("no answer: {answer:?}");
    };
    assert_eq!(
        result.map_err(|e| e.to_string()),
        Err("nodes \"yaml-missing\" not found".to_string())
    );
    drop(fetch_tx);
    worker.await.unwrap();
}
