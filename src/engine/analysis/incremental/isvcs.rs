//! One InferenceService edit. A service replaced in place with the same identity and shape
//! (uid, deployment mode, component blocks: what the index's component modes, the replica
//! owners and the pod routes read) re-runs only its own components, their verdicts, the
//! pools they feed and their move rows, and the journal's clearing checks (they read every
//! service's request annotations and uid). An annotation some other service's rows read too
//! — `cooldown-minutes` (a pass-wide withhold), `tenant-group` (a pending pod's tenant),
//! `priority` (the node-health ranking) — re-runs the whole decision pass as well. A service
//! added, removed or reshaped moves every ISVC index: a full analysis.
//!
//! Owns: `Incremental::apply_isvc`. Pure.

use crate::engine::analysis::incremental::stages::Stale;
use crate::engine::analysis::incremental::Incremental;
use crate::engine::journal::stalled_verdicts;
use crate::engine::model::{InferenceService, IsvcEdit};

/// Annotations that rows of other services (or the whole pass) read.
const FLEET_WIDE: [&str; 3] = [
    "alfred.ome.io/cooldown-minutes",
    "alfred.ome.io/tenant-group",
    "alfred.ome.io/priority",
];

/// Whether the two versions resolve pods, replicas and component modes alike.
fn same_shape(old: &InferenceService, new: &InferenceService) -> bool {
    old.uid == new.uid
        && old.deployment_mode == new.deployment_mode
        && old.components == new.components
}

/// Whether an annotation other services' rows read differs between the two versions.
fn fleet_wide_change(old: &InferenceService, new: &InferenceService) -> bool {
    FLEET_WIDE
        .iter()
        .any(|k| old.annotation(k) != new.annotation(k))
}

impl Incremental {
    /// Brings the analysis up to date after `edit` changed the snapshot's services.
    pub(super) fn apply_isvc(&mut self, edit: IsvcEdit) {
        let (at, old) = match edit {
            IsvcEdit::Absent => return,
            IsvcEdit::Replaced { at, old } => (at, old),
            IsvcEdit::Inserted { .. } | IsvcEdit::Removed { .. } => return self.rebuild(),
        };
        let Some(new) = self.snap.isvcs.get(at) else {
            return self.rebuild();
        };
        if !same_shape(&old, new) {
            return self.rebuild();
        }
        // The resource version alone is read by nothing.
        if old.annotations == new.annotations && old.model == new.model {
            return;
        }
        let stale = Stale {
            isvcs: vec![at],
            plan: true,
            plan_full: fleet_wide_change(&old, new),
            ..Stale::default()
        };
        let clearing = (self.analysis.journal.journal()).map(|j| stalled_verdicts(&self.snap, j));
        if let Some(clearing) = clearing {
            std::sync::Arc::make_mut(&mut self.analysis).clearing = clearing.into();
        }
        self.refresh(stale);
    }
}
