//! `:ctx` on the real control plane: the real binary in tmux with a kubeconfig of three
//! contexts — `prod` and `staging` on the test apiserver (admin), `broken` on a port nothing
//! listens on — and config.toml marking `staging` read-only. It starts on `prod`, switches to
//! `staging` and back, and the header's context and read-only state follow; a switch to
//! `broken` fails with a notice and stays on `prod`; the history store keys the switched-to
//! context's rows by its own cluster key. With `--readonly`, every context stays
//! read-only across switches.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use crate::support;

use std::path::{Path, PathBuf};

use support::cluster::{Identity, TestCluster};
use support::files::apiserver_ca_path;
use support::tmux::Tmux;

use crate::tui::history_clusters;
use ome_top::history::ClusterKey;

/// A kubeconfig whose contexts `prod` and `staging` both reach the harness as admin, and
/// `broken` a closed local port. Current: `prod`.
pub(crate) fn two_context_kubeconfig(tc: &TestCluster, dir: &Path) -> PathBuf {
    let path = dir.join("kubeconfig");
    let text = format!(
        "apiVersion: v1\nkind: Config\n\
         clusters:\n\
         - name: test\n  cluster:\n    server: {server}\n    certificate-authority: {ca}\n\
         - name: nowhere\n  cluster:\n    server: https://127.0.0.1:1\n    certificate-authority: {ca}\n\
         users:\n- name: admin\n  user:\n    token: {token}\n\
         contexts:\n\
         - name: prod\n  context:\n    cluster: test\n    user: admin\n\
         - name: staging\n  context:\n    cluster: test\n    user: admin\n\
         - name: broken\n  context:\n    cluster: nowhere\n    user: admin\n\
         current-context: prod\n",
        server = tc.server_url(),
        ca = apiserver_ca_path(tc.dir()).display(),
        token = Identity::Admin.token(),
    );
    std::fs::write(&path, text).unwrap();
    path
}

/// Opens the palette, types `line` and runs it.
fn palette(t: &Tmux, line: &str) {
    t.keys(":");
    t.wait_for("┌ Command palette");
    t.type_text(line);
    t.wait_for(&format!(":{line}"));
    t.keys("Enter");
    t.wait_without("┌ Command palette");
}

/// The header's first line.
fn header(t: &Tmux) -> String {
    t.pane().lines().next().unwrap_or_default().to_string()
}

fn start(tc: &TestCluster, extra: &str) -> (Tmux, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let kubeconfig = two_context_kubeconfig(tc, dir.path());
    let config = dir.path().join("config.toml");
    std::fs::write(&config, "[read-only]\nstaging = true\n").unwrap();
    let args = format!(
        "--kubeconfig {} --config {} {extra}",
        kubeconfig.display(),
        config.display()
    );
    (Tmux::start(160, 45, &args), dir)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctx_switches_between_contexts_and_the_header_follows() {
    let tc = TestCluster::shared();
    let (t, _dir) = start(tc, "");
    t.wait_for("│ ctx prod │ ✓ connected │ read-write │");
    // The list marks the current context and the read-only one.
    t.keys(":");
    t.wait_for("┌ Command palette");
    t.type_text("ctx ");
    let list = t.wait_for("ctx broken");
    assert!(
        list.contains("ctx prod") && list.contains("current"),
        "{list}"
    );
    let staging = list.lines().find(|l| l.contains("ctx staging")).unwrap();
    assert!(staging.contains("read-only"), "{list}");
    t.keys("Escape");
    t.wait_without("┌ Command palette");

    palette(&t, "ctx staging");
    let pane = t.wait_for(
        "│ ctx staging │ ✓ connected │ READ-ONLY (read-only for context staging (config.toml))",
    );
    assert!(!header(&t).contains("read-write"), "{pane}");
    t.wait_for("switched to context staging");
    // The history store records under the new context's key: `<server URL>#staging`.
    let staging = |k: &ClusterKey| {
        k.as_str().starts_with(tc.server_url()) && k.as_str().ends_with("#staging")
    };
    crate::eventually(&t, "a history key for staging", || {
        let found = history_clusters(&t).iter().any(staging);
        async move { found.then_some(()) }
    })
    .await;

    palette(&t, "ctx prod");
    t.wait_for("│ ctx prod │ ✓ connected │ read-write │");
    assert!(!header(&t).contains("READ-ONLY"), "{}", t.pane());

    // Nothing answers there: the notice says why and the session stays on prod.
    palette(&t, "ctx broken");
    let pane = t.wait_for("cannot switch to context broken");
    assert!(pane.contains("still on prod"), "{pane}");
    assert!(
        header(&t).contains("│ ctx prod │ ✓ connected │ read-write │"),
        "{pane}"
    );

    palette(&t, "ctx nope");
    t.wait_for("no context nope in the kubeconfig");
    palette(&t, "q");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while t.alive() {
        assert!(std::time::Instant::now() < deadline, "{}", t.pane());
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn readonly_from_the_command_line_holds_across_switches() {
    let tc = TestCluster::shared();
    let (t, _dir) = start(tc, "--readonly");
    t.wait_for("│ ctx prod │ ✓ connected │ READ-ONLY (read-only mode (--readonly))");
    palette(&t, "ctx staging");
    t.wait_for("│ ctx staging │ ✓ connected │ READ-ONLY (read-only mode (--readonly))");
    palette(&t, "ctx prod");
    t.wait_for("│ ctx prod │ ✓ connected │ READ-ONLY (read-only mode (--readonly))");
    assert!(!header(&t).contains("read-write"), "{}", t.pane());
}
