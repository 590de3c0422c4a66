//! What the pending-pod answers read of an analysis: the explanation's input, built from the
//! analysis's own parts.
//!
//! Owns: `Analysis::pending_input`. Pure.

use crate::engine::analysis::Analysis;
use crate::engine::explain::PendingInput;
use crate::engine::model::ClusterSnapshot;

impl Analysis {
    /// The explanation's input over `snap`, the snapshot this analysis was computed from.
    pub fn pending_input<'a>(&'a self, snap: &'a ClusterSnapshot) -> PendingInput<'a> {
        PendingInput {
            snap,
            states: &self.nodes,
            node_order: &self.node_order,
            pools: &self.pools,
            gangs: &self.gangs,
        }
    }
}
