//! Pod routing and Instance building for OMENative components (`inferencereplica.md` §5.3
//! steps 9–12): which pods belong to which component, the per-pod identity, layout and
//! incarnation checks, and the steady-row membership and count checks.
//!
//! Owns: `route_pods`, `InstanceBuilder`. Pure.

use rustc_hash::FxHashMap as HashMap;

use crate::engine::fast::IsvcKeys;
use crate::engine::fast::{same, ByAddress, LastAnswer, TextIndex};
use crate::engine::index::{component_index, SnapshotIndex};
use crate::engine::model::{ClusterSnapshot, InferenceReplica, Name, Pod, COMPONENTS};
use crate::engine::workloads::irstatus::InstanceRow;
use crate::engine::workloads::member_set::{MemberKey, MemberSet};
use crate::engine::workloads::pod_groups::LabelGroups;
use crate::engine::workloads::{Instance, ObservationError, PodList};

const RUNNER_DEFAULT: u8 = 0;
const RUNNER_LEADER: u8 = 1;
const RUNNER_WORKER: u8 = 2;

/// A small code for a runner name, so membership sets hold no strings.
fn runner_code(runner: &str) -> u8 {
    match runner {
        "default" => RUNNER_DEFAULT,
        "leader" => RUNNER_LEADER,
        "worker" => RUNNER_WORKER,
        _ => 3,
    }
}

/// Routed pod indices of OMENative components by `(isvc index, component index)`, ascending;
/// stored as one list grouped by component (a counting sort of the routing decisions).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RoutedPods {
    /// Start of each `isvc × COMPONENTS` slot in `pods`, plus the end.
    starts: Vec<u32>,
    /// Pod indices, slot after slot.
    pods: Vec<usize>,
}

impl RoutedPods {
    /// Groups `(slot, pod)` decisions (pods ascending) into `slots` slots.
    fn from_decisions(slots: usize, decisions: &[(usize, usize)]) -> Self {
        let mut starts = vec![0u32; slots + 1];
        for (slot, _) in decisions {
            starts[slot + 1] += 1;
        }
        for s in 0..slots {
            starts[s + 1] += starts[s];
        }
        let mut fill = starts.clone();
        let mut pods = vec![0usize; decisions.len()];
        for (slot, pod) in decisions {
            pods[fill[*slot] as usize] = *pod;
            fill[*slot] += 1;
        }
        RoutedPods { starts, pods }
    }

    /// Pods routed to component `c` of ISVC `isvc`.
    pub fn get(&self, isvc: usize, c: usize) -> &[usize] {
        let slot = isvc * COMPONENTS.len() + c;
        match (self.starts.get(slot), self.starts.get(slot + 1)) {
            (Some(a), Some(b)) => &self.pods[*a as usize..*b as usize],
            _ => &[],
        }
    }
}

/// The OMENative component `(isvc, component)` each InferenceReplica's pods route to by
/// owner: its parent (the last ISVC with that key, in the IR's namespace) and component, when
/// that component is OMENative.
pub fn replica_targets(
    snap: &ClusterSnapshot,
    idx: &SnapshotIndex,
    keys: &IsvcKeys<'_>,
) -> Vec<Option<(usize, usize)>> {
    snap.replicas
        .iter()
        .map(|ir| {
            let i = keys.last(keys.id_of(&ir.namespace, ir.parent.as_ref()?)?)?;
            let c = component_index(&ir.component)?;
            idx.is_omenative(i, c).then_some((i, c))
        })
        .collect()
}

/// Step 9 for one live pod: calls `route` with each OMENative component `(isvc, component)`
/// the pod belongs to — by a valid controller owner matching an IR (`replica_of` finds the IR
/// by owner UID; `targets` is `replica_targets`), else by labels (`labelled` finds the last
/// ISVC of the pod's namespace and `ome.io/inferenceservice` label), else
/// (`managed-by=OMENative`) every OMENative component of that ISVC. Candidates are pods with
/// both an ISVC and a component label, or with a controller.
pub fn route_pod<'p>(
    (snap, idx, targets): (&ClusterSnapshot, &SnapshotIndex, &[Option<(usize, usize)>]),
    pod: &'p Pod,
    replica_of: impl FnOnce(&'p Name) -> Option<usize>,
    labelled: impl FnOnce() -> Option<usize>,
    mut route: impl FnMut(usize, usize),
) {
    let is_labelled = pod.ome.isvc.is_some() && pod.ome.component.is_some();
    if !is_labelled && pod.controller.is_none() {
        return;
    }
    let by_owner = pod.controller.as_ref().and_then(|o| {
        let r = replica_of(&o.uid)?;
        let ir = &snap.replicas[r];
        let valid = o.api_version.as_ref() == "ome.io/v1beta1"
            && o.kind.as_ref() == "InferenceReplica"
            && same(&o.name, &ir.name)
            && same(&ir.namespace, &pod.namespace);
        targets[r].filter(|_| valid)
    });
    if let Some((i, c)) = by_owner {
        return route(i, c);
    }
    let Some(i) = labelled() else {
        return;
    };
    let by_label = pod
        .ome
        .component
        .as_deref()
        .and_then(component_index)
        .filter(|c| idx.is_omenative(i, *c));
    if let Some(c) = by_label {
        route(i, c);
    } else if pod.ome.managed_by.as_deref() == Some("OMENative") {
        for c in (0..COMPONENTS.len()).filter(|c| idx.is_omenative(i, *c)) {
            route(i, c);
        }
    }
}

