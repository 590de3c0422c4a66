//! `--readonly` sends zero mutating requests (product.md §11), proven with the API server's audit
//! log: every op, through `execute` and through the worker, with `read_only` set, leaves no
//! audit event at all by the acting identity; a control write afterwards does appear, so the
//! method would have caught one.
//!
//! Alone on its control plane (`crate::alone`): no other test's requests by the same identity
//! can land in the audit window.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use crate::{fixtures, support};

use std::time::Duration;

use kube::Client;
use ome_top::cluster::ops::{execute, spawn_ops_worker};
use ome_top::protocol::{Command, Op, OpOutcome, Update};
use serde_json::Value;
use support::cluster::{Identity, TestCluster};
use support::objects::wait_for;

use fixtures::{create_isvc, create_journal, ctx, entry, journal, node_rv, seen, uuid};

/// Audit events (ResponseComplete) after byte `from`, by `user`: `(verb, requestURI)`.
fn audit_events(tc: &TestCluster, from: usize, user: &str) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(tc.audit_log_path()).unwrap();
    text.get(from..)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|e| e["stage"] == "ResponseComplete" && e["user"]["username"] == user)
        .map(|e| {
            let s = |k: &str| e[k].as_str().unwrap_or_default().to_string();
            (s("verb"), s("requestURI"))
        })
        .collect()
}

/// Sends a GET for a unique name and waits until the audit log holds it: every request sent
/// before it has been logged too (blocking audit mode, requests sent one after another).
async fn audit_barrier(tc: &TestCluster, client: &Client, marker: &str) {
    let api =
        kube::Api::<k8s_openapi::api::core::v1::ConfigMap>::namespaced(client.clone(), "default");
    let _ = api.get_opt(marker).await.unwrap();
    wait_for("the audit barrier", Duration::from_secs(30), || async {
        let text = std::fs::read_to_string(tc.audit_log_path())?;
        Ok(text.contains(marker).then_some(()))
    })
    .await
    .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
}

#[tokio::test]
async fn read_only_sends_zero_requests_of_any_kind() {
    let _alone = crate::alone().await;
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-readonly").await;
    let nodes = tc.create_gpu_nodes("ops-readonly", 1, "H100-ops").await;
    let setup = tc.admin_client().await;
    let (uid, rv) = seen(&create_isvc(&setup, &ns, "chat", None).await);
    let cm = create_journal(
        &setup,
        &ns,
        &journal(vec![entry(&uuid(6, 0), "stalled", 1)]),
    )
    .await;
    let cm_rv = cm.metadata.resource_version.clone().unwrap();
    let node = nodes[0].clone();
    let node_seen = node_rv(&setup, &node).await;
    let ops = vec![
        Op::Cordon { node: node.as_str().into(), resource_version: node_seen.as_str().into(), reason: None },
        Op::Uncordon { node: node.as_str().into(), resource_version: node_seen.as_str().into(), reason: None },
        Op::ApproveMove {
            namespace: ns.as_str().into(), name: "chat".into(), uid: uid.as_str().into(),
            resource_version: rv.as_str().into(),
            uuid: "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab".into(),
            value: r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":"gpu-a","reason":"Fragmentation","requested_at":"2026-11-30T04:00:00Z","requested_by":"ome-top"}"#.into(),
            overrode: None,
        },
        Op::OptOut {
            namespace: ns.as_str().into(), name: "chat".into(), uid: uid.as_str().into(),
            resource_version: rv.as_str().into(), reason: "no".into(),
        },
        Op::OptIn {
            namespace: ns.as_str().into(), name: "chat".into(), uid: uid.as_str().into(),
            resource_version: rv.as_str().into(),
        },
        Op::ClearJournalEntry {
            namespace: ns.as_str().into(), uuid: uuid(6, 0), resource_version: cm_rv.as_str().into(),
            override_checks: true,
        },
    ];
    // The acting identity is admin; no other test runs meanwhile (`crate::alone`).
    audit_barrier(tc, &setup, "barrier-before").await;
    let from = std::fs::metadata(tc.audit_log_path()).unwrap().len() as usize;

    let actor = tc.client(Identity::Admin).await.unwrap();
    let mut read_only = ctx(&ns);
    read_only.read_only = Some("--readonly".into());
    for op in &ops {
        let out = execute(&actor, op, &read_only).await;
        let OpOutcome::Refused { message } = &out else {
            panic!("{out:?}")
        };
        assert!(message.contains("read-only (--readonly)"), "{message}");
    }
    let (cmd_tx, cmd_rx) = tokio::sync::mpsc::channel(8);
    let (upd_tx, mut upd_rx) = tokio::sync::mpsc::channel(8);
    let now = read_only.now;
    let worker = spawn_ops_worker(
        actor.clone(),
        read_only.clone(),
        move || now,
        cmd_rx,
        upd_tx,
    );
    for (id, op) in ops.iter().enumerate() {
        cmd_tx
            .send(Command {
                id: id as u64,
                op: op.clone(),
            })
            .await
            .unwrap();
        let Some(Update::OpDone { outcome, .. }) = upd_rx.recv().await else {
            panic!()
        };
        assert!(matches!(outcome, OpOutcome::Refused { .. }), "{outcome:?}");
    }
    drop(cmd_tx);
    worker.await.unwrap();

    audit_barrier(tc, &setup, "barrier-after-readonly").await;
    let seen_in_window = audit_events(tc, from, Identity::Admin.user());
    let mutating: Vec<_> = seen_in_window
        .iter()
        .filter(|(verb, _)| !matches!(verb.as_str(), "get" | "list" | "watch"))
        .collect();
    assert!(mutating.is_empty(), "read-only sent writes: {mutating:?}");
    let not_barrier: Vec<_> = seen_in_window
        .iter()
        .filter(|(_, uri)| !uri.contains("barrier-"))
        .collect();
    assert!(
        not_barrier.is_empty(),
        "read-only sent requests: {not_barrier:?}"
    );

    // Control: the same op without read-only is visible in the same log.
    let out = execute(&actor, &ops[0], &ctx(&ns)).await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    audit_barrier(tc, &setup, "barrier-after-control").await;
    let verbs: Vec<String> = audit_events(tc, from, Identity::Admin.user())
        .into_iter()
        .map(|(v, _)| v)
        .collect();
    assert!(verbs.iter().any(|v| v == "patch"), "{verbs:?}");
    assert!(verbs.iter().any(|v| v == "create"), "the Event: {verbs:?}");
}
