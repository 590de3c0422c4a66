//! A read-only identity (`viewer`: may get/list/watch, nothing else) is refused by the API
//! server; every op reports it as `Refused`, naming the permission it lacks, and nothing changes.

use ome_top::cluster::ops::execute;
use ome_top::protocol::OpOutcome;

use crate::fixtures::{
    create_isvc, create_journal, ctx, entry, journal, node_rv, read_journal, seen, state_of, uuid,
};
use crate::isvc::{approve, opt_out};
use crate::journal::clear;
use crate::support::cluster::TestCluster;

#[tokio::test]
async fn a_viewer_is_refused_with_the_missing_permission_named() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-viewer").await;
    let nodes = tc.create_gpu_nodes("ops-viewer", 1, "H100-ops").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let (uid, rv) = seen(&create_isvc(&admin, &ns, "chat", None).await);
    let state = journal(vec![entry(&uuid(3, 0), "stalled", 1)]);
    let cm = create_journal(&admin, &ns, &state).await;
    let cm_rv = cm.metadata.resource_version.clone().unwrap();
    let node_seen = node_rv(&admin, &nodes[0]).await;

    let cases = [
        (
            crate::cordon(&nodes[0], &node_seen, None),
            "\"patch nodes\"",
        ),
        (
            approve(&ns, "chat", &uid, &rv),
            "\"patch inferenceservices.ome.io\"",
        ),
        (
            opt_out(&ns, "chat", &uid, &rv),
            "\"patch inferenceservices.ome.io\"",
        ),
        (clear(&ns, &uuid(3, 0), &cm_rv), "\"update configmaps\""),
    ];
    for (op, permission) in cases {
        let out = execute(&viewer, &op, &ctx(&ns)).await;
        let OpOutcome::Refused { message } = &out else {
            panic!("{op:?}: {out:?}")
        };
        assert!(message.contains("forbidden"), "{message}");
        assert!(message.contains(permission), "{message}");
    }
    let isvc = crate::fixtures::isvc_api(&admin, &ns)
        .get("chat")
        .await
        .unwrap();
    assert_eq!(isvc.metadata.resource_version.as_deref(), Some(rv.as_str()));
    assert_eq!(state_of(&read_journal(&admin, &ns).await), state);
    assert!(!crate::is_cordoned(&admin, &nodes[0]).await);
}
