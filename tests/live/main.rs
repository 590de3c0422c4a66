//! Tests against the test control plane of `tests/support` (one per test binary, started by
//! the first test that needs it and shared by every test here, side by side): the control
//! plane itself (`control_plane`), the headless `analyze --watch` probe (`headless_watch`),
//! `ome-top fleet -o json|table` through two contexts and an unreachable one (`fleet`),
//! the history recorder following a node's condition (`history`),
//! the log file of a live run with a bearer token (`logs`), and the operator's writes — below and in `isvc`, `journal`, `viewer` and `concurrent`; the
//! exact requests of each write against a scripted API server, no cluster, are in
//! `ops_scripted`, and how the watchers list (streaming, paginated where refused) in
//! `lists_scripted`. The roles of docs/rbac/ applied as they are: `rbac`. Tests that need a control plane to themselves are in `tests/live_exclusive`
//! and `tests/live_crds`. An `events.k8s.io/v1` FailedScheduling Event reaching a gang's pin:
//! `scheduling_events`. One test binary: `cargo test --test live`.
//!
//! The operator's writes (`ome_top::cluster::ops`) against a real kube-apiserver (the shared
//! test control plane of `tests/support`): each action's effect as another client sees it, the
//! Event it leaves, "changed since you looked" conflicts for every action, refusals for a
//! read-only identity, and a journal clear racing a concurrent writer. Cordon/uncordon tests
//! live here; InferenceService, journal and concurrency tests in the sibling modules.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

// The other tests of this binary (the first paragraph above).
mod control_plane;
mod fleet;
mod headless_watch;
mod history;
mod lists_scripted;
mod logs;
mod ops_scripted;
mod rbac;
mod scheduling_events;

#[path = "../support/mod.rs"]
mod support;

mod concurrent;
mod fixtures;
mod isvc;
mod journal;
mod node_yaml;
mod viewer;

use k8s_openapi::api::core::v1::Node;
use kube::api::{Api, Patch, PatchParams};
use ome_top::cluster::ops::outcome::{classify, ApiFailure};
use ome_top::cluster::ops::patches::{node_unschedulable_patch, typed};
use ome_top::cluster::ops::{execute, spawn_ops_worker};
use ome_top::protocol::{Command, Op, OpOutcome, Update};
use serde_json::json;
use support::cluster::TestCluster;

use fixtures::{ctx, message, node_rv, ome_top_events};

fn cordon(node: &str, rv: &str, reason: Option<&str>) -> Op {
    Op::Cordon {
        node: node.into(),
        resource_version: rv.into(),
        reason: reason.map(str::to_string),
    }
}

fn uncordon(node: &str, rv: &str) -> Op {
    Op::Uncordon {
        node: node.into(),
        resource_version: rv.into(),
        reason: None,
    }
}

