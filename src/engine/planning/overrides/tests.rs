//! One test per arbiter gate: whether an operator's approval of a move it rejected needs an
//! override, and why; then the verdict of a row, the hard/soft split of the pre-checks and the
//! override reasons' wire strings.

use super::*;
use crate::engine::model::vocab::{Policy, Reason};
use crate::engine::model::Name;

/// A row rejected by `gate`.
fn rejected(gate: RejectReason) -> MoveRow {
    let id = (Name::from("ns/w"), Name::from("engine"), 0);
    let mut m = MoveRow::advice(
        Policy::Defragmentation,
        Reason::Fragmentation,
        id,
        AdvisoryReason::NoSurgeHeadroom,
        None,
        0.0,
    );
    m.outcome = Outcome::Rejected;
    m.advisory_reason = None;
    m.reject_reason = Some(gate);
    m
}

/// `gate` only paces Alfred: the verdict on a row it rejected is "can run", no override.
fn paces(gate: RejectReason) {
    assert_eq!(gate_hold(&gate), GateHold::Pacing, "{gate}");
    let v = row_verdict(&rejected(gate.clone()), || None);
    assert_eq!(v, Verdict::CanRun(CanRun::OnlyPacing(gate)));
    assert!(override_reasons(&[], &v).is_empty());
}

/// `gate` says the move fails: the verdict blocks it, and approving it overrides the gate by
/// its wire string.
fn blocks(gate: RejectReason) {
    assert_eq!(gate_hold(&gate), GateHold::Blocking, "{gate}");
    let v = row_verdict(&rejected(gate.clone()), || Some(true));
    assert_eq!(v, Verdict::Blocked(Blocker::Gate(gate.clone())));
    let o = override_reasons(&[], &v);
    assert_eq!(
        o.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        [gate.to_string()]
    );
}

// Pacing: Alfred's own submission rhythm, not the move's safety.

#[test]
fn circuit_breaker_open_paces_alfred_only() {
    // The breaker counts Alfred's own failed dispatches; an operator's request is theirs.
    paces(RejectReason::CircuitBreakerOpen);
}

#[test]
fn cooldown_paces_alfred_only() {
    // The workload's cooldown spaces Alfred's moves of it; the move itself can run.
    paces(RejectReason::Cooldown);
}

#[test]
fn placement_cooldown_paces_alfred_only() {
    // A recently started pod makes Alfred wait, not the migration fail.
    paces(RejectReason::PlacementCooldown);
}

#[test]
fn node_cooldown_paces_alfred_only() {
    // Nodes touched by Alfred's recent dispatches rest for Alfred's sake.
    paces(RejectReason::NodeCooldown);
}

#[test]
fn target_under_evacuation_paces_alfred_only() {
    // The targets are claimed by this pass's evacuations: Alfred's own bookkeeping.
    paces(RejectReason::TargetUnderEvacuation);
}

#[test]
fn target_node_busy_paces_alfred_only() {
    // The targets already take a move of this pass: Alfred's one-move-per-target rule.
    paces(RejectReason::TargetNodeBusy);
}

#[test]
fn in_flight_cap_paces_alfred_only() {
    // Alfred's cap on its in-flight migrations; the approve dialog warns the request counts.
    paces(RejectReason::InFlightCap);
}

#[test]
fn hourly_cap_paces_alfred_only() {
    // Alfred's hourly rate; an operator's request is outside it.
    paces(RejectReason::HourlyCap);
}

// Blocking: the move itself would fail or is unsafe now.

#[test]
fn instance_gone_blocks_the_move() {
    // Nothing to move.
    blocks(RejectReason::InstanceGone);
}

#[test]
fn not_movable_blocks_the_move() {
    // The workload's owner opted it out.
    blocks(RejectReason::NotMovable);
}

#[test]
fn malformed_request_pending_blocks_the_move() {
    // An unreadable request on the workload makes OME refuse another.
    blocks(RejectReason::MalformedRequestPending);
}

#[test]
fn migration_state_invalid_blocks_the_move() {
    // Inconsistent migration records: OME cannot tell what is in flight.
    blocks(RejectReason::MigrationStateInvalid);
}

