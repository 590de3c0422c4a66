//! An update after one pod event at 100,000 pods (product.md §10: "an incremental update
//! after one pod event: ≤ 1 ms"). Group `update`: the live store's share — applying one pod
//! watch event (decode excluded: convert, intern, insert) and putting the pods into the next
//! `ClusterSnapshot` (shared, one `Arc` each), which the snapshot task did before every
//! analysis (dropping that snapshot is timed with it); what it does instead per batch, one
//! pod changed: drain the stores' changed keys into the engine's changes and drop those the
//! analysed snapshot already holds (`task_batch_one_pod_100k_pods`); and the copy of a
//! whole snapshot that `Arc::make_mut` makes on a batch's first edit while the published
//! feed still shares it, on the 10,000-node fleet below
//! (`copy_shared_snapshot_10k_nodes_100k_pods`). Group `incremental`: the engine's share
//! on the generated 10,000-node fleet of `benches/analysis.rs` — the full analysis, and
//! `Incremental::apply` of one event of each kind (`sim::events`: every iteration applies one
//! event; the two-version kinds alternate, so the state returns every other iteration; what
//! each kind re-runs is printed first), cloning the
//! analysis (what the next change costs while a published feed still shares it), and
//! `changes_between` of the live snapshot task with one pod changed (and `changes_in`, when the
//! stores' change counts say only pods changed).
//! Group `thread_cpu`: the same full analysis and event kinds timed by the thread's on-CPU
//! time, for a machine other builds share. Figures in docs/performance.md.
//!
//! `cargo bench --bench update` (one group: `cargo bench --bench update -- incremental`)

use std::time::Duration;

use criterion::measurement::{Measurement, ValueFormatter, WallTime};
use criterion::{criterion_group, criterion_main, BatchSize, BenchmarkGroup, Criterion};
use k8s_openapi::api::core::v1 as core;
use kube::runtime::watcher::Event;

use ome_top::cluster::live::sources::PODS;
use ome_top::cluster::live::store::Store;
use ome_top::cluster::live::stores::Stores;
use ome_top::cluster::wire::Slim;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use ome_top::engine::analysis::{
    analyze, changes_between, changes_in, AnalysisOptions, Changed, ExecutorSetting, Incremental,
};
use ome_top::engine::model::{Pod, Pods};
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::events::event_kinds;

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
    task_batch(&mut group, &template);
    group.finish();
}

/// The snapshot task's own work per batch with one pod changed, and the copy of a shared
/// snapshot a batch's first edit makes.
fn task_batch(group: &mut BenchmarkGroup<'_, WallTime>, template: &core::Pod) {
    let Some(now) = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single() else {
        return;
    };
    let stores = Stores::default();
    let pods = &stores.pods;
    pods.on_event(Event::Init, &PODS, now);
    for i in 0..PODS_HELD {
        pods.on_event(Event::InitApply(pod(template, i)), &PODS, now);
    }
    pods.on_event(Event::InitDone, &PODS, now);
    // The analysed snapshot: the changes are checked against it.
    let analysed = stores.take_snapshot();
    assert_eq!(analysed.pods.len(), PODS_HELD);
    let mut i = 0usize;
    group.bench_function("task_batch_one_pod_100k_pods", |b| {
        b.iter_batched(
            || {
                i = (i + 7919) % PODS_HELD;
                pods.on_event(Event::Apply(pod(template, i)), &PODS, now);
            },
            |()| stores.take_delta().news(&analysed),
            // One event per batch: criterion's larger batches would run many setups (pod
            // events) before one drain takes them all.
            BatchSize::PerIteration,
        )
    });
    assert_eq!(
        stores.whole_snapshots(),
        1,
        "a pod batch reads no whole snapshot"
    );
    let spec = ClusterSpec {
        seed: 1,
        nodes: NODES,
        pods: PODS_HELD,
    };
    let fleet = generate_cluster(&spec, now);
    group.bench_function("copy_shared_snapshot_10k_nodes_100k_pods", |b| {
        b.iter(|| fleet.clone())
    });
}

