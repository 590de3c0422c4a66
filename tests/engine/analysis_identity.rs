//! The whole analysis output — the `analyze -o json` document, the table, and the workloads
//! and eligibility verdicts — of generated fleets and of the shipped snapshots is pinned
//! byte for byte to fixtures written by the code before the performance passes. Speed work
//! must not change a single result.
//!
//! To regenerate after an intended behaviour change: `OME_TOP_BLESS=1 cargo test --test
//! analysis_identity` (and review the diff).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use std::path::PathBuf;

use chrono::{TimeZone, Utc};

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::ClusterSnapshot;
use ome_top::report::json::{analysis_json, Source};
use ome_top::report::table::analysis_table;
use ome_top::sim::fleet::{generate_fleet, generate_fleet_unpublished, FleetSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/analysis")
        .join(name)
}

/// Everything an analysis shows, as text.
fn render(snap: &ClusterSnapshot, executor: ExecutorSetting) -> String {
    let opts = AnalysisOptions {
        now: Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap(),
        alfred_namespace: "ome".into(),
        executor,
        placement: Default::default(),
    };
    let analysis = analyze(snap, &opts);
    let doc = analysis_json(snap, &analysis, Source::Snapshot, &[]);
    let mut out = serde_json::to_string_pretty(&doc).unwrap();
    out.push_str("\n--- table\n");
    out.push_str(&analysis_table(snap, &analysis, &[]));
    out.push_str("\n--- workloads\n");
    for c in &analysis.workloads.components {
        out.push_str(&format!("{c:?}\n"));
    }
    for m in &analysis.workloads.migrations {
        out.push_str(&format!("{m:?}\n"));
    }
    out.push_str("--- verdicts\n");
    for v in &analysis.verdicts {
        out.push_str(&format!("{v:?}\n"));
    }
    out
}

fn check(name: &str, got: &str) {
    let path = fixture(name);
    if std::env::var_os("OME_TOP_BLESS").is_some() {
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, got).unwrap();
        return;
    }
    let want = std::fs::read_to_string(&path).unwrap();
    if want != got {
        let line = want
            .lines()
            .zip(got.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(want.lines().count().min(got.lines().count()));
        panic!(
            "{name}: analysis output differs from the fixture at line {}:\nwant: {:?}\ngot:  {:?}",
            line + 1,
            want.lines().nth(line),
            got.lines().nth(line)
        );
    }
}

/// A fleet in generation order with its strings as generated: the shape the fixtures of the
/// first performance passes were written from.
fn fleet(seed: u64, nodes: usize, pods: usize) -> ClusterSnapshot {
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    generate_fleet_unpublished(&FleetSpec { seed, nodes, pods }, now)
}

#[test]
fn published_fleet_analysis_is_unchanged() {
    // The shape the live store publishes (store key order, interned strings); fixture written
    // by the engine of 2026-11-30 before the storage-order passes.
    let now = Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap();
    let spec = FleetSpec {
        seed: 7,
        nodes: 300,
        pods: 3_000,
    };
    let snap = generate_fleet(&spec, now);
    check(
        "fleet-300-published.txt",
        &render(&snap, ExecutorSetting::Auto),
    );
}

#[test]
fn generated_fleet_analysis_is_unchanged() {
    let snap = fleet(7, 300, 3_000);
    check("fleet-300.txt", &render(&snap, ExecutorSetting::Auto));
}

#[test]
fn gang_heavy_fleet_analysis_is_unchanged() {
    let mut snap = fleet(5, 300, 3_000);
    make_gang_heavy(&mut snap);
    check("fleet-300-gangs.txt", &render(&snap, ExecutorSetting::Auto));
}

#[test]
fn crowded_fleet_without_executor_is_unchanged() {
    // More GPU pods per node: more Pending pods and more fragmentation.
    let snap = fleet(11, 200, 4_000);
    check(
        "fleet-200-crowded.txt",
        &render(&snap, ExecutorSetting::Unavailable),
    );
}

#[test]
fn shipped_snapshots_analysis_is_unchanged() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    for (file, name) in [
        ("docs/examples/mixed-fleet.json", "mixed-fleet.txt"),
        (
            "docs/examples/worked-example-6-5.json",
            "worked-example-6-5.txt",
        ),
        ("tests/fixtures/k8s/gangs.json", "k8s-gangs.txt"),
        ("tests/fixtures/k8s/lints.json", "k8s-lints.txt"),
        (
            "tests/fixtures/k8s/ir-example-6.json",
            "k8s-ir-example-6.txt",
        ),
    ] {
        let bytes = std::fs::read(root.join(file)).unwrap();
        let (snap, _) = read_snapshot(&bytes).unwrap();
        // The converter builds each service's shared `ns/name` with it.
        for w in &snap.isvcs {
            assert_eq!(w.ns_name.as_ref(), w.key(), "{file}");
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
        check(name, &render(&snap, ExecutorSetting::Auto));
    }
}