/// Waits (≤ 10 s, never failing) until the node lifecycle controller has caught up with a
/// cordon state change (the `node.kubernetes.io/unschedulable` taint follows the flag). Its
/// taint edit is a spec change, so an op racing it is (correctly) a conflict.
async fn settle(client: &kube::Client, node: &str) {
    let api = Api::<Node>::all(client.clone());
    for _ in 0..50 {
        let spec = api.get(node).await.unwrap().spec.unwrap_or_default();
        let flag = spec.unschedulable.unwrap_or(false);
        let taint = spec
            .taints
            .unwrap_or_default()
            .iter()
            .any(|t| t.key == "node.kubernetes.io/unschedulable");
        if flag == taint {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

async fn is_cordoned(client: &kube::Client, node: &str) -> bool {
    let n = Api::<Node>::all(client.clone()).get(node).await.unwrap();
    n.spec.and_then(|s| s.unschedulable).unwrap_or(false)
}

#[tokio::test]
async fn cordon_and_uncordon_are_seen_by_another_client_and_recorded() {
    let tc = TestCluster::shared();
    let nodes = tc.create_gpu_nodes("ops-cordon", 1, "H100-ops").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let node = &nodes[0];

    let rv = node_rv(&admin, node).await;
    let out = execute(
        &admin,
        &cordon(node, &rv, Some("disk errors")),
        &ctx("alfred"),
    )
    .await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    assert!(is_cordoned(&viewer, node).await);
    // The write names ome-top as its field manager.
    let managers: Vec<String> = Api::<Node>::all(admin.clone())
        .get(node)
        .await
        .unwrap()
        .metadata
        .managed_fields
        .unwrap_or_default()
        .into_iter()
        .filter_map(|f| f.manager)
        .collect();
    assert!(managers.iter().any(|m| m == "ome-top"), "{managers:?}");
    let events = ome_top_events(&viewer, "default", node).await;
    let ev = events
        .iter()
        .find(|e| e.reason.as_deref() == Some("OmeTopCordon"))
        .expect("a cordon Event");
    assert_eq!(ev.action.as_deref(), Some("Cordon"));
    assert_eq!(ev.reporting_instance.as_deref(), Some("tester@live-ops"));
    assert!(ev.note.as_deref().unwrap().ends_with(": disk errors"));
    let regarding = ev.regarding.as_ref().unwrap();
    assert_eq!(regarding.kind.as_deref(), Some("Node"));

    settle(&admin, node).await;
    let rv = node_rv(&admin, node).await;
    let out = execute(&admin, &uncordon(node, &rv), &ctx("alfred")).await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    assert!(!is_cordoned(&viewer, node).await);
    let events = ome_top_events(&viewer, "default", node).await;
    assert!(events
        .iter()
        .any(|e| e.reason.as_deref() == Some("OmeTopUncordon")));
}

#[tokio::test]
async fn node_metadata_churn_is_not_a_conflict_but_a_cordon_state_change_is() {
    let tc = TestCluster::shared();
    let nodes = tc.create_gpu_nodes("ops-node-cas", 1, "H100-ops").await;
    let admin = tc.admin_client().await;
    let other = tc.admin_client().await;
    let node = &nodes[0];
    let api = Api::<Node>::all(other.clone());

    // A label change moves the resourceVersion like a heartbeat does; spec is untouched.
    let looked = node_rv(&admin, node).await;
    let label = json!({"metadata": {"labels": {"churn": "1"}}});
    api.patch(node, &PatchParams::default(), &Patch::Merge(&label))
        .await
        .unwrap();
    assert_ne!(node_rv(&admin, node).await, looked);
    let out = execute(&admin, &cordon(node, &looked, None), &ctx("alfred")).await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");

    // Someone else uncordons after we looked: our uncordon is told, not repeated.
    let looked = node_rv(&admin, node).await;
    let flag = json!({"spec": {"unschedulable": false}});
    api.patch(node, &PatchParams::default(), &Patch::Merge(&flag))
        .await
        .unwrap();
    let out = execute(&admin, &uncordon(node, &looked), &ctx("alfred")).await;
    let said = message_of_conflict(&out);
    assert!(
        said.starts_with("changed since you looked: node/"),
        "{said}"
    );
    assert!(said.contains("already schedulable"), "{said}");

    // The same state seen at the current resourceVersion is simply nothing to do. (A
    // heartbeat or the taint controller may move the resourceVersion between our read and the
    // op; that turns the answer into a conflict, so look again a few times.)
    let mut refused = None;
    for _ in 0..10 {
        let rv = node_rv(&admin, node).await;
        let out = execute(&admin, &uncordon(node, &rv), &ctx("alfred")).await;
        assert!(message(&out).contains("already schedulable"), "{out:?}");
        if matches!(out, OpOutcome::Refused { .. }) {
            refused = Some(out);
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    }
    assert!(refused.is_some(), "never refused as nothing to do");
    let out = execute(&admin, &cordon("no-such-node", "1", None), &ctx("alfred")).await;
    assert!(
        message_of_conflict(&out).contains("no longer exists"),
        "{out:?}"
    );
}

fn message_of_conflict(out: &OpOutcome) -> &str {
    match out {
        OpOutcome::Conflict { message } => message,
        other => panic!("expected a conflict, got {other:?}"),
    }
}

/// The server's answer to a failed JSON Patch `test` (what a change between our read and our
/// write produces) is recognised as a conflict, for a spec test and a resourceVersion test.
#[tokio::test]
async fn failed_patch_tests_on_the_server_are_conflicts() {
    let tc = TestCluster::shared();
    let nodes = tc.create_gpu_nodes("ops-422", 1, "H100-ops").await;
    let admin = tc.admin_client().await;
    let api = Api::<Node>::all(admin.clone());
    let n = api.get(&nodes[0]).await.unwrap();
    let uid = n.metadata.uid.clone().unwrap();
    let stale_spec = json!({"unschedulable": true, "providerID": "not-what-is-there"});
    let body = node_unschedulable_patch(&uid, &stale_spec, true);
    let err = api
        .patch(&nodes[0], &PatchParams::default(), &Patch::Json::<()>(body))
        .await
        .unwrap_err();
    assert!(matches!(classify(&err), ApiFailure::Conflict(_)), "{err:?}");
    let stale_rv = json!([
        {"op": "test", "path": "/metadata/resourceVersion", "value": "1"},
        {"op": "add", "path": "/spec/unschedulable", "value": true},
    ]);
    let err = api
        .patch(
            &nodes[0],
            &PatchParams::default(),
            &Patch::Json::<()>(typed(stale_rv).unwrap()),
        )
        .await
        .unwrap_err();
    assert!(matches!(classify(&err), ApiFailure::Conflict(_)), "{err:?}");
    assert!(!is_cordoned(&admin, &nodes[0]).await);
}

#[tokio::test]
async fn the_worker_answers_each_command_with_its_id() {
    let tc = TestCluster::shared();
    let nodes = tc.create_gpu_nodes("ops-worker", 2, "H100-ops").await;
    let admin = tc.admin_client().await;
    let (cmd_tx, cmd_rx) = tokio::sync::mpsc::channel(4);
    let (upd_tx, mut upd_rx) = tokio::sync::mpsc::channel(4);
    let clock = || ctx("alfred").now;
    let worker = spawn_ops_worker(admin.clone(), ctx("alfred"), clock, cmd_rx, upd_tx);
    for (id, node) in nodes.iter().enumerate() {
        let rv = node_rv(&admin, node).await;
        let op = cordon(node, &rv, None);
        cmd_tx
            .send(Command {
                id: id as u64 + 7,
                op,
            })
            .await
            .unwrap();
    }
    for (id, node) in nodes.iter().enumerate() {
        let Some(Update::OpDone { id: got, outcome }) = upd_rx.recv().await else {
            panic!("worker stopped")
        };
        assert_eq!(got, id as u64 + 7);
        assert!(message(&outcome).contains(node.as_str()), "{outcome:?}");
        assert!(is_cordoned(&admin, node).await);
    }
    drop(cmd_tx);
    worker.await.unwrap();
}
