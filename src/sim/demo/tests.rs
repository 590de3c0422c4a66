//! Unit tests of the demo world's parts: the clock, the journal document, the config, request
//! UUIDs, placement and the cluster generator's accelerators.

use chrono::{Duration, TimeZone, Utc};

use super::*;
use crate::engine::alfred_config::parse_alfred_config;
use crate::engine::journal::{parse_journal, Phase};
use crate::engine::migration::annotation_key;
use crate::engine::model::Time;

fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

#[test]
fn clock_scales_wall_time_and_never_goes_back() {
    let wall = Utc.with_ymd_and_hms(2030, 1, 1, 0, 0, 0).unwrap();
    let clock = DemoClock {
        start: start(),
        wall_start: wall,
        speed: 10.0,
    };
    assert_eq!(
        clock.sim_time(wall + Duration::seconds(3)),
        start() + Duration::seconds(30)
    );
    assert_eq!(clock.sim_time(wall - Duration::seconds(3)), start());
    let broken = DemoClock {
        speed: f64::NAN,
        ..clock
    };
    assert_eq!(
        broken.sim_time(wall + Duration::seconds(3)),
        start() + Duration::seconds(3)
    );
}

#[test]
fn config_is_valid_with_a_maintenance_trigger() {
    let cfg = parse_alfred_config(&alfred::config_yaml()).unwrap();
    assert_eq!(cfg.policies.node_health.maintenance.triggers.len(), 1);
    assert_eq!(
        cfg.decision_loop_interval,
        std::time::Duration::from_secs(60)
    );
}

#[test]
fn request_uuids_are_lowercase_v4() {
    let mut rng = crate::sim::rng::Rng::new(1);
    let a = journal::uuid(&mut rng);
    let b = journal::uuid(&mut rng);
    assert_ne!(a, b);
    assert!(annotation_key(&a).is_ok(), "{a}");
    assert_eq!(&a[14..15], "4");
}

#[test]
fn journal_passes_alfreds_strict_reader_with_one_stalled_entry() {
    let w = DemoWorld::new(1, 60, start());
    let text = w.journal.render();
    let j = parse_journal(text.as_bytes()).unwrap();
    let stalled: Vec<_> = j
        .entries
        .iter()
        .filter(|e| e.phase == Phase::Stalled)
        .collect();
    assert_eq!(stalled.len(), 1);
    assert!(j.entries.iter().any(|e| e.phase == Phase::Completed));
    // The ConfigMap holds exactly what the journal renders.
    let cm = w
        .snap
        .config_map(DEMO_NAMESPACE, "alfred-dispatch-state")
        .unwrap();
    assert_eq!(cm.data["state.json"], text);
}

#[test]
fn every_change_bumps_the_resource_version() {
    let mut w = DemoWorld::new(2, 40, start());
    let before = w.revision;
    w.step(start() + Duration::minutes(UNHEALTHY_AFTER_MINUTES));
    assert!(w.revision > before);
    let node = &w.snap.nodes[w.failure.node];
    assert!(node.resource_version.parse::<u64>().unwrap() > before);
    assert!(w.failure.done);
}

#[test]
fn least_allocated_spreads_and_most_allocated_packs() {
    let w = DemoWorld::new(4, 40, start());
    let mut free = place::free_devices(&w.snap);
    let mut rng = crate::sim::rng::Rng::new(9);
    let spread = place::choose(
        &w.snap,
        &free,
        &mut rng,
        (0, 1),
        place::Strategy::LeastAllocated,
        &[],
    );
    let packed = place::choose(
        &w.snap,
        &free,
        &mut rng,
        (0, 1),
        place::Strategy::MostAllocated,
        &[],
    );
    let (spread, packed) = (spread.unwrap(), packed.unwrap());
    assert!(free[spread] >= free[packed]);
    // A node with no room is never chosen.
    for f in free.iter_mut() {
        *f = 0;
    }
    assert_eq!(
        place::choose(
            &w.snap,
            &free,
            &mut rng,
            (0, 1),
            place::Strategy::LeastAllocated,
            &[]
        ),
        None
    );
}

#[test]
fn generated_gaudi_pods_request_habana_gaudi() {
    use crate::sim::cluster::{generate_cluster, ClusterSpec};
    let spec = ClusterSpec {
        seed: 3,
        nodes: 60,
        pods: 600,
    };
    let snap = generate_cluster(&spec, start());
    let mut gaudi = 0;
    for pod in snap.pods.iter().filter(|p| p.gpus > 0 && p.node.is_some()) {
        let node = snap
            .nodes
            .iter()
            .find(|n| Some(&n.name) == pod.node.as_ref())
            .unwrap();
        assert_eq!(pod.gpu_resource, node.gpu_resource, "{}", pod.name);
        gaudi += usize::from(pod.gpu_resource.as_deref() == Some("habana.ai/gaudi"));
    }
    assert!(gaudi > 0);
}

#[test]
fn replica_rows_pass_alfreds_row_checks_through_churn() {
    let mut w = DemoWorld::new(6, 60, start());
    for k in 1..=30 {
        w.step(start() + Duration::seconds(20 * k));
        for ir in &w.snap.replicas {
            let rows = ir.status.rows.as_ref().unwrap();
            assert!(
                crate::engine::workloads::check_rows(rows).is_ok(),
                "{}",
                ir.name
            );
            assert_eq!(ir.status.counters[0], rows.len() as i64, "{}", ir.name);
        }
    }
}

#[test]
fn node_count_is_clamped_to_what_the_cluster_needs() {
    for asked in [0, 1, 12] {
        let w = DemoWorld::new(8, asked, start());
        assert_eq!(w.snap.nodes.len(), MIN_NODES);
        assert!(w.snap.nodes[w.failure.node]
            .labels
            .get("nvidia.com/gpu.product")
            .is_some());
    }
}

#[test]
fn a_node_reads_back_from_its_yaml_as_the_object_it_stands_for() {
    let world = DemoWorld::new(1, MIN_NODES, start());
    let node = &world.snap.nodes[3];
    let yaml = world.node_yaml(&node.name).unwrap();
    let obj: serde_json::Value = serde_saphyr::from_str(&yaml).unwrap();
    assert_eq!(obj["kind"], "Node");
    assert_eq!(obj["metadata"]["name"], node.name.as_ref());
    assert_eq!(
        obj["metadata"]["resourceVersion"],
        node.resource_version.as_ref()
    );
    for (k, v) in &node.labels.0 {
        assert_eq!(obj["metadata"]["labels"][k.as_ref()], v.as_ref(), "{k}");
    }
    let gpu = node.gpu_resource.as_deref().unwrap();
    assert_eq!(
        obj["status"]["allocatable"][gpu],
        node.gpu_allocatable.to_string()
    );
    assert_eq!(obj["status"]["capacity"]["cpu"], "96");
    assert_eq!(
        obj["status"]["conditions"][0]["type"],
        node.conditions[0].kind.as_ref()
    );
    assert!(world
        .node_yaml("no-such-node")
        .unwrap_err()
        .to_string()
        .contains("not found"));
}
