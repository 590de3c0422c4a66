//! Hostile snapshot files through the binary: ConfigMaps that exist but cannot be read are
//! warnings, objects break Kubernetes' identity rules with exit 2 naming the item, duplicates
//! are one object, deep nesting is refused naming the format.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::process::Output;

use serde_json::{json, Value};

const NOW: &str = "2026-09-28T10:15:00Z";
const FLEET: &str = include_str!("../../docs/examples/mixed-fleet.json");

fn ome_top(args: &[&str]) -> Output {
    crate::command::ome_top()
        .args(args)
        .env("OME_TOP_LOG", "off")
        .output()
        .unwrap()
}

fn write(name: &str, doc: &str) -> String {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, doc).unwrap();
    path.display().to_string()
}

fn fleet_with(extra: Vec<Value>) -> String {
    let mut doc: Value = serde_json::from_str(FLEET).unwrap();
    doc["items"].as_array_mut().unwrap().extend(extra);
    doc.to_string()
}

fn warnings(name: &str, doc: &str) -> Vec<String> {
    let out = ome_top(&[
        "analyze",
        "--snapshot",
        &write(name, doc),
        "--now",
        NOW,
        "-o",
        "json",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

fn recommendations(last_cycle: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "alfred-recommendations", "namespace": "ome"},
        "data": {"last-cycle.json": last_cycle, "node.h100-04": "{\"conditions\": "}})
}

#[test]
fn unreadable_recommendations_are_warnings() {
    for (last_cycle, why) in [
        (
            r#"{"timestamp": "2026-09-28T10:14:00Z", "recommendations": [{"wor"#,
            "not valid JSON: EOF while parsing",
        ),
        ("[]", "JSON is an array, not an object"),
    ] {
        let w = warnings("recs.json", &fleet_with(vec![recommendations(last_cycle)]));
        let want = format!("recommendations unreadable: last-cycle.json: {why}");
        let found = w.iter().find(|w| w.starts_with(&want));
        assert!(
            found.is_some_and(|w| w.ends_with("; showing computed moves only")),
            "{w:?}"
        );
        assert!(
            w.iter().any(|w| w.starts_with(
                "alfred-recommendations node record unreadable: node.h100-04: not valid JSON"
            )),
            "{w:?}"
        );
    }
}

#[test]
fn an_unreadable_scheduler_config_and_journal_are_warnings() {
    let cms = vec![
        json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "ome-scheduler-config", "namespace": "ome"},
            "data": {"config.yaml": "profiles: [\n"}}),
        json!({"apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "alfred-dispatch-state", "namespace": "ome"},
            "data": {"state.json": "{\"version\": "}}),
    ];
    let w = warnings("sched.json", &fleet_with(cms));
    assert!(
        w.iter().any(|w| w.starts_with("ome-scheduler-config: ")),
        "{w:?}"
    );
    assert!(
        w.iter().any(|w| w.starts_with("journal unreadable: ")),
        "{w:?}"
    );
}

fn refused(name: &str, doc: &str) -> String {
    let out = ome_top(&["analyze", "--snapshot", &write(name, doc), "--now", NOW]);
    assert_eq!(out.status.code(), Some(2), "{name}");
    assert!(out.stdout.is_empty());
    let err = String::from_utf8_lossy(&out.stderr).trim_end().to_string();
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

#[test]
fn identity_rules_exit_2_naming_the_item_and_kind() {
    let nameless = fleet_with(vec![
        json!({"apiVersion": "v1", "kind": "Node", "metadata": {}}),
    ]);
    let err = refused("nameless.json", &nameless);
    assert!(
        err.ends_with("items[34] (Node): metadata.name: missing; every Node has a name"),
        "{err}"
    );
    let isvc = fleet_with(vec![
        json!({"apiVersion": "ome.io/v1beta1", "kind": "InferenceService",
        "metadata": {"name": "x", "namespace": "prod"}, "spec": "RawDeployment"}),
    ]);
    assert!(refused("isvc.json", &isvc)
        .ends_with("InferenceService prod/x: spec: a string, not an object"));
    let pod = fleet_with(vec![json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "p", "namespace": "prod"}, "spec": null})]);
    assert!(refused("pod.json", &pod).ends_with("Pod prod/p: spec: null, not an object"));
}

