//! The history store across processes and through the binary: two OS processes writing one
//! file at once keep it intact with every row present, and `ome-top history` prints a node's
//! episodes and audit rows, any object's audit rows and the health answers (table and JSON)
//! from a store filled through the library;
//! a dismissal's content hash follows what the operator judged.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::Path;
use std::process::{Command, Output, Stdio};

use serde_json::{json, Value};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::Time;
use ome_top::history::audit::{AuditEntry, AuditResult, ObjectRef};
use ome_top::history::schema::SCHEMA_VERSION;
use ome_top::history::{ClusterKey, HistoryStore, StoreOptions};

const CHILD_DB: &str = "OME_TOP_HISTORY_CHILD_DB";
const CHILD_ID: &str = "OME_TOP_HISTORY_CHILD_ID";
/// Audit rows and observations written by each child.
const ROWS: usize = 300;
const OBSERVATIONS: usize = 60;

fn t(s: &str) -> Time {
    s.parse().unwrap()
}

fn node_json(name: &str, gpu_unhealthy: bool, cordoned: bool) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": name, "uid": format!("uid-{name}"), "resourceVersion": "1",
                     "labels": {"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}},
        "spec": {"unschedulable": cordoned},
        "status": {
            "allocatable": {"cpu": "96", "memory": "1Ti", "nvidia.com/gpu": "8"},
            "conditions": [{"type": "GpuUnhealthy",
                            "status": if gpu_unhealthy { "True" } else { "False" },
                            "lastTransitionTime": "2026-09-01T00:00:00Z"}]
        }
    })
}

/// Records the observation of `nodes` at `now`; returns the rows written.
fn observe(store: &mut HistoryStore, key: &ClusterKey, nodes: Vec<Value>, now: Time) -> usize {
    let doc = json!({"apiVersion": "v1", "kind": "List", "items": nodes});
    let (snap, _) = read_snapshot(doc.to_string().as_bytes()).unwrap();
    let analysis = analyze(
        &snap,
        &AnalysisOptions {
            now,
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
            instance_types: Default::default(),
        },
    );
    store
        .record_observation(key, &analysis, &snap, now)
        .unwrap()
}

fn audit(at: Time, actor: &str, action: &str, node: &str, message: &str) -> AuditEntry {
    AuditEntry {
        at,
        actor: actor.into(),
        action: action.into(),
        object: ObjectRef::node(node),
        rv_before: Some("100".into()),
        rv_after: Some("101".into()),
        result: AuditResult::Done,
        message: message.into(),
        overrode: None,
        reason: None,
    }
}

