//! Approve a move from the Moves view and follow it. The seeded Instance needs two whole
//! nodes and one is free, so ome-top says the move cannot run (`NoSurgeHeadroom`, where
//! Alfred's pass only recommends it): the confirm dialog says so beside the pre-checks and
//! the throttling warning, refuses a plain `y`, and confirms only with the override (`o`, then
//! `y`). A change to the InferenceService while the dialog is open makes the confirm a
//! "changed since you looked" conflict that writes nothing; after looking again and
//! confirming, another client reads the migration request annotation Alfred's consumer would
//! parse, the Event and the audit row exist and both name the override; the test plays the
//! InferenceReplica controller (`status.migrations`, inferencereplica.md §1) through every
//! Manual phase and the move detail follows it to `Completed`, which a notice announces.

use chrono::{SecondsFormat, TimeDelta, Utc};
use kube::api::{Patch, PatchParams};
use ome_top::engine::migration::parse_request_annotation;
use serde_json::{json, Value};

use crate::fixtures::{isvc_api, ome_top_events};
use crate::support::cluster::TestCluster;
use crate::support::tmux::Tmux;
use crate::world::{ir_api, ir_status, seed, World, IR, ISVC};
use crate::{eventually, tui};

const KEY_PREFIX: &str = "ome.io/migration-request-v1-";

