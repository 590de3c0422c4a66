//! A move only Alfred's pacing holds back: when it can run and why, from what the analysis
//! already knows (the workload's last move and cooldown, the Instance's pod start times, the
//! moves in flight, Alfred's limits; the hourly cap's end is the engine's
//! `planning::hourly_cap_ends`, over the ledger and snapshot counts the arbiter counts). Times
//! are "at the earliest": Alfred's own memory may hold moves neither shows.
//!
//! Owns: `Pacing`, `pacing`, `pacing_words`. Plain data.

use chrono::Duration;

use crate::engine::analysis::Analysis;
use crate::engine::model::vocab::RejectReason;
use crate::engine::model::{ClusterSnapshot, Time};
use crate::engine::planning::hourly_cap_ends;
use crate::engine::workloads::cooldown_minutes;

/// When a paced move can run and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pacing {
    /// The earliest time it can run, when a clock decides it.
    pub at: Option<Time>,
    /// Why, in the operator's words (the limit and what it counts).
    pub why: String,
}

/// The pacing of a move rejected by `gate`, for the Instance at `at` (component, Instance).
pub fn pacing(
    snap: &ClusterSnapshot,
    a: &Analysis,
    gate: &RejectReason,
    at: Option<(usize, usize)>,
) -> Option<Pacing> {
    let cfg = &a.config;
    let comp = at.and_then(|(c, _)| a.workloads.components.get(c));
    let inst = at.and_then(|(c, i)| a.workloads.components.get(c)?.instances.get(i));
    let migrations = comp.and_then(|c| a.workloads.migrations.get(c.isvc));
    let minutes = |m: i64| Duration::minutes(m);
    let p = |at: Option<Time>, why: String| Some(Pacing { at, why });
    match gate {
        RejectReason::Cooldown => {
            let isvc = snap.isvcs.get(comp?.isvc)?;
            let window = cooldown_minutes(isvc, i64::from(cfg.per_workload_cooldown_minutes));
            let last = migrations?.last_migration?;
            p(
                Some(last + minutes(window)),
                format!("the workload's cooldown of {window} min since its last move ends"),
            )
        }
        RejectReason::PlacementCooldown => {
            let newest = inst?
                .pods
                .iter()
                .filter_map(|p| snap.pods.get(*p)?.started)
                .max()?;
            let window = i64::from(cfg.recent_placement_cooldown_minutes);
            p(
                Some(newest + minutes(window)),
                format!("the Instance's newest pod is {window} min old (recent-placement cooldown)"),
            )
        }
        RejectReason::NodeCooldown => p(
            None,
            format!(
                "the source node had a move in the last {} min (per-node cooldown); it can run once that move is older",
                cfg.per_node_cooldown_minutes
            ),
        ),
        RejectReason::HourlyCap => {
            let journal = a.journal.journal();
            let cap = cfg.max_migrations_per_hour;
            p(
                hourly_cap_ends(journal, &a.workloads.migrations, a.now, cap),
                format!(
                    "the hourly cap ({} moves an hour) resets as the oldest move of the last hour ages out",
                    cfg.max_migrations_per_hour
                ),
            )
        }
        RejectReason::InFlightCap => {
            let flying: u32 = a.workloads.migrations.iter().map(|m| m.active).sum();
            p(
                None,
                format!(
                    "{flying} moves are in flight, Alfred's cap is {}: it can run when one of them ends",
                    cfg.max_in_flight_migrations
                ),
            )
        }
        RejectReason::TargetNodeBusy => p(
            None,
            "another move of this pass takes the targets with room: it can run in a later pass, once that move is placed".into(),
        ),
        RejectReason::TargetUnderEvacuation => p(
            None,
            "the target is being emptied by another move: it can run once that evacuation ends".into(),
        ),
        RejectReason::CircuitBreakerOpen => p(
            None,
            "Alfred's circuit breaker is open after failed moves: it can run once it closes".into(),
        ),
        _ => None,
    }
}

/// `can run at 05:40 (in 12m): the workload's cooldown … ends` in one line.
pub fn pacing_words(p: &Pacing, now: Time, shown: impl Fn(Time) -> String) -> String {
    match p.at {
        Some(t) if t <= now => format!("can run now: {} (it ended {})", p.why, shown(t)),
        Some(t) => format!("can run at {}: {}", shown(t), p.why),
        None => format!("when: {}", p.why),
    }
}
