//! The `ome-top fleet -o json` contract (docs/fleet-json.md) and its `-o table`, pinned as
//! insta snapshots (`snapshots/engine__fleet__NAME.snap`) on two shipped snapshots read as two
//! clusters plus one context that did not answer, built by the functions the command uses
//! (`report::fleet::json::fleet_json`; `fleet_rows`, `fits_lines`, `fleet_table`).
//!
//! To re-bless after an intended change, and review the diff before committing:
//! `INSTA_UPDATE=always cargo test --test engine fleet`.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use ome_top::engine::analysis::Analysis;
use ome_top::engine::model::ClusterSnapshot;
use ome_top::report::fleet::json::{fleet_json, Analysed, ClusterDoc};
use ome_top::report::fleet::table::fleet_table;
use ome_top::report::fleet::{fits_lines, fleet_rows, Answer, ClusterInput, ClusterState, Link};
use ome_top::report::json::{analysis_json, Source};

const UNREACHABLE: &str = "cluster unreachable: https://127.0.0.1:1/: connection refused";

fn cluster(path: &str) -> (ClusterSnapshot, Analysis) {
    let bytes = std::fs::read(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let doc: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
    crate::analyzed_doc(&doc, "2026-09-28T10:15:00Z")
}

fn fleet() -> [(&'static str, (ClusterSnapshot, Analysis)); 2] {
    [
        ("prod-eu", cluster("docs/examples/worked-example-6-5.json")),
        ("prod-us", cluster("docs/examples/mixed-fleet.json")),
    ]
}

#[test]
fn fleet_json_is_unchanged() {
    let clusters = fleet();
    let mut docs: Vec<ClusterDoc> = clusters
        .iter()
        .map(|(context, (snapshot, analysis))| ClusterDoc {
            context,
            server: Some("https://10.0.0.1:6443"),
            result: Ok(Analysed {
                snapshot,
                analysis,
                source: Source::Live,
                warnings: &[],
            }),
        })
        .collect();
    docs.push(ClusterDoc {
        context: "prod-ap",
        server: Some("https://127.0.0.1:1"),
        result: Err(UNREACHABLE),
    });
    let now = clusters[0].1 .1.now;
    let doc = fleet_json(now, &docs);
    // Each context's `analysis` is exactly its `analyze -o json` document.
    for (i, (_, (snap, a))) in clusters.iter().enumerate() {
        assert_eq!(
            doc["clusters"][i]["analysis"],
            analysis_json(snap, a, Source::Live, &[])
        );
    }
    assert_eq!(doc["clusters"][2]["analysis"], serde_json::Value::Null);
    insta::assert_snapshot!("fleet.json", serde_json::to_string_pretty(&doc).unwrap());
}

#[test]
fn fleet_table_is_unchanged() {
    let clusters = fleet();
    let mut inputs: Vec<ClusterInput> = clusters
        .iter()
        .map(|(context, (snapshot, analysis))| ClusterInput {
            context,
            state: ClusterState::Answered(Answer {
                snapshot,
                analysis,
                link: Link::OneShot,
                read_only: true,
                as_of: analysis.now,
            }),
        })
        .collect();
    inputs.push(ClusterInput {
        context: "prod-ap",
        state: ClusterState::Failed(UNREACHABLE),
    });
    let now = clusters[0].1 .1.now;
    let table = fleet_table(&fleet_rows(&inputs, now), &fits_lines(&inputs));
    insta::assert_snapshot!("fleet.table", table);
}