/// What the approval dialog must show: ome-top's verdict, every pre-check met, the change, the
/// warning, the override and the keys.
const DIALOG: [&str; 9] = [
    "ome-top: cannot run: no node in the pool has room for the Instance's surge copy (NoSurgeHeadroom)",
    "override: off — press o, then confirm, to go ahead anyway",
    "[✓ met]     the Instance is still Ready (2/2 pods ready)",
    "[✓ met]     no in-flight request for the workload (0 active)",
    "[✓ met]     the workload is not opted out",
    "[✓ met]     OMENative eligibility baseline",
    "⚠ a request counts against Alfred's in-flight cap (InFlightCap) and starts the workload's cooldown",
    "add annotation ome.io/migration-request-v1-",
    "y confirm",
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn approve_a_move_and_follow_it_to_completion() {
    let tc = TestCluster::shared();
    let world = seed(tc, "e2e-approve").await;
    let (from, hint) = (&world.nodes[0], &world.nodes[4]);
    let t = tui::start(tc, &world);
    tui::open_view(&t, "3", "Moves [", from);
    t.wait_for("engine/0");
    confirm_after_a_conflict(tc, &t, &world).await;

    let viewer = tc.viewer_client().await;
    let isvcs = isvc_api(&viewer, &world.ns);
    let (key, value) = eventually(&t, "saw the request annotation", || async {
        let annotations = isvcs.get(ISVC).await.ok()?.metadata.annotations?;
        annotations
            .into_iter()
            .find(|(k, _)| k.starts_with(KEY_PREFIX))
    })
    .await;
    // What Alfred's consumer reads from it (alfred.md §3.1).
    let request = parse_request_annotation(&key, &value).unwrap();
    assert_eq!(request.component.as_str(), "engine");
    assert_eq!(request.instance, 0);
    assert_eq!(request.from_node, *from);
    assert_eq!(request.hint_target_nodes, std::slice::from_ref(hint));
    assert!(request.requested_at.is_some(), "{value}");
    let fields: Value = serde_json::from_str(&value).unwrap();
    assert_eq!(fields["reason"], "Fragmentation");
    assert_eq!(fields["requested_by"], "ome-top");
    let uuid = request.uuid;
    // The Event follows the write.
    let event = eventually(&t, "saw the approve Event", || async {
        let events = ome_top_events(&viewer, &world.ns, ISVC).await;
        events
            .into_iter()
            .find(|e| e.reason.as_deref() == Some("OmeTopApproveMove"))
    })
    .await;
    let note = event.note.as_deref().unwrap();
    assert!(note.contains(&uuid), "{event:?}");
    assert!(note.contains("(override: NoSurgeHeadroom)"), "{event:?}");
    let audit = tui::wait_audit(&t, "approve-move", &world.workload(), "done");
    assert_eq!(
        audit.overrode.as_deref(),
        Some("NoSurgeHeadroom"),
        "{audit:?}"
    );

    follow_to_completion(tc, &t, &world.ns, &uuid, from).await;
    t.keys("Escape");
    t.wait_without("Progress");
    t.keys("C-c");
}

/// Opens the approval dialog: a plain `y` is refused, `o` arms the override; another writer
/// changes the InferenceService while the operator reads it, so `y` is a conflict that writes
/// nothing; the operator looks again (the dialog now holds the new resourceVersion), arms the
/// override again and confirms.
async fn confirm_after_a_conflict(tc: &TestCluster, t: &Tmux, world: &World) {
    let admin_isvcs = isvc_api(&tc.admin_client().await, &world.ns);
    let seen = admin_isvcs.get(ISVC).await.unwrap().metadata;
    let dialog = tui::open_dialog_at(t, "a", "Pre-checks for", &seen.resource_version.unwrap());
    for text in DIALOG {
        assert!(dialog.contains(text), "{text:?} missing:\n{dialog}");
    }
    assert!(!dialog.contains("not met"), "{dialog}");
    t.keys("y");
    t.wait_for("(press o to override)");
    t.keys("o");
    t.wait_for("override: ARMED");
    let label = json!({"metadata": {"labels": {"team": "search"}}});
    let changed = admin_isvcs
        .patch(ISVC, &PatchParams::default(), &Patch::Merge(&label))
        .await
        .unwrap();
    t.keys("y");
    t.wait_for(&format!(
        "approve conflict: changed since you looked: inferenceservice/{}",
        world.workload()
    ));
    let annotations = admin_isvcs.get(ISVC).await.unwrap().metadata.annotations;
    let written = annotations
        .unwrap()
        .into_keys()
        .any(|k| k.starts_with(KEY_PREFIX));
    assert!(!written, "a conflict wrote the request");
    let audit = tui::wait_audit(t, "approve-move", &world.workload(), "conflict");
    assert_eq!(
        audit.overrode.as_deref(),
        Some("NoSurgeHeadroom"),
        "{audit:?}"
    );
    let rv = changed.metadata.resource_version.unwrap();
    tui::open_dialog_at(t, "a", "Pre-checks for", &rv);
    t.keys("o");
    t.wait_for("override: ARMED");
    t.keys("y");
}

/// The InferenceReplica controller's record of the request in `phase`.
fn migration(uuid: &str, from: &str, phase: &str) -> Value {
    let started = Utc::now() - TimeDelta::seconds(5);
    let stamp = |t: chrono::DateTime<Utc>| t.to_rfc3339_opts(SecondsFormat::Secs, true);
    let mut row = json!({"requestUUID": uuid, "trigger": "Manual", "sourceInstance": 0,
        "fromNode": from, "phase": phase, "reason": "Fragmentation",
        "startedAt": stamp(started), "deadline": stamp(started + TimeDelta::minutes(30))});
    if phase != "Accepted" {
        row["surgeInstance"] = json!(2);
        row["allocatedAt"] = json!(stamp(started));
    }
    if phase == "Completed" {
        row["completedAt"] = json!(stamp(Utc::now()));
    }
    row
}

/// Opens the move detail: "requested here, waiting" until the controller records the request,
/// then each phase as the test writes it.
async fn follow_to_completion(tc: &TestCluster, t: &Tmux, ns: &str, uuid: &str, from: &str) {
    t.keys("Enter");
    let detail = t.wait_for("Progress");
    assert!(
        detail.contains(&format!(
            "★ {uuid} requested here: waiting for the IR to acknowledge"
        )),
        "{detail}"
    );
    let irs = ir_api(&tc.admin_client().await, ns);
    for phase in [
        "Accepted",
        "SurgePending",
        "SurgeReady",
        "Draining",
        "Completed",
    ] {
        let status = json!({"status": ir_status(json!([migration(uuid, from, phase)]))});
        irs.patch_status(IR, &PatchParams::default(), &Patch::Merge(&status))
            .await
            .unwrap();
        let pane = t.wait_for(&format!("phase {phase}"));
        assert!(pane.contains(&format!("★ {uuid}")), "{pane}");
        assert!(pane.contains("(requested here)"), "{pane}");
    }
    // The end is also announced, wherever the operator looks by then.
    let pane = t.wait_for("Completed (ended)");
    assert!(
        pane.contains(&format!("migration {uuid} of {ns}/{ISVC} engine/0")),
        "{pane}"
    );
}
