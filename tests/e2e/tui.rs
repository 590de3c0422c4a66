//! Driving `ome-top` live on a seeded namespace: start it in tmux, open a view filtered to
//! the test's objects, and read back what it recorded in its history store (the audit rows of
//! writes and dismissals) from a second connection while it runs.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use chrono::Utc;
use ome_top::history::audit::AuditEntry;
use ome_top::history::{ClusterKey, HistoryStore, StoreOptions};

use crate::support::cluster::TestCluster;
use crate::support::tmux::Tmux;
use crate::world::World;

/// Starts `ome-top` live on `world` (wide enough for every Moves column) and waits for data.
pub fn start(tc: &TestCluster, world: &World) -> Tmux {
    let t = Tmux::start(200, 50, &world.args(tc));
    t.wait_for("Pools [");
    t
}

/// Switches to the view of `key` (`3` Moves, `4` Journal) titled `title`, filtered to `text`.
pub fn open_view(t: &Tmux, key: &str, title: &str, text: &str) -> String {
    t.keys(key);
    t.wait_for(title);
    t.keys("/");
    t.type_text(text);
    t.keys("Enter");
    // The view's title shows the filter once applied (while typed it shows in the prompt).
    t.wait_for(&format!("] /{text} "))
}

/// The history file below the binary's private HOME (`None` before its first write).
fn history_file(home: &Path) -> Option<PathBuf> {
    let mut dirs = vec![home.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        for e in std::fs::read_dir(&dir).ok()?.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.file_name().is_some_and(|n| n == "history.sqlite3") {
                return Some(path);
            }
        }
    }
    None
}

/// The clusters the history store holds rows for, by key (`<server>#<context>` live).
pub fn history_clusters(t: &Tmux) -> Vec<ClusterKey> {
    let Some(path) = history_file(t.home()) else {
        return Vec::new();
    };
    #[allow(clippy::disallowed_methods)] // Only names a corrupt file moved aside.
    let now = Utc::now();
    let opened = HistoryStore::open_at(&path, StoreOptions::keep_everything(), now).unwrap();
    opened.store.clusters().unwrap()
}

/// Every audit row recorded so far, over all clusters in the store.
pub fn audit_rows(t: &Tmux) -> Vec<AuditEntry> {
    let Some(path) = history_file(t.home()) else {
        return Vec::new();
    };
    #[allow(clippy::disallowed_methods)] // Only names a corrupt file moved aside.
    let now = Utc::now();
    let opened = HistoryStore::open_at(&path, StoreOptions::keep_everything(), now).unwrap();
    let mut rows = Vec::new();
    for cluster in opened.store.clusters().unwrap() {
        rows.extend(opened.store.recent_audit(&cluster, 100).unwrap());
    }
    rows
}

/// Presses `key` until the dialog it opens (recognised by `marker`) was built from
/// resourceVersion `rv`: the feed may lag a change by a moment, and an operator who sees an
/// older version closes the dialog and looks again. Returns the dialog.
pub fn open_dialog_at(t: &Tmux, key: &str, marker: &str, rv: &str) -> String {
    let want = format!("resourceVersion {rv}");
    for _ in 0..20 {
        t.keys(key);
        let dialog = t.wait_for(marker);
        if dialog.contains(&want) {
            return dialog;
        }
        t.keys("Escape");
        t.wait_without(marker);
        std::thread::sleep(Duration::from_millis(300));
    }
    panic!("the dialog never showed {want:?}:\n{}", t.pane());
}

/// Waits (≤ 30 s) for an audit row with `action` and `result` (`done`, `conflict`, …) whose
/// object display contains `object`.
#[allow(clippy::disallowed_methods)] // A real process writes it: a monotonic deadline.
pub fn wait_audit(t: &Tmux, action: &str, object: &str, result: &str) -> AuditEntry {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        let rows = audit_rows(t);
        let found = rows.iter().find(|r| {
            r.action == action && r.result.as_str() == result && r.object.display().contains(object)
        });
        if let Some(row) = found {
            return row.clone();
        }
        assert!(
            Instant::now() < deadline,
            "no {action} audit row ({result}) about {object}: {rows:?}"
        );
        std::thread::sleep(Duration::from_millis(250));
    }
}
