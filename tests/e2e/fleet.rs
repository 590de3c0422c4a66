//! `ome-top fleet` on the real control plane: the real binary in tmux with a kubeconfig of
//! three contexts — `prod` and `staging` on the test apiserver (admin), `broken` on a port
//! nothing listens on — and config.toml marking `staging` read-only. The Fleet view shows every
//! context at once (the broken one first, with its error and next try, without holding the
//! others back); Enter on staging's row opens its own views (read-only, as `[read-only]`
//! says, and the header says the fleet is watched), Esc comes back to the fleet, and Enter on
//! prod opens it writable.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use support::cluster::TestCluster;
use support::tmux::Tmux;

use crate::switch_context::two_context_kubeconfig;

/// Filters the Fleet view to `context`'s rows and opens the first.
fn open_row(t: &Tmux, context: &str) {
    t.keys("/");
    t.type_text(context);
    t.keys("Enter");
    t.wait_for(&format!("/{context}"));
    t.keys("Enter");
}

#[test]
fn fleet_view_then_enter_into_one_cluster_and_esc_back() {
    let tc = TestCluster::shared();
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = two_context_kubeconfig(tc, dir.path());
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[read-only]\nstaging = true\n").unwrap();
    let args = format!(
        "--config {} fleet --kubeconfig {}",
        config.display(),
        kubeconfig.display()
    );
    let t = Tmux::start(160, 45, &args);
    t.wait_for("fleet of 3 contexts, all watched");
    // Both reachable contexts connect while the broken one still fails.
    let pane = t.wait_for("2/3 connected");
    assert!(pane.contains("[7 Fleet]"), "{pane}");
    let pane = t.wait_for("next try");
    // Most urgent first: the selection starts on the broken context's row.
    let first_row = pane.lines().find(|l| l.contains('▶')).unwrap_or_default();
    assert!(first_row.contains("▶broken"), "{pane}");
    assert!(first_row.contains("unreachable"), "{pane}");
    assert!(
        pane.contains("│ prod ") && pane.contains("│ staging "),
        "{pane}"
    );
    assert!(pane.contains("Where a request fits"), "{pane}");

    open_row(&t, "staging");
    let pane = t.wait_for("ctx staging (fleet of 3 watched)");
    assert!(
        pane.contains("READ-ONLY (read-only for context staging (config.toml))"),
        "{pane}"
    );
    assert!(pane.contains("[1 Pools]"), "{pane}");
    t.wait_for("esc: back to the fleet");

    t.keys("Escape");
    let pane = t.wait_for("shown: ctx staging");
    assert!(pane.contains("[7 Fleet]"), "{pane}");
    t.keys("Escape"); // clears the filter
    t.wait_without("/staging");

    open_row(&t, "prod");
    let pane = t.wait_for("ctx prod (fleet of 3 watched)");
    assert!(pane.contains("│ read-write │"), "{pane}");
    t.keys("Escape");
    t.wait_for("shown: ctx prod");
    t.keys("C-c");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while t.alive() {
        assert!(std::time::Instant::now() < deadline, "{}", t.pane());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
