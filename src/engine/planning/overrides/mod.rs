//! What an operator's approval of a move may pass over, beside the arbiter's gates it judges:
//! which gates only pace Alfred's own submissions (`gate_hold`), ome-top's typed verdict on a
//! move (`Verdict`, `row_verdict`), the approval pre-checks (`PreCheck`), the failures that
//! refuse an approval outright (`Refusal`) and the ones an explicit override passes over
//! (`OverrideReason`, whose wire strings the Event and the audit row record). The words are
//! the app's.

use crate::engine::migration::DraftError;
use crate::engine::model::vocab::{AdvisoryReason, Outcome, RejectReason};
use crate::engine::model::DeploymentMode;
use crate::engine::planning::moves::MoveRow;

/// What a rejection by one of the arbiter's safety gates means for an operator's own request.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GateHold {
    /// The gate only paces Alfred's own submissions (its breaker, cooldowns, caps, targets
    /// claimed this pass): the move itself can run, and an operator's request is theirs to make,
    /// no override needed.
    Pacing,
    /// The gate says the move itself would fail or is unsafe now: approving it takes the
    /// operator's explicit override.
    Blocking,
}

/// What a rejection by `gate` means for an operator's request. Exhaustive on purpose: a gate
/// added to the vocabulary must be classified here (and tested) before it builds.
pub fn gate_hold(gate: &RejectReason) -> GateHold {
    use RejectReason as R;
    match gate {
        R::CircuitBreakerOpen
        | R::Cooldown
        | R::PlacementCooldown
        | R::NodeCooldown
        | R::TargetUnderEvacuation
        | R::TargetNodeBusy
        | R::InFlightCap
        | R::HourlyCap => GateHold::Pacing,
        R::InstanceGone
        | R::NotMovable
        | R::MalformedRequestPending
        | R::MigrationStateInvalid
        | R::InstanceTerminating
        | R::WorkloadBusy
        | R::AutoscalerActive
        | R::TargetUnavailable
        | R::NoCapacity
        // A gate this build does not know: assume the worst.
        | R::Unknown(_) => GateHold::Blocking,
    }
}

/// Why ome-top says a move can run now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CanRun {
    /// Advice that carries a surge plan: Alfred only recommends it.
    PlannedAdvice(AdvisoryReason),
    /// Advice only because it does not pay off, while a target has room.
    RoomDespite(AdvisoryReason),
    /// Rejected only by a gate that paces Alfred ([`GateHold::Pacing`]).
    OnlyPacing(RejectReason),
    /// Admitted, a candidate or withheld.
    Outcome(Outcome),
    /// ome-top computes no move for it now, but a target has room.
    RoomWithoutComputedMove,
}

/// Why ome-top says a move cannot run now; what an override of the verdict records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Blocker {
    /// Advice that would make the migration fail (`NoSurgeHeadroom`, `VolumePinned`, …).
    Advice(AdvisoryReason),
    /// A gate that says the move itself fails ([`GateHold::Blocking`]).
    Gate(RejectReason),
    /// An outcome that is not a move to make (submitted, failed, …).
    Outcome(Outcome),
    /// A defragmentation move outside every maintenance window.
    OutsideMaintenanceWindow,
    /// No such Instance with GPUs in one pool now.
    NoComputedMove,
}

impl Blocker {
    /// The wire string an override of this verdict records.
    pub fn as_str(&self) -> &str {
        match self {
            Blocker::Advice(r) => r.as_str(),
            Blocker::Gate(r) => r.as_str(),
            Blocker::Outcome(o) => o.as_str(),
            Blocker::OutsideMaintenanceWindow => "OutsideMaintenanceWindow",
            Blocker::NoComputedMove => "NoComputedMove",
        }
    }
}

/// ome-top's verdict on a move: whether it can run now, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// It can.
    CanRun(CanRun),
    /// It cannot; approving it takes an override.
    Blocked(Blocker),
}

impl Verdict {
    /// Whether the move can run.
    pub fn executable(&self) -> bool {
        matches!(self, Verdict::CanRun(_))
    }
}

/// The verdict on ome-top's computed row `m`; `room` says whether a target has room for its
/// Instance now (asked only for advice that does not pay off).
pub fn row_verdict(m: &MoveRow, room: impl FnOnce() -> Option<bool>) -> Verdict {
    let no_room = || Verdict::Blocked(Blocker::Advice(AdvisoryReason::NoSurgeHeadroom));
    match (&m.outcome, &m.advisory_reason, &m.reject_reason) {
        (Outcome::Advisory, Some(r), _) if m.plan.is_some() => {
            Verdict::CanRun(CanRun::PlannedAdvice(r.clone()))
        }
        // Advice because it does not pay off, not because it would fail.
        (Outcome::Advisory, Some(r @ AdvisoryReason::NonExecutableObservedFragmentation), _) => {
            match room() {
                Some(true) => Verdict::CanRun(CanRun::RoomDespite(r.clone())),
                _ => no_room(),
            }
        }
        (Outcome::Advisory, Some(r), _) => Verdict::Blocked(Blocker::Advice(r.clone())),
        (Outcome::Rejected, _, Some(r)) => match gate_hold(r) {
            GateHold::Pacing => Verdict::CanRun(CanRun::OnlyPacing(r.clone())),
            GateHold::Blocking => Verdict::Blocked(Blocker::Gate(r.clone())),
        },
        (o @ (Outcome::Admitted | Outcome::Candidate | Outcome::Withheld), _, _) => {
            Verdict::CanRun(CanRun::Outcome(o.clone()))
        }
        (o, _, _) => Verdict::Blocked(Blocker::Outcome(o.clone())),
    }
}

