//! `ome-top analyze` end to end: the real binary on the shipped example snapshots and on bad
//! input (exit codes, one-line errors naming the object and field).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::Path;
use std::process::Output;

use serde_json::Value;

const NOW: &str = "2026-09-28T10:15:00Z";

fn ome_top(args: &[&str]) -> Output {
    crate::command::ome_top()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn analyze_json(snapshot: &str, extra: &[&str]) -> Value {
    let mut args = vec![
        "analyze",
        "--snapshot",
        snapshot,
        "--now",
        NOW,
        "-o",
        "json",
    ];
    args.extend_from_slice(extra);
    let out = ome_top(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn close(v: &Value, want: f64) {
    let got = v.as_f64().unwrap();
    assert!((got - want).abs() < 5e-5, "got {got}, want {want}");
}

fn write_temp(name: &str, text: &str) -> String {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path.display().to_string()
}

#[test]
fn worked_example_6_5_through_the_binary() {
    let doc = analyze_json("docs/examples/worked-example-6-5.json", &[]);
    assert_eq!(doc["generatedAt"], NOW);
    assert_eq!(doc["source"], "snapshot");
    let pool = &doc["pools"][0];
    assert_eq!(pool["name"], "NVIDIA-H100-80GB-HBM3");
    assert_eq!(pool["freeGpus"], 13);
    assert_eq!(pool["totalGpus"], 24);
    close(&pool["observed"], 0.7145);
    close(&pool["best"], 0.2720);
    close(&pool["reclaimable"], 0.4425);
    close(&pool["score"], 0.4425);
    assert_eq!(pool["aboveThreshold"], true);
    let sizes = pool["sizes"].as_array().unwrap();
    let slots: Vec<(u64, u64)> = sizes
        .iter()
        .map(|s| {
            (
                s["slotsObserved"].as_u64().unwrap(),
                s["slotsBest"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(slots, vec![(13, 13), (6, 6), (2, 3), (0, 1)]);
    close(&sizes[0]["weight"], 0.2209);
    close(&sizes[1]["weight"], 0.03);
    close(&sizes[2]["weight"], 0.06);
    close(&sizes[3]["weight"], 0.6891);
}

#[test]
fn default_install_scores_zero() {
    let doc = analyze_json(
        "docs/examples/worked-example-6-5.json",
        &["--executor", "unavailable"],
    );
    let pool = &doc["pools"][0];
    close(&pool["observed"], 0.7145);
    assert_eq!(pool["best"], pool["observed"]);
    assert_eq!(pool["reclaimable"].as_f64(), Some(0.0));
    assert_eq!(pool["score"].as_f64(), Some(0.0));
}

fn node<'a>(doc: &'a Value, name: &str) -> &'a Value {
    doc["nodes"]
        .as_array()
        .unwrap()
        .iter()
        .find(|n| n["name"] == name)
        .unwrap()
}

#[test]
fn mixed_nodes_health_maintenance_and_exclusions() {
    let doc = analyze_json("docs/examples/mixed-fleet.json", &[]);
    assert_eq!(node(&doc, "h100-01")["health"], "Clear");
    assert_eq!(node(&doc, "h100-04")["health"], "Unhealthy");
    let suspect = node(&doc, "h100-05");
    assert_eq!(suspect["health"], "Suspect");
    assert_eq!(suspect["suspectUntil"], "2026-09-28T10:28:10Z");
    assert_eq!(node(&doc, "h100-06")["health"], "Unknown");
    assert_eq!(
        node(&doc, "h100-07")["maintenanceTriggers"][0],
        "os-patching"
    );
    assert_eq!(
        node(&doc, "h100-08")["maintenanceTriggers"][0],
        "hardware-swap"
    );
    assert_eq!(node(&doc, "h100-09")["cordoned"], true);
    assert_eq!(node(&doc, "h100-10")["preemptible"], true);
    assert_eq!(
        node(&doc, "h100-10")["excludedAsTarget"],
        false,
        "spot is not an exclusion"
    );
    for excluded in [
        "h100-04", "h100-05", "h100-06", "h100-07", "h100-08", "h100-09", "h100-11",
    ] {
        assert_eq!(node(&doc, excluded)["excludedAsTarget"], true, "{excluded}");
    }
    assert_eq!(node(&doc, "a100-01")["pool"], "A100-40G", "shape table");
    assert_eq!(
        node(&doc, "gaudi-01")["pool"],
        "gaudi2-8x",
        "raw shape kept"
    );
    assert_eq!(node(&doc, "cpu-01")["pool"], Value::Null);
    let names: Vec<&str> = doc["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        vec!["A100-40G", "NVIDIA-H100-80GB-HBM3", "gaudi2-8x"]
    );
    let h100 = &doc["pools"][1];
    // Bins: h100-01 (2 GPUs used by chat, 4 by llm → 2 free), h100-02 (6), h100-03 (8−4−3 = 1);
    // h100-10 is spot and h100-04..09, 11 are excluded, so they are not bins.
    assert_eq!(h100["freeGpus"], 9);
    assert_eq!(h100["freeGpusAllNodes"], 9 + 6 + 4 + 8 * 5 + 8);
    assert_eq!(h100["wholeFreeNodes"], 0);
    let warnings = doc["warnings"].as_array().unwrap();
    assert!(warnings
        .iter()
        .any(|w| w.as_str().unwrap().contains("Deployment")));
}

#[test]
fn bad_input_exits_2_with_a_one_line_error() {
    let cases = [
        ("not-yaml.yaml", "this is { not json or yaml: [", "snapshot is not valid YAML: "),
        ("not-json.json", "{\"kind\": \"List\", \"items\": [1,,2]}", "snapshot is not valid JSON: "),
        ("empty.json", "", "snapshot file is empty"),
        ("not-a-list.json", r#"{"apiVersion":"v1","kind":"Node","metadata":{"name":"a"}}"#, "not a Kubernetes List"),
        (
            "bad-quantity.json",
            r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"Node","metadata":{"name":"gpu-a"},
               "status":{"allocatable":{"nvidia.com/gpu":"eight"}}}]}"#,
            "Node gpu-a: status.allocatable[nvidia.com/gpu]: \"eight\" is not a Kubernetes quantity",
        ),
        (
            "bad-type.json",
            r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","namespace":"x"},
               "spec":{"containers":"oops"}}]}"#,
            "Pod x/p: spec.containers",
        ),
        (
            "no-name.json",
            r#"{"kind":"List","items":[{"apiVersion":"ome.io/v1beta1","kind":"InferenceService","metadata":{}}]}"#,
            "metadata.name: missing",
        ),
    ];
    for (file, text, want) in cases {
        let path = write_temp(file, text);
        let out = ome_top(&["analyze", "--snapshot", &path, "--now", NOW]);
        assert_eq!(out.status.code(), Some(2), "{file}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(want), "{file}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{file}: {err}");
        assert!(out.stdout.is_empty());
    }
    let out = ome_top(&["analyze", "--snapshot", "/nonexistent/file.json"]);
    assert_eq!(out.status.code(), Some(2));
    let out = ome_top(&[
        "analyze",
        "--snapshot",
        "docs/examples/mixed-fleet.json",
        "--now",
        "yesterday",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn yaml_snapshots_and_unknown_kinds() {
    let yaml = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: gpu-a\n    labels:\n      nvidia.com/gpu.product: H100\n  status:\n    allocatable:\n      nvidia.com/gpu: \"8\"\n- apiVersion: v1\n  kind: Secret\n  metadata:\n    name: s\n";
    let path = write_temp("fleet.yaml", yaml);
    let doc = analyze_json(&path, &[]);
    assert_eq!(doc["pools"][0]["name"], "H100");
    assert_eq!(doc["pools"][0]["wholeFreeNodes"], 1);
    assert!(doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().contains("Secret")));
}

#[test]
fn an_invalid_alfred_config_falls_back_to_defaults_with_a_warning() {
    let text = r#"{"kind":"List","items":[{"apiVersion":"v1","kind":"ConfigMap",
        "metadata":{"name":"alfred-config","namespace":"ome"},
        "data":{"config.yaml":"schemaVersion: 1\npolicies:\n  defragmentation:\n    fragmentationThreshold: 1.5\n"}}]}"#;
    let path = write_temp("bad-config.json", text);
    let doc = analyze_json(&path, &[]);
    assert_eq!(
        doc["config"]["policies"]["defragmentation"]["fragmentationThreshold"],
        0.25
    );
    let warnings = doc["warnings"].as_array().unwrap();
    assert!(
        warnings.iter().any(|w| w
            .as_str()
            .unwrap()
            .contains("policies.defragmentation.fragmentationThreshold")),
        "{warnings:?}"
    );
}

