//! When the decision pass can answer otherwise by time alone: every instant at which one of its
//! rules that compares `now` against a recorded time flips — the per-workload cooldown (the
//! eligibility's, the advice gate's and the arbiter's, with the health floor), the recent
//! placement cooldown, the per-node cooldown, the circuit breaker, the hourly caps, the
//! failure backoff, an emergency's pending age and the maintenance windows. Each instant is
//! built from the constant its rule compares with (`arbiter::{BREAKER_WINDOW, HOUR}`,
//! `defrag::emergency_age`, `cooldown_minutes`, the config's minutes).
//!
//! The set is a superset: an instant where the rule's answer flips for a candidate the pass
//! never reaches only costs a needless re-run, never a missed one.
//!
//! Owns: `plan_deadlines`. Pure.

use chrono::Duration;

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::model::vocab::Outcome;
use crate::engine::model::{ClusterSnapshot, Pod, Time};
use crate::engine::planning::arbiter::{BREAKER_WINDOW, HOUR};
use crate::engine::planning::defrag::emergency_age;
use crate::engine::planning::moves::MoveRow;
use crate::engine::planning::pass::JournalView;
use crate::engine::pools::PoolReport;
use crate::engine::workloads::{cooldown_end, cooldown_minutes, EligibilityRules, Workloads};

/// What the pass reads that carries recorded times.
pub struct TimedInputs<'a> {
    /// The snapshot analysed.
    pub snap: &'a ClusterSnapshot,
    /// Its components, Instances and per-ISVC migration state.
    pub workloads: &'a Workloads,
    /// Pool reports (their pending pods).
    pub pools: &'a [PoolReport],
    /// Alfred's dispatch journal.
    pub journal: &'a JournalView,
    /// The effective config.
    pub cfg: &'a AlfredConfig,
    /// The eligibility switches (the default cooldown).
    pub rules: &'a EligibilityRules,
    /// The pass's rows (whether the arbiter judged any).
    pub moves: &'a [MoveRow],
}

/// Appends to `out` every instant after `now` at which a rule of the decision pass can flip.
pub fn plan_deadlines(input: &TimedInputs<'_>, now: Time, out: &mut Vec<Time>) {
    let mut push = |t: Option<Time>| out.extend(t.filter(|t| *t > now));
    let cfg = input.cfg;
    // The per-workload cooldown: the verdicts and the advice gate read it whatever the pass.
    for (w, m) in input.snap.isvcs.iter().zip(&input.workloads.migrations) {
        let normal = cooldown_minutes(w, input.rules.per_workload_cooldown_minutes);
        push(cooldown_end(m.last_migration, normal));
    }
    // An emergency decides whether a defragmentation row outside every window exists at all.
    for p in input.pools.iter().flat_map(|pool| &pool.pending) {
        push(
            input
                .snap
                .pods
                .get(*p)
                .and_then(|pod| pending_deadline(pod, cfg)),
        );
    }
    push(cfg.next_window_change(now));
    // The rest is the arbiter's: its gates run only on candidates, and a row the arbiter
    // judged keeps the outcome it gave. Without one, no gate's answer is in the analysis, and
    // nothing above that could make a candidate flips before its own deadline.
    if arbitrated(input.moves) {
        gate_deadlines(input, &mut push);
    }
}

/// Whether the arbiter judged a row of the pass (only then do its gates' instants matter).
pub fn arbitrated(moves: &[MoveRow]) -> bool {
    moves.iter().any(|r| {
        matches!(
            r.outcome,
            Outcome::Rejected | Outcome::Withheld | Outcome::Admitted | Outcome::Candidate
        )
    })
}

/// The instants the arbiter's gates and its journal-rebuilt state compare `now` against.
fn gate_deadlines(input: &TimedInputs<'_>, push: &mut impl FnMut(Option<Time>)) {
    let after = |t: Time, d: Duration| t.checked_add_signed(d);
    let cfg = input.cfg;
    let floor = i64::from(cfg.policies.node_health.health_cooldown_floor_minutes);
    let node_window = Duration::minutes(i64::from(cfg.per_node_cooldown_minutes));
    if let Some(journal) = input.journal.journal() {
        for e in &journal.entries {
            push(e.completed_at.and_then(|t| after(t, BREAKER_WINDOW)));
            push(after(e.created_at, HOUR));
            push(after(e.completed_at.unwrap_or(e.created_at), node_window));
        }
        push(journal.backoff_until);
    }
    for m in &input.workloads.migrations {
        push(cooldown_end(m.last_migration, floor));
        push(m.last_migration.and_then(|t| after(t, HOUR)));
        for t in &m.active_requested_at {
            push(after(*t, HOUR));
        }
    }
    let placement = Duration::minutes(i64::from(cfg.recent_placement_cooldown_minutes));
    let instances = input.workloads.components.iter().flat_map(|c| &c.instances);
    for p in instances.flat_map(|i| &i.pods) {
        if let Some(started) = input.snap.pods.get(*p).and_then(|p| p.started) {
            push(after(started, placement));
            push(after(started, Duration::minutes(floor)));
        }
    }
}

/// When a pending pod becomes old enough for an emergency: strictly older than the limit, so
/// one nanosecond past `since + limit` (`None` without a time).
pub fn pending_deadline(pod: &Pod, cfg: &AlfredConfig) -> Option<Time> {
    let since = pod.unschedulable_since.or(pod.created)?;
    since
        .checked_add_signed(emergency_age(cfg))?
        .checked_add_signed(Duration::nanoseconds(1))
}

/// The instants at which a pass could flip for `pod` alone (its emergency age, were it
/// pending, and, when the arbiter judges rows, its placement cooldowns): what a pod added
/// between two full passes brings.
pub fn pod_deadlines(pod: &Pod, (cfg, arbitrated): (&AlfredConfig, bool), out: &mut Vec<Time>) {
    let floor = i64::from(cfg.policies.node_health.health_cooldown_floor_minutes);
    let placement = i64::from(cfg.recent_placement_cooldown_minutes);
    if let Some(started) = pod.started.filter(|_| arbitrated) {
        for minutes in [placement, floor] {
            out.extend(started.checked_add_signed(Duration::minutes(minutes)));
        }
    }
    out.extend(pending_deadline(pod, cfg));
}
