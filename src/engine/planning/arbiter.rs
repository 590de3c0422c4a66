//! Alfred's arbiter and dispatcher view (`alfred.md` §8): orders executable candidates, runs
//! the arbiter's safety gates in order (`safety_gates`; first failure = `rejectReason`, what an
//! operator's approval may pass over is `overrides::gate_hold`), claims targets, and marks what
//! the dispatcher would withhold and why — "what Alfred would do next and why it doesn't".
//!
//! Alfred's in-memory state (dispatch ledger, circuit-breaker ring) is reconstructed from its
//! dispatch journal, the only durable record of its own dispatches.
//!
//! Owns: `arbitrate_in`, `ArbiterState`, `hourly_cap_ends` (when the hourly cap lets a move
//! through again, from the same counts), `hourly_count` (those counts now).

use rustc_hash::FxHashSet as HashSet;

use chrono::Duration;

use crate::engine::journal::{Journal, Phase};
use crate::engine::model::vocab::{DispatchReason, Outcome, Reason, RejectReason};
use crate::engine::model::Time;
use crate::engine::planning::moves::MoveRow;
use crate::engine::planning::surge::PoolTargets;
use crate::engine::planning::PlanContext;
use crate::engine::workloads::{cooldown_minutes, is_movable, WorkloadMigrations};

/// How long a terminal outcome keeps the circuit breaker open (the ring's newest).
pub(super) const BREAKER_WINDOW: Duration = Duration::minutes(60);
/// The window of the hourly dispatch cap (the ledger's and the snapshot's count).
pub(super) const HOUR: Duration = Duration::hours(1);

/// Alfred's per-pass view of its own history, rebuilt from the journal.
#[derive(Debug, Clone, Default)]
pub struct ArbiterState {
    /// The circuit breaker is open (≥ 4 recent terminal outcomes, more than half failed).
    pub breaker_open: bool,
    /// `(node, time)` of nodes touched by Alfred's own dispatches (source or target).
    pub node_touches: Vec<(String, chrono::DateTime<chrono::Utc>)>,
    /// Alfred's own dispatches created within the last hour.
    pub ledger_last_hour: u32,
    /// A pass-wide dispatch withhold reason (`JournalUnavailable`, `UnresolvedRequest`, …).
    pub pass_withhold: Option<DispatchReason>,
    /// A preflight reason of the first admitted candidate (`InFlightCap` while any request is
    /// pending anywhere in the cluster).
    pub first_preflight: Option<DispatchReason>,
}

impl ArbiterState {
    /// Rebuilds the state from a parsed journal (`None` = absent: migration API off).
    pub fn from_journal(journal: Option<&Journal>, now: chrono::DateTime<chrono::Utc>) -> Self {
        let Some(j) = journal else {
            return ArbiterState::default();
        };
        let mut terminal: Vec<(chrono::DateTime<chrono::Utc>, bool)> = j
            .entries
            .iter()
            .filter_map(|e| match (e.phase, e.completed_at) {
                (Phase::Completed, Some(t)) => Some((t, false)),
                (Phase::Failed, Some(t)) => Some((t, true)),
                _ => None,
            })
            .collect();
        terminal.sort_by_key(|(t, _)| *t);
        let ring: Vec<_> = terminal.iter().rev().take(10).collect();
        let failures = ring.iter().filter(|(_, failed)| *failed).count();
        let newest = ring.first().map(|(t, _)| *t);
        let breaker_open = ring.len() >= 4
            && failures * 2 > ring.len()
            && newest.is_some_and(|t| now - t < BREAKER_WINDOW);
        let mut node_touches = Vec::new();
        for e in &j.entries {
            let at = e.completed_at.unwrap_or(e.created_at);
            node_touches.push((e.from_node.clone(), at));
            node_touches.extend(e.targets.iter().map(|t| (t.clone(), at)));
        }
        let ledger_last_hour = last_hour(&ledger_times(Some(j)), now).len() as u32;
        ArbiterState {
            breaker_open,
            node_touches,
            ledger_last_hour,
            pass_withhold: None,
            first_preflight: None,
        }
    }

    fn cooling(&self, node: &str, window: Duration, now: chrono::DateTime<chrono::Utc>) -> bool {
        self.node_touches
            .iter()
            .any(|(n, t)| n == node && now - *t < window)
    }
}

/// Per-pass bookkeeping of the arbiter.
struct Pass {
    evacuating: HashSet<usize>,
    landed: HashSet<usize>,
    claims: Vec<(usize, u32)>,
    workloads: HashSet<usize>,
    admitted: u32,
}

