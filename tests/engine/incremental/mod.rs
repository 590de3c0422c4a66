//! The incremental analysis against the full one: random sequences of watch events (pods
//! added, changed — GPUs, phase, readiness, deletion, labels, moved to another node or
//! unbound — and deleted; nodes changed — health conditions, cordon, labels, taints, GPUs —
//! added and deleted; Events replaced; InferenceServices' annotations, model or mode changed,
//! added and deleted) applied to seeded fleets and to the shipped snapshots.
//! After EACH event the incremental snapshot must equal the reference snapshot edited the same
//! way, its index the index of that snapshot, and its whole `Analysis` (every field, by its
//! `Debug` rendering) the full `analyze` of it.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

mod clock;
mod kinds;
mod ops;

use std::path::PathBuf;
use std::sync::Arc;

use chrono::{TimeZone, Utc};
use proptest::prelude::*;

use ome_top::cluster::snapshot_file::read_snapshot;
use ome_top::engine::analysis::Incremental;
use ome_top::engine::analysis::{
    analyze, changes_between, changes_in, Analysis, AnalysisOptions, Change, Changed,
    ExecutorSetting, MovesRerun, MAX_CHANGES,
};
use ome_top::engine::index::SnapshotIndex;
use ome_top::engine::model::{ClusterSnapshot, Time};
use ome_top::sim::cluster::{generate_cluster, generate_cluster_unpublished, ClusterSpec};
use ome_top::sim::gang_heavy::make_gang_heavy;

use ops::{change, op};

pub fn now() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 15, 0).unwrap()
}

/// The 300-node, 3,000-pod fleet (seed 7) the event kinds are checked on.
fn event_fleet() -> ClusterSnapshot {
    generate_cluster(
        &ClusterSpec {
            seed: 7,
            nodes: 300,
            pods: 3_000,
        },
        now(),
    )
}

fn options() -> AnalysisOptions {
    AnalysisOptions {
        now: now(),
        alfred_namespace: "ome".into(),
        executor: ExecutorSetting::Auto,
        placement: Default::default(),
        instance_types: Default::default(),
    }
}

/// The fleets events are applied to.
fn fleet(which: u8) -> ClusterSnapshot {
    let spec = |seed, nodes, pods| ClusterSpec { seed, nodes, pods };
    match which % 6 {
        0 => generate_cluster(&spec(3, 24, 260), now()),
        1 => {
            let mut snap = generate_cluster(&spec(5, 30, 320), now());
            make_gang_heavy(&mut snap);
            snap
        }
        2 => generate_cluster_unpublished(&spec(11, 16, 300), now()),
        3 => shipped("docs/examples/mixed-fleet.json"),
        4 => shipped("tests/fixtures/k8s/gangs.json"),
        _ => shipped("tests/fixtures/k8s/lints.json"),
    }
}

fn shipped(file: &str) -> ClusterSnapshot {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    read_snapshot(&std::fs::read(root.join(file)).unwrap())
        .unwrap()
        .0
}

/// Applies `change` to a plain snapshot, as the incremental analysis applies it to its own.
fn edit(snap: &mut ClusterSnapshot, change: &Change) {
    match change.clone() {
        Change::Pod(pod) => {
            snap.upsert_pod(pod);
        }
        Change::PodDeleted { namespace, name } => {
            snap.delete_pod(&namespace, &name);
        }
        Change::Node(node) => {
            snap.upsert_node(node);
        }
        Change::NodeDeleted(name) => {
            snap.delete_node(&name);
        }
        Change::Events(events) => snap.events = events.into(),
        Change::Isvc(isvc) => {
            snap.upsert_isvc(*isvc);
        }
        Change::IsvcDeleted { namespace, name } => {
            snap.delete_isvc(&namespace, &name);
        }
        Change::Snapshot(s) => *snap = *s,
    }
}

