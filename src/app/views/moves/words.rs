//! What a move's outcome, reasons, eligibility checks and approval pre-checks mean, in the
//! operator's words (OME's and Alfred's terms, no code identifiers): the one place a reason
//! vocabulary becomes a sentence. The Moves detail and the approve dialog say these, followed
//! by the wire string in parentheses where it is one an operator searches for; a dispatch
//! reason that repeats an arbiter gate is worded as the gate.
//!
//! Owns: `outcome_words`, `advisory_words`, `reject_words`, `dispatch_words`, `check_words`,
//! `policy_word`, `precheck_words`, `refusal_words`. Plain data.

use crate::engine::model::vocab::{AdvisoryReason, DispatchReason, Outcome, Policy, RejectReason};
use crate::engine::planning::{PreCheck, Refusal};
use crate::engine::workloads::{Check, DeploymentMode};

/// The policy in one short word, as the table shows it.
pub fn policy_word(p: &Policy) -> &str {
    match p {
        Policy::Defragmentation => "defrag",
        Policy::NodeHealth => "health",
        Policy::MigrationDispatch => "journal",
        Policy::Unknown(s) => s.as_str(),
    }
}

/// What an outcome means.
pub fn outcome_words(o: &Outcome) -> &str {
    match o {
        Outcome::Admitted => "admitted: the next move Alfred would submit",
        Outcome::Candidate => "candidate: executable, not yet arbitrated",
        Outcome::Withheld => "withheld: passed every safety gate, the dispatcher holds it",
        Outcome::Rejected => "rejected by one of Alfred's safety gates",
        Outcome::Advisory => "advice only",
        Outcome::Submitted => "submitted: the migration request is written",
        Outcome::Acknowledged => "acknowledged by the InferenceReplica",
        Outcome::Completed => "completed",
        Outcome::Failed => "failed",
        Outcome::Stalled => "stalled: no progress, the journal entry needs an operator",
        Outcome::Unknown(s) => s.as_str(),
    }
}

/// Why a row is advice.
pub fn advisory_words(r: &AdvisoryReason) -> &str {
    use AdvisoryReason as A;
    match r {
        A::OmeNativeUnavailable => "Alfred's migration executor is off (chart migration.apiVersion is not v1)",
        A::RawDeploymentMigrationUnsupported => "a RawDeployment Instance: OME migrates only OMENative Instances",
        A::LwsMigrationUnsupported => "a multi-node (LeaderWorkerSet) component: OME cannot migrate it",
        A::NoSurgeHeadroom => "no node in the pool has room for the Instance's surge copy",
        A::VolumePinned => "the model is on a ReadWriteOnce volume and cannot follow the Instance to another node",
        A::ModelUnresolved => "the model (its BaseModel, ClusterBaseModel or claim) cannot be found",
        A::MigrationSurfaceDisabled => "OMENative migration is switched off in Alfred's config",
        A::OmeNativeObservationInvalid => "the InferenceReplica's status and the pods disagree",
        A::OmeNativeStateIneligible => "the Instance or its workload is not in a steady, movable state",
        A::NonExecutableObservedFragmentation => "no move here pays off: the pool is below the threshold or the benefit does not cover the cost",
        A::SimulationRecommendOnly => "Alfred only recommends moves while its scheduling simulation is configured",
        A::ProfileNotConfigured => "Alfred only recommends it: no scheduling-simulation profile for the pods' scheduler",
        A::ProfileInvalid => "Alfred only recommends it: the scheduling-simulation profile is invalid",
        A::GangUnsupported => "Alfred only recommends it: the simulation profile has no gang support",
        A::MixedSchedulers => "Alfred only recommends it: the Instance's pods use different schedulers",
        A::TemplateBound => "Alfred only recommends it: a pod is bound to a template",
        A::NoTemplates => "Alfred only recommends it: no scheduling templates",
        A::SimulationUnavailable => "Alfred only recommends it: the scheduling simulation is unavailable",
        A::Unknown(s) => s.as_str(),
    }
}

