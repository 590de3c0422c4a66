//! Clear a stalled journal entry from the Journal view (`x`, `y`), first meeting a conflict:
//! Alfred (played by a second client) edits `alfred-dispatch-state` while the dialog is open,
//! so confirming says "changed since you looked" and writes nothing; the operator looks again
//! and confirms, and the second client sees exactly that entry gone from `state.json` with
//! every other byte, data key, label and annotation (its own edits included) kept.

use k8s_openapi::api::core::v1::ConfigMap;
use kube::api::{Api, Patch, PatchParams};
use serde_json::json;

use crate::fixtures::{ome_top_events, read_journal, state_of, uuid, uuids_of};
use crate::support::cluster::TestCluster;
use crate::support::tmux::Tmux;
use crate::world::{local_entry, seed};
use crate::{eventually, tui};

const JOURNAL: &str = "alfred-dispatch-state";
/// An annotation the other writer (Alfred) adds while the dialog is open.
const ALFRED_PASS: &str = "2026-11-30T07:00:00Z";

fn rv(cm: &ConfigMap) -> String {
    cm.metadata.resource_version.clone().unwrap()
}

fn open_clear_dialog(t: &Tmux, uuid: &str, rv: &str) -> String {
    tui::open_dialog_at(t, "x", &format!("Clear stalled entry {uuid}"), rv)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clear_a_stalled_entry_after_a_conflict() {
    let tc = TestCluster::shared();
    let world = seed(tc, "e2e-journal").await;
    let (admin, viewer) = (tc.admin_client().await, tc.viewer_client().await);
    let seen = read_journal(&admin, &world.ns).await;
    let before = state_of(&seen);
    let t = tui::start(tc, &world);
    // The UUID column shows a prefix only; the phase picks the one stalled entry.
    tui::open_view(&t, "4", "Journal [", "stalled");
    t.wait_for("AcknowledgementTimeout");

    let dialog = open_clear_dialog(&t, &world.stalled, &rv(&seen));
    assert!(
        dialog.contains(&format!(
            "remove entry {} from configmap/{}/{JOURNAL}",
            world.stalled, world.ns
        )),
        "{dialog}"
    );
    assert!(dialog.contains("[✓ met]"), "checks shown:\n{dialog}");
    assert!(!dialog.contains("not met"), "{dialog}");
    // Alfred's next pass touches the journal's ConfigMap while the operator reads the dialog.
    let alfred = json!({
        "metadata": {"labels": {"app.kubernetes.io/name": "ome-alfred"},
            "annotations": {"alfred.ome.io/last-pass": ALFRED_PASS}},
        "data": {"other-key": "changed by alfred"},
        "binaryData": {"blob": "AAEC"},
    });
    let api = Api::<ConfigMap>::namespaced(admin.clone(), &world.ns);
    let changed = api
        .patch(JOURNAL, &PatchParams::default(), &Patch::Merge(&alfred))
        .await
        .unwrap();
    t.keys("y");
    let pane = t.wait_for("changed since you looked");
    assert!(pane.contains("clear conflict"), "{pane}");
    let after_conflict = read_journal(&viewer, &world.ns).await;
    assert_eq!(rv(&after_conflict), rv(&changed), "nothing written");
    assert_eq!(state_of(&after_conflict), before);
    tui::wait_audit(&t, "clear-journal-entry", &world.ns, "conflict");

    open_clear_dialog(&t, &world.stalled, &rv(&changed));
    t.keys("y");
    let (ns, stalled) = (world.ns.as_str(), world.stalled.as_str());
    let cleared = eventually(&t, "saw the entry cleared", || async {
        let cm = read_journal(&viewer, ns).await;
        (!state_of(&cm).contains(stalled)).then_some(cm)
    })
    .await;
    assert_only_the_entry_went(&cleared, &before, ns, stalled);
    // The Event follows the write.
    let event = eventually(&t, "saw the clear Event", || async {
        let events = ome_top_events(&viewer, ns, JOURNAL).await;
        events
            .into_iter()
            .find(|e| e.reason.as_deref() == Some("OmeTopClearJournalEntry"))
    })
    .await;
    assert!(
        event.note.as_deref().unwrap().contains(stalled),
        "{event:?}"
    );
    tui::wait_audit(&t, "clear-journal-entry", ns, "done");
    t.keys("C-c");
}

/// `state.json` is the document before minus exactly the stalled entry (byte for byte: the
/// input is compact), and everything the other writer put in the ConfigMap is still there.
fn assert_only_the_entry_went(cleared: &ConfigMap, before: &str, ns: &str, stalled: &str) {
    let state = state_of(cleared);
    assert_eq!(uuids_of(&state), [uuid(7, 0), uuid(7, 2)]);
    let removed = local_entry(ns, stalled, "stalled", 2).to_string();
    assert_eq!(state, before.replacen(&format!("{removed},"), "", 1));
    let data = cleared.data.clone().unwrap();
    assert_eq!(data["other-key"], "changed by alfred");
    assert_eq!(cleared.binary_data.as_ref().unwrap()["blob"].0, [0, 1, 2]);
    let labels = cleared.metadata.labels.clone().unwrap();
    assert_eq!(labels["app.kubernetes.io/name"], "ome-alfred");
    let annotations = cleared.metadata.annotations.clone().unwrap();
    assert_eq!(annotations["helm.sh/resource-policy"], "keep");
    assert_eq!(annotations["alfred.ome.io/last-pass"], ALFRED_PASS);
}