#[test]
fn table_output_is_the_default() {
    let out = ome_top(&[
        "analyze",
        "--snapshot",
        "docs/examples/mixed-fleet.json",
        "--now",
        NOW,
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("POOL"));
    assert!(text.contains("h100-04"));
}

#[test]
fn pending_pressure_on_the_worked_example() {
    // A pending 8-GPU pod, unschedulable for 30 minutes (τ = 30): u = 1 − e^−1; slots(8) is 0
    // now and 1 after the repack, so it counts.
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/worked-example-6-5.json"),
        )
        .unwrap(),
    )
    .unwrap();
    doc["items"].as_array_mut().unwrap().push(serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "big-1", "namespace": "prod", "creationTimestamp": "2026-09-28T09:40:00Z"},
        "spec": {"containers": [{"name": "m", "resources": {"limits": {"nvidia.com/gpu": "8"}}}]},
        "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False",
            "lastTransitionTime": "2026-09-28T09:45:00Z"}]}
    }));
    let path = write_temp("pending.json", &doc.to_string());
    let out = analyze_json(&path, &[]);
    let pool = &out["pools"][0];
    let u = 1.0 - (-1.0f64).exp();
    close(&pool["pendingPressure"], u);
    // The pending pod is demand too, so the weights (and F values) change: recompute S from
    // the reported parts.
    let r = pool["reclaimable"].as_f64().unwrap();
    close(&pool["score"], 1.0 - (1.0 - r) * (1.0 - u));
}

