//! An update after one pod event at 100,000 pods (product.md §10: "an incremental update
//! after one pod event: ≤ 1 ms"). Group `update`: the live store's share — applying one pod
//! watch event (decode excluded: convert, intern, insert) and putting the pods into the next
//! `ClusterSnapshot` (shared, one `Arc` each), which the snapshot task does before every
//! analysis; dropping that snapshot is timed with it. Group `incremental`: the engine's share
//! on the generated 10,000-node fleet of `benches/analysis.rs` — the full analysis, and
//! `Incremental::apply` of one event of each kind (every iteration applies one event; the
//! two-version kinds alternate, so the state returns every other iteration), and cloning the
//! analysis as publishing a copy would.
//! Figures in docs/performance.md.
//!
//! `cargo bench --bench update` (one group: `cargo bench --bench update -- incremental`)

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use k8s_openapi::api::core::v1 as core;
use kube::runtime::watcher::Event;

use ome_top::cluster::live::sources::PODS;
use ome_top::cluster::live::store::Store;
use ome_top::cluster::wire::Slim;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use ome_top::engine::analysis::{analyze, AnalysisOptions, Change, ExecutorSetting, Incremental};
use ome_top::engine::model::{Pod, PodPhase, Pods};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};

/// One pod as the API server returns it after kwok's status update.
const POD: &str = include_str!("../tests/fixtures/k8s/wire-pod-kwok.json");
/// Pods held by the store.
const PODS_HELD: usize = 100_000;
/// Nodes the pods are spread over.
const NODES: usize = 10_000;

/// The fixture renamed to pod `i` of namespace `team-{i % 8}` on node `i % NODES`.
fn pod(template: &core::Pod, i: usize) -> Slim<core::Pod> {
    let mut p = template.clone();
    p.metadata.name = Some(format!("model-{i}-engine-0"));
    p.metadata.namespace = Some(format!("team-{}", i % 8));
    p.metadata.uid = Some(format!("uid-{i}"));
    if let Some(spec) = p.spec.as_mut() {
        spec.node_name = Some(format!("gpu-node-{:05}", i % NODES));
    }
    Slim(p)
}

fn loaded_store(template: &core::Pod) -> Store<Arc<Pod>> {
    let mut store = Store::default();
    store.apply(Event::Init, &PODS);
    for i in 0..PODS_HELD {
        store.apply(Event::InitApply(pod(template, i)), &PODS);
    }
    store.apply(Event::InitDone, &PODS);
    store
}

fn update(c: &mut Criterion) {
    let Ok(template) = serde_json::from_str::<core::Pod>(POD) else {
        return;
    };
    let mut store = loaded_store(&template);
    assert_eq!(store.len(), PODS_HELD);
    let mut group = c.benchmark_group("update");
    group.sample_size(20);
    let mut i = 0usize;
    group.bench_function("apply_one_pod_event_100k_pods", |b| {
        b.iter_batched(
            || {
                i = (i + 7919) % PODS_HELD;
                pod(&template, i)
            },
            |p| store.apply(Event::Apply(p), &PODS),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("snapshot_pods_100k", |b| {
        b.iter(|| {
            let mut pods = Pods::default();
            store.extend_into(&mut pods);
            pods
        })
    });
    group.finish();
}

/// Alternates two changes: `first` on odd iterations, `second` on even ones.
fn alternate(inc: &mut Incremental, first: &Change, second: &Change, flip: &mut bool) {
    *flip = !*flip;
    inc.apply(if *flip { first } else { second }.clone());
}

/// A pod update and the pod as it was (`Change::Pod` of each).
fn two_versions(pod: &Pod, change: impl FnOnce(&mut Pod)) -> (Change, Change) {
    let mut changed = pod.clone();
    change(&mut changed);
    (
        Change::Pod(Arc::new(changed)),
        Change::Pod(Arc::new(pod.clone())),
    )
}

/// Deleting a pod and adding it back.
fn delete_and_add(pod: &Pod) -> (Change, Change) {
    (
        Change::PodDeleted {
            namespace: pod.namespace.clone(),
            name: pod.name.clone(),
        },
        Change::Pod(Arc::new(pod.clone())),
    )
}

fn incremental(c: &mut Criterion) {
    let Some(now) = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single() else {
        return;
    };
    let spec = FleetSpec {
        seed: 1,
        nodes: NODES,
        pods: PODS_HELD,
    };
    let snap = generate_fleet(&spec, now);
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
    };
    let mut inc = Incremental::new(snap, opts.clone());
    let a = inc.analysis();
    let pods = &inc.snapshot().pods;
    let agent = pods.iter().find(|p| p.gpus == 0 && p.node.is_some());
    // A pod of an OMENative Instance executable for defragmentation (a repack item).
    let movable = a
        .verdicts
        .iter()
        .filter(|v| v.defrag.is_ok())
        .find_map(|v| {
            let inst = &a.workloads.components[v.component].instances[v.instance];
            inst.pods.first().map(|p| &pods[*p])
        });
    let pending = pods.iter().find(|p| p.is_pending_gpu());
    let (Some(agent), Some(movable), Some(pending)) = (agent, movable, pending) else {
        return;
    };
    let cases = [
        (
            "node_agent_update",
            two_versions(agent, |p| p.ready = !p.ready),
        ),
        ("node_agent_delete_or_add", delete_and_add(agent)),
        (
            "model_pod_ready_flip",
            two_versions(movable, |p| p.ready = !p.ready),
        ),
        ("model_pod_delete_or_add", delete_and_add(movable)),
        (
            "pending_pod_scheduled",
            two_versions(pending, |p| {
                p.node = movable.node.clone();
                p.phase = PodPhase::Running;
            }),
        ),
    ];
    let mut group = c.benchmark_group("incremental");
    group.sample_size(20);
    group.bench_function("full_analysis_10k_nodes_100k_pods", |b| {
        b.iter(|| analyze(inc.snapshot(), &opts))
    });
    for (name, (first, second)) in &cases {
        let mut flip = false;
        group.bench_function(format!("one_pod_event/{name}"), |b| {
            b.iter(|| alternate(&mut inc, first, second, &mut flip))
        });
        if flip {
            inc.apply(second.clone());
        }
    }
    group.bench_function("clone_analysis", |b| b.iter(|| inc.analysis().clone()));
    group.finish();
}

criterion_group!(benches, update, incremental);
criterion_main!(benches);