/// `arbitrate` over `rows` taken in `pass_order` (a permutation of their positions), as if
/// they were laid out in that order: the rows themselves are not moved.
pub fn arbitrate_in(
    ctx: &PlanContext<'_>,
    state: &ArbiterState,
    rows: &mut [MoveRow],
    pass_order: &[usize],
) {
    let mut order: Vec<usize> = pass_order
        .iter()
        .copied()
        .filter(|i| {
            rows.get(*i)
                .is_some_and(|r| r.outcome == Outcome::Candidate)
        })
        .collect();
    order.sort_by(|a, b| {
        let (x, y) = (&rows[*a], &rows[*b]);
        y.class()
            .cmp(&x.class())
            .then_with(|| y.score.total_cmp(&x.score))
            .then_with(|| x.footprint.cmp(&y.footprint))
    });
    let mut pass = Pass {
        evacuating: order
            .iter()
            .filter(|i| rows[**i].class() > 0)
            .filter_map(|i| rows[*i].plan.as_ref().map(|p| p.from))
            .collect(),
        landed: HashSet::default(),
        claims: Vec::new(),
        workloads: HashSet::default(),
        admitted: 0,
    };
    let mut first_admitted = true;
    for i in order {
        match safety_gates(ctx, state, &mut pass, &rows[i]) {
            Err(reason) => {
                rows[i].outcome = Outcome::Rejected;
                rows[i].reject_reason = Some(reason);
            }
            Ok((target, overridden)) => {
                let row = &mut rows[i];
                row.target = Some(ctx.node_name(target));
                row.cooldown_overridden = overridden;
                let preflight = state.pass_withhold.clone().or_else(|| {
                    if !first_admitted {
                        return None;
                    }
                    if state.first_preflight.is_some() {
                        return state.first_preflight.clone();
                    }
                    let plan = row.plan.as_ref()?;
                    let comp = &ctx.workloads.components[plan.component];
                    ctx.scheduling_problem(&comp.instances[plan.instance])
                        .map(|_| DispatchReason::SourceUnsupported)
                });
                let (outcome, reason) = match (preflight, first_admitted) {
                    (Some(r), _) => (Outcome::Withheld, Some(r)),
                    (None, true) => (Outcome::Admitted, None),
                    (None, false) => (Outcome::Withheld, Some(DispatchReason::SerialDispatchLimit)),
                };
                // Alfred attempts one submission a pass; a pass-wide reason withholds all alike.
                first_admitted &= state.pass_withhold.is_some();
                row.outcome = outcome;
                row.dispatch_reason = reason;
            }
        }
    }
}

/// The arbiter's safety gates, 1–14 of §8.2, for one candidate; `Ok((first target, cooldown
/// overridden))`. Which of them an operator's approval needs no override for:
/// `overrides::gate_hold`.
fn safety_gates(
    ctx: &PlanContext<'_>,
    state: &ArbiterState,
    pass: &mut Pass,
    row: &MoveRow,
) -> Result<(usize, bool), RejectReason> {
    let plan = row.plan.as_ref().ok_or(RejectReason::InstanceGone)?;
    let comp = ctx
        .workloads
        .components
        .get(plan.component)
        .ok_or(RejectReason::InstanceGone)?;
    let inst = comp
        .instances
        .get(plan.instance)
        .ok_or(RejectReason::InstanceGone)?;
    let isvc = &ctx.snap.isvcs[comp.isvc];
    let migrations = &ctx.workloads.migrations[comp.isvc];
    let cfg = ctx.cfg;
    let unhealthy = row.reason == Reason::NodeUnhealthy;
    let check = |ok: bool, reason| if ok { Ok(()) } else { Err(reason) };
    check(!state.breaker_open, RejectReason::CircuitBreakerOpen)?;
    check(
        is_movable(isvc, ctx.rules.default_movable),
        RejectReason::NotMovable,
    )?;
    check(
        !migrations.malformed_request,
        RejectReason::MalformedRequestPending,
    )?;
    check(migrations.state_valid, RejectReason::MigrationStateInvalid)?;
    check(
        !inst.pods.iter().any(|p| ctx.snap.pods[*p].terminating),
        RejectReason::InstanceTerminating,
    )?;
    check(
        migrations.active == 0 && !pass.workloads.contains(&comp.isvc),
        RejectReason::WorkloadBusy,
    )?;
    let normal = Duration::minutes(cooldown_minutes(
        isvc,
        ctx.rules.per_workload_cooldown_minutes,
    ));
    let floor = Duration::minutes(i64::from(
        cfg.policies.node_health.health_cooldown_floor_minutes,
    ));
    let since_last = migrations.last_migration.map(|t| ctx.now - t);
    let window = if unhealthy { floor } else { normal };
    check(
        since_last.is_none_or(|d| d >= window),
        RejectReason::Cooldown,
    )?;
    let overridden = unhealthy && since_last.is_some_and(|d| d < normal);
    let placement = if unhealthy {
        floor
    } else {
        Duration::minutes(i64::from(cfg.recent_placement_cooldown_minutes))
    };
    let recent = inst.pods.iter().any(|p| {
        ctx.snap.pods[*p]
            .started
            .is_some_and(|s| ctx.now - s < placement)
    });
    check(!recent, RejectReason::PlacementCooldown)?;
    let node_window = Duration::minutes(i64::from(cfg.per_node_cooldown_minutes));
    let from_name = ctx.snap.nodes[plan.from].name.as_ref();
    check(
        unhealthy || !state.cooling(from_name, node_window, ctx.now),
        RejectReason::NodeCooldown,
    )?;
    let pool = ctx
        .pool_index
        .get(plan.pool.as_str())
        .copied()
        .ok_or(RejectReason::TargetUnavailable)?;
    let first = select_targets(ctx, state, pass, (&ctx.targets[pool], plan), node_window)?;
    check(
        total_in_flight(ctx) + pass.admitted < cfg.max_in_flight_migrations,
        RejectReason::InFlightCap,
    )?;
    check(
        hourly(ctx, state) + pass.admitted < cfg.max_migrations_per_hour,
        RejectReason::HourlyCap,
    )?;
    pass.admitted += 1;
    pass.workloads.insert(comp.isvc);
    Ok((first, overridden))
}

