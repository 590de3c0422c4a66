//! Clearing a stalled journal entry on a real ConfigMap: exactly that entry goes, everything else
//! stays; a changed ConfigMap is a conflict; non-stalled entries, unreadable documents and other
//! namespaces are refused without a write.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use ome_top::cluster::ops::execute;
use ome_top::engine::journal::parse_journal;
use ome_top::protocol::{Op, OpOutcome};
use serde_json::json;

use crate::fixtures::{
    create_journal, ctx, entry, journal, message, ome_top_events, read_journal, state_of, uuid,
    uuids_of,
};
use crate::support::cluster::TestCluster;

pub fn clear(ns: &str, uuid: &str, rv: &str) -> Op {
    Op::ClearJournalEntry {
        namespace: ns.into(),
        uuid: uuid.into(),
        resource_version: rv.into(),
        override_checks: false,
    }
}

fn rv_of(cm: &ConfigMap) -> String {
    cm.metadata.resource_version.clone().unwrap()
}

#[tokio::test]
async fn clearing_removes_exactly_one_stalled_entry() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-journal").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let entries = vec![
        entry(&uuid(1, 0), "submitted", 1),
        entry(&uuid(1, 1), "stalled", 2),
        entry(&uuid(1, 2), "stalled", 3),
    ];
    let before = journal(entries);
    let created = create_journal(&admin, &ns, &before).await;
    let out = execute(
        &admin,
        &clear(&ns, &uuid(1, 1), &rv_of(&created)),
        &ctx(&ns),
    )
    .await;
    assert!(matches!(out, OpOutcome::Done { .. }), "{out:?}");
    let after = read_journal(&viewer, &ns).await;
    let state = state_of(&after);
    assert_eq!(uuids_of(&state), [uuid(1, 0), uuid(1, 2)]);
    parse_journal(state.as_bytes()).expect("still strictly valid");
    // Byte for byte: the input is compact, so the output is it minus the entry and a comma.
    let removed = entry(&uuid(1, 1), "stalled", 2).to_string();
    assert_eq!(state, before.replacen(&format!("{removed},"), "", 1));
    let data = after.data.unwrap();
    assert_eq!(data["other-key"], "kept");
    let annotations = after.metadata.annotations.unwrap();
    assert_eq!(annotations["helm.sh/resource-policy"], "keep");
    let events = ome_top_events(&viewer, &ns, "alfred-dispatch-state").await;
    let ev = events
        .iter()
        .find(|e| e.reason.as_deref() == Some("OmeTopClearJournalEntry"))
        .expect("a clear Event");
    assert!(ev.note.as_deref().unwrap().contains(&uuid(1, 1)));
}

#[tokio::test]
async fn a_changed_journal_is_a_conflict_and_bad_requests_are_refused() {
    let tc = TestCluster::shared();
    let ns = tc.fresh_namespace("ops-journal-cas").await;
    let admin = tc.admin_client().await;
    let api = Api::<ConfigMap>::namespaced(tc.admin_client().await, &ns);
    let entries = vec![
        entry(&uuid(2, 0), "submitted", 1),
        entry(&uuid(2, 1), "stalled", 2),
    ];
    let looked = rv_of(&create_journal(&admin, &ns, &journal(entries)).await);

    let touch = json!({"data": {"other-key": "changed"}});
    api.patch(
        "alfred-dispatch-state",
        &PatchParams::default(),
        &Patch::Merge(&touch),
    )
    .await
    .unwrap();
    let now = rv_of(&read_journal(&admin, &ns).await);
    let out = execute(&admin, &clear(&ns, &uuid(2, 1), &looked), &ctx(&ns)).await;
    let OpOutcome::Conflict { message: said } = &out else {
        panic!("{out:?}")
    };
    let want = format!(
        "changed since you looked: configmap/{ns}/alfred-dispatch-state is at resourceVersion {now} now"
    );
    assert!(said.starts_with(&want), "{said}");

    let refusals = [
        (clear(&ns, &uuid(2, 0), &now), "not stalled"),
        (clear(&ns, &uuid(2, 9), &now), "no journal entry"),
        (clear("elsewhere", &uuid(2, 1), &now), "Alfred's namespace"),
    ];
    for (op, why) in refusals {
        let out = execute(&admin, &op, &ctx(&ns)).await;
        assert!(matches!(out, OpOutcome::Refused { .. }), "{out:?}");
        assert!(message(&out).contains(why), "{out:?}");
    }
    // A document Alfred's strict reader rejects (unknown field) is never edited.
    let bad = journal(vec![entry(&uuid(2, 1), "stalled", 2)]).replacen(
        "\"phase\"",
        "\"x\":1,\"phase\"",
        1,
    );
    let patch = json!({"data": {"state.json": bad}});
    api.patch(
        "alfred-dispatch-state",
        &PatchParams::default(),
        &Patch::Merge(&patch),
    )
    .await
    .unwrap();
    let rv = rv_of(&read_journal(&admin, &ns).await);
    let out = execute(&admin, &clear(&ns, &uuid(2, 1), &rv), &ctx(&ns)).await;
    assert!(message(&out).contains("strict reader"), "{out:?}");
    let after = read_journal(&admin, &ns).await;
    assert_eq!(rv_of(&after), rv, "nothing written");
    assert_eq!(state_of(&after), bad);
}