#[test]
fn a_node_listed_twice_is_one_node() {
    let doc: Value = serde_json::from_str(FLEET).unwrap();
    let node = doc["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["kind"] == "Node")
        .unwrap()
        .clone();
    let name = node["metadata"]["name"].as_str().unwrap().to_string();
    let path = write("twice.json", &fleet_with(vec![node]));
    let out = ome_top(&["analyze", "--snapshot", &path, "--now", NOW, "-o", "json"]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let once = write("once.json", FLEET);
    let base: Value = serde_json::from_slice(
        &ome_top(&["analyze", "--snapshot", &once, "--now", NOW, "-o", "json"]).stdout,
    )
    .unwrap();
    assert_eq!(
        v["nodes"].as_array().unwrap().len(),
        base["nodes"].as_array().unwrap().len()
    );
    assert_eq!(v["pools"], base["pools"]);
    let w: Vec<&str> = v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        w.iter().any(|w| w.starts_with(&format!(
            "1 duplicate Node object(s) (same namespace and name: {name})"
        ))),
        "{w:?}"
    );
}

#[test]
fn deep_nesting_is_refused_naming_the_format() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let json_doc = format!(
        r#"{{"kind":"List","items":[{{"apiVersion":"v1","kind":"ConfigMap","data":{{"a":{deep}}}}}]}}"#
    );
    let err = refused("deep.json", &json_doc);
    assert!(
        err.contains("snapshot is not valid JSON: items[0]: recursion limit exceeded"),
        "{err}"
    );
    let err = refused("deep.yaml", &format!("kind: List\nitems: {deep}\n"));
    assert!(
        err.contains("snapshot is not valid YAML: ") && err.contains("line 2"),
        "{err}"
    );
}

#[test]
fn demo_arguments_are_checked_before_anything_starts() {
    for (args, want) in [
        (
            ["--speed", "nan"],
            "invalid value 'nan' for '--speed <SPEED>': sim seconds per wall second",
        ),
        (["--speed", "inf"], "invalid value 'inf' for '--speed"),
        (["--speed", "0"], "invalid value '0' for '--speed"),
        (["--speed", "1e308"], "invalid value '1e308' for '--speed"),
        (["--speed", "-1"], "invalid value '-1' for '--speed"),
        (
            ["--nodes", "0"],
            "invalid value '0' for '--nodes <NODES>': a whole number of GPU nodes from 40 to 2000",
        ),
        (["--nodes", "2001"], "invalid value '2001' for '--nodes"),
    ] {
        let out = ome_top(&["demo", args[0], args[1]]);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{args:?}: {err}");
    }
}

/// Every reader of what Alfred, the scheduler and the user write refuses nesting past its
/// bound instead of recursing into it: the journal, `last-cycle.json`, node records,
/// alfred-config, the scheduler's configuration, the TUI's TOML files.
#[test]
fn every_reader_bounds_its_nesting() {
    use ome_top::engine::alfred_config::effective_alfred_config;
    use ome_top::engine::journal::parse_journal;
    use ome_top::engine::recommendations::parse_recommendations;

    let n = 100_000;
    let arrays = "[".repeat(n) + &"]".repeat(n);
    let journal = format!(r#"{{"version":"v1","entries":{arrays}}}"#);
    let e = parse_journal(journal.as_bytes()).unwrap_err().to_string();
    assert!(e.contains("nested deeper than 64"), "{e}");
    let mut cm = std::collections::BTreeMap::new();
    cm.insert("last-cycle.json".to_string(), arrays.clone());
    cm.insert("node.gpu-1".to_string(), arrays.clone());
    let r = parse_recommendations(&cm);
    let cycle = r.last_cycle.unwrap().unwrap_err().to_string();
    assert!(cycle.contains("recursion limit exceeded"), "{cycle}");
    assert!(r.nodes[0]
        .record
        .as_ref()
        .unwrap_err()
        .to_string()
        .contains("recursion limit"));
    let (_, e) = effective_alfred_config(Some(&format!("schemaVersion: 1\nmode: {arrays}\n")));
    assert!(e.unwrap().to_string().contains("line 2"), "alfred-config");
    let sched = fleet_with(vec![json!({"apiVersion": "v1", "kind": "ConfigMap",
        "metadata": {"name": "ome-scheduler-config", "namespace": "ome"},
        "data": {"config.yaml": format!("profiles: {arrays}\n")}})]);
    let w = warnings("deep-sched.json", &sched);
    assert!(
        w.iter()
            .any(|w| w.starts_with("ome-scheduler-config: ") && w.contains("line 1")),
        "{w:?}"
    );
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("hostile-toml");
    std::fs::create_dir_all(&dir).unwrap();
    let config = dir.join("config.toml");
    std::fs::write(&config, format!("theme = {arrays}\n")).unwrap();
    let out = ome_top(&["--config", config.to_str().unwrap(), "demo"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("max recursion depth") && err.contains("config.toml"),
        "{err}"
    );
}