/// The first field of two analyses that differs, with both renderings (`None`: equal).
fn first_difference(got: &Analysis, want: &Analysis) -> Option<String> {
    let fields: [(&str, String, String); 16] = [
        ("now", format!("{:?}", got.now), format!("{:?}", want.now)),
        (
            "config",
            format!("{:?}", got.config),
            format!("{:?}", want.config),
        ),
        (
            "config_error",
            format!("{:?}", got.config_error),
            format!("{:?}", want.config_error),
        ),
        (
            "config_present",
            format!("{:?}", got.config_present),
            format!("{:?}", want.config_present),
        ),
        (
            "executor",
            format!("{:?}", got.executor_available),
            format!("{:?}", want.executor_available),
        ),
        (
            "nodes",
            format!("{:#?}", got.nodes),
            format!("{:#?}", want.nodes),
        ),
        (
            "node_order",
            format!("{:?}", got.node_order),
            format!("{:?}", want.node_order),
        ),
        (
            "pools",
            format!("{:#?}", got.pools),
            format!("{:#?}", want.pools),
        ),
        (
            "workloads",
            format!("{:#?}", got.workloads),
            format!("{:#?}", want.workloads),
        ),
        (
            "verdicts",
            format!("{:#?}", got.verdicts),
            format!("{:#?}", want.verdicts),
        ),
        (
            "journal",
            format!("{:?}", got.journal),
            format!("{:?}", want.journal),
        ),
        (
            "clearing",
            format!("{:?}", got.clearing),
            format!("{:?}", want.clearing),
        ),
        (
            "moves",
            format!("{:#?}", got.moves),
            format!("{:#?}", want.moves),
        ),
        (
            "published",
            format!("{:?}", got.published),
            format!("{:?}", want.published),
        ),
        (
            "gangs",
            format!("{:#?}", got.gangs),
            format!("{:#?}", want.gangs),
        ),
        (
            "lints+warnings",
            format!("{:#?}{:#?}", got.lints, got.warnings),
            format!("{:#?}{:#?}", want.lints, want.warnings),
        ),
    ];
    fields
        .into_iter()
        .find(|(_, a, b)| a != b)
        .map(|(field, a, b)| {
            let line = a
                .lines()
                .zip(b.lines())
                .position(|(x, y)| x != y)
                .unwrap_or(0);
            let around = |s: &str| {
                s.lines()
                    .skip(line.saturating_sub(6))
                    .take(14)
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            format!(
                "{field} differs at line {line}:\n--- incremental\n{}\n--- full\n{}",
                around(&a),
                around(&b)
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// Incremental == full after each event of a random sequence.
    #[test]
    fn incremental_equals_full_after_every_event(
        which in 0u8..6,
        ops in proptest::collection::vec(op(), 1..24),
    ) {
        let start = fleet(which);
        let mut reference = start.clone();
        let mut inc = Incremental::new(start, options());
        for (step, op) in ops.iter().enumerate() {
            let Some(change) = change(&reference, op) else { continue };
            edit(&mut reference, &change);
            inc.apply(change);
            prop_assert!(inc.snapshot() == &reference, "step {step} ({op:?}): snapshots differ");
            prop_assert!(
                inc.index() == &SnapshotIndex::new(&reference),
                "step {step} ({op:?}): index differs"
            );
            let full = analyze(&reference, &options());
            if let Some(diff) = first_difference(inc.analysis(), &full) {
                prop_assert!(false, "step {step} ({op:?}): {diff}");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The live path: the stores move on by several events, the snapshot task diffs the new
    /// snapshot against the incremental one (every other batch walking only the parts the
    /// batch touched, as the stores' change counts say) and applies the changes. After each batch the
    /// incremental snapshot is the new one and its analysis the full analysis of it.
    #[test]
    fn changes_between_snapshots_bring_the_analysis_up_to_date(
        which in 0u8..6,
        ops in proptest::collection::vec(op(), 1..30),
        batch in 1usize..6,
    ) {
        let start = fleet(which);
        let mut reference = start.clone();
        let mut inc = Incremental::new(start, options());
        for (step, ops) in ops.chunks(batch).enumerate() {
            // What the batch touched, as the live stores' change counts tell it.
            let mut touched = Changed { pods: false, nodes: false, events: false };
            // A service changed: the stores' counts name a kind `changes_in` does not walk.
            let mut other = false;
            for op in ops {
                if let Some(change) = change(&reference, op) {
                    match &change {
                        Change::Pod(_) | Change::PodDeleted { .. } => touched.pods = true,
                        Change::Node(_) | Change::NodeDeleted(_) => touched.nodes = true,
                        Change::Events(_) => touched.events = true,
                        Change::Isvc(_) | Change::IsvcDeleted { .. } => other = true,
                        Change::Snapshot(_) => unreachable!("the ops edit pods, nodes, Events"),
                    }
                    edit(&mut reference, &change);
                }
            }
            let changes = if step % 2 == 0 && !other {
                changes_in(inc.snapshot(), &reference, touched)
            } else {
                changes_between(inc.snapshot(), &reference)
            };
            for change in changes {
                inc.apply(change);
            }
            prop_assert!(inc.snapshot() == &reference, "batch {step}: snapshots differ");
            let full = analyze(&reference, &options());
            if let Some(diff) = first_difference(inc.analysis(), &full) {
                prop_assert!(false, "batch {step} ({ops:?}): {diff}");
            }
        }
    }
}

/// Nothing changed is no change; a snapshot out of key order, a change outside pods, nodes
/// and Events, or more than `MAX_CHANGES` changes is one whole snapshot.
#[test]
fn changes_between_falls_back_to_the_whole_snapshot() {
    let snap = fleet(0);
    assert!(changes_between(&snap, &snap.clone()).is_empty());
    let whole = |c: &[Change]| matches!(c, [Change::Snapshot(_)]);

    let mut other = snap.clone();
    other.replicas_listed = !other.replicas_listed;
    assert!(whole(&changes_between(&snap, &other)));

    let mut shuffled = snap.clone();
    shuffled.nodes.swap(0, 1);
    assert!(whole(&changes_between(&snap, &shuffled)));

    let mut emptied = snap.clone();
    let many = generate_cluster(
        &ClusterSpec {
            seed: 9,
            nodes: 24,
            pods: MAX_CHANGES + 50,
        },
        now(),
    );
    emptied.pods = many.pods;
    assert!(whole(&changes_between(&snap, &emptied)));
}

/// What each kind of pod event re-runs on a 3,000-pod fleet, and that the result is still the
/// full analysis: a node agent's update reruns nothing; a model
/// pod's readiness rebuilds its component and merges that component's move rows; a model
/// pod's deletion changes its node's allocation, so its pool's rows are rebuilt.
#[test]
fn each_event_kind_reruns_only_what_it_touches() {
    let snap = event_fleet();
    let mut inc = Incremental::new(snap, options());
    let check = |inc: &Incremental| {
        let full = analyze(inc.snapshot(), &options());
        assert_eq!(first_difference(inc.analysis(), &full), None);
    };
    let pods = &inc.snapshot().pods;
    let agent = pods
        .iter()
        .find(|p| p.gpus == 0 && p.node.is_some() && p.ome.isvc.is_none())
        .cloned()
        .expect("node agents");
    let a = inc.analysis();
    let movable = a
        .verdicts
        .iter()
        .filter(|v| v.defrag.is_ok())
        .find_map(|v| {
            let inst = &a.workloads.components[v.component].instances[v.instance];
            inst.pods.first().map(|p| pods[*p].clone())
        })
        .expect("a movable Instance");

    let mut changed = agent.clone();
    changed.ready = !changed.ready;
    inc.apply(Change::Pod(Arc::new(changed)));
    let r = inc.last_rerun();
    assert!(
        !r.full && r.components == 0 && r.pools == 0 && !r.lints && !r.gangs,
        "{r:?}"
    );
    assert_eq!(r.moves, MovesRerun::Reused);
    check(&inc);

    let mut flipped = movable.clone();
    flipped.ready = !flipped.ready;
    inc.apply(Change::Pod(Arc::new(flipped)));
    let r = inc.last_rerun();
    assert!(!r.full && r.components >= 1 && !r.lints, "{r:?}");
    assert!(
        matches!(r.moves, MovesRerun::Components(n) if n >= 1),
        "{r:?}"
    );
    check(&inc);

    inc.apply(Change::PodDeleted {
        namespace: movable.namespace.clone(),
        name: movable.name.clone(),
    });
    let r = inc.last_rerun();
    assert!(!r.full && r.nodes >= 1 && r.pools >= 1 && r.lints, "{r:?}");
    check(&inc);
    inc.apply(Change::Pod(Arc::new(movable)));
    check(&inc);
}
