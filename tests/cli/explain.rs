//! `ome-top explain POD` end to end: the real binary on the shipped snapshots, as a table and
//! as JSON (one `pending[]` entry of `analyze -o json`, with the per-node verdicts), and its
//! one-line errors.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::process::Output;

use serde_json::Value;

const NOW: &str = "2026-09-28T10:15:00Z";
const GPU16: &str = "tests/fixtures/k8s/ome-samples/gpu16-pending.json";
const MIXED: &str = "docs/examples/mixed-fleet.json";

fn ome_top(args: &[&str]) -> Output {
    crate::command::ome_top()
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap()
}

fn explain(snapshot: &str, pod: &str, output: &str) -> Output {
    ome_top(&[
        "explain",
        pod,
        "--snapshot",
        snapshot,
        "--now",
        NOW,
        "-o",
        output,
    ])
}

#[test]
fn a_pod_larger_than_every_node_is_refused_for_its_shape_with_no_plan() {
    let pod = "llama-4-maverick-17b-128e-instruct/llama-4-maverick-17b-128e-instruct-engine-6c9d8b7f5-p8vzk";
    let out = explain(GPU16, pod, "json");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(doc["gpus"], 16);
    assert_eq!(doc["explain"]["fits"], false);
    assert_eq!(doc["explain"]["groups"][0]["verdict"], "gpuShape");
    assert_eq!(doc["explain"]["groups"][0]["nodes"], 2);
    assert_eq!(doc["explain"]["nodes"].as_array().unwrap().len(), 2);
    assert_eq!(doc["plan"]["status"], "noPlan");
    assert_eq!(doc["plan"]["reason"], "tooFewGpus");
    let table = explain(GPU16, pod, "table");
    let text = String::from_utf8(table.stdout).unwrap();
    assert!(
        text.contains("node has too few GPUs of that kind"),
        "{text}"
    );
    assert!(
        text.contains("no plan: no node of the pool could hold it even empty"),
        "{text}"
    );
}

#[test]
fn the_explanation_is_the_same_as_analyzes_pending_entry() {
    let out = ome_top(&["analyze", "--snapshot", MIXED, "--now", NOW, "-o", "json"]);
    let doc: Value = serde_json::from_slice(&out.stdout).unwrap();
    let entry = doc["pending"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "big-engine-0")
        .unwrap()
        .clone();
    let out = explain(MIXED, "prod/big-engine-0", "json");
    let mut one: Value = serde_json::from_slice(&out.stdout).unwrap();
    let nodes = one["explain"]
        .as_object_mut()
        .unwrap()
        .remove("nodes")
        .unwrap();
    assert_eq!(one, entry, "explain adds only the per-node verdicts");
    let verdicts: Vec<&str> = nodes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["verdict"].as_str().unwrap())
        .collect();
    assert!(
        verdicts.contains(&"cordoned") && verdicts.contains(&"taint"),
        "{verdicts:?}"
    );
    assert_eq!(entry["plan"]["status"], "fitsNow");
}

#[test]
fn an_unknown_or_running_pod_is_a_one_line_error() {
    let out = explain(MIXED, "nope/nothing", "table");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no pod or gang nope/nothing"), "{err}");
}