fn total_in_flight(ctx: &PlanContext<'_>) -> u32 {
    ctx.workloads.migrations.iter().map(|m| m.active).sum()
}

/// `max(ledger dispatches in the last hour, snapshot count)`.
fn hourly(ctx: &PlanContext<'_>, state: &ArbiterState) -> u32 {
    let snapshot = last_hour(&snapshot_times(&ctx.workloads.migrations), ctx.now).len() as u32;
    snapshot.max(state.ledger_last_hour)
}

/// The moves the ledger counts against the hourly cap: the creation time of every entry of
/// Alfred's dispatch journal (none without a readable journal).
fn ledger_times(journal: Option<&Journal>) -> Vec<Time> {
    journal
        .into_iter()
        .flat_map(|j| &j.entries)
        .map(|e| e.created_at)
        .collect()
}

/// The moves the snapshot counts against the hourly cap: every active request's time and
/// every workload's last move.
fn snapshot_times(migrations: &[WorkloadMigrations]) -> Vec<Time> {
    migrations
        .iter()
        .flat_map(|m| {
            m.active_requested_at
                .iter()
                .copied()
                .chain(m.last_migration)
        })
        .collect()
}

/// The times of the last hour before `now`, oldest first.
fn last_hour(times: &[Time], now: Time) -> Vec<Time> {
    let mut recent: Vec<Time> = times.iter().copied().filter(|t| now - *t < HOUR).collect();
    recent.sort_unstable();
    recent
}

/// When the arbiter's hourly cap of `cap` moves lets a move through again: the first instant
/// at which both of its counts (the ledger's and the snapshot's, the larger of which gate
/// 14 compares) hold fewer than `cap` moves of the last hour. `None` when neither count
/// reaches the cap now, or the cap is 0 (no instant lets a move through). A ledger full for
/// the hour gives its oldest entry + 1 h.
pub fn hourly_cap_ends(
    journal: Option<&Journal>,
    migrations: &[WorkloadMigrations],
    now: Time,
    cap: u32,
) -> Option<Time> {
    let cap = usize::try_from(cap).ok().filter(|c| *c > 0)?;
    [ledger_times(journal), snapshot_times(migrations)]
        .iter()
        .filter_map(|times| {
            let recent = last_hour(times, now);
            // Once the oldest `len − cap + 1` have aged out, `cap − 1` remain.
            let ages_out = recent.len().checked_sub(cap)?;
            recent.get(ages_out).map(|t| *t + HOUR)
        })
        .max()
}

/// The moves of the last hour gate 14 counts against the hourly cap: the larger of the
/// ledger's and the snapshot's counts.
pub fn hourly_count(
    journal: Option<&Journal>,
    migrations: &[WorkloadMigrations],
    now: Time,
) -> u32 {
    let ledger = last_hour(&ledger_times(journal), now).len();
    let snapshot = last_hour(&snapshot_times(migrations), now).len();
    u32::try_from(ledger.max(snapshot)).unwrap_or(u32::MAX)
}