#[test]
fn alfred_rows_beside_computed_rows_with_disagreements_flagged() {
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/examples/worked-example-6-5.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let cycle = serde_json::json!({
        "timestamp": "2026-09-28T10:14:02.418093721Z", "mode": "execute",
        "recommendations": [
            {"workload": "prod/gamma", "component": "engine", "instance": 0,
             "policy": "defragmentation", "reason": "Fragmentation", "outcome": "withheld",
             "fromNode": "gpu-b", "target": "gpu-a", "hintTargets": ["gpu-a"], "score": 0.2925,
             "dispatchStatus": "withheld", "dispatchReason": "SerialDispatchLimit"},
            {"workload": "prod/alpha", "component": "engine", "instance": 0,
             "policy": "defragmentation", "reason": "Fragmentation", "outcome": "advisory",
             "advisoryReason": "NoSurgeHeadroom", "fromNode": "gpu-a", "score": 0,
             "futureField": {"kept": true}}
        ]
    });
    doc["items"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!({
            "apiVersion": "v1", "kind": "ConfigMap",
            "metadata": {"name": "alfred-recommendations", "namespace": "ome"},
            "data": {"last-cycle.json": cycle.to_string()}
        }));
    let path = write_temp("with-recommendations.json", &doc.to_string());
    let out = analyze_json(&path, &[]);
    let moves = out["moves"].as_array().unwrap();
    let alfred: Vec<&Value> = moves.iter().filter(|m| m["source"] == "alfred").collect();
    assert_eq!(alfred.len(), 2);
    assert_eq!(alfred[0]["workload"], "prod/gamma");
    assert!(moves
        .iter()
        .any(|m| m["source"] == "computed" && m["workload"] == "prod/gamma"));
    let warnings: Vec<&str> = out["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w.as_str().unwrap())
        .collect();
    assert!(
        warnings
            .iter()
            .any(|w| w.contains("prod/alpha") && w.contains("NoSurgeHeadroom")),
        "{warnings:?}"
    );
    assert!(warnings
        .iter()
        .any(|w| w.contains("only ome-top computes") && w.contains("prod/beta")));
    assert_eq!(out["journal"]["present"], true);
    assert_eq!(out["journal"]["blockedReason"], Value::Null);
}

/// `analyze -o table` says what the pool map says: per pool its free GPUs and those its
/// excluded nodes hold, and per pending size how many pods, the oldest wait, room now and
/// after the repack, in the map's words.
#[test]
fn the_table_answers_where_pending_pods_fit() {
    let out = ome_top(&[
        "analyze",
        "--snapshot",
        "docs/examples/mixed-fleet.json",
        "--now",
        NOW,
        "-o",
        "table",
    ]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let at = |start: &str| lines.iter().position(|l| l.starts_with(start)).unwrap();
    let h100 = at("NVIDIA-H100-80GB-HBM3: ");
    assert_eq!(
        lines[h100],
        "NVIDIA-H100-80GB-HBM3: 9 GPUs free, +50 on excluded nodes, +8 on spot nodes Alfred avoids",
        "{text}"
    );
    let cells = |l: &str| {
        l.split("  ")
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .map(str::to_owned)
            .collect::<Vec<_>>()
    };
    assert_eq!(
        cells(lines[h100 + 1]),
        [
            "SIZE",
            "PODS",
            "OLDEST",
            "ROOM NOW",
            "AFTER REPACK",
            "ANSWER"
        ]
    );
    assert_eq!(
        cells(lines[h100 + 2]),
        ["8 GPUs", "1", "44m", "0", "0", "no room, even after repack"]
    );
    assert_eq!(
        cells(lines[h100 + 3]),
        ["4 GPUs", "1", "5m", "1", "1", "room for 1 now"]
    );
    let worked = ome_top(&[
        "analyze",
        "--snapshot",
        "docs/examples/worked-example-6-5.json",
        "--now",
        NOW,
    ]);
    let text = String::from_utf8(worked.stdout).unwrap();
    assert!(
        text.contains("NVIDIA-H100-80GB-HBM3: 13 GPUs free\n  no pending GPU pods\n"),
        "{text}"
    );
}

/// Without `--now`, a snapshot is aged by the newest time it holds, as the TUI ages it: the
/// same answer whenever it is read.
#[test]
fn a_snapshot_is_aged_by_its_own_newest_time() {
    let file = "docs/examples/mixed-fleet.json";
    let run = |extra: &[&str]| {
        let mut args = vec!["analyze", "--snapshot", file, "-o", "json"];
        args.extend_from_slice(extra);
        let out = ome_top(&args);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        serde_json::from_slice::<Value>(&out.stdout).unwrap()
    };
    let own = run(&[]);
    let at = own["generatedAt"].as_str().unwrap().to_string();
    assert!(
        at.starts_with("2026-09-28T"),
        "the snapshot's time, not the clock's: {at}"
    );
    assert_eq!(
        own,
        run(&["--now", &at]),
        "the same as --now at its newest time"
    );
    let later = run(&["--now", "2026-10-28T10:00:00Z"]);
    assert_eq!(
        later["generatedAt"], "2026-10-28T10:00:00Z",
        "--now overrides"
    );
}

/// `ome-top analyze | head -1`: a reader that stops early ends the command quietly.
#[test]
fn a_reader_that_stops_early_ends_analyze_quietly() {
    for format in ["table", "json"] {
        let mut child = crate::command::ome_top()
            .args([
                "analyze",
                "--snapshot",
                "docs/examples/mixed-fleet.json",
                "-o",
                format,
            ])
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{format}: {stderr}");
        assert!(
            stderr.is_empty(),
            "{format}: nothing said about the pipe: {stderr}"
        );
    }
}
