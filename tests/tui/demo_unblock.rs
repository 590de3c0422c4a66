//! The demo end to end: a pending GPU pod whose unblock plan exists is scheduled by the
//! demo's scheduler pass once the plan's moves, approved one by one as `kubectl ome migration
//! start` would, have run (the fleet is frozen while they run, so no arrival takes the room first;
//! then one pass of the demo's scheduler).

use chrono::Duration;
use ome_top::engine::unblock::Unblock;
use ome_top::protocol::OpOutcome;
use ome_top::report::pending::pending_entries;
use ome_top::sim::demo::DemoWorld;

use crate::demo_world::{analysis, approval, run, start};

#[test]
fn approving_the_plans_moves_gets_the_pending_pod_scheduled() {
    let mut scheduled = 0;
    for seed in [1, 2] {
        let mut w = DemoWorld::new(seed, 90, start());
        run(&mut w, start() + Duration::minutes(5));
        w.set_churn(false);
        let snap = w.snapshot();
        let a = analysis(&w);
        let found = pending_entries(&snap, &a)
            .into_iter()
            .find_map(|e| match e.unblock {
                Unblock::Plan(p) if e.explanation.gang.is_none() => Some((e.explanation.pod, p)),
                _ => None,
            });
        let Some((pod, plan)) = found else { continue };
        let key = (
            snap.pods[pod].namespace.clone(),
            snap.pods[pod].name.clone(),
        );
        for (i, m) in plan.moves.iter().enumerate() {
            let uuid = format!("7c9e6679-7425-40de-944b-e07fc1f90a{i:02}");
            let outcome = w.apply(&approval(&w, &a.moves[m.row], &uuid), w.now());
            assert!(
                matches!(outcome, OpOutcome::Done { .. }),
                "seed {seed}: {outcome:?}"
            );
        }
        let until = w.now() + Duration::minutes(3);
        run(&mut w, until);
        w.schedule_pending(w.now());
        let after = w.snapshot();

        let bound = after
            .pods
            .iter()
            .find(|p| (&p.namespace, &p.name) == (&key.0, &key.1))
            .is_some_and(|p| p.node.is_some());
        assert!(
            bound,
            "seed {seed}: {}/{} still pending after {plan:?}",
            key.0, key.1
        );
        scheduled += 1;
    }
    assert!(
        scheduled > 0,
        "a demo world has a pending pod a plan unblocks"
    );
}
