//! InferenceService components and their Instances (`alfred.md` §9, `inferencereplica.md` §4.1):
//! the deployment mode read from the ISVC alone, RawDeployment and MultiNode Instances, and the
//! per-workload state (movable, request annotations, migrations) that eligibility reads.
//!
//! Owns: `Workloads`, `Component`, `Instance`, `DeploymentMode`. OMENative Instances are built by
//! `engine::workloads::omenative`. Pure.

mod checklist;
mod eligibility;
mod irstatus;
mod member_set;
mod migrations;
mod model_check;
mod observation;
mod omenative;
mod omenative_pods;
mod pod_groups;
mod unowned;

pub use checklist::{baseline_checklist, defrag_checklist, first_failure, Check, CheckResult};
pub use eligibility::{
    component_baseline, cooldown_minutes, defrag_prechecks, instance_baseline, is_movable, opt_out,
    EligibilityRules, InstanceVerdict, OptOut,
};
pub use irstatus::{check_rows, decode_rows, CodecError, InstanceRow};
pub use migrations::{cooldown_end, in_cooldown};
pub use model_check::model_check;
pub use omenative::{IsvcComponents, WorkloadMigrations};
pub use unowned::{split_group_warnings, unowned_pods, unowned_warnings, Unowned};

use smallvec::{smallvec, SmallVec};

use crate::engine::fast::workload_ranks;
use crate::engine::fast::IsvcKeys;
use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, COMPONENTS};
use crate::engine::workloads::migrations::workload_migrations;
pub use crate::engine::workloads::observation::ObservationError;
use crate::engine::workloads::omenative::omenative_components;
pub use crate::engine::workloads::omenative::ReplicaIndex;
use crate::engine::workloads::omenative_pods::route_pods;
pub use crate::engine::workloads::omenative_pods::{replica_targets, route_pod};
pub use crate::engine::workloads::pod_groups::pod_label_key;
use crate::engine::workloads::pod_groups::LabelGroups;

pub use crate::engine::model::{component_mode, DeploymentMode};

/// Why an Instance's or component's observation is invalid (the "observation reason").
pub type ObservationResult = Result<(), ObservationError>;

/// The pods of one Instance. One or two pods (single-node, leader + worker) are kept inline:
/// building the Instances of a large fleet then allocates nothing for them, and
/// reading an Instance's pods follows no pointer.
pub type PodList = SmallVec<[usize; 2]>;

/// One Instance of a component.
#[derive(Debug, Clone, PartialEq)]
pub struct Instance {
    /// Instance index (OMENative row index; RawDeployment name-sorted position; MultiNode 0).
    pub index: i64,
    /// Snapshot indices of the pods counted in this Instance.
    pub pods: PodList,
    /// Pods joined to the Instance by index (counted or not).
    pub joined_pods: usize,
    /// Σ GPUs of the counted pods.
    pub gpus: u32,
    /// Counted pods that are Ready and not terminating (eligibility reads this count instead
    /// of loading every pod again).
    pub serving_pods: u32,
    /// Position of the IR row (OMENative only).
    pub row: Option<usize>,
    /// Ready counted pods.
    pub ready_pods: i64,
    /// Instance-level observation result (OMENative only).
    pub observation: ObservationResult,
}

/// One component of an InferenceService with its Instances.
#[derive(Debug, Clone, PartialEq)]
pub struct Component {
    /// Index of the ISVC in `ClusterSnapshot::isvcs`.
    pub isvc: usize,
    /// Index into `COMPONENTS`.
    pub component: usize,
    /// Deployment mode.
    pub mode: DeploymentMode,
    /// Instances, in index order.
    pub instances: Vec<Instance>,
    /// Bound InferenceReplica (OMENative only): index into `ClusterSnapshot::replicas`.
    pub ir: Option<usize>,
    /// Component-level observation (OMENative only; `Ok` for other modes).
    pub observation: ObservationResult,
    /// Desired pods per Instance `D` (OMENative; 0 when the layout is invalid).
    pub desired_pods: i64,
    /// Scheduled GPU pods labelled for this component (`ome.io/inferenceservice`, `component`)
    /// that no Instance holds, ascending: an OMENative component without its InferenceReplica
    /// (OME before v1.3 runs a MultiNode service as a LeaderWorkerSet), or pods its replica's
    /// rows do not join. Alfred counts no demand for them; they are reported, never dropped
    /// silently.
    pub unowned: PodList,
}

