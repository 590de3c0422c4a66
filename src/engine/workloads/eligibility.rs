//! OMENative migration eligibility (`inferencereplica.md` §5.4, the seed's eligibility table):
//! the baseline checks in Alfred's exact order, and the defragmentation pre-checks around it.
//!
//! Owns: the baseline (`component_baseline`, `instance_baseline`), `defrag_prechecks`,
//! `InstanceVerdict`, `EligibilityRules`, an explicit opt-out (`opt_out`). Pure.

use crate::engine::alfred_config::AlfredConfig;
use crate::engine::fast::same;
use crate::engine::model::vocab::AdvisoryReason;
use crate::engine::model::{ClusterSnapshot, InferenceService, Name, Time};
use crate::engine::workloads::{Component, Instance, Workloads};

/// Alfred-side switches the eligibility rules read.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct EligibilityRules {
    /// `defaultMovable`.
    pub default_movable: bool,
    /// `omenativeMigrationEnabled`.
    pub omenative_migration_enabled: bool,
    /// The OMENative executor is available (chart `migration.apiVersion: v1`).
    pub executor_available: bool,
    /// `perWorkloadCooldownMinutes`.
    pub per_workload_cooldown_minutes: i64,
}

/// Parses a Go `strconv.ParseBool` value.
pub fn parse_go_bool(s: &str) -> Option<bool> {
    match s {
        "1" | "t" | "T" | "TRUE" | "true" | "True" => Some(true),
        "0" | "f" | "F" | "FALSE" | "false" | "False" => Some(false),
        _ => None,
    }
}

/// Effective movable: the `alfred.ome.io/movable` annotation as a Go bool, else the default.
pub fn is_movable(isvc: &InferenceService, default_movable: bool) -> bool {
    isvc.annotation("alfred.ome.io/movable")
        .and_then(parse_go_bool)
        .unwrap_or(default_movable)
}

/// An explicit opt-out of Alfred's moves: `alfred.ome.io/movable` set to a Go false, with the
/// free-text `alfred.ome.io/opt-out-reason` when the workload carries one. `None` when the
/// workload did not opt out (a `defaultMovable: false` is Alfred's policy, not an opt-out).
pub fn opt_out(isvc: &InferenceService) -> Option<OptOut<'_>> {
    let movable = isvc
        .annotation("alfred.ome.io/movable")
        .and_then(parse_go_bool);
    (movable == Some(false)).then(|| OptOut {
        reason: isvc
            .annotation("alfred.ome.io/opt-out-reason")
            .map(str::trim)
            .filter(|r| !r.is_empty()),
    })
}

/// A workload's explicit opt-out (see [`opt_out`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OptOut<'a> {
    /// `alfred.ome.io/opt-out-reason`, trimmed; `None` when absent or blank.
    pub reason: Option<&'a str>,
}

/// The per-workload cooldown window in minutes: a valid `alfred.ome.io/cooldown-minutes`
/// (whole number ≥ 0; 0 = none), else `default_minutes`.
pub fn cooldown_minutes(isvc: &InferenceService, default_minutes: i64) -> i64 {
    isvc.annotation("alfred.ome.io/cooldown-minutes")
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|v| *v >= 0)
        .unwrap_or(default_minutes)
}

fn steady_counts(snap: &ClusterSnapshot, comp: &Component, desired: i64) -> bool {
    let Some(ir) = comp.ir.map(|i| &snap.replicas[i]) else {
        return false;
    };
    let rows = ir.status.rows.as_ref().map_or(0, |r| r.len() as i64);
    desired > 0 && rows == desired && ir.status.counters.iter().all(|c| *c == desired)
}

/// Checks 1–10 of §5.4, the ones every Instance of `comp` shares, in Alfred's order; `Ok`
/// carries the IR's current revision for the Instance checks. A caller with many Instances
/// runs this once per component (annotation lookups and IR reads are not per Instance).
pub fn component_baseline<'s>(
    snap: &'s ClusterSnapshot,
    workloads: &Workloads,
    comp: &Component,
    rules: &EligibilityRules,
) -> Result<&'s Name, AdvisoryReason> {
    let isvc = snap
        .isvcs
        .get(comp.isvc)
        .ok_or(AdvisoryReason::OmeNativeObservationInvalid)?;
    let state = workloads
        .migrations
        .get(comp.isvc)
        .ok_or(AdvisoryReason::OmeNativeObservationInvalid)?;
    let check = |ok: bool, reason| if ok { Ok(()) } else { Err(reason) };
    check(
        is_movable(isvc, rules.default_movable),
        AdvisoryReason::OmeNativeStateIneligible,
    )?;
    check(state.state_valid, AdvisoryReason::OmeNativeStateIneligible)?;
    check(
        !state.malformed_request,
        AdvisoryReason::OmeNativeStateIneligible,
    )?;
    check(state.active == 0, AdvisoryReason::OmeNativeStateIneligible)?;
    let ir = comp.ir.and_then(|i| snap.replicas.get(i));
    let ir = match (ir, &comp.observation) {
        (Some(ir), Ok(())) => ir,
        _ => return Err(AdvisoryReason::OmeNativeObservationInvalid),
    };
    check(!ir.paused, AdvisoryReason::OmeNativeStateIneligible)?;
    check(
        ir.migration_policy.as_deref() != Some("Never"),
        AdvisoryReason::OmeNativeStateIneligible,
    )?;
    let desired = ir.replicas.unwrap_or(1);
    check(
        steady_counts(snap, comp, desired),
        AdvisoryReason::OmeNativeStateIneligible,
    )?;
    let revisions = &ir.status;
    check(
        !revisions.current_revision.is_empty()
            && same(&revisions.current_revision, &revisions.update_revision),
        AdvisoryReason::OmeNativeStateIneligible,
    )?;
    check(
        rules.executor_available,
        AdvisoryReason::OmeNativeUnavailable,
    )?;
    Ok(&revisions.current_revision)
}

