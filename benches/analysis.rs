//! Full-analysis benchmark on the generated 10,000-node × 8-GPU, 100,000-pod fleet
//! (budget: median ≤ 20 ms on one core; figures in docs/performance.md), plus the gang and
//! lint engines alone on the same fleet made gang-heavy (racks, PodGroups, OME scheduler,
//! every fifth gang unbound so that pins are predicted).

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};

use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gangs::compute_gangs;
use ome_top::engine::index::SnapshotIndex;
use ome_top::engine::lints::placement_lints;
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;

fn full_analysis(c: &mut Criterion) {
    let Some(now) = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single() else {
        return;
    };
    let spec = ClusterSpec {
        seed: 1,
        nodes: 10_000,
        pods: 100_000,
    };
    let snap = generate_cluster(&spec, now);
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let mut group = c.benchmark_group("analysis");
    group.sample_size(20);
    group.bench_function("full_10k_nodes_100k_pods", |b| {
        b.iter(|| analyze(&snap, &opts))
    });
    let mut heavy = snap.clone();
    make_gang_heavy(&mut heavy);
    let states = analyze(&heavy, &opts).nodes;
    let index = SnapshotIndex::new(&heavy);
    group.bench_function("gangs_gang_heavy", |b| {
        b.iter(|| compute_gangs(&heavy, &index, &opts.placement))
    });
    group.bench_function("lints_gang_heavy", |b| {
        b.iter(|| placement_lints(&heavy, &index, &states, &opts.placement))
    });
    group.finish();
}

criterion_group!(benches, full_analysis);
criterion_main!(benches);