impl Component {
    /// The component name (`engine`, `decoder`, `router`).
    pub fn name(&self) -> &'static str {
        COMPONENTS.get(self.component).copied().unwrap_or("engine")
    }
}

/// Every workload's components and per-workload migration state, built once per snapshot.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Workloads {
    /// Components sorted by workload `ns/name`, then component.
    pub components: Vec<Component>,
    /// Per ISVC (same index as `ClusterSnapshot::isvcs`).
    pub migrations: Vec<WorkloadMigrations>,
    /// Per ISVC: the rank of its `ns/name` among all ISVCs' (`row_order::workload_ranks`),
    /// the integer move rows sort by.
    pub workload_ranks: Vec<u32>,
}

/// Builds every component and Instance of the snapshot.
pub fn build_workloads(snap: &ClusterSnapshot) -> Workloads {
    build_workloads_with(snap, &SnapshotIndex::new(snap))
}

/// Builds every component and Instance of the snapshot with its prebuilt index.
pub fn build_workloads_with(snap: &ClusterSnapshot, idx: &SnapshotIndex) -> Workloads {
    let keys = IsvcKeys::new(&snap.isvcs);
    let groups = LabelGroups::new(snap, idx, &keys);
    let order = keys.namespace_name_order();
    let routed = route_pods(snap, idx, &keys, &groups);
    let replicas = ReplicaIndex::new(snap, &keys);
    let mut migrations = vec![WorkloadMigrations::default(); snap.isvcs.len()];
    // About one component per ISVC: sized once instead of regrown.
    let mut components = Vec::with_capacity(snap.isvcs.len() + snap.isvcs.len() / 4);
    for i in order {
        let pods = IsvcPods {
            routed: |c| routed.get(i, c),
            labelled: |c| groups.get(keys.key_of(i), c),
        };
        migrations[i] = isvc_components(snap, idx, &replicas, &pods, i, &mut components);
    }
    Workloads {
        components,
        migrations,
        workload_ranks: workload_ranks(snap, &keys),
    }
}

/// The pods one ISVC's components are built from, by component index, each list ascending:
/// `routed` the pods routed to an OMENative component (`route_pod`), `labelled` the live pods
/// labelled for the component of the ISVC's key (RawDeployment, MultiNode).
pub struct IsvcPods<R, L> {
    /// Pods routed to OMENative component `c`.
    pub routed: R,
    /// Pods labelled for component `c`.
    pub labelled: L,
}

/// Appends the components of ISVC `isvc` (in `COMPONENTS` order, one per component in a mode
/// other than VirtualDeployment) to `out` and returns its migration state.
pub fn isvc_components<'p, R, L>(
    snap: &ClusterSnapshot,
    idx: &SnapshotIndex,
    replicas: &ReplicaIndex,
    pods: &IsvcPods<R, L>,
    isvc: usize,
    out: &mut Vec<Component>,
) -> WorkloadMigrations
where
    R: Fn(usize) -> &'p [usize],
    L: Fn(usize) -> &'p [usize],
{
    let mut omenative = omenative_components(snap, idx, replicas, &pods.routed, isvc);
    let migrations = workload_migrations(snap, isvc, &omenative);
    for (c, built) in omenative.iter_mut().enumerate() {
        let Some(mode) = idx.mode(isvc, c) else {
            continue;
        };
        let component = match mode {
            DeploymentMode::OMENative => built.take().map(|mut comp| {
                comp.unowned = unheld_pods(snap, &comp, (pods.labelled)(c));
                comp
            }),
            DeploymentMode::RawDeployment | DeploymentMode::MultiNode => {
                Some(label_component(snap, (pods.labelled)(c), isvc, c, mode))
            }
            DeploymentMode::VirtualDeployment => None,
        };
        out.extend(component);
    }
    migrations
}