/// The fleet of the `incremental` groups, analysed, with its options.
fn fleet() -> Option<(Incremental, AnalysisOptions)> {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single()?;
    let spec = ClusterSpec {
        seed: 1,
        nodes: NODES,
        pods: PODS_HELD,
    };
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    Some((
        Incremental::new(generate_cluster(&spec, now), opts.clone()),
        opts,
    ))
}

/// The full analysis and one event of each kind, in `group` (measured by `M`).
fn event_kinds_in<M: Measurement>(
    group: &mut BenchmarkGroup<'_, M>,
    inc: &mut Incremental,
    opts: &AnalysisOptions,
) {
    let kinds = event_kinds(inc.snapshot(), inc.analysis());
    group.bench_function("full_analysis_10k_nodes_100k_pods", |b| {
        b.iter(|| analyze(inc.snapshot(), opts))
    });
    for kind in &kinds {
        // What the kind re-runs (docs/performance.md names it beside the figure).
        inc.apply(kind.change.clone());
        eprintln!("{}: {:?}", kind.name, inc.last_rerun());
        inc.apply(kind.undo.clone());
        // Iterations apply the event and undo it in turn.
        let mut applied = false;
        group.bench_function(format!("one_pod_event/{}", kind.name), |b| {
            b.iter(|| {
                let next = if applied { &kind.undo } else { &kind.change };
                applied = !applied;
                inc.apply(next.clone());
            })
        });
        if applied {
            inc.apply(kind.undo.clone());
        }
    }
}

fn incremental(c: &mut Criterion) {
    let Some((mut inc, opts)) = fleet() else {
        return;
    };
    let mut group = c.benchmark_group("incremental");
    group.sample_size(20);
    event_kinds_in(&mut group, &mut inc, &opts);
    group.bench_function("clone_analysis", |b| b.iter(|| inc.analysis().clone()));
    // What the live snapshot task adds per feed: the walk of the stores' new snapshot against
    // the analysed one, here with one pod changed.
    let mut next = inc.snapshot().clone();
    let bound = next.pods.iter().position(|p| p.node.is_some());
    if let Some(p) = bound {
        next.pods[p].ready = !next.pods[p].ready;
    }
    group.bench_function("changes_between_one_pod_100k", |b| {
        b.iter(|| changes_between(inc.snapshot(), &next))
    });
    // The same when the stores' change counts say only pods changed (the live case).
    let pods_only = Changed {
        pods: true,
        nodes: false,
        events: false,
    };
    group.bench_function("changes_in_pods_one_pod_100k", |b| {
        b.iter(|| changes_in(inc.snapshot(), &next, pods_only))
    });
    group.finish();
}

/// On-CPU time of the calling thread (`/proc/thread-self/schedstat`, nanoseconds): unlike
/// wall time it leaves out the time the thread waited for a core, which on a machine shared
/// with other builds is most of it.
fn on_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// Criterion's measurement by `on_cpu_ns`.
struct ThreadCpu;

/// Durations are formatted as wall time's are.
static WALL: WallTime = WallTime;

impl Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = Duration;
    fn start(&self) -> u64 {
        on_cpu_ns()
    }
    fn end(&self, start: u64) -> Duration {
        Duration::from_nanos(on_cpu_ns().saturating_sub(start))
    }
    fn add(&self, a: &Duration, b: &Duration) -> Duration {
        *a + *b
    }
    fn zero(&self) -> Duration {
        Duration::ZERO
    }
    fn to_f64(&self, value: &Duration) -> f64 {
        value.as_nanos() as f64
    }
    fn formatter(&self) -> &dyn ValueFormatter {
        WALL.formatter()
    }
}

/// Group `thread_cpu`: the `incremental` group's full analysis and event kinds, timed by the
/// thread's on-CPU time (Linux): `cargo bench --bench update -- thread_cpu`.
fn thread_cpu(c: &mut Criterion<ThreadCpu>) {
    let Some((mut inc, opts)) = fleet() else {
        return;
    };
    let mut group = c.benchmark_group("thread_cpu");
    group.sample_size(20);
    event_kinds_in(&mut group, &mut inc, &opts);
    group.finish();
}

criterion_group!(benches, update, incremental);
criterion_group! {
    name = cpu;
    config = Criterion::default().with_measurement(ThreadCpu);
    targets = thread_cpu
}
criterion_main!(benches, cpu);
