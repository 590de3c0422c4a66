//! Round trips of every vocabulary through its wire string, Alfred's exact strings, and
//! unknown (E1/E3) strings kept verbatim.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::fmt::{Debug, Display};
use std::mem::size_of;
use std::str::FromStr;

use super::*;

/// Every known value round-trips through its wire string; strings are unique; `Display`,
/// `FromStr` and `Debug` agree with the wire string; `unknown` is kept verbatim.
fn round_trips<T>(known: &[T], unknown: &str)
where
    T: AsRef<str> + Display + Debug + PartialEq + FromStr<Err = Infallible>,
    T: for<'a> From<&'a str>,
{
    let mut seen = BTreeSet::new();
    for v in known {
        let s = v.as_ref();
        assert!(seen.insert(s), "{s} twice");
        assert_eq!(&T::from(s), v);
        assert_eq!(s.parse::<T>().as_ref(), Ok(v));
        assert_eq!(v.to_string(), s);
        assert_eq!(format!("{v:?}"), format!("{s:?}"));
    }
    let kept = T::from(unknown);
    assert!(!known.contains(&kept), "{unknown}");
    assert_eq!(
        (kept.as_ref(), kept.to_string()),
        (unknown, unknown.to_string())
    );
    assert_eq!(format!("{kept:?}"), format!("Unknown({unknown:?})"));
    assert!(
        size_of::<T>() <= size_of::<&str>(),
        "as small as the text it replaced"
    );
}

#[test]
fn every_vocabulary_round_trips_through_its_wire_string() {
    round_trips(Policy::KNOWN, "tpuslice");
    round_trips(Reason::KNOWN, "Preemption");
    round_trips(Outcome::KNOWN, "dispatched");
    round_trips(DispatchStatus::KNOWN, "prepared");
    round_trips(AdvisoryReason::KNOWN, "AcceleratorPlacementUnmodeled");
    round_trips(RejectReason::KNOWN, "QuotaExceeded");
    round_trips(DispatchReason::KNOWN, "SomethingNew");
    round_trips(WithholdReason::KNOWN, "Paused");
    round_trips(MigrationPhase::KNOWN, "InProgress");
    round_trips(Policy::KNOWN, "");
}

#[test]
fn unknown_values_are_kept_verbatim() {
    let e3 = AdvisoryReason::from_wire("NoTPUSliceCapacity");
    assert_eq!(
        e3,
        AdvisoryReason::Unknown(Box::new("NoTPUSliceCapacity".into()))
    );
    assert!(!e3.is_known() && e3 == "NoTPUSliceCapacity");
    assert!(Reason::from_wire("NodeUnhealthy").is_known());
    // Exact, case-sensitive strings.
    assert_eq!(
        Policy::from_wire("NodeHealth"),
        Policy::Unknown(Box::new("NodeHealth".into()))
    );
}

/// Asserts that every string of `wire` is a known value of `T` and that `T` knows no other.
fn exactly<T: std::fmt::Debug>(known: &[T], as_str: fn(&T) -> &str, wire: &[&str]) {
    let mut ours: Vec<&str> = known.iter().map(as_str).collect();
    let mut theirs = wire.to_vec();
    ours.sort_unstable();
    theirs.sort_unstable();
    assert_eq!(ours, theirs);
}

#[test]
fn the_vocabularies_are_alfreds_exact_strings() {
    let policies = ["defragmentation", "nodehealth", "migration-dispatch"];
    exactly(Policy::KNOWN, Policy::as_str, &policies);
    let reasons = ["Fragmentation", "NodeUnhealthy", "NodeMaintenance"];
    exactly(Reason::KNOWN, Reason::as_str, &reasons);
    let statuses = [
        "withheld",
        "submitted",
        "acknowledged",
        "completed",
        "failed",
        "stalled",
    ];
    exactly(DispatchStatus::KNOWN, DispatchStatus::as_str, &statuses);
    // Alfred's outcomes, E1's reserved `admitted`, and ome-top's pre-arbitration `candidate`.
    let mut outcomes = vec!["advisory", "rejected", "admitted", "candidate"];
    outcomes.extend(&statuses[1..]);
    outcomes.push("withheld");
    exactly(Outcome::KNOWN, Outcome::as_str, &outcomes);
    let gates = [
        "CircuitBreakerOpen",
        "InstanceGone",
        "NotMovable",
        "MalformedRequestPending",
        "MigrationStateInvalid",
        "InstanceTerminating",
        "WorkloadBusy",
        "AutoscalerActive",
        "Cooldown",
        "PlacementCooldown",
        "NodeCooldown",
        "TargetUnavailable",
        "TargetUnderEvacuation",
        "TargetNodeBusy",
        "NoCapacity",
        "InFlightCap",
        "HourlyCap",
    ];
    exactly(RejectReason::KNOWN, RejectReason::as_str, &gates);
    // Preflight repeats every gate, as the gate itself.
    for g in gates {
        let d = DispatchReason::from_wire(g);
        assert_eq!(d, DispatchReason::Gate(RejectReason::from_wire(g)), "{g}");
        assert!(d.is_known(), "{g}");
        assert_eq!((d.as_str(), d.to_string()), (g, g.to_string()));
        assert_eq!(format!("{d:?}"), format!("{g:?}"));
    }
    for own in DispatchReason::KNOWN {
        assert!(
            !RejectReason::from_wire(own.as_str()).is_known(),
            "{own} twice"
        );
    }
    let withhold = ["RecommendOnly", "DispatcherUnavailable"];
    exactly(WithholdReason::KNOWN, WithholdReason::as_str, &withhold);
}

