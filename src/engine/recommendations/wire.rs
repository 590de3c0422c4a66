//! The wire enums of `last-cycle.json`: its own `mode` and scheduling `status`, and the move
//! vocabulary (policy, reason, outcome, dispatch status, advisory, reject, dispatch and
//! withhold reasons) shared with the rows ome-top computes (`engine::model::vocab`). Each keeps
//! unknown values in `Unknown`, so E1/E3 strings are shown instead of failing a parse.

use crate::engine::model::vocab::vocabulary;

pub use crate::engine::model::vocab::{
    AdvisoryReason, DispatchReason, DispatchStatus, Outcome, Policy, Reason, RejectReason,
    WithholdReason,
};

vocabulary! {
    /// The mode of the config generation used in a pass.
    Mode {
        /// Recommend only.
        RecommendOnly = "recommend-only",
        /// Execute.
        Execute = "execute",
    }
}
vocabulary! {
    /// Result of the scheduling gate / simulation on a row.
    SchedulingStatus {
        /// No simulation result.
        Unavailable = "Unavailable",
        /// The simulator cannot model the Instance.
        Unsupported = "Unsupported",
        /// A placement was found.
        Feasible = "Feasible",
        /// No feasible placement.
        Infeasible = "Infeasible",
    }
}
