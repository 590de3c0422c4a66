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

/// One component as the analysis reads it: `ns/name component mode`, its Instances as
/// `index: pods` and the GPU pods that belong to no Instance.
#[derive(Debug, PartialEq)]
struct Read {
    component: String,
    instances: Vec<String>,
    unowned: Vec<String>,
}

/// `analyze --snapshot tests/fixtures/k8s/ome-samples/FILE -o json` at 2026-09-28 10:15 UTC,
/// pinned as `NAME.json`; returns the document and the components for the explicit checks.
fn analyzed(file: &str, name: &str) -> (Value, Vec<Read>) {
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
    let pod = |i: &usize| snap.pods.get(*i).unwrap().name.to_string();
    let read = analysis
        .workloads
        .components
        .iter()
        .map(|c| Read {
            component: format!("{} {} {:?}", snap.isvcs[c.isvc].key(), c.name(), c.mode),
            instances: c
                .instances
                .iter()
                .map(|i| {
                    let pods: Vec<String> = i.pods.iter().map(pod).collect();
                    format!("{}: {}", i.index, pods.join(" "))
                })
                .collect(),
            unowned: c.unowned.iter().map(pod).collect(),
        })
        .collect();
    (doc, read)
}

/// The pools' names in the document.
fn pool_names(doc: &Value) -> Vec<&str> {
    doc["pools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap())
        .collect()
}

/// The document's warnings.
fn warnings(doc: &Value) -> Vec<&str> {
    doc["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect()
}

/// `read`'s component `key` (`ns/name component mode`).
fn component<'a>(read: &'a [Read], key: &str) -> &'a Read {
    read.iter()
        .find(|r| r.component == key)
        .unwrap_or_else(|| panic!("no {key} in {read:#?}"))
}

#[test]
fn raw_deployment() {
    let (doc, read) = analyzed("raw-deployment.json", "raw-deployment");
    // Both BM.GPU.H100.8 nodes form one pool: the unlabelled one adopts its shape group's
    // product (§9 reconciliation).
    assert_eq!(pool_names(&doc), ["NVIDIA-H100-80GB-HBM3"]);
    assert_eq!(doc["pools"][0]["nodes"], 2);
    assert_eq!(doc["pools"][0]["freeGpus"], 11);
    // Each scheduled pod of a RawDeployment component is its own Instance; routers hold no
    // GPU and are no Instance of a GPU pool's demand.
    let small = "llama-3-1-8b-instruct/llama-3-1-8b-instruct engine RawDeployment";
    assert_eq!(
        component(&read, small).instances,
        ["0: llama-3-1-8b-instruct-engine-7f9c6b5d4-x2kqp"]
    );
    let big = "llama-3-1-70b-instruct/llama-3-1-70b-instruct engine RawDeployment";
    assert_eq!(
        component(&read, big).instances,
        ["0: llama-3-1-70b-instruct-engine-5b4f8d7c6-h7wnv"]
    );
    assert!(read.iter().all(|r| r.unowned.is_empty()), "{read:#?}");
    assert!(
        !warnings(&doc)
            .iter()
            .any(|w| w.contains("belong to no Instance")),
        "{doc:#}"
    );
}

