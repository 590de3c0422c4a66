//! Approve a move, opt out and back in, on real InferenceServices: the annotations another client reads,
//! the Events, and conflicts when the object changed (or was re-created) since it was seen.

use kube::api::{Patch, PatchParams};
use ome_top::cluster::ops::execute;
use ome_top::protocol::{Op, OpOutcome};
use serde_json::json;

use crate::fixtures::{create_isvc, ctx, isvc_api, ome_top_events, seen};
use crate::support::cluster::TestCluster;

const UUID: &str = "3f1c2d4e-9a7b-4c1d-8e2f-0123456789ab";
pub const VALUE: &str = concat!(
    r#"{"schemaVersion":"v1","component":"engine","instance":0,"from_node":"gpu-a","#,
    r#""hint_target_nodes":["gpu-c"],"reason":"Fragmentation","#,
    r#""requested_at":"2026-11-30T04:00:00Z","requested_by":"ome-top"}"#
);

pub fn approve(ns: &str, name: &str, uid: &str, rv: &str) -> Op {
    Op::ApproveMove {
        namespace: ns.into(),
        name: name.into(),
        uid: uid.into(),
        resource_version: rv.into(),
        uuid: UUID.into(),
        value: VALUE.into(),
        overrode: None,
    }
}

pub fn opt_out(ns: &str, name: &str, uid: &str, rv: &str) -> Op {
    Op::OptOut {
        namespace: ns.into(),
        name: name.into(),
        uid: uid.into(),
        resource_version: rv.into(),
        reason: "batch workload; moves cost a warm-up".into(),
    }
}

#[tokio::test]
async fn approve_move_writes_the_request_annotation_seen_by_another_client() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-approve").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let created = create_isvc(&admin, &ns, "chat", None).await;
    let (uid, rv) = seen(&created);
    let out = execute(&admin, &approve(&ns, "chat", &uid, &rv), &ctx("alfred")).await;
    let OpOutcome::Done {
        resource_version, ..
    } = &out
    else {
        panic!("{out:?}")
    };
    let after = isvc_api(&viewer, &ns).get("chat").await.unwrap();
    assert_eq!(after.metadata.resource_version, *resource_version);
    let annotations = after.metadata.annotations.unwrap();
    let key = format!("ome.io/migration-request-v1-{UUID}");
    assert_eq!(annotations.get(&key).map(String::as_str), Some(VALUE));
    assert_eq!(annotations.len(), 1);
    let events = ome_top_events(&viewer, &ns, "chat").await;
    let ev = events
        .iter()
        .find(|e| e.reason.as_deref() == Some("OmeTopApproveMove"))
        .expect("an approve Event");
    assert!(ev.note.as_deref().unwrap().contains(UUID));
    assert_eq!(
        ev.regarding.as_ref().unwrap().uid.as_deref(),
        Some(uid.as_str())
    );
}

#[tokio::test]
async fn opt_out_adds_both_annotations_and_keeps_the_others() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-optout").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let existing = json!({"team": "search", "alfred.ome.io/movable": "true"});
    let created = create_isvc(&admin, &ns, "chat", Some(existing)).await;
    let (uid, rv) = seen(&created);
    let out = execute(&admin, &opt_out(&ns, "chat", &uid, &rv), &ctx("alfred")).await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    let annotations = isvc_api(&viewer, &ns)
        .get("chat")
        .await
        .unwrap()
        .metadata
        .annotations
        .unwrap();
    assert_eq!(annotations["alfred.ome.io/movable"], "false");
    assert_eq!(
        annotations["alfred.ome.io/opt-out-reason"],
        "batch workload; moves cost a warm-up"
    );
    assert_eq!(annotations["team"], "search");
    let events = ome_top_events(&viewer, &ns, "chat").await;
    assert!(events
        .iter()
        .any(|e| e.reason.as_deref() == Some("OmeTopOptOut")));
}

