//! The eligibility baseline of one OMENative Instance as a checklist (`inferencereplica.md`
//! §5.4): every check of the baseline evaluated on its own, in Alfred's order, so an operator
//! sees each one met or not instead of the first failure only, plus the checks
//! defragmentation runs before it (model, migration switch, cooldown).
//!
//! Invariant: the first failing baseline check carries the reason `baseline` returns (the checklist
//! is the same rules, only not short-circuited). Owns: `Check`, `CheckResult`,
//! `baseline_checklist`, `defrag_checklist`, `first_failure`. Pure.

use crate::engine::fast::same;
use crate::engine::model::vocab::AdvisoryReason;
use crate::engine::model::{ClusterSnapshot, InferenceReplica, InstanceRow, Time};
use crate::engine::workloads::eligibility::{cooldown_minutes, is_movable, EligibilityRules};
use crate::engine::workloads::{in_cooldown, model_check, Component, Instance, Workloads};

/// One check of the eligibility baseline or of defragmentation's checks around it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Check {
    /// #0: the workload and its migration state are in the snapshot.
    Exists,
    /// #1: the workload is movable (`alfred.ome.io/movable`, else `defaultMovable`).
    Movable,
    /// #2: the workload's migration state is valid.
    MigrationStateValid,
    /// #3: no malformed request annotation remains.
    NoMalformedRequest,
    /// #4: no active migration anywhere in the workload.
    NoActiveMigration,
    /// #5: the component has a bound, fresh InferenceReplica and a valid observation.
    ReplicaObserved,
    /// #6: the InferenceReplica is not paused.
    NotPaused,
    /// #7: its migration policy is not `Never`.
    PolicyAllowsMigration,
    /// #8: desired Instances > 0, one row each, every status counter at desired.
    ComponentSteady,
    /// #9: `currentRevision` = `updateRevision`, both set.
    RevisionsSettled,
    /// #10: the OMENative executor is available.
    ExecutorAvailable,
    /// #11: the Instance's observation is valid.
    InstanceObserved,
    /// #12: the row is admitted, `Ready`, and has no operation.
    InstanceSteady,
    /// #13: pod, joined, ready, serving and available counts all at the desired pods.
    PodCounts,
    /// #14: the row runs the current revision and targets none.
    CurrentRevision,
    /// #15: every joined pod is Ready and not terminating.
    PodsServing,
    /// Defragmentation: the model resolves (`ModelUnresolved`).
    ModelResolves,
    /// Defragmentation: the model is not on a single-node volume (`VolumePinned`).
    ModelNotPinned,
    /// Defragmentation: `omenativeMigrationEnabled`.
    MigrationEnabled,
    /// Defragmentation: the per-workload cooldown has passed.
    CooldownPassed,
}

impl Check {
    /// The advisory reason Alfred gives when this check is the first to fail.
    pub fn reason(self) -> AdvisoryReason {
        match self {
            Check::Exists | Check::ReplicaObserved | Check::InstanceObserved => {
                AdvisoryReason::OmeNativeObservationInvalid
            }
            Check::ExecutorAvailable => AdvisoryReason::OmeNativeUnavailable,
            Check::ModelResolves => AdvisoryReason::ModelUnresolved,
            Check::ModelNotPinned => AdvisoryReason::VolumePinned,
            Check::MigrationEnabled => AdvisoryReason::MigrationSurfaceDisabled,
            _ => AdvisoryReason::OmeNativeStateIneligible,
        }
    }
}

/// A check and its result: `Some(true)` met, `Some(false)` not met, `None` not decidable (the
/// evidence it reads is missing: no bound InferenceReplica, no status row).
pub type CheckResult = (Check, Option<bool>);

fn bound_ir<'s>(snap: &'s ClusterSnapshot, comp: &Component) -> Option<&'s InferenceReplica> {
    comp.ir.and_then(|i| snap.replicas.get(i))
}