/// The safety gate that rejected a row.
pub fn reject_words(r: &RejectReason) -> &str {
    use RejectReason as R;
    match r {
        R::CircuitBreakerOpen => "Alfred's circuit breaker is open after recent failures",
        R::InstanceGone => "the Instance is no longer there",
        R::NotMovable => "the workload is opted out (alfred.ome.io/movable)",
        R::MalformedRequestPending => {
            "the workload carries a migration request that does not parse"
        }
        R::MigrationStateInvalid => "the workload's migration records are inconsistent",
        R::InstanceTerminating => "a pod of the Instance is terminating",
        R::WorkloadBusy => "the workload already has a migration in flight",
        R::AutoscalerActive => "an autoscaler is acting on the workload",
        R::Cooldown => "the workload moved recently (cooldown)",
        R::PlacementCooldown => "a pod of the Instance started recently",
        R::NodeCooldown => "the source or the targets were touched by a recent move",
        R::TargetUnavailable => "no usable target node",
        R::TargetUnderEvacuation => "the targets with room are being evacuated",
        R::TargetNodeBusy => "the targets with room already take a move this pass",
        R::NoCapacity => "no target has room for the Instance",
        R::InFlightCap => "Alfred's in-flight migration cap is reached",
        R::HourlyCap => "Alfred's hourly migration cap is reached",
        R::Unknown(s) => s.as_str(),
    }
}

/// Why an admitted row is withheld, or how its dispatch went (the common ones in words).
pub fn dispatch_words(r: &DispatchReason) -> &str {
    use DispatchReason as D;
    match r {
        D::UnresolvedRequest | D::MultipleUnresolvedRequests => {
            "an unresolved request in Alfred's journal blocks every submission"
        }
        D::JournalUnavailable => "Alfred's dispatch journal is unavailable",
        D::ExecutionDisabled => "execution is disabled in Alfred's config",
        D::SerialDispatchLimit => "Alfred submits one move per pass",
        D::FailureBackoff => "Alfred backs off after a failed submission",
        D::ObservationStale => "Alfred's view of the cluster is stale",
        // Preflight repeats the arbiter's gates: worded as the gate is.
        D::Gate(g) => reject_words(g),
        D::RequestSubmitted => "the migration request was written",
        D::SubmissionPrepared => "the submission is prepared in the journal",
        other => other.as_str(),
    }
}

/// One of the eligibility checks, as a statement that is met or not.
pub fn check_words(c: Check) -> &'static str {
    match c {
        Check::Exists => "the workload is in the snapshot",
        Check::Movable => "the workload is not opted out (alfred.ome.io/movable)",
        Check::MigrationStateValid => "the workload's migration records are consistent",
        Check::NoMalformedRequest => "no unreadable migration request on the workload",
        Check::NoActiveMigration => "no migration in progress anywhere in the workload",
        Check::ReplicaObserved => {
            "the component has one current InferenceReplica whose status reads cleanly"
        }
        Check::NotPaused => "the InferenceReplica is not paused",
        Check::PolicyAllowsMigration => "the InferenceReplica's migration policy is not Never",
        Check::ComponentSteady => {
            "every Instance of the component is ready, serving and up to date"
        }
        Check::RevisionsSettled => "no rollout in progress (current revision = update revision)",
        Check::ExecutorAvailable => {
            "Alfred's migration executor is on (chart migration.apiVersion v1)"
        }
        Check::InstanceObserved => "the Instance's pods agree with its status row",
        Check::InstanceSteady => "the Instance is admitted, Ready and has no operation running",
        Check::PodCounts => "all the Instance's pods are joined, ready, serving and available",
        Check::CurrentRevision => "the Instance runs the current revision, no update pending",
        Check::PodsServing => "every pod of the Instance is Ready and not terminating",
        Check::ModelResolves => {
            "the model resolves (BaseModel or ClusterBaseModel and its claim found)"
        }
        Check::ModelNotPinned => "the model is not on a ReadWriteOnce volume",
        Check::MigrationEnabled => "OMENative migration is on in Alfred's config",
        Check::CooldownPassed => "the workload's cooldown since its last move has passed",
    }
}

