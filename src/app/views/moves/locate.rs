//! Where a move's Instance sits in the analysis's workloads.

use crate::engine::analysis::Analysis;
use crate::engine::model::ClusterSnapshot;

/// `(component index, instance index)` in `Analysis::workloads` for a move's identity.
pub fn locate_instance(
    snap: &ClusterSnapshot,
    a: &Analysis,
    workload: &str,
    component: &str,
    instance: i64,
) -> Option<(usize, usize)> {
    a.workloads
        .components
        .iter()
        .enumerate()
        .find_map(|(c, comp)| {
            let isvc = snap.isvcs.get(comp.isvc)?;
            if comp.name() != component || isvc.key() != workload {
                return None;
            }
            let i = comp.instances.iter().position(|x| x.index == instance)?;
            Some((c, i))
        })
}
