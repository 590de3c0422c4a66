//! Reject moves from the Moves view (`r`): dismiss one locally with a reason (it leaves the
//! moves to act on for the closed "dismissed" group, the dismissal is audited and still holds
//! after ome-top restarts on the same history store), then opt the workload out through the other row (another client reads
//! `alfred.ome.io/movable: "false"` and the reason; an Event and an audit row record it).

use crate::fixtures::{isvc_api, ome_top_events};
use crate::support::cluster::TestCluster;
use crate::support::tmux::Tmux;
use crate::world::{seed, ISVC};
use crate::{eventually, tui};

const DISMISS_REASON: &str = "planned maintenance moves it anyway";
const OPT_OUT_REASON: &str = "latency-critical; no moves this quarter";

/// `r`, then `d` or `o`, then a reason typed into the prompt.
fn reject(t: &Tmux, choice: &str, reason: &str) {
    t.keys("r");
    t.wait_for("Reject the move of");
    t.keys(choice);
    t.wait_for("reason");
    t.type_text(reason);
    t.wait_for(reason);
    t.keys("Enter");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn dismiss_survives_a_restart_and_opt_out_reaches_the_cluster() {
    let tc = TestCluster::shared();
    let world = seed(tc, "e2e-reject").await;
    let t = tui::start(tc, &world);
    // Only Instance 0's row leaves nodes[0].
    tui::open_view(&t, "3", "Moves [", &world.nodes[0]);
    t.wait_for("engine/0");
    reject(&t, "d", DISMISS_REASON);
    t.wait_for(&format!("dismissed: {DISMISS_REASON}"));
    // The view is filtered, so every row is listed: the dismissed one says so.
    t.wait_for("dismissed by you ");
    let audit = tui::wait_audit(&t, "reject-move", &world.workload(), "done");
    assert!(audit.message.contains(DISMISS_REASON), "{audit:?}");

    t.restart(&world.args(tc));
    t.wait_for("Pools [");
    tui::open_view(&t, "3", "Moves [", &world.workload());
    t.wait_for("engine/1");
    // Restored from the history store with who dismissed it and why.
    let moves = t.wait_for("dismissed by ");
    assert!(
        moves
            .lines()
            .any(|l| l.contains("engine/0") && l.contains("dismissed by ")),
        "the dismissal did not survive a restart:\n{moves}"
    );

    reject(&t, "o", OPT_OUT_REASON);
    let dialog = t.wait_for(&format!("Opt {} out", world.workload()));
    assert!(
        dialog.contains("alfred.ome.io/movable = \"false\""),
        "{dialog}"
    );
    assert!(dialog.contains(OPT_OUT_REASON), "{dialog}");
    t.keys("y");
    let viewer = tc.viewer_client().await;
    let isvcs = isvc_api(&viewer, &world.ns);
    let annotations = eventually(&t, "saw the opt-out", || async {
        let a = isvcs.get(ISVC).await.ok()?.metadata.annotations?;
        (a.get("alfred.ome.io/movable").map(String::as_str) == Some("false")).then_some(a)
    })
    .await;
    assert_eq!(
        annotations["alfred.ome.io/opt-out-reason"], OPT_OUT_REASON,
        "{annotations:?}"
    );
    assert_eq!(
        annotations.len(),
        2,
        "nothing else written: {annotations:?}"
    );
    // The Event follows the write.
    let event = eventually(&t, "saw the opt-out Event", || async {
        let events = ome_top_events(&viewer, &world.ns, ISVC).await;
        events
            .into_iter()
            .find(|e| e.reason.as_deref() == Some("OmeTopOptOut"))
    })
    .await;
    assert!(
        event.note.as_deref().unwrap().contains(OPT_OUT_REASON),
        "{event:?}"
    );
    tui::wait_audit(&t, "opt-out-workload", &world.workload(), "done");
    t.keys("C-c");
}
