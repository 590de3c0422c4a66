//! The queries behind an operator's approval, on demo worlds and generated fleets: every
//! computed row's Instance is located where its plan says, ome-top's verdict on a row follows
//! the gate rules (`planning::gate_hold`), and the pre-checks refuse only on a hard failure.

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)] // Tests may fail loudly.

use chrono::{Duration, TimeZone, Utc};

use ome_top::engine::analysis::{analyze, Analysis, AnalysisOptions, InstanceRef, MoveQuery};
use ome_top::engine::model::vocab::Outcome;
use ome_top::engine::model::{ClusterSnapshot, Time};
use ome_top::engine::planning::{
    first_refusal, gate_hold, override_reasons, GateHold, PreCheck, Refusal, Verdict,
};
use ome_top::sim::cluster::{generate_cluster, ClusterSpec};
use ome_top::sim::demo::DemoWorld;

fn start() -> Time {
    Utc.with_ymd_and_hms(2026, 9, 28, 10, 0, 0).unwrap()
}

fn worlds() -> Vec<(String, ClusterSnapshot, Analysis)> {
    let mut out = Vec::new();
    for seed in [1, 5] {
        let mut w = DemoWorld::new(seed, 90, start());
        let mut t = start();
        for _ in 0..30 {
            t += Duration::seconds(10);
            w.step(t);
        }
        let feed = w.feed_default(1, t);
        let name = format!("demo seed {seed}");
        out.push((name, (*feed.snapshot).clone(), (*feed.analysis).clone()));
    }
    let spec = ClusterSpec {
        seed: 7,
        nodes: 200,
        pods: 2_000,
    };
    let snap = generate_cluster(&spec, start());
    let opts = AnalysisOptions {
        now: start(),
        alfred_namespace: "ome".into(),
        executor: Default::default(),
        placement: Default::default(),
        instance_types: Default::default(),
    };
    let a = analyze(&snap, &opts);
    out.push(("fleet seed 7".into(), snap, a));
    out
}

#[test]
fn approval_queries_follow_the_engine_rules_on_every_row() {
    let mut rows = 0;
    for (name, snap, a) in worlds() {
        for row in &a.moves {
            let at = InstanceRef {
                workload: &row.workload,
                component: &row.component,
                instance: row.instance,
            };
            let found = a.locate_instance(&snap, at);
            if let Some(plan) = &row.plan {
                assert_eq!(
                    found,
                    Some((plan.component, plan.instance)),
                    "{name} {row:?}"
                );
            }
            let q = MoveQuery {
                computed: Some(row),
                published: None,
                instance: Some(at),
            };
            let v = a.move_verdict(&snap, q);
            match (&row.outcome, &row.reject_reason) {
                (Outcome::Rejected, Some(g)) => {
                    assert_eq!(
                        v.executable(),
                        gate_hold(g) == GateHold::Pacing,
                        "{name} {g}"
                    )
                }
                (Outcome::Admitted | Outcome::Withheld | Outcome::Candidate, _) => {
                    assert!(v.executable(), "{name} {row:?}")
                }
                _ => {}
            }
            let checks = a.approval_checks(&snap, found);
            let refused = first_refusal(&checks);
            let hard_failed = checks
                .iter()
                .any(|c| c.passed == Some(false) && c.check.refusal().is_some());
            assert_eq!(refused.is_some(), hard_failed, "{name} {checks:?}");
            if found.is_none() {
                assert_eq!(refused, Some(Refusal::InstanceGone), "{name}");
            }
            let overrides = override_reasons(&checks, &v);
            if let Verdict::Blocked(b) = &v {
                assert!(overrides.iter().any(|o| o.as_str() == b.as_str()), "{name}");
            }
            if let Some((c, i)) = found {
                let want = a
                    .verdicts
                    .iter()
                    .find(|x| x.component == c && x.instance == i)
                    .map(|x| x.baseline.clone());
                let got = checks.iter().find_map(|c| match (&c.check, c.passed) {
                    (PreCheck::EligibilityBaseline(why), Some(true)) => {
                        Some(Ok(())).filter(|_| why.is_none())
                    }
                    (PreCheck::EligibilityBaseline(why), Some(false)) => why.clone().map(Err),
                    _ => None,
                });
                assert_eq!(got, want, "{name} {row:?}");
            }
            rows += 1;
        }
    }
    assert!(rows > 50, "too few rows to say anything: {rows}");
}