/// Every baseline check (#1–#15) of Instance `inst` of `comp`, each evaluated on its own.
pub fn baseline_checklist(
    snap: &ClusterSnapshot,
    workloads: &Workloads,
    comp: &Component,
    inst: &Instance,
    rules: &EligibilityRules,
) -> Vec<CheckResult> {
    let isvc = snap.isvcs.get(comp.isvc);
    let state = workloads.migrations.get(comp.isvc);
    let mut out = vec![
        (Check::Exists, Some(isvc.is_some() && state.is_some())),
        (
            Check::Movable,
            isvc.map(|w| is_movable(w, rules.default_movable)),
        ),
        (Check::MigrationStateValid, state.map(|s| s.state_valid)),
        (
            Check::NoMalformedRequest,
            state.map(|s| !s.malformed_request),
        ),
        (Check::NoActiveMigration, state.map(|s| s.active == 0)),
    ];
    let ir = bound_ir(snap, comp);
    out.push((
        Check::ReplicaObserved,
        Some(ir.is_some() && comp.observation.is_ok()),
    ));
    let desired = ir.map(|r| r.replicas.unwrap_or(1));
    out.extend([
        (Check::NotPaused, ir.map(|r| !r.paused)),
        (
            Check::PolicyAllowsMigration,
            ir.map(|r| r.migration_policy.as_deref() != Some("Never")),
        ),
        (
            Check::ComponentSteady,
            ir.zip(desired).map(|(r, d)| component_steady(r, d)),
        ),
        (Check::RevisionsSettled, ir.map(revisions_settled)),
        (Check::ExecutorAvailable, Some(rules.executor_available)),
    ]);
    out.extend(instance_checklist(ir, comp, inst));
    out
}

/// Checks #11–#15: the Instance's own observation and status row.
fn instance_checklist(
    ir: Option<&InferenceReplica>,
    comp: &Component,
    inst: &Instance,
) -> [CheckResult; 5] {
    let row = ir.and_then(|r| {
        let rows = r.status.rows.as_ref().ok()?;
        inst.row.and_then(|i| rows.get(i))
    });
    let d = comp.desired_pods;
    [
        // Without its status row the Instance's observation cannot be valid (the baseline
        // says `OMENativeObservationInvalid` there too).
        (
            Check::InstanceObserved,
            Some(inst.observation.is_ok() && row.is_some()),
        ),
        (
            Check::InstanceSteady,
            row.map(|r| r.admitted && r.phase.as_str() == "Ready" && !r.has_operation),
        ),
        (Check::PodCounts, row.map(|r| pod_counts(r, inst, d))),
        (
            Check::CurrentRevision,
            row.zip(ir).map(|(r, ir)| current_revision(r, ir)),
        ),
        (
            Check::PodsServing,
            Some(inst.serving_pods as usize == inst.pods.len()),
        ),
    ]
}

fn component_steady(ir: &InferenceReplica, desired: i64) -> bool {
    let rows = ir.status.rows.as_ref().map_or(0, |r| r.len() as i64);
    desired > 0 && rows == desired && ir.status.counters.iter().all(|c| *c == desired)
}

fn revisions_settled(ir: &InferenceReplica) -> bool {
    let s = &ir.status;
    !s.current_revision.is_empty() && same(&s.current_revision, &s.update_revision)
}

fn pod_counts(row: &InstanceRow, inst: &Instance, d: i64) -> bool {
    d > 0
        && row.pod_count == d
        && inst.pods.len() as i64 == d
        && inst.joined_pods as i64 == d
        && inst.ready_pods == d
        && row.serving_pod_count == d
        && row.available_pod_count == d
}

fn current_revision(row: &InstanceRow, ir: &InferenceReplica) -> bool {
    !row.running_revision.is_empty()
        && same(&row.running_revision, &ir.status.current_revision)
        && row.target_revision.is_empty()
}

/// The checks defragmentation runs before the baseline, per component, in its order: the
/// model check (resolves, then not pinned), the migration switch, the cooldown.
pub fn defrag_checklist(
    snap: &ClusterSnapshot,
    workloads: &Workloads,
    comp: &Component,
    rules: &EligibilityRules,
    now: Time,
) -> Vec<CheckResult> {
    let isvc = snap.isvcs.get(comp.isvc);
    let model = isvc.map(|w| model_check(snap, w));
    let resolves = model
        .as_ref()
        .map(|m| !matches!(m, Err(AdvisoryReason::ModelUnresolved)));
    let not_pinned = model
        .as_ref()
        .map(|m| !matches!(m, Err(AdvisoryReason::VolumePinned)));
    let cooled = isvc.map(|w| {
        let window = cooldown_minutes(w, rules.per_workload_cooldown_minutes);
        let last = workloads
            .migrations
            .get(comp.isvc)
            .and_then(|m| m.last_migration);
        !in_cooldown(last, window, now)
    });
    vec![
        (Check::ModelResolves, resolves),
        (Check::ModelNotPinned, not_pinned),
        (
            Check::MigrationEnabled,
            Some(rules.omenative_migration_enabled),
        ),
        (Check::CooldownPassed, cooled),
    ]
}

/// The reason of the first failing (or undecidable) check, as the baseline reports it.
pub fn first_failure(checks: &[CheckResult]) -> Option<AdvisoryReason> {
    checks
        .iter()
        .find(|(_, ok)| *ok != Some(true))
        .map(|(c, _)| c.reason())
}
