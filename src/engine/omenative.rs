//! OMENative components and workload migration state (`inferencereplica.md` §5.2–§5.3): binds
//! each OMENative component to its InferenceReplica, routes pods, builds Instances with their
//! observation verdicts, and derives each workload's migration evidence.
//!
//! Owns: `build_omenative`, `WorkloadMigrations`. Pure; must not import anything outside
//! `std`, `chrono` types and `engine`.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::index::SnapshotIndex;
use crate::engine::model::{ClusterSnapshot, InferenceReplica, Name, Time, COMPONENTS};
use crate::engine::omenative_pods::{route_pods, InstanceBuilder};
use crate::engine::pod_groups::{IsvcKeys, LabelGroups};
use crate::engine::workloads::{Component, DeploymentMode};

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

/// OMENative components by `(isvc index, component index)`.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OmeNativeComponents(Vec<Option<Component>>);

impl OmeNativeComponents {
    fn slot(isvc: usize, c: usize) -> usize {
        isvc * COMPONENTS.len() + c
    }

    /// The OMENative component `c` of ISVC `isvc`, if built.
    pub fn get(&self, isvc: usize, c: usize) -> Option<&Component> {
        self.0.get(Self::slot(isvc, c))?.as_ref()
    }

    /// Moves the component out (later calls return `None`).
    pub fn take(&mut self, isvc: usize, c: usize) -> Option<Component> {
        self.0.get_mut(Self::slot(isvc, c))?.take()
    }
}

/// Builds every OMENative component and every workload's migration state.
pub fn build_omenative(
    snap: &ClusterSnapshot,
    idx: &SnapshotIndex,
    keys: &IsvcKeys<'_>,
    groups: &LabelGroups,
) -> (OmeNativeComponents, Vec<WorkloadMigrations>) {
    let routed = route_pods(snap, idx, keys, groups);
    let index = ReplicaIndex::new(snap);
    let mut components = OmeNativeComponents(vec![None; snap.isvcs.len() * COMPONENTS.len()]);
    for i in 0..snap.isvcs.len() {
        for c in 0..COMPONENTS.len() {
            if !idx.is_omenative(i, c) {
                continue;
            }
            let pods = routed.get(i, c);
            components.0[OmeNativeComponents::slot(i, c)] =
                Some(build_component(snap, &index, (i, c), pods));
        }
    }
    let migrations = (0..snap.isvcs.len())
        .map(|i| crate::engine::migration_state::workload_migrations(snap, idx, i, &components))
        .collect();
    (components, migrations)
}

/// InferenceReplicas by `(namespace, spec.parentRef.name, spec.component)`.
pub struct ReplicaIndex<'a>(HashMap<(&'a str, &'a str, &'a str), Vec<usize>>);

impl<'a> ReplicaIndex<'a> {
    /// Indexes every replica of the snapshot that names a parent.
    pub fn new(snap: &'a ClusterSnapshot) -> Self {
        let mut map: HashMap<(&str, &str, &str), Vec<usize>> = HashMap::default();
        for (i, ir) in snap.replicas.iter().enumerate() {
            if let Some(parent) = ir.parent.as_deref() {
                map.entry((ir.namespace.as_ref(), parent, ir.component.as_ref()))
                    .or_default()
                    .push(i);
            }
        }
        ReplicaIndex(map)
    }
}

/// Steps 1–5 of §5.3: the bound, fresh InferenceReplica of component `c` of ISVC `isvc`.
pub fn bind_replica(
    snap: &ClusterSnapshot,
    index: &ReplicaIndex<'_>,
    isvc: usize,
    c: usize,
) -> Result<usize, String> {
    if !snap.replicas_listed {
        return Err("inference replica list unavailable".into());
    }
    let w = &snap.isvcs[isvc];
    let key = (w.namespace.as_ref(), w.name.as_ref(), COMPONENTS[c]);
    let candidates = index.0.get(&key).map_or(&[][..], Vec::as_slice);
    let (index, ir) = match candidates {
        [] => {
            return Err(format!(
                "inference replica {}-{} is missing",
                w.name, COMPONENTS[c]
            ))
        }
        [one] => (*one, &snap.replicas[*one]),
        [first, ..] => {
            return Err(format!(
                "inference replica {} is duplicated",
                snap.replicas[*first].name
            ))
        }
    };
    let owner_ok = matches!(ir.controllers.as_slice(), [o]
        if o.api_version.as_ref() == "ome.io/v1beta1"
            && o.kind.as_ref() == "InferenceService"
            && o.name == w.name
            && o.uid == w.uid);
    if !owner_ok {
        return Err(format!("inference replica {} owner is invalid", ir.name));
    }
    if ir.status.observed_generation != ir.generation {
        return Err(format!("inference replica {} status is stale", ir.name));
    }
    Ok(index)
}

/// Step 6: desired pods per Instance `D` from the runner layout, or an error.
pub fn desired_pods(ir: &InferenceReplica) -> Result<i64, String> {
    let runner = |name: &str| ir.runners.iter().find(|(n, _)| n.as_ref() == name);
    match ir.runners.len() {
        1 if runner("default").is_some_and(|(_, s)| *s == 1) => Ok(1),
        2 => match (runner("leader"), runner("worker")) {
            (Some((_, 1)), Some((_, n))) if *n >= 1 && *n < i64::from(i32::MAX) => Ok(n + 1),
            _ => Err("runner layout is invalid".into()),
        },
        _ => Err("runner layout is invalid".into()),
    }
}

fn empty_component(isvc: usize, c: usize, ir: Option<usize>, err: String) -> Component {
    Component {
        isvc,
        component: c,
        mode: DeploymentMode::OMENative,
        instances: Vec::new(),
        ir,
        observation: Err(err),
        desired_pods: 0,
    }
}

fn build_component(
    snap: &ClusterSnapshot,
    index: &ReplicaIndex<'_>,
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
            return empty_component(isvc, c, Some(ir_index), format!("status is invalid: {e}"))
        }
    };
    let w = &snap.isvcs[isvc];
    let mut builder = InstanceBuilder::new(snap, ir, rows, d, &w.name, COMPONENTS[c]);
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
    }
}

/// A name helper for error texts.
pub fn pod_name(snap: &ClusterSnapshot, pod: usize) -> Name {
    snap.pods
        .get(pod)
        .map_or_else(|| Name::from("?"), |p| p.name.clone())
}
