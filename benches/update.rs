//! The live store's share of an update, for 100,000 pods (product.md §10: "an incremental
//! update after one pod event: ≤ 1 ms"): applying one pod watch event (decode excluded:
//! convert, intern, insert) and putting the pods into the next `ClusterSnapshot` (shared, one
//! `Arc` each), which the snapshot task does before every analysis; dropping that snapshot is
//! timed with it. The analysis itself is `benches/analysis.rs`.
//! Figures in docs/performance.md.
//!
//! `cargo bench --bench update`

use criterion::{criterion_group, criterion_main, BatchSize, Criterion};
use k8s_openapi::api::core::v1 as core;
use kube::runtime::watcher::Event;

use ome_top::cluster::live::sources::PODS;
use ome_top::cluster::live::store::Store;
use ome_top::cluster::wire::Slim;
use std::sync::Arc;

use ome_top::engine::model::{Pod, Pods};

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

criterion_group!(benches, update);
criterion_main!(benches);
