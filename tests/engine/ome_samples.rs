//! Today's OME in the tests (issue 28 item 5): snapshots built from real objects of the public
//! OME repository (github.com/sgl-project/ome, `config/samples/isvc/…`, their
//! ClusterServingRuntimes in `config/runtimes/srt/…`), with the pods OME's controller would
//! create for them, labelled as it labels them (`components/base.go` `ProcessBaseLabels`:
//! `ome.io/inferenceservice`, `component`, `serving-runtime`, …; Deployments' `app`; the
//! LeaderWorkerSet controller's `leaderworkerset.sigs.k8s.io/*`), on GPU nodes named and
//! labelled the way OCI, AWS and GKE label them. Each fixture's `analyze -o json` is pinned
//! (`snapshots/engine__ome_samples__NAME.json.snap`) and its key facts asserted.
//!
//! Fixtures (`tests/fixtures/k8s/ome-samples/`):
//! - `raw-deployment.json`: `meta/llama-3-1-8b-instruct` (1 GPU) and `meta/llama-3-1-70b-instruct`
//!   (4 GPUs), Deployment-owned pods, on two OCI `BM.GPU.H100.8` nodes, one without GPU
//!   feature discovery's product label.
//! - `multinode-lws.json`: `deepseek-ai/deepseek-r1` as shipped (runtime `srt-deepseek-rdma`,
//!   leader + 1 worker, 8 GPUs each; the ISVC itself says nothing of leader or worker) and a
//!   service in the shape OME documents for MultiNode (`engine.worker.size: 1`), both run by
//!   LeaderWorkerSets, no InferenceReplica, on AWS `p5.48xlarge`.
//! - `pd-disaggregated.json`: `deepseek-ai/deepseek-v3-pd` (runtime `srt-deepseek-rdma-pd`,
//!   engine and decoder each leader + 1 worker, router) on three GKE `a3-highgpu-8g` nodes: the
//!   decoder's worker is Pending.
//! - `gpu16-pending.json`: `meta/llama-4-maverick-17b-128e-instruct`, whose runtime asks 16 GPUs
//!   in one pod, Pending on two empty 8-GPU OCI nodes.
//!
//! Re-bless: `INSTA_UPDATE=always cargo test --test engine ome_samples`, then read the diff.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use serde_json::Value;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::report::json::{analysis_json, Source};

/// `analyze --snapshot tests/fixtures/k8s/ome-samples/FILE -o json` at 2026-09-28 10:15 UTC,
/// pinned as `NAME.json`; returns the document for the explicit checks.
fn analyzed(file: &str, name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/k8s/ome-samples")
        .join(file);
    let bytes = std::fs::read(&path).unwrap();
    let (snap, _) = read_snapshot(&bytes).unwrap();
    let opts = AnalysisOptions {
        now: Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let analysis = analyze(&snap, &opts);
    let doc = analysis_json(&snap, &analysis, Source::Snapshot, &[]);
    insta::assert_snapshot!(
        format!("{name}.json"),
        serde_json::to_string_pretty(&doc).unwrap()
    );
    doc
}

#[test]
fn raw_deployment() {
    let _doc = analyzed("raw-deployment.json", "raw-deployment");
}

#[test]
fn multinode_lws() {
    let _doc = analyzed("multinode-lws.json", "multinode-lws");
}

#[test]
fn pd_disaggregated() {
    let _doc = analyzed("pd-disaggregated.json", "pd-disaggregated");
}

#[test]
fn gpu16_pending() {
    let _doc = analyzed("gpu16-pending.json", "gpu16-pending");
}
