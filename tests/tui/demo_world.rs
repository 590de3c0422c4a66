//! The demo world (product.md §8) seen through the engine: pools and resources, health and
//! maintenance, Alfred's published pass and journal, gangs, lints, churn, and every operator op
//! (ops and their compare-and-swap semantics: tests/tui/demo_ops.rs).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

use chrono::{Duration, TimeZone, Utc};
use ome_top::engine::analysis::Analysis;
use ome_top::engine::journal::Phase;
use ome_top::engine::migration::Component;
use ome_top::engine::migration::MigrationRequest;
use ome_top::engine::model::Time;
use ome_top::engine::nodes::HealthState;
use ome_top::protocol::{ApiStatus, Op, OpOutcome, SourceKind};
use ome_top::sim::demo::{DemoWorld, MigrationPhase, UNHEALTHY_AFTER_MINUTES};

pub(crate) fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

/// Steps the world every 10 sim seconds until `until`.
pub(crate) fn run(w: &mut DemoWorld, until: Time) {
    let mut t = w.now();
    while t < until {
        t = (t + Duration::seconds(10)).min(until);
        w.step(t);
    }
}

pub(crate) fn analysis(w: &DemoWorld) -> Analysis {
    (*w.feed_default(1, w.now()).analysis).clone()
}

fn pool<'a>(a: &'a Analysis, name: &str) -> &'a ome_top::engine::pools::PoolReport {
    a.pools.iter().find(|p| p.name == name).unwrap()
}

const H100: &str = "NVIDIA-H100-80GB-HBM3";

#[test]
fn fleet_has_three_pools_with_their_accelerators() {
    let w = DemoWorld::new(7, 120, start());
    let snap = w.snapshot();
    let a = analysis(&w);
    let pools: Vec<(&str, &str)> = a
        .pools
        .iter()
        .map(|p| (p.name.as_str(), p.gpu_resource.as_str()))
        .collect();
    assert_eq!(
        pools,
        [
            ("NVIDIA-A100-SXM4-80GB", "nvidia.com/gpu"),
            (H100, "nvidia.com/gpu"),
            ("gaudi2-hl225h", "habana.ai/gaudi"),
        ]
    );
    assert_eq!(snap.nodes.len(), 120);
    assert!(snap.nodes.iter().all(|n| n.gpu_allocatable == 8));
    // Every bound pod requests its node's accelerator (Gaudi pods: habana.ai/gaudi).
    for pod in snap.pods.iter().filter(|p| p.gpus > 0) {
        let Some(node) = pod.node.as_ref() else {
            continue;
        };
        let node = snap.nodes.iter().find(|n| n.name == *node).unwrap();
        assert_eq!(pod.gpu_resource, node.gpu_resource, "{}", pod.name);
    }
    let instances: usize = a
        .workloads
        .components
        .iter()
        .map(|c| c.instances.len())
        .sum();
    assert!(instances >= 200, "{instances} Instances");
    let modes: std::collections::BTreeSet<String> = a
        .workloads
        .components
        .iter()
        .map(|c| format!("{:?}", c.mode))
        .collect();
    assert!(modes.contains("OMENative") && modes.contains("RawDeployment"));
    let eligible = a.verdicts.iter().filter(|v| v.baseline.is_ok()).count();
    assert!(eligible >= 50, "{eligible} eligible OMENative Instances");
}

#[test]
fn analysis_shows_health_maintenance_journal_alfred_gangs_and_lints() {
    let mut w = DemoWorld::new(7, 120, start());
    let before = analysis(&w);
    assert!(before
        .nodes
        .iter()
        .all(|n| n.health != HealthState::Unhealthy));
    assert_eq!(before.config_error, None);
    run(
        &mut w,
        start() + Duration::minutes(UNHEALTHY_AFTER_MINUTES + 1),
    );
    let a = analysis(&w);
    let failing = w.failing_node();
    let i = w
        .snapshot()
        .nodes
        .iter()
        .position(|n| n.name == failing)
        .unwrap();
    assert_eq!(a.nodes[i].health, HealthState::Unhealthy);
    assert!(a.nodes.iter().any(|n| n.maintenance == ["os-patching"]));
    let journal = a.journal.journal().unwrap();
    let stalled = journal
        .entries
        .iter()
        .filter(|e| e.phase == Phase::Stalled)
        .count();
    assert_eq!(stalled, 1);
    assert!(journal.entries.len() >= 3);
    assert_eq!(a.clearing.len(), 1);
    assert!(!a.clearing[0].1.checks.is_empty());
    let published = a.published.as_ref().unwrap();
    assert!(published.warnings.is_empty(), "{:?}", published.warnings);
    let cycle = published.last_cycle.as_ref().unwrap().as_ref().unwrap();
    let rows = cycle.recommendations.as_ref().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().any(|r| r.outcome == "stalled"));
    let records: Vec<_> = published
        .nodes
        .iter()
        .filter_map(|n| n.node_name.clone())
        .collect();
    assert!(records.contains(&failing.to_string()), "{records:?}");
    let states: std::collections::BTreeSet<&str> =
        a.gangs.gangs.iter().map(|g| g.state.name()).collect();
    assert!(states.len() >= 4, "{states:?}");
    assert!(!a.lints.is_empty());
    // Alfred says roughly what ome-top computes: the same identities in most rows.
    let computed: std::collections::BTreeSet<(String, i64)> = a
        .moves
        .iter()
        .map(|m| (m.workload.to_string(), m.instance))
        .collect();
    let same = rows
        .iter()
        .filter(|r| computed.contains(&(r.workload.clone(), i64::from(r.instance))))
        .count();
    assert!(same * 2 > rows.len(), "{same} of {} rows match", rows.len());
}

