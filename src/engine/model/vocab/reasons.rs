//! The reason vocabularies of move rows: why a row is advice, which arbiter gate rejected it,
//! and why the dispatcher withheld it (or how its dispatch went). Alfred's exact strings.

use super::vocabulary;

vocabulary! {
    /// Why a row is advice. Alfred also uses any scheduling reason here when the scheduling
    /// gate turns an otherwise executable move into advice; the ones this build does not list
    /// (and newer additions) are `Unknown`.
    AdvisoryReason {
        /// No OMENative executor (the migration API is off).
        OmeNativeUnavailable = "OMENativeUnavailable",
        /// A RawDeployment Instance.
        RawDeploymentMigrationUnsupported = "RawDeploymentMigrationUnsupported",
        /// A MultiNode (LeaderWorkerSet) component.
        LwsMigrationUnsupported = "LWSMigrationUnsupported",
        /// No candidate target can take the footprints.
        NoSurgeHeadroom = "NoSurgeHeadroom",
        /// The model lives on a ReadWriteOnce / ReadWriteOncePod claim.
        VolumePinned = "VolumePinned",
        /// The model object or its claim cannot be found.
        ModelUnresolved = "ModelUnresolved",
        /// `omenativeMigrationEnabled` is off.
        MigrationSurfaceDisabled = "MigrationSurfaceDisabled",
        /// The OMENative evidence (IR status, pods) is inconsistent.
        OmeNativeObservationInvalid = "OMENativeObservationInvalid",
        /// The Instance is not in a steady, movable state.
        OmeNativeStateIneligible = "OMENativeStateIneligible",
        /// Fragmentation above the threshold that no executable move fixes.
        NonExecutableObservedFragmentation = "NonExecutableObservedFragmentation",
        /// A planned move in recommend-only mode (simulation configured).
        SimulationRecommendOnly = "SimulationRecommendOnly",
        /// Scheduling gate: no simulation profile for the pods' scheduler.
        ProfileNotConfigured = "ProfileNotConfigured",
        /// Scheduling gate: the profile is invalid.
        ProfileInvalid = "ProfileInvalid",
        /// Scheduling gate: a multi-pod Instance without gang support in the profile.
        GangUnsupported = "GangUnsupported",
        /// Scheduling gate: the Instance's pods use different schedulers.
        MixedSchedulers = "MixedSchedulers",
        /// Scheduling gate: a pod is bound to a template.
        TemplateBound = "TemplateBound",
        /// Scheduling gate: no templates.
        NoTemplates = "NoTemplates",
        /// Scheduling gate: the simulation is unavailable.
        SimulationUnavailable = "SimulationUnavailable",
    }
}

vocabulary! {
    /// The arbiter gate that rejected a candidate (the first that failed, in gate order).
    RejectReason {
        /// Alfred's circuit breaker is open (too many recent failures).
        CircuitBreakerOpen = "CircuitBreakerOpen",
        /// The workload or Instance is no longer in the snapshot.
        InstanceGone = "InstanceGone",
        /// The workload is not movable (annotation or `defaultMovable`).
        NotMovable = "NotMovable",
        /// The workload carries a request annotation that does not parse.
        MalformedRequestPending = "MalformedRequestPending",
        /// The workload's migration evidence is inconsistent.
        MigrationStateInvalid = "MigrationStateInvalid",
        /// A pod of the Instance is terminating.
        InstanceTerminating = "InstanceTerminating",
        /// The workload has an active migration, or one was admitted this pass.
        WorkloadBusy = "WorkloadBusy",
        /// An autoscaler is acting on the workload.
        AutoscalerActive = "AutoscalerActive",
        /// The workload migrated within its cooldown window.
        Cooldown = "Cooldown",
        /// A pod of the Instance started recently.
        PlacementCooldown = "PlacementCooldown",
        /// The source (or every usable target) was touched by a recent dispatch.
        NodeCooldown = "NodeCooldown",
        /// No usable target node.
        TargetUnavailable = "TargetUnavailable",
        /// The targets with room are being evacuated this pass.
        TargetUnderEvacuation = "TargetUnderEvacuation",
        /// The targets with room already take a move this pass.
        TargetNodeBusy = "TargetNodeBusy",
        /// No target has room for the footprints.
        NoCapacity = "NoCapacity",
        /// `maxInFlightMigrations` reached.
        InFlightCap = "InFlightCap",
        /// `maxMigrationsPerHour` reached.
        HourlyCap = "HourlyCap",
    }
}

vocabulary! {
    /// Why the dispatcher withheld an admitted row, or how a dispatch went: the pass-wide
    /// reasons, the per-candidate preflight reasons (which repeat every arbiter gate: those
    /// are `Gate`, one [`RejectReason`] each) and the outcomes of the write.
    DispatchReason {
        // Pass-wide.
        JournalUnavailable = "JournalUnavailable",
        MultipleUnresolvedRequests = "MultipleUnresolvedRequests",
        UnresolvedRequest = "UnresolvedRequest",
        ExecutionDisabled = "ExecutionDisabled",
        InvalidDispatchOptions = "InvalidDispatchOptions",
        InvalidCooldown = "InvalidCooldown",
        ConfigurationChanged = "ConfigurationChanged",
        SimulationUnavailable = "SimulationUnavailable",
        DispatchDeadline = "DispatchDeadline",
        GuardUnavailable = "GuardUnavailable",
        ObservationStale = "ObservationStale",
        FailureBackoff = "FailureBackoff",
        /// Alfred attempts one submission a pass; the other admitted rows get this.
        SerialDispatchLimit = "SerialDispatchLimit",
        // Preflight.
        ObservationUnavailable = "ObservationUnavailable",
        PolicyNoLongerEligible = "PolicyNoLongerEligible",
        SnapshotUnavailable = "SnapshotUnavailable",
        JournalPayloadInvalid = "JournalPayloadInvalid",
        SourceUnsupported = "SourceUnsupported",
        SourceChanged = "SourceChanged",
        SimulationNotFeasible = "SimulationNotFeasible",
        SimulationStale = "SimulationStale",
        SchedulingStateChanged = "SchedulingStateChanged",
        SafetyStateChanged = "SafetyStateChanged",
        PredictedTargetUnsafe = "PredictedTargetUnsafe",
        TargetCooldown = "TargetCooldown",
        InvalidRequest = "InvalidRequest",
        // Outcomes of the write.
        OwnerChanged = "OwnerChanged",
        SubmissionPrepared = "SubmissionPrepared",
        RequestSubmitted = "RequestSubmitted",
        SubmissionUncertain = "SubmissionUncertain",
        SubmissionJournalUncertain = "SubmissionJournalUncertain",
    }
    embeds
    /// An arbiter gate, repeated by preflight: the gate's own value and wire string.
    Gate(RejectReason)
}