/// The verdict on a move ome-top computes no row for: `defrag_waits` when it is a
/// defragmentation move outside every maintenance window, `room` whether a target has room
/// for its Instance now (`None`: no such Instance with GPUs in one pool).
pub fn uncomputed_verdict(defrag_waits: bool, room: impl FnOnce() -> Option<bool>) -> Verdict {
    if defrag_waits {
        return Verdict::Blocked(Blocker::OutsideMaintenanceWindow);
    }
    match room() {
        Some(true) => Verdict::CanRun(CanRun::RoomWithoutComputedMove),
        Some(false) => Verdict::Blocked(Blocker::Advice(AdvisoryReason::NoSurgeHeadroom)),
        None => Verdict::Blocked(Blocker::NoComputedMove),
    }
}

/// One pre-check `kubectl ome migration start` runs before an approval, with what it found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PreCheck {
    /// The Instance exists in the current snapshot (listed only when it does not).
    InstanceExists,
    /// The Instance runs in OMENative mode (only those migrate).
    OmeNative(DeploymentMode),
    /// No request in flight for the workload: the active count, `None` when unknown.
    NoRequestInFlight(Option<u32>),
    /// The Instance is still Ready: `(ready pods, pods)`.
    InstanceReady(i64, usize),
    /// The workload is not opted out (`alfred.ome.io/movable`).
    NotOptedOut,
    /// The OMENative eligibility baseline; the failure's reason when it fails.
    EligibilityBaseline(Option<AdvisoryReason>),
}

/// A pre-check and its result: `Some(passed)`, `None` when it could not be verified.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckResult {
    /// The check.
    pub check: PreCheck,
    /// Its result.
    pub passed: Option<bool>,
}

/// Why a move cannot be approved at all, override or not: nothing would run the request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The Instance is gone from the snapshot.
    InstanceGone,
    /// The component is not OMENative (its mode).
    NotOmeNative(DeploymentMode),
    /// A request is already in flight for the workload (the active count).
    RequestInFlight(u32),
    /// The request cannot be built (why).
    RequestCannotBeBuilt(DraftError),
}

/// A failure an operator's explicit override passes over; its wire string is what the Event
/// and the audit row record. Only ever built here, never parsed back (the records keep the
/// text), so it has no `Unknown`; the reasons it carries from Alfred's rows keep theirs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OverrideReason {
    /// The Instance is not Ready (or could not be verified).
    InstanceNotReady,
    /// The workload is opted out (or could not be verified).
    NotMovable,
    /// The eligibility baseline fails (its reason).
    Ineligible(AdvisoryReason),
    /// ome-top's verdict says the move cannot run.
    Verdict(Blocker),
}

impl OverrideReason {
    /// The wire string (`InstanceNotReady`, `NotMovable`, `NoSurgeHeadroom`, …).
    pub fn as_str(&self) -> &str {
        match self {
            OverrideReason::InstanceNotReady => "InstanceNotReady",
            OverrideReason::NotMovable => "NotMovable",
            OverrideReason::Ineligible(r) => r.as_str(),
            OverrideReason::Verdict(b) => b.as_str(),
        }
    }

    /// The reason a pre-check's failure (or unverified result) adds, `None` for the checks an
    /// override cannot pass over (those refuse: [`PreCheck::refusal`]) and for passed ones.
    pub fn of_check(c: &CheckResult) -> Option<OverrideReason> {
        if c.passed == Some(true) {
            return None;
        }
        match &c.check {
            PreCheck::InstanceReady(..) => Some(OverrideReason::InstanceNotReady),
            PreCheck::NotOptedOut => Some(OverrideReason::NotMovable),
            PreCheck::EligibilityBaseline(why) => why.clone().map(OverrideReason::Ineligible),
            PreCheck::InstanceExists | PreCheck::OmeNative(_) | PreCheck::NoRequestInFlight(_) => {
                None
            }
        }
    }
}

impl std::fmt::Display for OverrideReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl PreCheck {
    /// The refusal a failure of this check means (a hard check), `None` for the checks an
    /// override may pass over.
    pub fn refusal(&self) -> Option<Refusal> {
        match self {
            PreCheck::InstanceExists => Some(Refusal::InstanceGone),
            PreCheck::OmeNative(mode) => Some(Refusal::NotOmeNative(*mode)),
            PreCheck::NoRequestInFlight(active) => {
                Some(Refusal::RequestInFlight(active.unwrap_or(0)))
            }
            PreCheck::InstanceReady(..)
            | PreCheck::NotOptedOut
            | PreCheck::EligibilityBaseline(_) => None,
        }
    }
}

/// The override reasons of failed `checks` and a blocked `verdict`, each wire string once, in
/// order: what confirming the approval passes over (empty: nothing to override).
pub fn override_reasons(checks: &[CheckResult], verdict: &Verdict) -> Vec<OverrideReason> {
    let mut out: Vec<OverrideReason> = checks.iter().filter_map(OverrideReason::of_check).collect();
    if let Verdict::Blocked(b) = verdict {
        out.push(OverrideReason::Verdict(b.clone()));
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|o| seen.insert(o.as_str().to_string()));
    out
}

/// The first hard check that failed (`passed == Some(false)`), as a refusal.
pub fn first_refusal(checks: &[CheckResult]) -> Option<Refusal> {
    checks
        .iter()
        .filter(|c| c.passed == Some(false))
        .find_map(|c| c.check.refusal())
}

#[cfg(test)]
mod tests;
