//! Why a component's or an Instance's observation is invalid (spec §5.3): the binding of the
//! InferenceReplica (steps 1–6), its status rows (7–8) and the pods routed to it (10–12). The
//! eligibility checks branch on `is_err` only; the words are the observation reason.

use crate::engine::model::{Name, StatusError};

/// An invalid observation, one variant per check of §5.3.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ObservationError {
    /// The InferenceReplica list was not readable.
    #[error("inference replica list unavailable")]
    ReplicasUnlisted,
    /// No InferenceReplica for the component.
    #[error("inference replica {workload}-{component} is missing")]
    ReplicaMissing {
        /// The InferenceService.
        workload: Name,
        /// The component (`engine`, `decoder`, `router`).
        component: &'static str,
    },
    /// More than one InferenceReplica for the component: the first one's name.
    #[error("inference replica {0} is duplicated")]
    ReplicaDuplicated(Name),
    /// The InferenceReplica's controller is not the InferenceService.
    #[error("inference replica {0} owner is invalid")]
    OwnerInvalid(Name),
    /// `status.observedGeneration` behind `metadata.generation`.
    #[error("inference replica {0} status is stale")]
    StatusStale(Name),
    /// Neither one `default` runner of size 1 nor `leader` (1) and `worker` (≥ 1).
    #[error("runner layout is invalid")]
    RunnerLayout,
    /// The status rows do not decode or break a row check.
    #[error("status is invalid: {0}")]
    StatusInvalid(StatusError),
    /// A pod without a readable instance index, or owned by another replica.
    #[error("pod identity is invalid: {0}")]
    PodIdentity(Name),
    /// A pod naming an index no row has.
    #[error("pod {pod} names no instance row {index}")]
    NoRow {
        /// The pod.
        pod: Name,
        /// Its instance index.
        index: i64,
    },
    /// A steady Instance's pod is terminating.
    #[error("pod membership: {0} is terminating")]
    PodTerminating(Name),
    /// A pod's runner or ordinal does not fit the layout.
    #[error("pod layout is invalid: {0}")]
    PodLayout(Name),
    /// A pod's incarnation differs from its row's.
    #[error("pod incarnation disagrees: {0}")]
    PodIncarnation(Name),
    /// Two pods with the same member key.
    #[error("duplicate pod: {0}")]
    DuplicatePod(Name),
    /// A steady Instance's pods are not its expected members.
    #[error("pod membership disagrees with status")]
    Membership,
    /// A steady Instance's pod counts differ from its row's.
    #[error("pod counts disagree with status")]
    Counts,
}
