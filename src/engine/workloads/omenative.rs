//! OMENative components and workload migration state (`inferencereplica.md` §5.2–§5.3): binds
//! each OMENative component to its InferenceReplica, routes pods, builds Instances with their
//! observation verdicts, and derives each workload's migration evidence.
//!
//! Owns: `omenative_components`, `ReplicaIndex`, `WorkloadMigrations`. Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::fast::same;
use crate::engine::fast::IsvcKeys;
use crate::engine::index::{component_index, SnapshotIndex};
use crate::engine::model::{ClusterSnapshot, InferenceReplica, Time, COMPONENTS};
use crate::engine::workloads::omenative_pods::InstanceBuilder;
use crate::engine::workloads::{Component, DeploymentMode, ObservationError, PodList};

/// Per-workload migration evidence (`inferencereplica.md` §5.2).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct WorkloadMigrations {
    /// `MigrationStateValid`; `false` carries the first reason in `invalid_reason`.
    pub state_valid: bool,
    /// Why the migration state is invalid.
    pub invalid_reason: Option<String>,
    /// A malformed request annotation remains (not superseded by an IR row).
    pub malformed_request: bool,
    /// `ActiveMigrations`: well-formed annotations without an IR row + valid non-terminal rows.
    pub active: u32,
    /// Request times of the active migrations (annotation `requested_at`, row `startedAt`).
    pub active_requested_at: Vec<Time>,
    /// `LastMigration`: latest `completedAt` (else `startedAt`) of terminal rows.
    pub last_migration: Option<Time>,
    /// UUIDs of request annotations on the ISVC.
    pub request_uuids: Vec<String>,
}

/// The OMENative components of one ISVC, by component index (`None` for other modes).
pub type IsvcComponents = [Option<Component>; 3];

/// Builds the OMENative components of ISVC `isvc` from its routed pods (`routed(c)`: the
/// pods routed to component `c`, ascending).
pub fn omenative_components<'r>(
    snap: &ClusterSnapshot,
    idx: &SnapshotIndex,
    replicas: &ReplicaIndex,
    routed: impl Fn(usize) -> &'r [usize],
    isvc: usize,
) -> IsvcComponents {
    std::array::from_fn(|c| {
        idx.is_omenative(isvc, c)
            .then(|| build_component(snap, replicas, (isvc, c), routed(c)))
    })
}

/// InferenceReplicas by `(namespace, spec.parentRef.name, spec.component)`, for the keys an
/// OMENative component can ask for: an ISVC's `ns/name` and one of `COMPONENTS`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ReplicaIndex {
    /// `(first replica, number of replicas)` per `(ISVC key id, component index)` slot.
    by_slot: HashMap<usize, (usize, usize)>,
    /// Key id of each ISVC.
    isvc_key: Vec<Option<u32>>,
}

impl ReplicaIndex {
    /// Indexes every replica of the snapshot that names a parent.
    pub fn new(snap: &ClusterSnapshot, keys: &IsvcKeys<'_>) -> Self {
        let mut by_slot: HashMap<usize, (usize, usize)> = HashMap::default();
        for (i, ir) in snap.replicas.iter().enumerate() {
            let Some(parent) = ir.parent.as_ref() else {
                continue;
            };
            let (Some(key), Some(c)) = (
                keys.id_of(&ir.namespace, parent),
                component_index(&ir.component),
            ) else {
                continue; // No ISVC component can bind it.
            };
            let slot = key as usize * COMPONENTS.len() + c;
            by_slot.entry(slot).or_insert((i, 0)).1 += 1;
        }
        let isvc_key = (0..snap.isvcs.len()).map(|i| keys.key_of(i)).collect();
        ReplicaIndex { by_slot, isvc_key }
    }