pub fn opt_in(ns: &str, name: &str, uid: &str, rv: &str) -> Op {
    Op::OptIn {
        namespace: ns.into(),
        name: name.into(),
        uid: uid.into(),
        resource_version: rv.into(),
    }
}

#[tokio::test]
async fn opt_in_removes_both_opt_out_annotations_and_keeps_the_others() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-optin").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let existing = json!({
        "team": "search",
        "alfred.ome.io/movable": "false",
        "alfred.ome.io/opt-out-reason": "latency-critical",
    });
    let created = create_isvc(&admin, &ns, "chat", Some(existing)).await;
    let (uid, rv) = seen(&created);
    let out = execute(&admin, &opt_in(&ns, "chat", &uid, &rv), &ctx("alfred")).await;
    let OpOutcome::Done {
        resource_version, ..
    } = &out
    else {
        panic!("{out:?}")
    };
    let after = isvc_api(&viewer, &ns).get("chat").await.unwrap();
    let annotations = after.metadata.annotations.clone().unwrap();
    assert_eq!(
        annotations.keys().collect::<Vec<_>>(),
        ["team"],
        "only the opt-out went"
    );
    let events = ome_top_events(&viewer, &ns, "chat").await;
    assert!(events
        .iter()
        .any(|e| e.reason.as_deref() == Some("OmeTopOptIn")));
    // Opted in already: refused, nothing written (the resourceVersion stays).
    let rv_now = resource_version.clone().unwrap();
    let again = execute(&admin, &opt_in(&ns, "chat", &uid, &rv_now), &ctx("alfred")).await;
    assert!(matches!(again, OpOutcome::Refused { .. }), "{again:?}");
    let still = isvc_api(&viewer, &ns).get("chat").await.unwrap();
    assert_eq!(still.metadata.resource_version, Some(rv_now));
    // Seen before the opt-in: a conflict, not a write.
    let stale = execute(&admin, &opt_in(&ns, "chat", &uid, &rv), &ctx("alfred")).await;
    assert!(matches!(stale, OpOutcome::Conflict { .. }), "{stale:?}");
}

#[tokio::test]
async fn isvc_ops_conflict_when_the_object_changed_since_seen() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-isvc-cas").await;
    let admin = tc.admin_client().await;
    let other = tc.admin_client().await;
    let api = isvc_api(&other, &ns);
    for (i, make) in [approve, opt_out].into_iter().enumerate() {
        let name = format!("chat-{i}");
        let (uid, rv) = seen(&create_isvc(&admin, &ns, &name, None).await);
        let label = json!({"metadata": {"labels": {"touched": "yes"}}});
        api.patch(&name, &PatchParams::default(), &Patch::Merge(&label))
            .await
            .unwrap();
        let now_rv = api
            .get(&name)
            .await
            .unwrap()
            .metadata
            .resource_version
            .unwrap();
        let out = execute(&admin, &make(&ns, &name, &uid, &rv), &ctx("alfred")).await;
        let OpOutcome::Conflict { message } = &out else {
            panic!("{out:?}")
        };
        let want = format!(
            "changed since you looked: inferenceservice/{ns}/{name} is at resourceVersion {now_rv} now"
        );
        assert!(message.starts_with(&want), "{message}");
        let annotations = api.get(&name).await.unwrap().metadata.annotations;
        assert!(annotations.is_none(), "nothing written: {annotations:?}");

        // Deleted and created again under the same name: a different object.
        api.delete(&name, &Default::default()).await.unwrap();
        let (_, new_rv) = seen(&create_isvc(&admin, &ns, &name, None).await);
        let out = execute(&admin, &make(&ns, &name, &uid, &new_rv), &ctx("alfred")).await;
        let OpOutcome::Conflict { message } = &out else {
            panic!("{out:?}")
        };
        assert!(message.contains("deleted and created again"), "{message}");
    }
}