/// Step 9: routes live pods to OMENative components (`route_pod` for each).
pub fn route_pods<'a>(
    snap: &'a ClusterSnapshot,
    idx: &SnapshotIndex,
    keys: &IsvcKeys<'_>,
    groups: &LabelGroups,
) -> RoutedPods {
    // InferenceReplicas by UID (the last replica with a UID wins): a pod's owner UID is the
    // replica's own shared text in a live snapshot, so routing reads no UID.
    let mut ir_by_uid = TextIndex::new(snap.replicas.iter().map(|ir| ir.uid.as_ref()).collect());
    let targets = replica_targets(snap, idx, keys);
    let n = COMPONENTS.len();
    // Sized for one decision per live pod (only unlabelled OMENative pods can take several):
    // no regrowth.
    let mut decisions: Vec<(usize, usize)> = Vec::with_capacity(idx.live.len());
    // A replica's pods sit side by side in a live snapshot: the last owner UID's answer is
    // asked again far more often than the map.
    let mut last = LastAnswer::default();
    let mut replica_of = |uid: &'a Name| last.get(ByAddress(uid), || ir_by_uid.get(uid));
    for (k, p) in idx.live.iter().copied().enumerate() {
        let labelled = || groups.live_keys.get(k).and_then(|key| keys.last(*key));
        route_pod(
            (snap, idx, &targets),
            &snap.pods[p],
            &mut replica_of,
            labelled,
            |i, c| decisions.push((i * n + c, p)),
        );
    }
    RoutedPods::from_decisions(snap.isvcs.len() * n, &decisions)
}

/// Builds the Instances of one bound OMENative component from its rows and routed pods.
pub struct InstanceBuilder<'a> {
    snap: &'a ClusterSnapshot,
    ir: &'a InferenceReplica,
    rows: &'a [InstanceRow],
    d: i64,
    isvc_name: &'a Name,
    /// Index of the component in `COMPONENTS` (`None`: no pod's label can name it).
    component: Option<usize>,
    instances: Vec<Instance>,
    /// Row position by Instance index (last row wins); only built for many rows.
    by_index: Option<HashMap<i64, usize>>,
    members: Vec<MemberSet>,
    component_error: Option<ObservationError>,
}

/// Rows beyond which `InstanceBuilder` indexes rows by Instance index in a map.
const ROW_SCAN_LIMIT: usize = 16;

impl<'a> InstanceBuilder<'a> {
    /// Starts with one empty Instance per row (row order kept).
    pub fn new(
        snap: &'a ClusterSnapshot,
        ir: &'a InferenceReplica,
        rows: &'a [InstanceRow],
        d: i64,
        isvc_name: &'a Name,
        component: &'a str,
    ) -> Self {
        let instances: Vec<Instance> = rows
            .iter()
            .enumerate()
            .map(|(pos, r)| Instance {
                index: r.index,
                // A steady Instance has `d` pods: one allocation, no regrowth.
                pods: PodList::with_capacity(d.clamp(0, 64) as usize),
                joined_pods: 0,
                gpus: 0,
                serving_pods: 0,
                row: Some(pos),
                ready_pods: 0,
                observation: Ok(()),
            })
            .collect();
        let by_index = (rows.len() > ROW_SCAN_LIMIT)
            .then(|| rows.iter().enumerate().map(|(p, r)| (r.index, p)).collect());
        InstanceBuilder {
            snap,
            ir,
            rows,
            d,
            isvc_name,
            component: component_index(component),
            members: (0..instances.len()).map(|_| MemberSet::default()).collect(),
            instances,
            by_index,
            component_error: None,
        }
    }

    /// The position of the row with Instance index `index` (the last one on duplicates).
    fn row_of(&self, index: i64) -> Option<usize> {
        match &self.by_index {
            Some(map) => map.get(&index).copied(),
            None => self.rows.iter().rposition(|r| r.index == index),
        }
    }

    fn identity_valid(&self, pod: &Pod) -> bool {
        let o = &pod.ome;
        pod.ome.managed_by.as_deref() == Some("OMENative")
            // Shared texts compare by address first (`same`); the component label by its
            // index, without comparing bytes.
            && o.isvc.as_ref().is_some_and(|isvc| same(isvc, self.isvc_name))
            && o.component.as_deref().and_then(component_index) == self.component
            && self.component.is_some()
            && o.instance_index.value().is_some()
            && o.incarnation.value().is_some_and(|v| v > 0)
            && matches!(o.runner.as_deref(), Some("default" | "leader" | "worker"))
            && o.pod_ordinal.value().is_some()
            && pod.controller.as_ref().is_some_and(|c| {
                c.kind.as_ref() == "InferenceReplica"
                    && c.api_version.as_ref() == "ome.io/v1beta1"
                    && same(&c.name, &self.ir.name)
                    && same(&c.uid, &self.ir.uid)
                    && same(&pod.namespace, &self.ir.namespace)
            })
    }