#[test]
fn feed_is_simulated_with_every_permission() {
    let w = DemoWorld::new(3, 40, start());
    let f = w.feed_default(5, start());
    assert_eq!(f.generation, 5);
    assert_eq!(f.source, SourceKind::Demo(3));
    assert_eq!(f.api, ApiStatus::Simulated);
    assert!(f
        .permissions
        .check(ome_top::protocol::Capability::ClearJournalEntry)
        .is_ok());
    let nodes = f.sources.iter().find(|s| s.name == "nodes").unwrap();
    assert_eq!(nodes.objects, 40);
    assert!(f.sources.iter().all(|s| s.last_change.is_some()));
}

#[test]
fn fragmentation_rises_under_churn() {
    for seed in [1, 2, 3, 42] {
        let mut w = DemoWorld::new(seed, 120, start());
        let early = pool(&analysis(&w), H100).observed;
        run(&mut w, start() + Duration::minutes(30));
        let late = pool(&analysis(&w), H100).observed;
        assert!(late > early, "seed {seed}: {early} -> {late}");
    }
}

/// The Op approving computed row `row` as `kubectl ome migration start` would.
pub(crate) fn approval(w: &DemoWorld, row: &ome_top::engine::planning::MoveRow, uuid: &str) -> Op {
    let (ns, name) = row.workload.split_once('/').unwrap();
    let snap = w.snapshot();
    let isvc = snap
        .isvcs
        .iter()
        .find(|s| s.namespace().as_ref() == ns && s.name().as_ref() == name)
        .unwrap();
    let request = MigrationRequest {
        component: Component::Engine,
        instance: row.instance as i32,
        from_node: row.from_node.as_deref().unwrap().to_string(),
        hint_target_nodes: row.hint_targets.iter().map(|h| h.to_string()).collect(),
        reason: row.reason.to_string(),
        requested_at: w.now(),
        requested_by: "ome-top".into(),
    };
    Op::ApproveMove {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
        uuid: uuid.into(),
        value: request.to_annotation_value().unwrap(),
        overrode: None,
    }
}

#[test]
fn approving_a_computed_move_runs_the_migration_and_defragments() {
    let mut w = DemoWorld::new(42, 120, start());
    let uuid = "7c9e6679-7425-40de-944b-e07fc1f90ae7";
    // Find a moment with an executable defragmentation move, then freeze the fleet.
    let (row, pool_name) = loop {
        let a = analysis(&w);
        let found = a
            .moves
            .iter()
            .find(|m| m.policy == "defragmentation" && m.plan.is_some())
            .cloned();
        if let Some(row) = found {
            break (row.clone(), row.plan.unwrap().pool.clone());
        }
        assert!(w.now() < start() + Duration::hours(2), "no executable move");
        let next = w.now() + Duration::minutes(1);
        run(&mut w, next);
    };
    w.set_churn(false);
    let before = pool(&analysis(&w), &pool_name).observed;
    let outcome = w.apply(&approval(&w, &row, uuid), w.now());
    assert!(matches!(outcome, OpOutcome::Done { .. }), "{outcome:?}");
    let mut phases = Vec::new();
    for _ in 0..12 {
        let next = w.now() + Duration::seconds(10);
        w.step(next);
        let snap = w.snapshot();
        let rows = snap
            .replicas
            .iter()
            .flat_map(|r| r.status.migrations.iter());
        if let Some(r) = rows.clone().find(|r| &*r.request_uuid == uuid) {
            if phases.last() != Some(&r.phase.to_string()) {
                phases.push(r.phase.to_string());
            }
        }
    }
    assert_eq!(
        phases,
        [
            "Accepted",
            "SurgePending",
            "SurgeReady",
            "Draining",
            "Completed"
        ]
    );
    assert_eq!(w.migrations().last().unwrap().1, MigrationPhase::Completed);
    let a = analysis(&w);
    let after = pool(&a, &pool_name).observed;
    assert!(after < before, "{pool_name}: observed {before} -> {after}");
    // The annotation is consumed; the workload now cools down.
    let (ns, name) = row.workload.split_once('/').unwrap();
    let snap = w.snapshot();
    let isvc = snap
        .isvcs
        .iter()
        .find(|s| s.namespace().as_ref() == ns && s.name().as_ref() == name)
        .unwrap();
    assert!(isvc
        .annotations
        .keys()
        .all(|k| !k.starts_with("ome.io/migration-request")));
}

#[test]
fn approval_with_a_malformed_value_is_refused() {
    let mut w = DemoWorld::new(5, 60, start());
    let snap = w.snapshot();
    let isvc = &snap.isvcs[0];
    let op = Op::ApproveMove {
        namespace: isvc.namespace().clone(),
        name: isvc.name().clone(),
        uid: isvc.uid.clone(),
        resource_version: isvc.resource_version.clone(),
        uuid: "7c9e6679-7425-40de-944b-e07fc1f90ae7".into(),
        value: r#"{"schemaVersion":"v2"}"#.into(),
        overrode: None,
    };
    assert!(matches!(w.apply(&op, start()), OpOutcome::Refused { .. }));
    assert_eq!(w.snapshot(), snap);
}