/// Checks 11–15 of §5.4 for one Instance, after `component_baseline` passed with
/// `current_revision`.
pub fn instance_baseline(
    snap: &ClusterSnapshot,
    comp: &Component,
    inst: &Instance,
    current_revision: &Name,
) -> Result<(), AdvisoryReason> {
    if inst.observation.is_err() {
        return Err(AdvisoryReason::OmeNativeObservationInvalid);
    }
    instance_checks(snap, comp, inst, current_revision)
}

/// Checks 12–15 of §5.4 on the Instance's row and pods.
fn instance_checks(
    snap: &ClusterSnapshot,
    comp: &Component,
    inst: &Instance,
    current_revision: &Name,
) -> Result<(), AdvisoryReason> {
    let ir = comp
        .ir
        .map(|i| &snap.replicas[i])
        .ok_or(AdvisoryReason::OmeNativeObservationInvalid)?;
    let rows = ir
        .status
        .rows
        .as_ref()
        .map_err(|_| AdvisoryReason::OmeNativeObservationInvalid)?;
    let row = inst
        .row
        .and_then(|r| rows.get(r))
        .ok_or(AdvisoryReason::OmeNativeObservationInvalid)?;
    let d = comp.desired_pods;
    let steady = row.admitted && row.phase.as_str() == "Ready" && !row.has_operation;
    let counts = d > 0
        && row.pod_count == d
        && inst.pods.len() as i64 == d
        && inst.joined_pods as i64 == d
        && inst.ready_pods == d
        && row.serving_pod_count == d
        && row.available_pod_count == d;
    let revision = !row.running_revision.is_empty()
        && same(&row.running_revision, current_revision)
        && row.target_revision.is_empty();
    let pods_live = inst.serving_pods as usize == inst.pods.len();
    if steady && counts && revision && pods_live {
        Ok(())
    } else {
        Err(AdvisoryReason::OmeNativeStateIneligible)
    }
}

/// The checks defragmentation runs before the baseline, all per component: the model check,
/// `MigrationSurfaceDisabled`, then the per-workload cooldown.
pub fn defrag_prechecks(
    snap: &ClusterSnapshot,
    workloads: &Workloads,
    comp: &Component,
    rules: &EligibilityRules,
    now: Time,
) -> Result<(), AdvisoryReason> {
    let isvc = snap
        .isvcs
        .get(comp.isvc)
        .ok_or(AdvisoryReason::OmeNativeObservationInvalid)?;
    // The model check runs before every other defragmentation check (alfred.md §6.4).
    crate::engine::workloads::model_check::model_check(snap, isvc)?;
    if !rules.omenative_migration_enabled {
        return Err(AdvisoryReason::MigrationSurfaceDisabled);
    }
    let window = cooldown_minutes(isvc, rules.per_workload_cooldown_minutes);
    let last = workloads
        .migrations
        .get(comp.isvc)
        .and_then(|m| m.last_migration);
    if crate::engine::workloads::in_cooldown(last, window, now) {
        return Err(AdvisoryReason::OmeNativeStateIneligible);
    }
    Ok(())
}
/// Eligibility of one OMENative Instance.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InstanceVerdict {
    /// Index into `Workloads::components`.
    pub component: usize,
    /// Index into that component's `instances`.
    pub instance: usize,
    /// The baseline of `inferencereplica.md` §5.4 (`Err` = advisory reason).
    pub baseline: Result<(), AdvisoryReason>,
    /// Defragmentation's verdict (surface switch, cooldown, then the baseline).
    pub defrag: Result<(), AdvisoryReason>,
}

impl EligibilityRules {
    /// The eligibility switches of `cfg` with the executor state.
    pub fn from_config(cfg: &AlfredConfig, executor_available: bool) -> Self {
        EligibilityRules {
            default_movable: cfg.default_movable,
            omenative_migration_enabled: cfg.omenative_migration_enabled,
            executor_available,
            per_workload_cooldown_minutes: i64::from(cfg.per_workload_cooldown_minutes),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;

    fn annotated(pairs: &[(&str, &str)]) -> InferenceService {
        let mut w = isvc("prod", "chat");
        for (k, v) in pairs {
            w.annotations.insert(Name::from(*k), v.to_string());
        }
        w
    }

    #[test]
    fn an_opt_out_is_movable_false_as_go_reads_it_with_its_reason() {
        let w = annotated(&[
            ("alfred.ome.io/movable", "False"),
            ("alfred.ome.io/opt-out-reason", " latency sensitive "),
        ]);
        assert_eq!(
            opt_out(&w),
            Some(OptOut {
                reason: Some("latency sensitive")
            })
        );
        let blank = annotated(&[
            ("alfred.ome.io/movable", "0"),
            ("alfred.ome.io/opt-out-reason", "  "),
        ]);
        assert_eq!(opt_out(&blank), Some(OptOut { reason: None }));
        // Movable, absent, or not a Go bool: no opt-out (the last falls back to the default).
        for v in ["true", "1", "no"] {
            assert_eq!(opt_out(&annotated(&[("alfred.ome.io/movable", v)])), None);
        }
        assert_eq!(opt_out(&annotated(&[])), None);
        // A reason alone opts nothing out.
        let reason_only = annotated(&[("alfred.ome.io/opt-out-reason", "x")]);
        assert_eq!(opt_out(&reason_only), None);
    }
}
