//! Each kind of the benchmarks' events (`sim::events`) against the full analysis, and what it
//! re-runs.

use ome_top::engine::analysis::{analyze, Incremental, MovesRerun};
use ome_top::sim::fleet::{generate_fleet, FleetSpec};

use super::{first_difference, now, options};

/// Every kind of the benchmarks' events (`sim::events`), applied and undone on a 3,000-pod
/// fleet, leaves the full analysis; none of them but a node's health condition (whose
/// evacuation rows the health policy ranks over the fleet) runs the whole decision pass, and
/// none runs the whole analysis. A service's annotation re-runs its own components only; a
/// cordon leaves the gang report alone.
#[test]
fn every_benchmarked_event_kind_equals_the_full_analysis() {
    let snap = generate_fleet(
        &FleetSpec {
            seed: 7,
            nodes: 300,
            pods: 3_000,
        },
        now(),
    );
    let mut inc = Incremental::new(snap, options());
    let kinds = ome_top::sim::events::event_kinds(inc.snapshot(), inc.analysis());
    let names: Vec<&str> = kinds.iter().map(|k| k.name).collect();
    assert_eq!(names.len(), 10, "{names:?}");
    for kind in kinds {
        for (step, change) in [&kind.change, &kind.undo].into_iter().enumerate() {
            inc.apply(change.clone());
            let r = inc.last_rerun();
            let full = analyze(inc.snapshot(), &options());
            assert_eq!(
                first_difference(inc.analysis(), &full),
                None,
                "{} step {step}",
                kind.name
            );
            assert!(!r.full, "{} step {step}: {r:?}", kind.name);
            if kind.name != "node_condition_change" {
                assert_ne!(r.moves, MovesRerun::Full, "{} step {step}", kind.name);
            }
            match kind.name {
                "isvc_annotation_change" | "isvc_migration_request" => {
                    assert!(r.components >= 1 && !r.gangs && !r.lints, "{r:?}")
                }
                "node_cordon" => assert!(!r.gangs && r.lints, "{r:?}"),
                _ => {}
            }
        }
    }
}
