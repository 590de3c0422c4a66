//! GPU pods that belong to an InferenceService component but to none of its Instances, in
//! words: which service and component, how many pods, GPUs and nodes, and why no Instance
//! holds them. Alfred counts no demand for such pods (its rule is kept); ome-top says so
//! instead of dropping them silently.

use std::collections::BTreeSet;

use crate::engine::model::ClusterSnapshot;
use crate::engine::workloads::{DeploymentMode, ObservationError, Workloads};

/// Pod names named in a warning before the rest are counted.
const NAMED: usize = 3;

/// The GPU pods of one component that no Instance holds, counted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unowned {
    /// The InferenceService, `namespace/name`.
    pub workload: String,
    /// The component (`engine`, `decoder`, `router`).
    pub component: &'static str,
    /// How many pods, their GPUs and the nodes they run on.
    pub pods: u64,
    /// Σ GPUs of those pods.
    pub gpus: u64,
    /// Distinct nodes they run on.
    pub nodes: u64,
    /// The first pods' names, `…` when there are more.
    pub names: Vec<String>,
    /// Why no Instance holds them, in OME's terms.
    pub why: String,
}

impl Unowned {
    /// "InferenceService prod/llama engine: 2 GPU pods (8 GPUs) on 1 node (a, b)".
    pub fn what(&self) -> String {
        format!(
            "InferenceService {} {}: {} on {} ({})",
            self.workload,
            self.component,
            plural(self.pods, "GPU pod", &format!("{} GPUs", self.gpus)),
            plural(self.nodes, "node", ""),
            self.names.join(", "),
        )
    }

    /// "prod/llama engine: 2 GPU pods (8 GPUs)", for a line with little room.
    pub fn short(&self) -> String {
        format!(
            "{} {}: {}",
            self.workload,
            self.component,
            plural(self.pods, "GPU pod", &format!("{} GPUs", self.gpus)),
        )
    }

    /// The warning: what, "belong to no Instance", and why.
    pub fn text(&self) -> String {
        format!("{} belong to no Instance: {}", self.what(), self.why)
    }
}

/// Every component with GPU pods no Instance holds, in component order.
pub fn unowned_pods(snap: &ClusterSnapshot, workloads: &Workloads) -> Vec<Unowned> {
    workloads
        .components
        .iter()
        .filter(|c| !c.unowned.is_empty())
        .filter_map(|c| {
            let isvc = snap.isvcs.get(c.isvc)?;
            let pods: Vec<_> = c.unowned.iter().filter_map(|p| snap.pods.get(*p)).collect();
            let nodes: BTreeSet<&str> = pods.iter().filter_map(|p| p.node.as_deref()).collect();
            let mut names: Vec<String> = pods
                .iter()
                .take(NAMED)
                .map(|p| p.name.to_string())
                .collect();
            if pods.len() > NAMED {
                names.push("…".into());
            }
            Some(Unowned {
                workload: isvc.key().to_string(),
                component: c.name(),
                pods: pods.len() as u64,
                gpus: pods.iter().map(|p| u64::from(p.gpus)).sum(),
                nodes: nodes.len() as u64,
                names,
                why: why(&c.observation),
            })
        })
        .collect()
}

/// One sentence per component with unowned GPU pods, in component order.
pub fn unowned_warnings(snap: &ClusterSnapshot, workloads: &Workloads) -> Vec<String> {
    unowned_pods(snap, workloads)
        .iter()
        .map(Unowned::text)
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

/// RawDeployment components whose pods run under StatefulSets, in words: OME runs a service as
/// a LeaderWorkerSet when its runtime names a leader and workers, but Alfred reads the mode
/// from the InferenceService alone, so it counts each of these pods as an Instance of its own
/// where OME runs one group. Nothing is dropped; the count per Instance is what is off.
pub fn split_group_warnings(snap: &ClusterSnapshot, workloads: &Workloads) -> Vec<String> {
    workloads
        .components
        .iter()
        .filter(|c| c.mode == DeploymentMode::RawDeployment)
        .filter_map(|c| {
            let isvc = snap.isvcs.get(c.isvc)?;
            let owners: BTreeSet<&str> = c
                .instances
                .iter()
                .flat_map(|i| i.pods.iter())
                .filter_map(|p| snap.pods.get(*p)?.controller.as_ref())
                .filter(|o| o.kind.as_ref() == "StatefulSet")
                .map(|o| &*o.name)
                .collect();
            let first = owners.iter().next()?;
            let n = c.instances.len() as u64;
            Some(format!(
                "InferenceService {} {}: read as RawDeployment (the service names no leader or \
                 workers), so Alfred counts {} as {}, but {} under StatefulSet {first}{}: a \
                 LeaderWorkerSet, whose leader and workers OME takes from the runtime",
                isvc.key(),
                c.name(),
                plural(n, "pod", ""),
                plural(n, "Instance", ""),
                if n == 1 { "it runs" } else { "they run" },
                if owners.len() > 1 { " and others" } else { "" },
            ))
        })
        .collect()
}
