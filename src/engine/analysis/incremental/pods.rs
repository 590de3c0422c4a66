//! One pod edit: what the pod's previous version fed is taken out of the records (its node's
//! allocation, the component lists it was routed or labelled to, the pending pods), the pod
//! indices after an insertion or removal are renumbered everywhere, the new version is
//! recorded, and what either version was read by is marked stale.
//!
//! What a pod version is read by, past the index: its node's allocation and the moves (a live
//! pod with GPUs), the components it is routed or labelled to, the pools of a pending GPU pod,
//! the gang report (a gang member, an unbound pod of its scheduler, any bound pod when it read
//! every node's free resources), the lints (a live or OME-managed pod). A pod in none of
//! those — a node agent, a finished pod — only moves the others' indices.
//!
//! Owns: `Incremental::apply_pod`. Pure.

use std::sync::Arc;

use crate::engine::analysis::incremental::routes::PodRoutes;
use crate::engine::analysis::incremental::stages::Stale;
use crate::engine::analysis::incremental::Incremental;
use crate::engine::gangs::{effective_scheduler, same_gang_inputs};
use crate::engine::index::is_live;
use crate::engine::lints::same_lint_inputs;
use crate::engine::model::{Pod, PodEdit};
use crate::engine::nodes::pod_allocation;
use crate::engine::pools::attribute_pending_in;

impl Incremental {
    /// Brings the analysis up to date after `edit` changed the snapshot's pods.
    pub(super) fn apply_pod(&mut self, edit: PodEdit) {
        let mut stale = Stale::default();
        match edit {
            PodEdit::Absent => return,
            PodEdit::Replaced { at, old } => {
                let before = self.routes_of(&old);
                self.effects(&old, at, false, &mut stale);
                let pod = Arc::clone(&self.snap.pods.shared()[at]);
                let node = self.node_named(&pod);
                self.parts.index.replace_pod(at, &pod, node);
                let after = self.routes_of(&pod);
                self.effects(&pod, at, true, &mut stale);
                self.reroute(at, (&before, &after), &mut stale);
                // Both versions read alike: what only reads pods is unchanged.
                let same = same_lint_inputs(&old, &pod);
                stale.lints &= !same;
                stale.pod_lints &= !same;
                stale.gangs &= !same_gang_inputs(&old, &pod);
                stale.pod_versions.push((Some(old), Some(pod)));
            }
            PodEdit::Inserted { at } => {
                self.renumber(&|p| if p >= at { p + 1 } else { p });
                let pod = Arc::clone(&self.snap.pods.shared()[at]);
                let node = self.node_named(&pod);
                self.parts.index.insert_pod(at, &pod, node);
                let after = self.routes_of(&pod);
                self.effects(&pod, at, true, &mut stale);
                self.reroute(at, (&PodRoutes::default(), &after), &mut stale);
                stale.pod_versions.push((None, Some(pod)));
            }
            PodEdit::Removed { at, old } => {
                let before = self.routes_of(&old);
                self.effects(&old, at, false, &mut stale);
                self.reroute(at, (&before, &PodRoutes::default()), &mut stale);
                stale.pod_versions.push((Some(old), None));
                self.parts.index.remove_pod(at);
                self.renumber(&|p| if p > at { p - 1 } else { p });
            }
        }
        self.refresh(stale);
    }

    /// The node index `pod.node` names (the index's resolution).
    fn node_named(&self, pod: &Pod) -> Option<usize> {
        let name = pod.node.as_ref()?;
        self.parts.node_by_name.get(name).copied()
    }

    /// The components pod version `pod` feeds, by the index as it stands.
    fn routes_of(&self, pod: &Pod) -> PodRoutes {
        self.parts.routes.of(&self.snap, &self.parts.index, pod)
    }

    /// Moves pod `at` from the component lists `before` names to those `after` names (no
    /// edit when they are the same: a pod's lists are long, and most edits keep them); the
    /// ISVCs of both are stale.
    fn reroute(&mut self, at: usize, (before, after): (&PodRoutes, &PodRoutes), stale: &mut Stale) {
        let routes = &mut self.parts.routes;
        if before != after {
            routes.remove(before, at);
            routes.add(after, at);
        }
        routes.isvcs(before, &mut stale.isvcs);
        routes.isvcs(after, &mut stale.isvcs);
    }

    /// Records (`add`) or takes out pod version `pod` at position `at` (its component lists
    /// apart: `reroute`), marking what reads it.
    fn effects(&mut self, pod: &Pod, at: usize, add: bool, stale: &mut Stale) {
        let node = self.node_named(pod);
        let running = !pod.phase.is_terminal();
        if let (Some((gpus, occupant)), Some(n)) = (pod_allocation(pod), node) {
            let t = &mut self.parts.tallies[n];
            if add {
                t.gpus += u64::from(gpus);
                t.occupants += u32::from(occupant);
            } else {
                t.gpus -= u64::from(gpus);
                t.occupants -= u32::from(occupant);
            }
            stale.nodes.push(n);
        }
        if pod.is_pending_gpu() {
            self.pending(at, add, stale);
        }
        let grouped = running && pod.ome.pod_group.is_some();
        let bound = running && node.is_some();
        // Unplaced pods the gang engine reads: members, and standalone pods of its scheduler
        // (reservation evidence); another scheduler's standalone pod is none of its business.
        let scheduler = self.analysis.gangs.config.scheduler_name.as_str();
        let unplaced = pod.node.is_none()
            && (pod.ome.pod_group.is_some() || effective_scheduler(pod) == scheduler);
        stale.gangs |= grouped || unplaced || (self.parts.gangs_read_capacity && bound);
        let live = is_live(pod);
        let linted = live || (running && pod.ome.managed_by.is_some());
        // Only a live pod on a known node is among the bound GPU pods the pool and node
        // rules read; the pod rules read every linted pod.
        stale.lints |= linted && node.is_some();
        stale.pod_lints |= linted;
        // Health rows read live GPU pods no Instance covers.
        stale.plan |= live && pod.gpus > 0;
    }

    /// Adds pending pod `at` (attributed) or takes it out; its pool (every pool when it is
    /// unattributed) is stale.
    fn pending(&mut self, at: usize, add: bool, stale: &mut Stale) {
        let parts = &mut self.parts;
        let pos = parts.pending.partition_point(|(p, _)| *p < at);
        let pool = if add {
            let attributed =
                attribute_pending_in(&self.snap, std::iter::once(at), &parts.pool_nodes);
            let Some(&(_, pool)) = attributed.first() else {
                return;
            };
            parts.pending.insert(pos, (at, pool));
            pool
        } else {
            match parts.pending.get(pos) {
                Some(&(p, pool)) if p == at => {
                    parts.pending.remove(pos);
                    pool
                }
                _ => return,
            }
        };
        match pool {
            Some(q) => stale.pools.push(q),
            None => stale.pools.extend(0..parts.pool_nodes.len()),
        }
    }
}
