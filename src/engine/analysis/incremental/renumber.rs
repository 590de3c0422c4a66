//! Renumbering pod indices after a pod is inserted into or removed from the snapshot: every
//! index the analysis and the records hold past the edited position moves by one (the index
//! renumbers its own lists as it is edited).
//!
//! Owns: `Incremental::renumber`. Pure.

use crate::engine::analysis::incremental::Incremental;
use crate::engine::analysis::Analysis;

impl Incremental {
    /// Applies `f` to every pod index held outside the index.
    pub(super) fn renumber(&mut self, f: &dyn Fn(usize) -> usize) {
        renumber_analysis(
            std::sync::Arc::make_mut(&mut self.analysis),
            &self.parts.planned_moves,
            f,
        );
        let parts = &mut self.parts;
        parts.routes.renumber(f);
        for (p, _) in &mut parts.pending {
            *p = f(*p);
        }
        parts.demand.renumber(f);
        parts.movable.renumber(f);
    }
}

/// Applies `f` to the pod indices of an analysis: Instance pods, components' unowned pods,
/// pools' pending pods, the plans of the move rows at `planned` (the rows that have one), gang
/// members.
fn renumber_analysis(a: &mut Analysis, planned: &[usize], f: &dyn Fn(usize) -> usize) {
    for comp in &mut a.workloads.components {
        for inst in &mut comp.instances {
            for p in &mut inst.pods {
                *p = f(*p);
            }
        }
        for p in &mut comp.unowned {
            *p = f(*p);
        }
    }
    for pool in &mut a.pools {
        for p in &mut pool.pending {
            *p = f(*p);
        }
    }
    for &i in planned {
        let Some(plan) = a.moves.get_mut(i).and_then(|m| m.plan.as_mut()) else {
            continue;
        };
        for (p, _) in &mut plan.placements {
            *p = f(*p);
        }
        for (p, _) in &mut plan.footprints {
            *p = f(*p);
        }
    }
    for g in &mut a.gangs.gangs {
        for p in &mut g.members {
            *p = f(*p);
        }
    }
}