/// The writer of each child process of `two_processes_writing_at_once_keep_the_db_intact`
/// (the parent passes the file and the writer id in the environment). Run directly, it is one
/// writer on a fresh file whose every row must read back.
#[test]
fn child_writer() {
    if let (Ok(db), Ok(id)) = (std::env::var(CHILD_DB), std::env::var(CHILD_ID)) {
        write_rows(&db, &id);
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    write_rows(db.to_str().unwrap(), "solo");
    let conn = rusqlite::Connection::open(&db).unwrap();
    let rows: i64 = conn
        .query_row("SELECT COUNT(*) FROM audit_log", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, ROWS as i64);
}

fn write_rows(db: &str, id: &str) {
    let id = id.to_string();
    let start = t("2026-09-28T10:00:00Z");
    let mut store = HistoryStore::open_at(Path::new(&db), StoreOptions::default(), start)
        .unwrap()
        .store;
    let key = ClusterKey::demo(42);
    let own = format!("gpu-{id}");
    for i in 0..ROWS {
        let at = start + chrono::Duration::milliseconds(i as i64);
        let message = format!("writer {id} row {i}");
        store
            .record_audit(&key, &audit(at, &id, "cordon-node", &own, &message))
            .unwrap();
        if i < OBSERVATIONS {
            // The own node flips every time; the shared node never changes.
            let nodes = vec![
                node_json(&own, i % 2 == 1, false),
                node_json("shared", false, false),
            ];
            observe(&mut store, &key, nodes, at);
        }
    }
}

fn spawn_writer(db: &Path, id: &str) -> std::process::Child {
    Command::new(std::env::current_exe().unwrap())
        // The test's name in this binary (`cli`): its module path below the crate.
        .args(["--exact", "history::child_writer", "--quiet"])
        .env(CHILD_DB, db)
        .env(CHILD_ID, id)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

#[test]
fn two_processes_writing_at_once_keep_the_db_intact() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("history.sqlite3");
    // Both create and migrate the same fresh file, then write concurrently.
    let children = [spawn_writer(&db, "a"), spawn_writer(&db, "b")];
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "a writer failed: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let conn = rusqlite::Connection::open(&db).unwrap();
    let integrity: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .unwrap();
    assert_eq!(integrity, "ok");
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
    for id in ["a", "b"] {
        let messages: i64 = conn
            .query_row(
                "SELECT count(DISTINCT message) FROM audit_log WHERE actor = ?1",
                [id],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(messages, ROWS as i64, "audit rows of writer {id}");
        let transitions: i64 = conn
            .query_row(
                "SELECT count(*) FROM node_transitions WHERE node = ?1",
                [format!("gpu-{id}")],
                |r| r.get(0),
            )
            .unwrap();
        assert_eq!(transitions, OBSERVATIONS as i64, "every flip of gpu-{id}");
    }
    let shared: i64 = conn
        .query_row(
            "SELECT count(*) FROM node_transitions WHERE node = 'shared'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(shared, 1, "the unchanged shared node is recorded once");
    let clusters: i64 = conn
        .query_row("SELECT count(*) FROM clusters", [], |r| r.get(0))
        .unwrap();
    assert_eq!(clusters, 1);
}

fn ome_top(args: &[&str]) -> Output {
    crate::command::ome_top().args(args).output().unwrap()
}

/// A store with gpu-a Clear → Unhealthy → cordoned in one cluster, a cordon audit row, and
/// one row in a second cluster.
fn filled_store(db: &Path) {
    let mut store = HistoryStore::open_at(db, StoreOptions::default(), t("2026-09-28T10:00:00Z"))
        .unwrap()
        .store;
    let prod = ClusterKey::live("https://10.0.0.1:6443", "prod");
    let steps = [
        ("2026-09-28T10:00:00Z", false, false),
        ("2026-09-28T10:05:00Z", true, false),
        ("2026-09-28T10:06:30Z", true, true),
    ];
    for (at, unhealthy, cordoned) in steps {
        let nodes = vec![
            node_json("gpu-a", unhealthy, cordoned),
            node_json("gpu-b", false, false),
        ];
        observe(&mut store, &prod, nodes, t(at));
    }
    let at = t("2026-09-28T10:06:30Z");
    let mut entry = audit(
        at,
        "alice@example.com",
        "cordon-node",
        "gpu-a",
        "cordoned: GPU errors",
    );
    entry.reason = Some("GPU errors".into());
    store.record_audit(&prod, &entry).unwrap();
    let demo = ClusterKey::demo(7);
    observe(
        &mut store,
        &demo,
        vec![node_json("gpu-a", false, false)],
        at,
    );
}

fn run_ok(args: &[&str]) -> String {
    let out = ome_top(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

fn cells(line: &str) -> Vec<String> {
    line.split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(str::to_owned)
        .collect()
}

const NOW: &str = "2026-09-28T11:00:00Z";

#[test]
fn history_command_prints_episodes_and_audit_rows() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    filled_store(&db);
    let db_arg = db.to_str().unwrap();
    let cluster = "https://10.0.0.1:6443#prod";
    let base = ["history", "gpu-a", "--db", db_arg, "--now", NOW, "--utc"];
    let text = run_ok(&[&base[..], &["--cluster", cluster]].concat());
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("cluster: {cluster}"));
    assert_eq!(
        cells(lines[1]),
        ["EPISODE", "FROM", "TO", "DURATION", "REASON", "SOURCE"]
    );
    // The condition says True since 09-01, before ome-top saw the node Clear at 10:00: the
    // episode starts when ome-top saw the change.
    assert_eq!(
        cells(lines[2]),
        [
            "Unhealthy",
            "since 2026-09-28 10:05:00",
            "-",
            "55m so far",
            "GpuUnhealthy=True",
            "ome-top"
        ]
    );
    assert_eq!(
        cells(lines[3]),
        [
            "cordoned",
            "since 2026-09-28 10:06:30",
            "-",
            "53m so far",
            "GPU errors",
            "ome-top"
        ]
    );
    assert_eq!(lines[5], "audit:");
    assert_eq!(
        cells(lines[7]),
        [
            "2026-09-28 10:06:30",
            "alice@example.com",
            "cordon-node",
            "done",
            "100→101",
            "GPU errors",
            "cordoned: GPU errors"
        ]
    );
    assert!(!text.contains("demo:7"), "--cluster filters: {text}");
    let only = run_ok(&[&base[..], &["--cluster", cluster, "--state", "cordoned"]].concat());
    assert!(
        only.contains("cordoned") && !only.contains("Unhealthy"),
        "{only}"
    );

    let out = run_ok(&[&base[..], &["-o", "json"]].concat());
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["node"], "gpu-a");
    let clusters = doc["clusters"].as_array().unwrap();
    let keys: Vec<&str> = clusters
        .iter()
        .map(|c| c["cluster"].as_str().unwrap())
        .collect();
    assert_eq!(keys, ["demo:7", cluster], "every cluster, sorted by key");
    let prod = &clusters[1];
    assert_eq!(
        prod["episodes"][0],
        json!({"state": "Unhealthy", "trigger": null, "from": "2026-09-28T10:05:00Z",
               "fromSource": "observed", "to": null, "toSource": null, "open": true,
               "durationSeconds": 3300, "suspectUntil": null, "reason": "GpuUnhealthy=True"})
    );
    assert_eq!(prod["episodes"][1]["state"], "Cordoned");
    assert_eq!(
        prod["episodes"][1]["reason"], "GPU errors",
        "the cordon's reason, from the audit row"
    );
    assert_eq!(prod["lastObserved"], "2026-09-28T10:06:30Z");
    let states: Vec<&str> = prod["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["Clear", "Unhealthy", "Unhealthy"]);
    assert_eq!(prod["transitions"][2]["cordoned"], true);
    assert_eq!(prod["transitions"][1]["maintenanceTriggers"], json!([]));
    assert_eq!(prod["audit"][0]["resourceVersionAfter"], "101");
    assert_eq!(
        prod["audit"][0]["reason"], "GPU errors",
        "the operator's reason"
    );
    assert_eq!(prod["audit"][0]["object"], "Node/gpu-a");
    assert_eq!(clusters[0]["audit"], json!([]));
    assert_eq!(clusters[0]["episodes"], json!([]));
}

#[test]
fn history_command_prints_any_objects_audit_and_the_health_answers() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    filled_store(&db);
    let prod = ClusterKey::live("https://10.0.0.1:6443", "prod");
    let mut store = HistoryStore::open_at(&db, StoreOptions::default(), t(NOW))
        .unwrap()
        .store;
    let mut entry = audit(
        t("2026-09-28T10:30:00Z"),
        "bob",
        "approve-move",
        "x",
        "approved",
    );
    entry.object = ObjectRef {
        kind: "InferenceService".into(),
        namespace: "prod".into(),
        name: "chat".into(),
    };
    store.record_audit(&prod, &entry).unwrap();
    drop(store);
    let db_arg = db.to_str().unwrap();
    let base = ["--db", db_arg, "--now", NOW, "--utc"];
    let text = run_ok(&[&["history", "isvc/prod/chat"][..], &base].concat());
    assert!(text.contains("InferenceService prod/chat"), "{text}");
    assert!(
        text.contains("bob") && text.contains("approve-move"),
        "{text}"
    );
    let none = run_ok(&[&["history", "isvc/staging/chat"][..], &base].concat());
    assert!(
        none.starts_with("no history for InferenceService staging/chat"),
        "{none}"
    );
    let doc: Value = serde_json::from_str(&run_ok(
        &[
            &["history", "InferenceService/chat", "-o", "json"][..],
            &base,
        ]
        .concat(),
    ))
    .unwrap();
    assert_eq!(doc["clusters"][0]["audit"][0]["actor"], "bob");

    // Every node's episodes and the answers, of one state, since a time.
    let text = run_ok(
        &[
            &["history", "--state", "Unhealthy", "--since", "2h"][..],
            &base,
        ]
        .concat(),
    );
    assert!(text.contains("node health, last 7d:"), "{text}");
    assert!(
        text.contains("flapping (more than 3 health episodes): none"),
        "{text}"
    );
    let lines: Vec<&str> = text.lines().collect();
    let gpu_a = lines.iter().find(|l| l.starts_with("gpu-a")).unwrap();
    assert_eq!(
        cells(gpu_a)[..4],
        [
            "gpu-a",
            "NVIDIA-H100-80GB-HBM3",
            "Unhealthy",
            "since 2026-09-28 10:05:00"
        ]
    );
    assert!(!text.contains("cordoned"), "--state filters: {text}");
    let doc: Value = serde_json::from_str(&run_ok(
        &[
            &[
                "history",
                "-o",
                "json",
                "--flaps",
                "0",
                "--cluster",
                prod.as_str(),
            ][..],
            &base,
        ]
        .concat(),
    ))
    .unwrap();
    let health = &doc["clusters"][0]["health"];
    assert_eq!(
        health["flapping"],
        json!([{"node": "gpu-a", "pool": "NVIDIA-H100-80GB-HBM3", "episodes": 1}])
    );
    assert_eq!(
        health["pools"],
        json!([{"pool": "NVIDIA-H100-80GB-HBM3", "repairs": 0, "meanTimeToRepairSeconds": null, "open": 1}])
    );
    let bad = ome_top(&[&["history", "gpu-a", "--pool", "x"][..], &base].concat());
    assert_eq!(bad.status.code(), Some(2));
    let bad = ome_top(&[&["history", "--state", "broken"][..], &base].concat());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("one of Unhealthy"));
}

/// Two runs of the demo of one seed keep their rows apart, each marked by its start, and the
/// reasons the operator wrote are printed with the audit rows (table and JSON).
#[test]
fn history_command_shows_each_demo_run_and_the_reasons() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    let mut store = HistoryStore::open_at(&db, StoreOptions::default(), t(NOW))
        .unwrap()
        .store;
    let runs = [
        (t("2026-09-28T09:00:00Z"), "cordon-node", Some("bad fan")),
        (t("2026-09-28T10:00:00Z"), "uncordon-node", None),
    ];
    for (started, action, reason) in runs {
        let key = ClusterKey::demo_run(1, started);
        let mut entry = audit(started, "demo", action, "gpu-a", "done");
        entry.reason = reason.map(str::to_string);
        store.record_audit(&key, &entry).unwrap();
    }
    drop(store);
    let db_arg = db.to_str().unwrap();
    let base = ["--db", db_arg, "--now", NOW, "--utc"];
    let text = run_ok(&[&["history", "gpu-a"][..], &base].concat());
    assert!(
        text.contains(
            "cluster: demo:1@20260928T090000Z (demo seed 1, the run started 2026-09-28 09:00:00)"
        ),
        "{text}"
    );
    assert!(
        text.contains("(demo seed 1, the run started 2026-09-28 10:00:00)"),
        "{text}"
    );
    let rows: Vec<Vec<String>> = text
        .lines()
        .filter(|l| l.starts_with("2026-"))
        .map(cells)
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert_eq!(
        rows[0][2..],
        ["cordon-node", "done", "100→101", "bad fan", "done"]
    );
    assert_eq!(
        rows[1][2..],
        ["uncordon-node", "done", "100→101", "-", "done"]
    );
    let doc: Value = serde_json::from_str(&run_ok(
        &[&["history", "gpu-a", "-o", "json"][..], &base].concat(),
    ))
    .unwrap();
    let clusters = doc["clusters"].as_array().unwrap();
    assert_eq!(
        clusters[0]["demoRun"],
        json!({"seed": 1, "started": "2026-09-28T09:00:00Z"})
    );
    assert_eq!(clusters[0]["audit"][0]["reason"], "bad fan");
    assert_eq!(clusters[1]["audit"][0]["reason"], Value::Null);
}