    fn fail_instance(&mut self, pos: usize, reason: ObservationError) {
        if self.instances[pos].observation.is_ok() {
            self.instances[pos].observation = Err(reason);
        }
    }

    fn fail_component(&mut self, reason: ObservationError) {
        self.component_error.get_or_insert(reason);
    }

    /// Step 10 for one routed pod.
    pub fn add_pod(&mut self, p: usize) {
        let pod = &self.snap.pods[p];
        let Some(index) = pod.ome.instance_index.value() else {
            self.fail_component(ObservationError::PodIdentity(pod.name.clone()));
            return;
        };
        let Some(pos) = self.row_of(index) else {
            self.fail_component(ObservationError::NoRow {
                pod: pod.name.clone(),
                index,
            });
            return;
        };
        self.instances[pos].joined_pods += 1;
        if !self.identity_valid(pod) {
            self.fail_instance(pos, ObservationError::PodIdentity(pod.name.clone()));
            return;
        }
        let row = &self.rows[pos];
        let steady = row.phase.as_str() == "Ready" && !row.has_operation;
        if steady && pod.terminating {
            self.fail_instance(pos, ObservationError::PodTerminating(pod.name.clone()));
        }
        let runner = pod.ome.runner.as_deref().unwrap_or("");
        let ordinal = pod.ome.pod_ordinal.value().unwrap_or(-1);
        if !self.layout_ok(row, steady, runner, ordinal) {
            self.fail_instance(pos, ObservationError::PodLayout(pod.name.clone()));
            return;
        }
        let incarnation = pod.ome.incarnation.value().unwrap_or(0);
        if incarnation != row.incarnation && (steady || !pod.terminating) {
            self.fail_instance(pos, ObservationError::PodIncarnation(pod.name.clone()));
        }
        if !self.members[pos].insert((incarnation, runner_code(runner), ordinal)) {
            self.fail_instance(pos, ObservationError::DuplicatePod(pod.name.clone()));
        }
        let inst = &mut self.instances[pos];
        inst.pods.push(p);
        inst.gpus = inst.gpus.saturating_add(pod.gpus);
        inst.ready_pods += i64::from(pod.ready);
        inst.serving_pods += u32::from(pod.ready && !pod.terminating);
    }

    fn layout_ok(&self, row: &InstanceRow, steady: bool, runner: &str, ordinal: i64) -> bool {
        if self.d == 1 {
            runner == "default"
                && (0..=1).contains(&ordinal)
                && (!steady || ordinal == row.active_ordinal)
        } else {
            row.active_ordinal == 0
                && match runner {
                    "leader" => ordinal == 0,
                    "worker" => (0..self.d - 1).contains(&ordinal),
                    _ => false,
                }
        }
    }

    /// Steps 11–12 for steady rows, then the component verdict (any Instance failure also
    /// invalidates the component).
    pub fn finish(mut self) -> (Vec<Instance>, Result<(), ObservationError>) {
        for pos in 0..self.instances.len() {
            let row = &self.rows[pos];
            if row.phase.as_str() != "Ready" || row.has_operation {
                continue;
            }
            // The expected set has D distinct members: (inc, default, activeOrdinal) when
            // D = 1, else (inc, leader, 0) and (inc, worker, 0..D−1).
            let d = self.d;
            let expected = |(inc, runner, ordinal): &MemberKey| {
                *inc == row.incarnation
                    && if d == 1 {
                        *runner == RUNNER_DEFAULT && *ordinal == row.active_ordinal
                    } else {
                        (*runner == RUNNER_LEADER && *ordinal == 0)
                            || (*runner == RUNNER_WORKER && (0..d - 1).contains(ordinal))
                    }
            };
            if row.incarnation <= 0 || !self.members[pos].equals(d, expected) {
                self.fail_instance(pos, ObservationError::Membership);
                continue;
            }
            let inst = &self.instances[pos];
            let observed = inst.pods.len() as i64;
            let counts_ok = row.pod_count == self.d
                && observed == self.d
                && inst.ready_pods == self.d
                && row.serving_pod_count == self.d
                && (0..=self.d).contains(&row.available_pod_count);
            if !counts_ok {
                self.fail_instance(pos, ObservationError::Counts);
            }
        }
        let first_instance_error = self
            .instances
            .iter()
            .find_map(|i| i.observation.as_ref().err().cloned());
        let verdict = match self.component_error.or(first_instance_error) {
            Some(e) => Err(e),
            None => Ok(()),
        };
        (self.instances, verdict)
    }
}
