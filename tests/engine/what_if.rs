//! The on-demand views of one Instance the Moves detail reads, checked against the decision
//! pass they explain: the what-if (surge plan, fragmentation before and after) equals the plan
//! of every executable row, and the eligibility checklist's first failure is the verdict's
//! reason, on demo worlds and generated fleets.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use chrono::{Duration, TimeZone, Utc};

use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, ExecutorSetting};
use ome_top::engine::model::vocab::AdvisoryReason;
use ome_top::engine::model::{ClusterSnapshot, Time};
use ome_top::engine::workloads::{baseline_checklist, defrag_checklist, first_failure};
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::demo::DemoWorld;

fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

/// Demo worlds a few sim minutes in (churn, migrations, the journal) and generated fleets.
fn worlds() -> Vec<(String, ClusterSnapshot, Analysis)> {
    let mut out = Vec::new();
    for seed in [1, 2, 5] {
        let mut w = DemoWorld::new(seed, 90, start());
        let mut t = start();
        for _ in 0..30 {
            t += Duration::seconds(10);
            w.step(t);
        }
        let feed = w.feed_default(1, t);
        out.push((
            format!("demo seed {seed}"),
            (*feed.snapshot).clone(),
            (*feed.analysis).clone(),
        ));
    }
    for (seed, executor) in [(7, ExecutorSetting::Auto), (3, ExecutorSetting::Available)] {
        let snap = generate_cluster(
            &ClusterSpec {
                seed,
                nodes: 200,
                pods: 2_000,
            },
            start(),
        );
        let opts = AnalysisOptions {
            now: start(),
            alfred_namespace: "ome".into(),
            executor,
            placement: Default::default(),
            instance_types: Default::default(),
        };
        let a = analyze(&snap, &opts);
        out.push((format!("fleet seed {seed}"), snap, a));
    }
    out
}

#[test]
fn the_what_if_of_an_executable_row_is_its_plan() {
    let mut planned = 0;
    for (name, snap, a) in worlds() {
        for row in &a.moves {
            let Some(plan) = &row.plan else { continue };
            let w = a
                .what_if(&snap, plan.component, plan.instance)
                .unwrap_or_else(|| panic!("{name}: no what-if for {row:?}"));
            assert_eq!(w.pool, plan.pool, "{name}");
            assert_eq!(w.before, plan.before, "{name} {}", row.workload);
            assert_eq!(w.after, plan.after, "{name} {}", row.workload);
            assert_eq!(w.from, Some(plan.from), "{name} {}", row.workload);
            assert_eq!(
                w.placements.as_deref(),
                Some(&plan.placements[..]),
                "{name}"
            );
            let gpus: Vec<u32> = plan.footprints.iter().map(|(_, g)| *g).collect();
            assert_eq!(w.footprints, gpus, "{name}");
            planned += 1;
        }
    }
    assert!(planned > 0, "no executable row in any world");
}

#[test]
fn a_move_without_headroom_has_no_placement_and_no_candidate_that_fits() {
    let mut seen = 0;
    for (name, snap, a) in worlds() {
        for row in &a.moves {
            if row.advisory_reason != Some(AdvisoryReason::NoSurgeHeadroom) || row.instance < 0 {
                continue;
            }
            let (c, i) = locate(&snap, &a, &row.workload, &row.component, row.instance);
            let w = a.what_if(&snap, c, i).unwrap();
            assert_eq!(w.placements, None, "{name} {}", row.workload);
            assert_eq!(w.after, None);
            let largest = w.footprints[0];
            // Candidates are listed most free first: the first one is the best there is.
            assert!(
                w.candidates.first().is_none_or(|(_, free)| *free < largest)
                    || w.footprints.len() > 1,
                "{name} {}: {w:?}",
                row.workload
            );
            assert!(w.candidates.windows(2).all(|p| p[0].1 >= p[1].1));
            seen += 1;
        }
    }
    assert!(seen > 0, "no NoSurgeHeadroom row in any world");
}

#[test]
fn the_checklists_first_failure_is_the_verdict() {
    let mut checked = 0;
    for (name, snap, a) in worlds() {
        let rules = a.eligibility_rules();
        for v in &a.verdicts {
            let comp = &a.workloads.components[v.component];
            let inst = &comp.instances[v.instance];
            let baseline = baseline_checklist(&snap, &a.workloads, comp, inst, &rules);
            assert_eq!(
                first_failure(&baseline),
                v.baseline.clone().err(),
                "{name}: {baseline:?}"
            );
            let mut defrag = defrag_checklist(&snap, &a.workloads, comp, &rules, a.now);
            defrag.extend(baseline);
            assert_eq!(first_failure(&defrag), v.defrag.clone().err(), "{name}");
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} verdicts");
}

fn locate(
    snap: &ClusterSnapshot,
    a: &Analysis,
    workload: &str,
    component: &str,
    instance: i64,
) -> (usize, usize) {
    a.workloads
        .components
        .iter()
        .enumerate()
        .find_map(|(c, comp)| {
            let isvc = &snap.isvcs[comp.isvc];
            if comp.name() != component || isvc.key() != workload {
                return None;
            }
            let i = comp.instances.iter().position(|x| x.index == instance)?;
            Some((c, i))
        })
        .unwrap()
}
