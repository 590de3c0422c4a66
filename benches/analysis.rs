//! Full-analysis benchmark on the generated 10,000-node × 8-GPU, 100,000-pod fleet
//! (budget: median ≤ 20 ms on one core; figures in docs/performance.md).

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};

use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};

fn full_analysis(c: &mut Criterion) {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    let spec = FleetSpec {
        seed: 1,
        nodes: 10_000,
        pods: 100_000,
    };
    let snap = generate_fleet(&spec, now);
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
    };
    let mut group = c.benchmark_group("analysis");
    group.sample_size(20);
    group.bench_function("full_10k_nodes_100k_pods", |b| {
        b.iter(|| analyze(&snap, &opts))
    });
    group.finish();
}

criterion_group!(benches, full_analysis);
criterion_main!(benches);
