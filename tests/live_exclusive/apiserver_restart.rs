//! The harness's apiserver restart (for reliability tests of watchers): while stopped,
//! requests fail; after `start_apiserver` the same URL, certificates, tokens and etcd data
//! serve again. Runs alone (`crate::alone`), because a restart disturbs every test sharing a
//! cluster.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use k8s_openapi::api::core::v1::Node;
use kube::Api;

use support::cluster::TestCluster;
use support::objects::GPU_PRODUCT_LABEL;

#[tokio::test]
async fn the_apiserver_restarts_on_the_same_address_with_its_data() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    // Not `restart-*`: `watch_restart` in this binary makes those nodes.
    let names = tc
        .create_gpu_nodes("apiserver-restart", 1, "A100-restart")
        .await;
    let client = tc.viewer_client().await;
    let nodes: Api<Node> = Api::all(client);

    tc.stop_apiserver();
    let err = nodes.get(&names[0]).await.unwrap_err();
    assert!(
        !matches!(err, kube::Error::Api(_)),
        "no API answer while stopped, got {err:?}"
    );

    tc.start_apiserver().await;
    // The client made before the restart works again: same URL, CA file and token.
    let node = nodes.get(&names[0]).await.unwrap();
    let labels = node.metadata.labels.unwrap();
    assert_eq!(labels[GPU_PRODUCT_LABEL], "A100-restart");
}
