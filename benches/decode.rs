//! Decoding a page of the pod list as the watcher receives it: 500 pods of the shape the
//! scale test creates (OME labels, GPU requests, pool node selector, bound, marked Running by
//! kwok; managed fields from the creator and kwok), as full `k8s_openapi` pods and slim
//! (`cluster::wire`), then converted to the engine model. Figures in docs/performance.md.
//!
//! `cargo bench --bench decode`

use criterion::{criterion_group, criterion_main, Criterion};
use k8s_openapi::api::core::v1 as core;
use serde::de::DeserializeOwned;
use serde::Deserialize;

use ome_top::cluster::convert::{pod, Interner, Warnings};
use ome_top::cluster::wire::Slim;

/// One pod as the API server returns it after kwok's status update.
const POD: &str = include_str!("../tests/fixtures/k8s/wire-pod-kwok.json");
/// Pods per page (the watcher's page size).
const PAGE: usize = 500;

/// The part of a `List` page the benchmark decodes.
#[derive(Deserialize)]
struct Page<K> {
    items: Vec<K>,
}

fn page_text() -> String {
    let one: serde_json::Value = serde_json::from_str(POD).unwrap_or_default();
    let items = vec![one; PAGE];
    serde_json::json!({"apiVersion": "v1", "kind": "PodList", "metadata": {}, "items": items})
        .to_string()
}

fn decode<K: DeserializeOwned>(text: &str) -> Vec<K> {
    serde_json::from_str::<Page<K>>(text).map_or_else(|_| Vec::new(), |p| p.items)
}

fn convert_all<'a>(pods: impl Iterator<Item = &'a core::Pod>) -> usize {
    let mut interner = Interner::default();
    let mut warnings = Warnings::new();
    pods.filter(|p| pod(&mut interner, p, &mut warnings).is_ok())
        .count()
}

fn decode_page(c: &mut Criterion) {
    let text = page_text();
    let slim = decode::<Slim<core::Pod>>(&text);
    assert_eq!(convert_all(slim.iter().map(|p| &p.0)), PAGE);
    let mut group = c.benchmark_group("decode");
    group.bench_function("full_page_500_pods", |b| {
        b.iter(|| decode::<core::Pod>(&text))
    });
    group.bench_function("slim_page_500_pods", |b| {
        b.iter(|| decode::<Slim<core::Pod>>(&text))
    });
    group.bench_function("full_page_500_pods_converted", |b| {
        b.iter(|| convert_all(decode::<core::Pod>(&text).iter()))
    });
    group.bench_function("slim_page_500_pods_converted", |b| {
        b.iter(|| convert_all(decode::<Slim<core::Pod>>(&text).iter().map(|p| &p.0)))
    });
    group.finish();
}

criterion_group!(benches, decode_page);
criterion_main!(benches);
