//! Where the full analysis spends its wall-clock time: the 10,000-node × 8-GPU, 100,000-pod
//! fleet of `benches/analysis.rs`, analysed `RUNS` times through `analyze_observed`, with the
//! median time of every stage printed (figures in docs/performance.md). Not a criterion bench:
//! the stages are timed inside one analysis, from the observer callback.
//!
//! `cargo bench --bench stages` (set `STAGES_RUNS` to change the number of analyses, and
//! `STAGES_UNPUBLISHED=1` for the fleet in generation order).

#![allow(clippy::disallowed_methods)] // Wall-clock figures are what this program measures.

use std::time::{Duration, Instant};

use chrono::{TimeZone, Utc};

use ome_top::engine::analysis::{analyze_observed, AnalysisOptions, ExecutorSetting, STAGES};
use ome_top::sim::fleet::{generate_fleet, generate_fleet_unpublished, FleetSpec};

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
    let spec = FleetSpec {
        seed: 1,
        nodes: 10_000,
        pods: 100_000,
    };
    // `STAGES_UNPUBLISHED=1`: the fleet in generation order with its strings as generated (the
    // shape the benchmarks used before 2026-11-30), to compare with what the live store
    // publishes.
    let snap = match std::env::var_os("STAGES_UNPUBLISHED") {
        Some(_) => generate_fleet_unpublished(&spec, now),
        None => generate_fleet(&spec, now),
    };
    let opts = AnalysisOptions {
        now,
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
    };
    let mut per_stage: Vec<Vec<Duration>> = vec![Vec::new(); STAGES.len()];
    let mut totals = Vec::new();
    for run in 0..WARM_UP + runs {
        let start = Instant::now();
        let mut last = start;
        let mut laps = Vec::with_capacity(STAGES.len());
        let analysis = analyze_observed(&snap, &opts, &mut |_| {
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
}

fn median_ms(samples: &mut [Duration]) -> f64 {
    samples.sort();
    samples
        .get(samples.len() / 2)
        .map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
}