/// A RawDeployment or MultiNode component: Instances from pods matched by labels.
fn label_component(
    snap: &ClusterSnapshot,
    labelled: &[usize],
    isvc: usize,
    c: usize,
    mode: DeploymentMode,
) -> Component {
    let mut pods: Vec<usize> = labelled.to_vec();
    pods.sort_by(|a, b| snap.pods[*a].name.cmp(&snap.pods[*b].name));
    let instance = |index: i64, members: PodList| Instance {
        index,
        gpus: members.iter().map(|p| snap.pods[*p].gpus).sum(),
        ready_pods: members.iter().filter(|p| snap.pods[**p].ready).count() as i64,
        serving_pods: members
            .iter()
            .filter(|p| snap.pods[**p].ready && !snap.pods[**p].terminating)
            .count() as u32,
        joined_pods: members.len(),
        pods: members,
        row: None,
        observation: Ok(()),
    };
    let instances = match mode {
        DeploymentMode::MultiNode if !pods.is_empty() => vec![instance(0, PodList::from_vec(pods))],
        DeploymentMode::MultiNode => Vec::new(),
        _ => pods
            .into_iter()
            .filter(|p| snap.pods[*p].node.is_some())
            .enumerate()
            .map(|(n, p)| instance(n as i64, smallvec![p]))
            .collect(),
    };
    Component {
        isvc,
        component: c,
        mode,
        instances,
        ir: None,
        observation: Ok(()),
        desired_pods: 0,
        unowned: PodList::new(),
    }
}

/// The scheduled GPU pods of `labelled` (ascending) that none of `comp`'s Instances holds.
fn unheld_pods(snap: &ClusterSnapshot, comp: &Component, labelled: &[usize]) -> PodList {
    let candidates: PodList = labelled
        .iter()
        .copied()
        .filter(|p| {
            let pod = &snap.pods[*p];
            pod.gpus > 0 && pod.node.is_some()
        })
        .collect();
    // A component without scheduled GPU pods by label (CPU routers, nothing placed) needs no
    // look at its Instances.
    if candidates.is_empty() {
        return candidates;
    }
    let mut held: Vec<usize> = comp
        .instances
        .iter()
        .flat_map(|i| i.pods.iter().copied())
        .collect();
    held.sort_unstable();
    candidates
        .into_iter()
        .filter(|p| held.binary_search(p).is_err())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::model::testkit::isvc;
    use crate::engine::model::ComponentSpec;

    #[test]
    fn mode_precedence() {
        let mut w = isvc("prod", "chat");
        assert_eq!(component_mode(&w, 0), Some(DeploymentMode::RawDeployment));
        assert_eq!(component_mode(&w, 1), None, "decoder absent");
        w.components[0] = Some(ComponentSpec {
            has_leader: true,
            ..Default::default()
        });
        assert_eq!(component_mode(&w, 0), Some(DeploymentMode::OMENative));
        w.deployment_mode = Some("RawDeployment".into());
        assert_eq!(component_mode(&w, 0), Some(DeploymentMode::RawDeployment));
        w.components[0] = Some(ComponentSpec {
            mode_annotation: Some("MultiNode".into()),
            has_leader: true,
            ..Default::default()
        });
        assert_eq!(component_mode(&w, 0), Some(DeploymentMode::MultiNode));
        // An unknown annotation value is skipped, not an error.
        w.components[0] = Some(ComponentSpec {
            mode_annotation: Some("MultiNodeRayVLLM".into()),
            ..Default::default()
        });
        assert_eq!(component_mode(&w, 0), Some(DeploymentMode::RawDeployment));
        // The router never becomes OMENative by shape.
        w.deployment_mode = None;
        w.components[2] = Some(ComponentSpec {
            has_leader: true,
            ..Default::default()
        });
        assert_eq!(component_mode(&w, 2), Some(DeploymentMode::RawDeployment));
    }

    #[test]
    fn null_engine_makes_everything_raw() {
        let mut w = isvc("prod", "chat");
        w.components = [None, None, None];
        w.deployment_mode = Some("OMENative".into());
        assert_eq!(component_mode(&w, 1), Some(DeploymentMode::RawDeployment));
    }
}