#[test]
fn advisory_and_dispatch_reasons_are_alfreds() {
    for s in [
        "OMENativeUnavailable",
        "RawDeploymentMigrationUnsupported",
        "LWSMigrationUnsupported",
        "NoSurgeHeadroom",
        "VolumePinned",
        "ModelUnresolved",
        "MigrationSurfaceDisabled",
        "OMENativeObservationInvalid",
        "OMENativeStateIneligible",
        "NonExecutableObservedFragmentation",
        "SimulationRecommendOnly",
        "ProfileNotConfigured",
        "ProfileInvalid",
        "GangUnsupported",
        "MixedSchedulers",
        "TemplateBound",
        "NoTemplates",
        "SimulationUnavailable",
    ] {
        assert!(AdvisoryReason::from_wire(s).is_known(), "{s}");
    }
    // E3 additions are kept, not known.
    for s in ["AcceleratorPlacementUnmodeled", "NoTPUSliceCapacity"] {
        assert_eq!(AdvisoryReason::from_wire(s).as_str(), s);
        assert!(!AdvisoryReason::from_wire(s).is_known());
    }
    for s in [
        "JournalUnavailable",
        "MultipleUnresolvedRequests",
        "UnresolvedRequest",
        "ExecutionDisabled",
        "InvalidDispatchOptions",
        "InvalidCooldown",
        "ConfigurationChanged",
        "SimulationUnavailable",
        "DispatchDeadline",
        "GuardUnavailable",
        "ObservationStale",
        "FailureBackoff",
        "SerialDispatchLimit",
        "ObservationUnavailable",
        "PolicyNoLongerEligible",
        "SnapshotUnavailable",
        "JournalPayloadInvalid",
        "SourceUnsupported",
        "SourceChanged",
        "SimulationNotFeasible",
        "SimulationStale",
        "SchedulingStateChanged",
        "SafetyStateChanged",
        "PredictedTargetUnsafe",
        "TargetCooldown",
        "InvalidRequest",
        "OwnerChanged",
        "SubmissionPrepared",
        "RequestSubmitted",
        "SubmissionUncertain",
        "SubmissionJournalUncertain",
    ] {
        assert!(DispatchReason::from_wire(s).is_known(), "{s}");
    }
}

#[test]
fn display_pads_like_the_text_it_replaced() {
    assert_eq!(
        format!("[{:<10}]", Outcome::Advisory),
        format!("[{:<10}]", "advisory")
    );
    assert_eq!(format!("[{:>8}]", Policy::from_wire("x")), "[       x]");
}

#[test]
fn reason_classes_and_migration_phases() {
    let class = |s: &str| Reason::from_wire(s).class();
    assert_eq!([class("NodeUnhealthy"), class("NodeMaintenance")], [2, 1]);
    assert_eq!([class("Fragmentation"), class("Preemption")], [0, 0]);
    let terminal: Vec<&str> = MigrationPhase::KNOWN
        .iter()
        .filter(|p| p.is_terminal())
        .map(MigrationPhase::as_str)
        .collect();
    assert_eq!(terminal, ["Completed", "Failed", "Relocated"]);
    let manual = MigrationPhase::KNOWN.iter().filter(|p| p.is_manual());
    assert_eq!(manual.count(), 6);
    assert!(!MigrationPhase::from_wire("Pending").is_terminal());
}
