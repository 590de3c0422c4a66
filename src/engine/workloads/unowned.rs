//! GPU pods that belong to an InferenceService component but to none of its Instances, in
//! words: which service and component, how many pods, GPUs and nodes, and why no Instance
//! holds them. Alfred counts no demand for such pods (its rule is kept); ome-top says so
//! instead of dropping them silently.

use std::collections::BTreeSet;

use crate::engine::model::ClusterSnapshot;
use crate::engine::workloads::{ObservationError, Workloads};

/// Pod names named in a warning before the rest are counted.
const NAMED: usize = 3;

/// One sentence per component with unowned GPU pods, in component order.
pub fn unowned_warnings(snap: &ClusterSnapshot, workloads: &Workloads) -> Vec<String> {
    workloads
        .components
        .iter()
        .filter(|c| !c.unowned.is_empty())
        .filter_map(|c| {
            let isvc = snap.isvcs.get(c.isvc)?;
            let pods: Vec<_> = c.unowned.iter().filter_map(|p| snap.pods.get(*p)).collect();
            let gpus: u64 = pods.iter().map(|p| u64::from(p.gpus)).sum();
            let nodes: BTreeSet<&str> = pods.iter().filter_map(|p| p.node.as_deref()).collect();
            let mut names: Vec<&str> = pods.iter().take(NAMED).map(|p| &*p.name).collect();
            if pods.len() > NAMED {
                names.push("…");
            }
            Some(format!(
                "InferenceService {} {}: {} on {} ({}) belong to no Instance: {}",
                isvc.key(),
                c.name(),
                plural(pods.len() as u64, "GPU pod", &format!("{gpus} GPUs")),
                plural(nodes.len() as u64, "node", ""),
                names.join(", "),
                why(&c.observation),
            ))
        })
        .collect()
}

/// "2 GPU pods (16 GPUs)", "1 node".
fn plural(n: u64, what: &str, detail: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    match detail {
        "" => format!("{n} {what}{s}"),
        d => format!("{n} {what}{s} ({d})"),
    }
}

fn why(observation: &Result<(), ObservationError>) -> String {
    const NO_DEMAND: &str = "Alfred counts no demand for them";
    match observation {
        Err(ObservationError::ReplicaMissing { .. }) => format!(
            "OMENative by its shape, but no InferenceReplica: OME before v1.3 runs it as a \
             LeaderWorkerSet; {NO_DEMAND}"
        ),
        Err(e) => format!("OMENative, but its InferenceReplica cannot be used ({e}); {NO_DEMAND}"),
        Ok(()) => format!("OMENative, but no row of its InferenceReplica joins them; {NO_DEMAND}"),
    }
}
