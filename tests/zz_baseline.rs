#![allow(clippy::unwrap_used)]
use chrono::{TimeZone, Utc};
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::report::json::{analysis_json, Source};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};
#[test]
fn write_baseline() {
    let out = std::env::var("BASELINE_DIR").unwrap();
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    for (nodes, pods) in [(300usize, 3_000usize), (10_000, 100_000)] {
        let snap = generate_fleet(
            &FleetSpec {
                seed: 7,
                nodes,
                pods,
            },
            now,
        );
        let opts = AnalysisOptions {
            now,
            alfred_namespace: "ome".into(),
            executor: ExecutorSetting::Auto,
            placement: Default::default(),
        };
        let a = analyze(&snap, &opts);
        let doc = analysis_json(&snap, &a, Source::Snapshot, &[]);
        std::fs::write(
            format!("{out}/fleet-{nodes}.json"),
            serde_json::to_string_pretty(&doc).unwrap(),
        )
        .unwrap();
    }
}
