//! The engine through the library, no binary and no cluster: Alfred's decisions (`moves`),
//! eligibility, gangs and their reason classification, lints, the golden analyses of the
//! `analyze` contract (`analysis_identity`), and the source tree's house rules
//! (`architecture`). One test binary: `cargo test --test engine`.

mod analysis_identity;
mod approval;
mod architecture;
mod eligibility;
mod fits;
mod fleet;
mod gang;
mod incremental;
mod lints;
mod moves;
mod ome_samples;
mod pool_names;
mod scenario;
mod unowned;
mod what_if;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::ClusterSnapshot;

/// A snapshot List document read and analysed at `now` with the default options (Alfred in
/// `ome`, the executor as the journal says, the built-in instance-type table).
#[allow(clippy::unwrap_used)] // Tests may fail loudly.
pub fn analyzed_doc(doc: &serde_json::Value, now: &str) -> (ClusterSnapshot, Analysis) {
    let (snap, _) = read_snapshot(doc.to_string().as_bytes()).unwrap();
    let opts = AnalysisOptions {
        now: now.parse().unwrap(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let a = analyze(&snap, &opts);
    (snap, a)
}
