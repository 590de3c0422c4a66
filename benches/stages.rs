//! Where the full analysis spends its wall-clock time: the 10,000-node × 8-GPU, 100,000-pod
//! fleet of `benches/analysis.rs`, analysed `RUNS` times through `analyze_observed`, with the
//! median time of every stage printed (figures in docs/performance.md). Not a criterion bench:
//! the stages are timed inside one analysis, from the observer callback.
//!
//! Then one watch event of each kind (`sim::events`) applied `RUNS` times to an
//! `Incremental` of the same fleet, event and undo in turn, with the median of each
//! (`STAGES_EVENT=<name>` for one kind; `analyze_one` and `apply_one` are never inlined,
//! for callgrind's `--toggle-collect`).
//!
//! `cargo bench --bench stages` (set `STAGES_RUNS` to change the number of analyses and
//! events, and `STAGES_UNPUBLISHED=1` for the fleet in generation order).

#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};

use ome_top::engine::analysis::{
    analyze_observed, AnalysisOptions, ExecutorSetting, Incremental, STAGES,
};
use ome_top::sim::cluster::{generate_cluster, generate_cluster_unpublished, ClusterSpec};
use ome_top::sim::events::event_kinds;

/// Analyses timed after the warm-up ones.
const RUNS: usize = 31;
/// Analyses run first and not timed (page faults of first allocations, cold caches).
const WARM_UP: usize = 3;

fn main() {
    let Some(now) = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).single() else {
        return;
    };
    let runs = std::env::var("STAGES_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(RUNS);
    let spec = ClusterSpec {
        seed: 1,
        nodes: 10_000,
        pods: 100_000,
    };
    // `STAGES_UNPUBLISHED=1`: the fleet in generation order with its strings as generated (the
    // shape the benchmarks used before 2026-11-30), to compare with what the live store
    // publishes.
    let snap = match std::env::var_os("STAGES_UNPUBLISHED") {
        Some(_) => generate_cluster_unpublished(&spec, now),
        None => generate_cluster(&spec, now),
    };
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let mut per_stage: Vec<Vec<Duration>> = vec![Vec::new(); STAGES.len()];
    let mut totals = Vec::new();
    for run in 0..WARM_UP + runs {
        let start = Instant::now();
        let mut last = start;
        let mut laps = Vec::with_capacity(STAGES.len());
        let analysis = analyze_one(&snap, &opts, &mut |_| {
            let t = Instant::now();
            laps.push(t - last);
            last = t;
        });
        // Dropping the result is part of an analysis's cost in the product (the previous one
        // is dropped when the next is published).
        drop(analysis);
        if run >= WARM_UP {
            totals.push(start.elapsed());
            for (stage, lap) in per_stage.iter_mut().zip(laps) {
                stage.push(lap);
            }
        }
    }
    println!("stage             median ms  (of {runs} analyses)");
    for (name, laps) in STAGES.iter().zip(&mut per_stage) {
        println!("{name:<17} {:>9.2}", median_ms(laps));
    }
    println!(
        "{:<17} {:>9.2}",
        "whole (with drop)",
        median_ms(&mut totals)
    );
    events(snap, opts, runs);
}

/// The median of each event kind applied to an `Incremental` of `snap`: `runs` times the
/// event and its undo, each timed.
fn events(snap: ome_top::engine::model::ClusterSnapshot, opts: AnalysisOptions, runs: usize) {
    let mut inc = Incremental::new(snap, opts);
    let only = std::env::var("STAGES_EVENT").ok();
    let mut kinds = event_kinds(inc.snapshot(), inc.analysis());
    kinds.retain(|k| only.as_deref().is_none_or(|o| o == k.name));
    println!("one event                  median ms  (of {runs} events and {runs} undos)");
    for kind in &kinds {
        let mut laps = Vec::with_capacity(2 * runs);
        for _ in 0..runs {
            for change in [&kind.change, &kind.undo] {
                let change = change.clone();
                let start = Instant::now();
                apply_one(&mut inc, change);
                laps.push(start.elapsed());
            }
        }
        println!("{:<26} {:>9.3}", kind.name, median_ms(&mut laps));
    }
}

/// One analysis, where a profiler can find it.
#[inline(never)]
fn analyze_one(
    snap: &ome_top::engine::model::ClusterSnapshot,
    opts: &AnalysisOptions,
    stage_done: &mut dyn FnMut(&'static str),
) -> ome_top::engine::analysis::Analysis {
    analyze_observed(snap, opts, stage_done)
}

/// One change, where a profiler can find it.
#[inline(never)]
fn apply_one(inc: &mut Incremental, change: ome_top::engine::analysis::Change) {
    inc.apply(change);
}

fn median_ms(samples: &mut [Duration]) -> f64 {
    samples.sort();
    samples
        .get(samples.len() / 2)
        .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
}
