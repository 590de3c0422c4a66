//! The public output of the analysis — the `analyze -o json` document (product.md §7,
//! docs/analyze-json.md) and the `-o table` text — of generated fleets and of the shipped
//! snapshots, pinned byte for byte as insta snapshots
//! (`snapshots/engine__analysis_identity__NAME.{json,table}.snap`). Speed work must not change
//! a single result. Only the public contract is pinned: private types (workloads, verdicts)
//! may change shape freely as long as what `analyze` prints does not.
//!
//! To re-bless after an intended behaviour change, and review the diff before committing:
//! `INSTA_UPDATE=always cargo test --test engine analysis_identity`, or with cargo-insta
//! `cargo insta test --test engine -- analysis_identity` then `cargo insta review`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::ClusterSnapshot;
use ome_top::report::json::{analysis_json, Source};
use ome_top::report::table::analysis_table;
use ome_top::sim::cluster::{generate_cluster, generate_cluster_unpublished, ClusterSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;

/// Pins what `analyze --snapshot … -o json` and `-o table` print for `snap` (read without
/// warnings) as the snapshots `NAME.json` (the pretty JSON, without the final newline) and
/// `NAME.table`.
fn check(name: &str, snap: &ClusterSnapshot, executor: ExecutorSetting) {
    let opts = AnalysisOptions {
        now: Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap(),
        alfred_namespace: "ome".into(),
        executor,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let analysis = analyze(snap, &opts);
    let doc = analysis_json(snap, &analysis, Source::Snapshot, &[]);
    let json = serde_json::to_string_pretty(&doc).unwrap();
    insta::assert_snapshot!(format!("{name}.json"), json);
    let table = analysis_table(snap, &analysis, &[]);
    insta::assert_snapshot!(format!("{name}.table"), table);
}

/// A fleet in generation order with its strings as generated: the shape the fixtures of the
/// first performance passes were written from.
fn fleet(seed: u64, nodes: usize, pods: usize) -> ClusterSnapshot {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    generate_cluster_unpublished(&ClusterSpec { seed, nodes, pods }, now)
}

#[test]
fn published_fleet_analysis_is_unchanged() {
    // The shape the live store publishes (store key order, interned strings); golden written
    // by the engine of 2026-11-30 before the storage-order passes.
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    let spec = ClusterSpec {
        seed: 7,
        nodes: 300,
        pods: 3_000,
    };
    let snap = generate_cluster(&spec, now);
    check("fleet-300-published", &snap, ExecutorSetting::Auto);
}

#[test]
fn generated_fleet_analysis_is_unchanged() {
    let snap = fleet(7, 300, 3_000);
    check("fleet-300", &snap, ExecutorSetting::Auto);
}

#[test]
fn gang_heavy_fleet_analysis_is_unchanged() {
    let mut snap = fleet(5, 300, 3_000);
    make_gang_heavy(&mut snap);
    check("fleet-300-gangs", &snap, ExecutorSetting::Auto);
}

#[test]
fn crowded_fleet_without_executor_is_unchanged() {
    // More GPU pods per node: more Pending pods and more fragmentation.
    let snap = fleet(11, 200, 4_000);
    check("fleet-200-crowded", &snap, ExecutorSetting::Unavailable);
}

#[test]
fn shipped_snapshots_analysis_is_unchanged() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (file, name) in [
        ("docs/examples/mixed-fleet.json", "mixed-fleet"),
        (
            "docs/examples/worked-example-6-5.json",
            "worked-example-6-5",
        ),
        ("tests/fixtures/k8s/gangs.json", "k8s-gangs"),
        ("tests/fixtures/k8s/lints.json", "k8s-lints"),
        ("tests/fixtures/k8s/ir-example-6.json", "k8s-ir-example-6"),
    ] {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let (snap, _) = read_snapshot(&bytes).unwrap();
        // The converter builds each service's shared `ns/name` with it.
        for w in &snap.isvcs {
            assert_eq!(w.ns_name().as_ref(), w.key(), "{file}");
        }
        // Rows' running revisions are interned with `currentRevision`: equal texts share
        // one allocation, which the eligibility check compares first.
        let mut shared = 0;
        for ir in &snap.replicas {
            let current = &ir.status.current_revision;
            for row in ir.status.rows.iter().flatten() {
                if row.running_revision == *current {
                    assert!(
                        std::sync::Arc::ptr_eq(&row.running_revision, current),
                        "{file}"
                    );
                    shared += 1;
                }
            }
        }
        if file.contains("ir-example") {
            assert!(shared > 0, "{file}: no steady row to check");
        }
        check(name, &snap, ExecutorSetting::Auto);
    }
}
