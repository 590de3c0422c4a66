//! Full-analysis benchmark on the generated 10,000-node × 8-GPU, 100,000-pod fleet
//! (budget: median ≤ 20 ms on one core; figures in docs/performance.md), plus the gang and
//! lint engines alone on the same fleet made gang-heavy (racks, PodGroups, OME scheduler,
//! every fifth gang unbound so that pins are predicted).

use std::collections::BTreeMap;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use criterion::{criterion_group, criterion_main, Criterion};

use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::gang::{compute_gangs, node_index};
use ome_top::engine::lints::placement_lints;
use ome_top::engine::model::{ClusterSnapshot, Labels, PodGroup, PodPhase};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};

/// Racks of 16 nodes under `ome.io/rack`, a PodGroup per gang, gang pods on the OME
/// scheduler, and every fifth gang's pods unbound (Pending).
fn gang_heavy(snap: &mut ClusterSnapshot) {
    for (i, node) in snap.nodes.iter_mut().enumerate() {
        let mut pairs = node.labels.0.clone();
        pairs.push((
            Arc::from("ome.io/rack"),
            Arc::from(format!("rack-{}", i / 16)),
        ));
        node.labels = Labels::from_pairs(pairs);
    }
    let mut groups: BTreeMap<(Arc<str>, Arc<str>), i64> = BTreeMap::new();
    for pod in &snap.pods {
        if let Some(g) = &pod.ome.pod_group {
            *groups
                .entry((pod.namespace.clone(), g.clone()))
                .or_default() += 1;
        }
    }
    for (n, ((ns, name), members)) in groups.iter().enumerate() {
        let mut annotations = BTreeMap::new();
        annotations.insert(Arc::from("ome.io/topology-key"), "ome.io/rack".to_string());
        snap.pod_groups.push(PodGroup {
            namespace: ns.clone(),
            name: name.clone(),
            uid: Arc::from(format!("uid-pg-{n}")),
            min_member: Some(*members),
            schedule_timeout_seconds: Some(600),
            annotations,
            labels: Labels::default(),
        });
    }
    let order: std::collections::HashMap<(Arc<str>, Arc<str>), usize> = groups
        .keys()
        .cloned()
        .enumerate()
        .map(|(i, k)| (k, i))
        .collect();
    let scheduler: Arc<str> = Arc::from("ome-scheduler");
    for pod in &mut snap.pods {
        let Some(g) = pod.ome.pod_group.clone() else {
            continue;
        };
        pod.scheduler_name = scheduler.clone();
        if order
            .get(&(pod.namespace.clone(), g))
            .is_some_and(|n| n % 5 == 0)
        {
            pod.node = None;
            pod.phase = PodPhase::Pending;
        }
    }
}

fn full_analysis(c: &mut Criterion) {
    let Some(now) = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single() else {
        return;
    };
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
    let mut heavy = snap.clone();
    gang_heavy(&mut heavy);
    let states = analyze(&heavy, &opts).nodes;
    let index = node_index(&heavy);
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
