//! The string-backed wire enums of `last-cycle.json` (mode, policy, reason, outcome, dispatch
//! status, advisory and withhold reasons, scheduling status). Each keeps unknown values in
//! `Other`, so E1/E3 strings are shown instead of failing a parse.
//!
//! Must not import anything outside std and the sibling module `recommendations_node`.

use crate::engine::recommendations::node_record::wire_enum;

wire_enum! {
    /// The mode of the config generation used in a pass.
    Mode { RecommendOnly = "recommend-only", Execute = "execute" }
}
wire_enum! {
    /// The policy (or journal) that produced a row.
    Policy {
        Defragmentation = "defragmentation",
        NodeHealth = "nodehealth",
        /// A journal row whose stored request could not be decoded.
        MigrationDispatch = "migration-dispatch",
    }
}
wire_enum! {
    /// Why a move was proposed; also the arbiter's class (see [`reason_class`]).
    ///
    /// [`reason_class`]: super::reason_class
    Reason {
        Fragmentation = "Fragmentation",
        NodeUnhealthy = "NodeUnhealthy",
        NodeMaintenance = "NodeMaintenance",
    }
}
wire_enum! {
    /// What happened to a row in the pass. E1's reserved `admitted` is `Other`.
    Outcome {
        Advisory = "advisory", Rejected = "rejected", Withheld = "withheld",
        Submitted = "submitted", Acknowledged = "acknowledged", Completed = "completed",
        Failed = "failed", Stalled = "stalled",
    }
}
wire_enum! {
    /// Dispatch progress of a row (`prepared` journal entries are written as `withheld`).
    DispatchStatus {
        Withheld = "withheld", Submitted = "submitted", Acknowledged = "acknowledged",
        Completed = "completed", Failed = "failed", Stalled = "stalled",
    }
}
wire_enum! {
    /// Why a row is advice (E2). Scheduling reasons and E3 additions are `Other`.
    AdvisoryReason {
        OmeNativeUnavailable = "OMENativeUnavailable",
        RawDeploymentMigrationUnsupported = "RawDeploymentMigrationUnsupported",
        LwsMigrationUnsupported = "LWSMigrationUnsupported",
        NoSurgeHeadroom = "NoSurgeHeadroom",
        VolumePinned = "VolumePinned",
        ModelUnresolved = "ModelUnresolved",
        MigrationSurfaceDisabled = "MigrationSurfaceDisabled",
        OmeNativeObservationInvalid = "OMENativeObservationInvalid",
        OmeNativeStateIneligible = "OMENativeStateIneligible",
        NonExecutableObservedFragmentation = "NonExecutableObservedFragmentation",
        SimulationRecommendOnly = "SimulationRecommendOnly",
    }
}
wire_enum! {
    /// E1's `withholdReason` (replaced by `dispatchStatus`/`dispatchReason` in E2).
    WithholdReason { RecommendOnly = "RecommendOnly", DispatcherUnavailable = "DispatcherUnavailable" }
}
wire_enum! {
    /// Result of the scheduling gate / simulation on a row.
    SchedulingStatus {
        Unavailable = "Unavailable", Unsupported = "Unsupported",
        Feasible = "Feasible", Infeasible = "Infeasible",
    }
}