    /// `(first replica, count)` of the replicas named for component `c` of ISVC `isvc`.
    fn get(&self, isvc: usize, c: usize) -> (usize, usize) {
        let key = self.isvc_key.get(isvc).copied().flatten();
        key.and_then(|k| self.by_slot.get(&(k as usize * COMPONENTS.len() + c)))
            .copied()
            .unwrap_or((0, 0))
    }
}

/// Steps 1–5 of §5.3: the bound, fresh InferenceReplica of component `c` of ISVC `isvc`.
pub fn bind_replica(
    snap: &ClusterSnapshot,
    index: &ReplicaIndex,
    isvc: usize,
    c: usize,
) -> Result<usize, ObservationError> {
    if !snap.replicas_listed {
        return Err(ObservationError::ReplicasUnlisted);
    }
    let w = &snap.isvcs[isvc];
    let (index, ir) = match index.get(isvc, c) {
        (_, 0) => {
            return Err(ObservationError::ReplicaMissing {
                workload: w.name().clone(),
                component: COMPONENTS[c],
            })
        }
        (one, 1) => (one, &snap.replicas[one]),
        (first, _) => {
            return Err(ObservationError::ReplicaDuplicated(
                snap.replicas[first].name.clone(),
            ))
        }
    };
    let owner_ok = matches!(ir.controllers.as_slice(), [o]
        if o.api_version.as_ref() == "ome.io/v1beta1"
            && o.kind.as_ref() == "InferenceService"
            && same(&o.name, w.name())
            && same(&o.uid, &w.uid));
    if !owner_ok {
        return Err(ObservationError::OwnerInvalid(ir.name.clone()));
    }
    if ir.status.observed_generation != ir.generation {
        return Err(ObservationError::StatusStale(ir.name.clone()));
    }
    Ok(index)
}

/// Step 6: desired pods per Instance `D` from the runner layout, or an error.
pub fn desired_pods(ir: &InferenceReplica) -> Result<i64, ObservationError> {
    let runner = |name: &str| ir.runners.iter().find(|(n, _)| n.as_ref() == name);
    match ir.runners.len() {
        1 if runner("default").is_some_and(|(_, s)| *s == 1) => Ok(1),
        2 => match (runner("leader"), runner("worker")) {
            (Some((_, 1)), Some((_, n))) if *n >= 1 && *n < i64::from(i32::MAX) => Ok(n + 1),
            _ => Err(ObservationError::RunnerLayout),
        },
        _ => Err(ObservationError::RunnerLayout),
    }
}

fn empty_component(isvc: usize, c: usize, ir: Option<usize>, err: ObservationError) -> Component {
    Component {
        isvc,
        component: c,
        mode: DeploymentMode::OMENative,
        instances: Vec::new(),
        ir,
        observation: Err(err),
        desired_pods: 0,
        unowned: PodList::new(),
    }
}

fn build_component(
    snap: &ClusterSnapshot,
    index: &ReplicaIndex,
    (isvc, c): (usize, usize),
    pods: &[usize],
) -> Component {
    let ir_index = match bind_replica(snap, index, isvc, c) {
        Ok(i) => i,
        Err(e) => return empty_component(isvc, c, None, e),
    };
    let ir = &snap.replicas[ir_index];
    let d = match desired_pods(ir) {
        Ok(d) => d,
        Err(e) => return empty_component(isvc, c, Some(ir_index), e),
    };
    let rows = match &ir.status.rows {
        Ok(rows) => rows,
        Err(e) => {
            let err = ObservationError::StatusInvalid(*e);
            return empty_component(isvc, c, Some(ir_index), err);
        }
    };
    let w = &snap.isvcs[isvc];
    let mut builder = InstanceBuilder::new(snap, ir, rows, d, w.name(), COMPONENTS[c]);
    for p in pods {
        builder.add_pod(*p);
    }
    let (instances, observation) = builder.finish();
    Component {
        isvc,
        component: c,
        mode: DeploymentMode::OMENative,
        instances,
        ir: Some(ir_index),
        observation,
        desired_pods: d,
        unowned: PodList::new(),
    }
}