#[test]
fn history_command_on_a_missing_file_creates_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("none.sqlite3");
    let out = ome_top(&["history", "gpu-a", "--db", db.to_str().unwrap()]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("no history for node gpu-a in "), "{text}");
    assert!(!db.exists());
}

#[test]
fn history_command_refuses_a_newer_schema() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("future.sqlite3");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(&format!("PRAGMA user_version = {}", SCHEMA_VERSION + 5))
        .unwrap();
    drop(conn);
    let out = ome_top(&["history", "gpu-a", "--db", db.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("newer than this ome-top"), "{err}");
    assert!(
        err.contains(db.to_str().unwrap()),
        "the message names the file: {err}"
    );
}

#[test]
fn history_command_reports_a_corrupt_file_moved_aside() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("bad.sqlite3");
    std::fs::write(&db, "not a database at all ".repeat(200)).unwrap();
    let db_arg = db.to_str().unwrap();
    let out = ome_top(&[
        "history",
        "gpu-a",
        "--db",
        db_arg,
        "--now",
        "2026-09-28T10:00:00Z",
    ]);
    assert!(out.status.success());
    let err = String::from_utf8(out.stderr).unwrap();
    let aside = format!("{db_arg}.corrupt-20260928T100000Z");
    assert!(err.contains("moved aside") && err.contains(&aside), "{err}");
    assert!(Path::new(&aside).exists());
}

#[test]
fn history_piped_into_a_reader_that_stops_early_ends_quietly() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    filled_store(&db);
    let db_arg = db.to_str().unwrap();
    // `| head -0`: the reader is gone before the first line is written.
    let mut child = crate::command::ome_top()
        .args(["history", "--db", db_arg, "--now", NOW, "--utc"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.is_empty(), "nothing said about the pipe: {stderr}");
}

#[test]
fn history_of_every_node_names_each_cordon_by_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("h.sqlite3");
    filled_store(&db);
    let db_arg = db.to_str().unwrap();
    let base = ["--db", db_arg, "--now", NOW, "--utc"];
    // Every node's cordons say why, as the audit row the operator wrote says.
    let text = run_ok(&[&["history", "--state", "cordoned"][..], &base].concat());
    let gpu_a = text.lines().find(|l| l.starts_with("gpu-a")).unwrap();
    assert!(
        gpu_a.contains("cordoned") && gpu_a.contains("GPU errors"),
        "{text}"
    );
}