/// Gate 12: per pod (GPUs desc) the first target with room; the failure reason is the most
/// severe obstacle seen for the pod that found none.
fn select_targets(
    ctx: &PlanContext<'_>,
    state: &ArbiterState,
    pass: &mut Pass,
    (targets, plan): (&PoolTargets, &crate::engine::planning::moves::PlannedMove),
    node_window: Duration,
) -> Result<usize, RejectReason> {
    let used: Vec<usize> = plan
        .footprints
        .iter()
        .filter_map(|(p, _)| ctx.node_of(*p))
        .collect();
    let smallest = plan.footprints.iter().map(|(_, g)| *g).min().unwrap_or(0);
    let mut claims: Vec<(usize, u32)> = Vec::new();
    let mut first = None;
    for (_, gpus) in &plan.footprints {
        let mut worst: u8 = 0;
        let mut found = None;
        for (free, n) in targets
            .candidates(smallest)
            .filter(|(_, n)| !used.contains(n))
        {
            let claimed: u32 = pass
                .claims
                .iter()
                .chain(&claims)
                .filter(|(m, _)| *m == n)
                .map(|(_, g)| g)
                .sum();
            let obstacle = if pass.evacuating.contains(&n) {
                3
            } else if pass.landed.contains(&n) {
                2
            } else if state.cooling(&ctx.snap.nodes[n].name, node_window, ctx.now) {
                1
            } else if free.saturating_sub(claimed) < *gpus {
                0
            } else {
                found = Some(n);
                break;
            };
            worst = worst.max(obstacle);
        }
        let Some(n) = found else {
            return Err(match worst {
                0 => RejectReason::NoCapacity,
                1 => RejectReason::NodeCooldown,
                2 => RejectReason::TargetNodeBusy,
                _ => RejectReason::TargetUnderEvacuation,
            });
        };
        claims.push((n, *gpus));
        first.get_or_insert(n);
    }
    pass.landed.extend(claims.iter().map(|(n, _)| *n));
    pass.claims.extend(claims);
    first.ok_or(RejectReason::NoCapacity)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::journal::{JournalEntry, Workload};
    use crate::engine::migration::Component;
    use crate::engine::model::testkit::at;

    fn entry(n: usize, created_at: Time) -> JournalEntry {
        JournalEntry {
            uuid: format!("00000000-0000-4000-8000-{n:012}"),
            workload: Workload {
                namespace: "serving".into(),
                name: "llm".into(),
            },
            workload_uid: "uid-llm".into(),
            ir_name: "llm-engine".into(),
            ir_uid: "uid-ir".into(),
            component: Component::Engine,
            instance: 0,
            from_node: format!("gpu-{n}"),
            targets: vec!["gpu-9".into()],
            payload: "{}".into(),
            source_fingerprint: "sha256 0".into(),
            created_at,
            last_attempt: None,
            acknowledged_at: None,
            completed_at: Some(created_at),
            phase: Phase::Completed,
            reason: None,
        }
    }

    fn journal(times: &[Time]) -> Journal {
        Journal {
            version: "v1".into(),
            entries: times
                .iter()
                .enumerate()
                .map(|(n, t)| entry(n, *t))
                .collect(),
            backoff_until: None,
        }
    }

    #[test]
    fn a_ledger_full_for_the_hour_lets_a_move_through_when_its_oldest_entry_is_an_hour_old() {
        let now = at(10, 0, 0);
        // Three moves in the last hour (and one older, no longer counted), cap 3: the
        // snapshot shows none of them, the ledger counts them all.
        let j = journal(&[at(8, 0, 0), at(9, 10, 0), at(9, 30, 0), at(9, 50, 0)]);
        let state = ArbiterState::from_journal(Some(&j), now);
        assert_eq!(state.ledger_last_hour, 3);
        assert_eq!(hourly_cap_ends(Some(&j), &[], now, 3), Some(at(10, 10, 0)));
        // One more in the ledger: two must age out.
        assert_eq!(hourly_cap_ends(Some(&j), &[], now, 2), Some(at(10, 30, 0)));
        // Below the cap, no clock holds it; a cap of 0 never lets one through.
        assert_eq!(hourly_cap_ends(Some(&j), &[], now, 4), None);
        assert_eq!(hourly_cap_ends(Some(&j), &[], now, 0), None);
    }

    #[test]
    fn the_later_of_the_ledger_and_the_snapshot_count_decides() {
        let now = at(10, 0, 0);
        let j = journal(&[at(9, 10, 0)]);
        let snapshot = WorkloadMigrations {
            active_requested_at: vec![at(9, 20, 0)],
            last_migration: Some(at(9, 40, 0)),
            ..WorkloadMigrations::default()
        };
        // Cap 1: the ledger's move frees the cap at 10:10, the snapshot's two at 10:40.
        let ends = hourly_cap_ends(Some(&j), std::slice::from_ref(&snapshot), now, 1);
        assert_eq!(ends, Some(at(10, 40, 0)));
        assert_eq!(hourly_cap_ends(Some(&j), &[], now, 1), Some(at(10, 10, 0)));
    }
}