#[test]
fn instance_terminating_blocks_the_move() {
    // A terminating pod: the Instance is not steady.
    blocks(RejectReason::InstanceTerminating);
}

#[test]
fn workload_busy_blocks_the_move() {
    // One migration per workload at a time.
    blocks(RejectReason::WorkloadBusy);
}

#[test]
fn autoscaler_active_blocks_the_move() {
    // An autoscaler acting on the workload races the migration.
    blocks(RejectReason::AutoscalerActive);
}

#[test]
fn target_unavailable_blocks_the_move() {
    // No usable target node: the surge copy has nowhere to go.
    blocks(RejectReason::TargetUnavailable);
}

#[test]
fn no_capacity_blocks_the_move() {
    // No target has room for the footprints.
    blocks(RejectReason::NoCapacity);
}

#[test]
fn an_unknown_gate_blocks_the_move() {
    // A gate this build does not know: assume the worst, the operator decides.
    blocks(RejectReason::from_wire("QuotaExceeded"));
}

#[test]
fn every_known_gate_is_tested_above() {
    // The tests above name 17 gates; a new one must get its own test.
    assert_eq!(RejectReason::KNOWN.len(), 17);
}

#[test]
fn advice_blocks_unless_it_has_a_plan_or_only_does_not_pay_off() {
    let mut m = rejected(RejectReason::Cooldown);
    m.outcome = Outcome::Advisory;
    m.reject_reason = None;
    m.advisory_reason = Some(AdvisoryReason::VolumePinned);
    let blocked = Verdict::Blocked(Blocker::Advice(AdvisoryReason::VolumePinned));
    assert_eq!(row_verdict(&m, || Some(true)), blocked);
    let pays = AdvisoryReason::NonExecutableObservedFragmentation;
    m.advisory_reason = Some(pays.clone());
    let room = Verdict::CanRun(CanRun::RoomDespite(pays));
    assert_eq!(row_verdict(&m, || Some(true)), room);
    let none = Verdict::Blocked(Blocker::Advice(AdvisoryReason::NoSurgeHeadroom));
    assert_eq!(row_verdict(&m, || Some(false)), none);
    assert!(!uncomputed_verdict(true, || Some(true)).executable());
    assert_eq!(
        uncomputed_verdict(false, || None),
        Verdict::Blocked(Blocker::NoComputedMove)
    );
}

#[test]
fn hard_checks_refuse_and_soft_ones_are_overridden_by_their_wire_strings() {
    let r = |check, passed| CheckResult { check, passed };
    let checks = [
        r(PreCheck::OmeNative(DeploymentMode::OMENative), Some(true)),
        r(PreCheck::NoRequestInFlight(None), None),
        r(PreCheck::InstanceReady(1, 2), Some(false)),
        r(PreCheck::NotOptedOut, None),
        r(
            PreCheck::EligibilityBaseline(Some(AdvisoryReason::ModelUnresolved)),
            Some(false),
        ),
    ];
    assert_eq!(first_refusal(&checks), None);
    let v = Verdict::Blocked(Blocker::Gate(RejectReason::NotMovable));
    let o: Vec<String> = override_reasons(&checks, &v)
        .iter()
        .map(ToString::to_string)
        .collect();
    // `NotMovable` once: the opt-out check and the gate say the same thing.
    assert_eq!(o, ["InstanceNotReady", "NotMovable", "ModelUnresolved"]);
    let raw = r(
        PreCheck::OmeNative(DeploymentMode::RawDeployment),
        Some(false),
    );
    let busy = r(PreCheck::NoRequestInFlight(Some(1)), Some(false));
    assert_eq!(
        first_refusal(&[busy.clone(), raw.clone()]),
        Some(Refusal::RequestInFlight(1))
    );
    assert_eq!(
        first_refusal(&[raw, busy]),
        Some(Refusal::NotOmeNative(DeploymentMode::RawDeployment))
    );
    let window = OverrideReason::Verdict(Blocker::OutsideMaintenanceWindow);
    assert_eq!(window.to_string(), "OutsideMaintenanceWindow");
}