#[test]
fn multinode_lws() {
    let (doc, read) = analyzed("multinode-lws.json", "multinode-lws");
    // GPU feature discovery labels the p5.48xlarge nodes: the pool is the product.
    assert_eq!(pool_names(&doc), ["NVIDIA-H100-80GB-HBM3"]);
    assert_eq!(doc["pools"][0]["freeGpus"], 0);
    // The ISVC in the shape OME documents for MultiNode (`engine.worker`) is OMENative by its
    // shape; without an InferenceReplica its LeaderWorkerSet pods are named in a warning.
    let documented = component(&read, "llama-3-1-70b-mn/llama-3-1-70b-mn engine OMENative");
    assert!(documented.instances.is_empty());
    assert_eq!(
        documented.unowned,
        [
            "lws-llama-3-1-70b-mn-engine-0",
            "lws-llama-3-1-70b-mn-engine-0-1"
        ]
    );
    let named = warnings(&doc)
        .into_iter()
        .filter(|w| w.contains("belong to no Instance"))
        .collect::<Vec<_>>();
    assert_eq!(named.len(), 1, "{named:#?}");
    assert!(named[0].starts_with("InferenceService llama-3-1-70b-mn/llama-3-1-70b-mn engine"));
    assert!(named[0].contains("lws-llama-3-1-70b-mn-engine-0, lws-llama-3-1-70b-mn-engine-0-1"));
    // deepseek-r1 as shipped: its ISVC names no leader or worker (the runtime does), and
    // Alfred reads the mode from the ISVC only, so its leader and worker are each a
    // RawDeployment Instance.
    let r1 = component(&read, "deepseek-r1/deepseek-r1 engine RawDeployment");
    assert_eq!(
        r1.instances,
        [
            "0: lws-deepseek-r1-engine-0",
            "1: lws-deepseek-r1-engine-0-1"
        ]
    );
    assert!(r1.unowned.is_empty());
    // ...and analyze says so instead of passing it silently.
    let split = "InferenceService deepseek-r1/deepseek-r1 engine: read as RawDeployment (the \
                 service names no leader or workers), so Alfred counts 2 pods as 2 Instances, \
                 but they run under StatefulSet lws-deepseek-r1-engine";
    assert!(
        warnings(&doc).iter().any(|w| w.starts_with(split)),
        "{:#?}",
        warnings(&doc)
    );
}

#[test]
fn pd_disaggregated() {
    let (doc, read) = analyzed("pd-disaggregated.json", "pd-disaggregated");
    // GKE labels no GPU product; a3-highgpu-8g maps to H100 through the shape table.
    assert_eq!(pool_names(&doc), ["H100"]);
    // Both PD components are read (RawDeployment: the ISVC names no leader or worker), the
    // decoder's Pending worker is no Instance but the pool's pending demand.
    let engine = component(&read, "deepseek-v3/deepseek-v3 engine RawDeployment");
    assert_eq!(
        engine.instances,
        [
            "0: lws-deepseek-v3-engine-0",
            "1: lws-deepseek-v3-engine-0-1"
        ]
    );
    let decoder = component(&read, "deepseek-v3/deepseek-v3 decoder RawDeployment");
    assert_eq!(decoder.instances, ["0: lws-deepseek-v3-decoder-0"]);
    assert!(read.iter().all(|r| r.unowned.is_empty()), "{read:#?}");
    let pending = &doc["pools"][0]["pending"];
    assert_eq!(pending.as_array().unwrap().len(), 1);
    assert_eq!(pending[0]["gpus"], 8);
    assert_eq!(pending[0]["roomNow"], 0);
    assert_eq!(pending[0]["roomAfterRepack"], 0);
}

#[test]
fn gpu16_pending() {
    let (doc, read) = analyzed("gpu16-pending.json", "gpu16-pending");
    assert_eq!(pool_names(&doc), ["NVIDIA-H100-80GB-HBM3"]);
    let pool = &doc["pools"][0];
    assert_eq!(pool["freeGpus"], 16);
    assert_eq!(pool["largestFitNow"], 8);
    // 16 GPUs in one pod never fit an 8-GPU node, however free the pool is.
    let pending = pool["pending"].as_array().unwrap();
    assert_eq!(pending.len(), 1);
    assert_eq!(pending[0]["gpus"], 16);
    assert_eq!(pending[0]["pods"], 1);
    assert_eq!(pending[0]["roomNow"], 0);
    assert_eq!(pending[0]["roomAfterRepack"], 0);
    // A Pending pod is no RawDeployment Instance.
    let engine = component(
        &read,
        "llama-4-maverick-17b-128e-instruct/llama-4-maverick-17b-128e-instruct engine RawDeployment",
    );
    assert!(engine.instances.is_empty());
}
