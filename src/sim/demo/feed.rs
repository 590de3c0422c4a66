//! The demo's `protocol::Feed`: the world's snapshot, the engine's analysis of it, the sources
//! with their last change, `ApiStatus::Simulated`, `SourceKind::Demo(seed)` and every
//! permission allowed.
//!
//! Owns: `DemoWorld::feed`, `SOURCE_NAMES`. Pure.

use std::sync::Arc;

use crate::engine::analysis::{analyze, AnalysisOptions};
use crate::engine::gangs::SCHEDULER_CONFIG_MAP;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::protocol::{ApiStatus, Feed, Permissions, Presence, SourceKind, SourceState};
use crate::sim::demo::{DemoWorld, DEMO_NAMESPACE};

/// The sources the demo reports, in the header's order (`Source` indexes this).
pub const SOURCE_NAMES: [&str; 8] = [
    "nodes",
    "pods",
    "inferenceservices",
    "inferencereplicas",
    "podgroups",
    "config",
    "recommendations",
    "journal",
];

/// How many objects of source `i` the snapshot holds (ConfigMaps: 1 when present).
fn objects(snap: &ClusterSnapshot, i: usize) -> usize {
    let cm = |name: &str| usize::from(snap.config_map(DEMO_NAMESPACE, name).is_some());
    match i {
        0 => snap.nodes.len(),
        1 => snap.pods.len(),
        2 => snap.isvcs.len(),
        3 => snap.replicas.len(),
        4 => snap.pod_groups.len(),
        5 => cm(crate::engine::analysis::ALFRED_CONFIG),
        6 => cm(crate::engine::analysis::ALFRED_RECOMMENDATIONS),
        _ => cm(crate::engine::analysis::ALFRED_JOURNAL),
    }
}

impl DemoWorld {
    /// The feed of generation `generation` at sim time `now`: runs `analyze` with `options`
    /// (its `now` is replaced by `now`).
    pub fn feed(&self, generation: u64, now: Time, options: &AnalysisOptions) -> Feed {
        let snapshot = self.snapshot();
        let mut opts = options.clone();
        opts.now = now;
        let analysis = analyze(&snapshot, &opts);
        let mut sources: Vec<SourceState> = SOURCE_NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let count = objects(&snapshot, i);
                SourceState {
                    name,
                    presence: if i >= 5 && count == 0 {
                        Presence::Absent
                    } else {
                        Presence::Present
                    },
                    last_change: self.changed[i],
                    objects: count,
                    listing: None,
                }
            })
            .collect();
        // The demo runs the OME scheduler with its chart defaults: no ConfigMap to show.
        let scheduler = snapshot.config_map(DEMO_NAMESPACE, SCHEDULER_CONFIG_MAP);
        sources.push(SourceState {
            name: "scheduler-config",
            presence: if scheduler.is_some() {
                Presence::Present
            } else {
                Presence::Absent
            },
            last_change: Some(self.start),
            objects: usize::from(scheduler.is_some()),
            listing: None,
        });
        Feed {
            generation,
            source: SourceKind::Demo(self.seed),
            api: ApiStatus::Simulated,
            sources,
            snapshot: Arc::new(snapshot),
            analysis: Arc::new(analysis),
            permissions: Permissions::all_allowed(),
            warnings: Vec::new(),
        }
    }

    /// `feed` with the demo's default options (Alfred in `ome`, executor from the journal).
    pub fn feed_default(&self, generation: u64, now: Time) -> Feed {
        self.feed(generation, now, &super::alfred::demo_options(now))
    }
}