/// An approval pre-check as the approve dialog states it.
pub fn precheck_words(c: &PreCheck) -> String {
    match c {
        PreCheck::InstanceExists => "the Instance exists in the current snapshot".into(),
        PreCheck::OmeNative(DeploymentMode::OMENative) => {
            "the Instance runs in OMENative mode (only those migrate)".into()
        }
        PreCheck::OmeNative(mode) => format!(
            "the Instance runs in OMENative mode (this one is {mode:?}: nothing would run the request)"
        ),
        PreCheck::NoRequestInFlight(Some(active)) => {
            format!("no in-flight request for the workload ({active} active)")
        }
        PreCheck::NoRequestInFlight(None) => "no in-flight request for the workload".into(),
        PreCheck::InstanceReady(ready, pods) => {
            format!("the Instance is still Ready ({ready}/{pods} pods ready)")
        }
        PreCheck::NotOptedOut => check_words(Check::Movable).into(),
        PreCheck::EligibilityBaseline(Some(why)) => format!(
            "OMENative eligibility baseline: {} ({why})",
            advisory_words(why)
        ),
        PreCheck::EligibilityBaseline(None) => "OMENative eligibility baseline".into(),
    }
}

/// Why the approval is refused, as the dialog says it.
pub fn refusal_words(r: &Refusal) -> String {
    match r {
        Refusal::InstanceGone => precheck_words(&PreCheck::InstanceExists),
        Refusal::NotOmeNative(mode) => precheck_words(&PreCheck::OmeNative(*mode)),
        Refusal::RequestInFlight(active) => {
            precheck_words(&PreCheck::NoRequestInFlight(Some(*active)))
        }
        Refusal::RequestCannotBeBuilt(why) => format!("the request cannot be built: {why}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::migration::DraftError;

    #[test]
    fn approval_checks_and_refusals_read_as_the_dialog_always_said_them() {
        let raw = DeploymentMode::RawDeployment;
        let cases = [
            (
                refusal_words(&Refusal::InstanceGone),
                "the Instance exists in the current snapshot",
            ),
            (
                refusal_words(&Refusal::NotOmeNative(raw)),
                "the Instance runs in OMENative mode (this one is RawDeployment: nothing would \
                 run the request)",
            ),
            (
                refusal_words(&Refusal::RequestInFlight(2)),
                "no in-flight request for the workload (2 active)",
            ),
            (
                refusal_words(&Refusal::RequestCannotBeBuilt(DraftError::NoSourceNode)),
                "the request cannot be built: the move names no source node",
            ),
            (
                precheck_words(&PreCheck::InstanceReady(1, 2)),
                "the Instance is still Ready (1/2 pods ready)",
            ),
            (
                precheck_words(&PreCheck::NotOptedOut),
                "the workload is not opted out (alfred.ome.io/movable)",
            ),
            (
                precheck_words(&PreCheck::EligibilityBaseline(Some(
                    AdvisoryReason::ModelUnresolved,
                ))),
                "OMENative eligibility baseline: the model (its BaseModel, ClusterBaseModel or \
                 claim) cannot be found (ModelUnresolved)",
            ),
        ];
        for (got, want) in cases {
            assert_eq!(got, want);
        }
    }

    #[test]
    fn a_dispatch_reason_that_repeats_a_gate_is_worded_as_the_gate() {
        for gate in RejectReason::KNOWN {
            let d = DispatchReason::from_wire(gate.as_str());
            assert_eq!(dispatch_words(&d), reject_words(gate), "{gate}");
        }
    }
}
